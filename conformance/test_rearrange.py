"""torch.func.rearrange: patterns, sizes, refusals and gradients."""

import warnings

import numpy as np
import pytest
import torch
from torch.func import rearrange


def grid(*shape):
    return torch.tensor(np.arange(float(np.prod(shape))).reshape(shape))


def test_in_torch_func():
    assert "rearrange" in torch.func.__all__
    assert rearrange.__module__ == torch.func.__name__


@pytest.mark.parametrize("pattern,lengths,shape,expected", [
    ("a b c -> c b a", {}, (2, 3, 4), lambda x: x.permute(2, 1, 0)),
    ("a b c -> (a b) c", {}, (2, 3, 4), lambda x: x.reshape(6, 4)),
    ("a b c -> a (c b)", {}, (2, 3, 4), lambda x: x.permute(0, 2, 1).reshape(2, 12)),
    ("a (b1 b) c -> b1 b a c", {"b1": 3}, (2, 3, 4),
     lambda x: x.reshape(2, 3, 1, 4).permute(1, 2, 0, 3)),
    ("a (b c) -> (c a) b", {"c": 2}, (2, 6),
     lambda x: x.reshape(2, 3, 2).permute(2, 0, 1).reshape(4, 3)),
    ("a b c -> a 1 b c 1", {}, (2, 3, 4), lambda x: x.reshape(2, 1, 3, 4, 1)),
    ("a ... -> ... a", {}, (2, 3, 4), lambda x: x.permute(1, 2, 0)),
    ("... c -> (...) c", {}, (2, 3, 4), lambda x: x.reshape(6, 4)),
    ("a b ... -> (b a) ...", {}, (2, 3, 4, 5), lambda x: x.permute(1, 0, 2, 3).reshape(6, 4, 5)),
    ("a ... -> a ...", {}, (2,), lambda x: x),
    ("a 1 c -> a c", {}, (2, 1, 4), lambda x: x.reshape(2, 4)),
    ("a 1 c -> c a", {}, (2, 3, 4), lambda x: x.sum(1).t()),
    ("(a) b () d -> (d a) 1 b", {}, (2, 3, 4, 5),
     lambda x: x.sum(2).permute(2, 0, 1).reshape(10, 1, 3)),
    ("a b -> (a b)", {"a": 2, "b": 3}, (2, 3), lambda x: x.reshape(6)),
    ("(a) -> a", {}, (5,), lambda x: x),
])
def test_values(pattern, lengths, shape, expected):
    x = grid(*shape)
    assert torch.equal(rearrange(x, pattern, **lengths), expected(x))


def test_a_list_or_tuple_is_stacked():
    a, b = grid(3, 4), grid(3, 4) + 100
    assert torch.equal(rearrange([a, b], "n h w -> h (n w)"), torch.cat([a, b], 1))
    stacked = torch.stack([a, b]).permute(2, 0, 1)
    assert torch.equal(rearrange((a, b), "n h w -> w n h"), stacked)
    with pytest.raises(RuntimeError, match="^stack expects a non-empty TensorList$"):
        rearrange([], "a -> a")


def test_zero_dimensional_identity_is_the_tensor():
    x = torch.tensor(3.0, requires_grad=True)
    assert rearrange(x, "->") is x
    assert rearrange(x, " -> ") is x


def test_gradient_flows_back():
    x = grid(2, 3, 4).requires_grad_()
    y = rearrange(x, "a b (c1 c) -> (c a) b c1", c1=2)
    weights = torch.tensor(np.arange(float(y.numel())).reshape(y.shape))
    (y * weights).sum().backward()
    assert torch.equal(x.grad, rearrange(weights, "(c a) b c1 -> a b (c1 c)", c1=2, a=2))
    s = grid(2, 3, 4).requires_grad_()
    rearrange(s, "a 1 c -> c a").sum().backward()
    assert torch.equal(s.grad, torch.ones(2, 3, 4, dtype=torch.float64))


REFUSALS = [
    ("a b c", {}, ValueError, "Pattern must contain a single '->' separator"),
    ("a -> b -> c", {}, ValueError, "Pattern must contain a single '->' separator"),
    ("a b c -> a b c", {"\u2026": 2}, ValueError, "'\u2026' is not an allowed axis identifier"),
    ("a b. c -> a b c", {}, ValueError, "Expression may contain dots only inside ellipsis (...)"),
    ("a .... -> a", {}, ValueError,
     "Expression may contain dots only inside ellipsis (...); only one ellipsis for tensor "),
    ("a a c -> a c", {}, ValueError, "Indexing expression contains duplicate dimension 'a'"),
    ("a ((b)) c -> a b c", {}, ValueError,
     "Axis composition is one-level (brackets inside brackets not allowed)"),
    ("a b) c -> a b c", {}, ValueError, "Brackets are not balanced"),
    ("a (b c -> a b c", {}, ValueError, "Imbalanced parentheses in expression: 'a (b c '"),
    ("a b$ c -> a b c", {}, ValueError, "Unknown character '$'"),
    ("a _b c -> a _b c", {}, ValueError,
     "Invalid axis identifier: _b\naxis name should should not start or end with underscore"),
    ("a b 1c -> a b c", {}, ValueError,
     "Invalid axis identifier: 1c\nnot a valid python identifier"),
    ("a b c -> c b a 0", {}, ValueError, "Anonymous axis should have positive length, not 0"),
    ("a b c -> a ... c", {}, ValueError,
     "Ellipsis found in right side, but not left side of a pattern a b c -> a ... c"),
    ("a (...) -> a ...", {}, ValueError,
     "Ellipsis is parenthesis in the left side is not allowed: a (...) -> a ..."),
    ("a b c -> a b c", {"a": True}, TypeError,
     "rearrange axis lengths must be integers, got: <class 'bool'>"),
    ("a b c -> a 2 b c", {}, ValueError, "rearrange only supports unnamed axes of size 1"),
    ("a b c -> a b", {}, ValueError,
     "Identifiers only on one side of rearrange expression (should be on both): {'c'}"),
    ("a b c -> a b c", {"d": 2}, ValueError,
     "Identifiers not found in rearrange expression: {'d'}"),
    ("a b c d e ... -> a b c d e ...", {}, ValueError, "Number of dimensions in pattern (5) must"
     " be less than or equal to the number of dimensions in the tensor (3)"),
    ("a b c d -> a b c d", {}, ValueError, "Number of dimensions in pattern (4) must be equal to"
     " the number of dimensions in the tensor (3)"),
]


@pytest.mark.parametrize("pattern,lengths,kind,text", REFUSALS)
def test_refusals(pattern, lengths, kind, text):
    with pytest.raises(kind) as info:
        rearrange(grid(2, 3, 4), pattern, **lengths)
    assert str(info.value) == text


@pytest.mark.parametrize("pattern,lengths,shape,text", [
    ("a (b c) -> a b c", {}, (2, 12), "cannot infer the sizes of two dimensions at once d1 and d2"),
    ("a (b c) -> a b c", {"b": 5}, (2, 12),
     "inferred dimension does not evenly fit into larger dimension: 12 vs (5, '?')"),
    ("a b c -> a b c", {"a": 5}, (2, 3, 4),
     "Dimension sizes to do not match (2 != 5) when matching dimension pack (d0,)"),
    ("a (b c) -> a b c", {"b": 4, "c": 4}, (2, 12),
     "Dimension sizes to do not match (12 != 16) when matching dimension pack (d1, d2)"),
    ("x ... (a b) -> x ... a b", {"a": 5}, (2, 3, 4),
     "inferred dimension does not evenly fit into larger dimension: 4 vs (5, '?')"),
])
def test_size_refusals(pattern, lengths, shape, text):
    with pytest.raises(Exception) as info:
        rearrange(grid(*shape), pattern, **lengths)
    assert type(info.value).__name__ == "DimensionBindError" and str(info.value) == text


def test_one_group_on_a_vector_is_refused():
    text = "^at least 2 indices were supplied but the tensor only has 1 dimensions$"
    with pytest.raises(ValueError, match=text):
        rearrange(grid(4), "(a b) -> a b", a=2)


def test_zero_length_divides_by_zero():
    with pytest.raises(ZeroDivisionError, match="^integer modulo by zero$"):
        rearrange(grid(2, 12), "a (b c) -> a b c", b=0)


def test_discouraged_names_warn_once_per_side():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert rearrange(grid(2, 3), "class axis -> axis class").shape == (3, 2)
    kinds = [(w.category, str(w.message)) for w in seen]
    keyword = (RuntimeWarning, "It is discouraged to use axes names that are keywords: class")
    axis = (FutureWarning, "It is discouraged to use 'axis' as an axis name and will raise an "
            "error in future")
    assert kinds == [keyword, axis, axis, keyword]


def chain(t):
    names, node = [], t.grad_fn
    while node is not None:
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


LEAF = "torch::autograd::AccumulateGrad"


@pytest.mark.parametrize("pattern,shape,nodes,strides", [
    ("a -> a", (4,), ["ViewBackward0"], (1,)),
    ("a b c -> a b c", (2, 3, 4), ["ViewBackward0", "AsStridedBackward0"], (12, 4, 1)),
    ("a b c -> c b a", (2, 3, 4),
     ["ReshapeAliasBackward0", "AsStridedBackward0", "AsStridedBackward0"], (1, 4, 12)),
    ("a b c -> a (c b)", (2, 3, 4),
     ["UnsafeViewBackward0", "CloneBackward0", "AsStridedBackward0", "AsStridedBackward0"],
     (12, 1)),
    ("... -> (...)", (2, 3, 4), ["ViewBackward0"], (1,)),
    ("... c -> c ...", (2, 3, 4),
     ["ReshapeAliasBackward0", "AsStridedBackward0", "AsStridedBackward0"], (1, 12, 4)),
    ("a 1 c -> c a", (2, 3, 4), ["SumBackward1", "ReshapeAliasBackward0", "AsStridedBackward0",
                                 "AsStridedBackward0"], (2, 1)),
])
def test_graph_and_strides(pattern, shape, nodes, strides):
    x = grid(*shape).requires_grad_()
    y = rearrange(x, pattern)
    assert chain(y) == nodes + [LEAF]
    assert y.stride() == strides


def test_nothing_to_do_gives_the_tensor_back():
    x = grid(2, 3).requires_grad_()
    assert rearrange(x, "... -> ...") is x
    v = rearrange(x, "a b -> b a")
    assert v._base is x
