"""Black-box tests of the elementwise, reduction, matrix and indexing operations.

Written against torch's API; they pass on real torch and on refgrad. Expected
node names were recorded from torch 2.13.
"""

import math
import re
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def _leaf(array):
    return torch.tensor(np.asarray(array, dtype=np.float64), requires_grad=True)


def _chain(t):
    names, node = [], t.grad_fn
    while node is not None and type(node).__name__ != "AccumulateGrad":
        names.append(type(node).__name__)
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


def test_mlp_layer_gradient_matches_the_formula():
    rng = np.random.default_rng(0)
    xs, ws = rng.standard_normal((5, 3)), rng.standard_normal((3, 4))
    x, w = _leaf(xs), _leaf(ws)
    (x @ w).relu().mean().backward()
    upstream = (xs @ ws > 0) / 20.0
    np.testing.assert_allclose(w.grad.numpy(), xs.T @ upstream, rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), upstream @ ws.T, rtol=1e-12)


@pytest.mark.parametrize(("left", "right", "chain"), [
    ((3,), (3,), ["DotBackward0"]),
    ((2, 3), (3,), ["MvBackward0"]),
    ((3,), (3, 4), ["SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0"]),
    ((2, 3), (3, 4), ["MmBackward0"]),
    ((2, 2, 3), (3, 4), ["UnsafeViewBackward0", "MmBackward0", "ViewBackward0"]),
    ((2, 2, 3), (2, 3, 4), ["UnsafeViewBackward0", "BmmBackward0", "ViewBackward0",
                            "ExpandBackward0"]),
])
def test_matmul_records_torchs_path(left, right, chain):
    out = _leaf(np.ones(left)) @ _leaf(np.ones(right))
    assert _chain(out) == chain


def _tree(out) -> list:
    """(depth, name) of every node below ``out`` but the leaves', depth first, in order."""
    found, stack = [], [(out.grad_fn, 0)]
    while stack:
        node, depth = stack.pop()
        if node is None or type(node).__name__ == "AccumulateGrad":
            continue
        found.append((depth, node.name()))
        stack.extend((child, depth + 1) for child, _ in reversed(node.next_functions))
    return found


def _ones(*shape, grad=True):
    return torch.ones(*shape, dtype=torch.float64, requires_grad=grad)


@pytest.mark.parametrize(("left", "right", "tree"), [
    # a batch of one matrix that requires grad is squeezed out, and the other side folded
    (lambda: _ones(5, 4, 3), lambda: _ones(1, 3, 2), [
        (0, "UnsafeViewBackward0"), (1, "MmBackward0"), (2, "ViewBackward0"),
        (2, "SqueezeBackward1")]),
    (lambda: _ones(1, 4, 3), lambda: _ones(5, 3, 2, grad=False), [
        (0, "CloneBackward0"), (1, "TransposeBackward0"), (2, "UnsafeViewBackward0"),
        (3, "MmBackward0"), (4, "TBackward0"), (5, "SqueezeBackward1")]),
    # ... but not when it needs no gradient, nor when both batches hold one matrix
    (lambda: _ones(5, 4, 3), lambda: _ones(1, 3, 2, grad=False), [
        (0, "UnsafeViewBackward0"), (1, "BmmBackward0"), (2, "ViewBackward0"),
        (3, "ExpandBackward0")]),
    (lambda: _ones(1, 4, 3), lambda: _ones(1, 3, 2), [
        (0, "UnsafeViewBackward0"), (1, "BmmBackward0"), (2, "ViewBackward0"),
        (3, "ExpandBackward0"), (2, "ViewBackward0"), (3, "ExpandBackward0")]),
])
def test_matmul_squeezes_a_batch_of_one_that_requires_grad(left, right, tree):
    a, b = left(), right()
    out = torch.matmul(a, b)
    assert _tree(out) == tree
    out.sum().backward()
    assert b.grad is None or b.grad.tolist() == [[[4.0 * a.shape[0]] * 2] * 3]


def test_max_along_a_dimension_is_a_named_pair_with_plain_indices():
    x = _leaf([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]])
    values, indices = result = x.max(1)
    assert result.values is values and result.indices is indices
    assert indices.tolist() == [1, 0]
    assert indices.grad_fn is None and not indices.requires_grad
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]


def test_max_over_everything_shares_ties():
    x = _leaf([3.0, 1.0, 3.0])
    x.max().backward()
    assert x.grad.tolist() == [0.5, 0.0, 0.5]


def test_prod_gradient_with_one_zero_is_the_product_of_the_rest():
    x = _leaf([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0]])
    x.prod(1).sum().backward()
    assert x.grad.tolist() == [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]]


def test_softmax_rows_sum_to_one_and_log_softmax_gradients_sum_to_zero():
    x = _leaf(np.random.default_rng(1).standard_normal((3, 4)))
    np.testing.assert_allclose(x.softmax(1).sum(1).detach().numpy(), np.ones(3))
    x.log_softmax(1)[:, 0].sum().backward()
    np.testing.assert_allclose(x.grad.sum(1).numpy(), np.zeros(3), atol=1e-12)


def test_indexing_adds_the_gradient_of_repeated_picks():
    x = _leaf([1.0, 2.0, 3.0])
    x[torch.tensor([0, 0, 2])].sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 1.0]


def test_basic_indexing_gives_views_of_the_base():
    x = _leaf(np.arange(12.0).reshape(3, 4))
    assert _chain(x[0, 1:]) == ["SliceBackward0", "SelectBackward0"]
    assert _chain(x[None, ..., 1]) == ["SelectBackward0", "UnsqueezeBackward0"]
    assert _chain(x[0:3, :]) == ["AliasBackward0"]
    assert x[1]._base is x and x[:, ::2]._base is x
    plain = torch.zeros(2, 3)
    plain[1].numpy()[2] = 5.0
    assert plain.tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 5.0]]


def test_reshape_copies_only_when_no_view_fits():
    x = _leaf(np.ones((2, 3)))
    assert _chain(x.reshape(3, 2)) == ["ViewBackward0"]
    assert _chain(x.t().reshape(6)) == ["UnsafeViewBackward0", "CloneBackward0", "TBackward0"]
    assert x.t().reshape(6)._base is None


def test_cat_splits_its_gradient_and_iteration_unbinds():
    a, b = _leaf([1.0, 2.0]), _leaf([[3.0], [4.0]])
    out = torch.cat([a.unsqueeze(1), b], 1)
    (out * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert a.grad.tolist() == [1.0, 3.0] and b.grad.tolist() == [[2.0], [4.0]]
    rows = list(_leaf(np.ones((3, 2))))
    assert len(rows) == 3 and type(rows[0].grad_fn).__name__ == "UnbindBackward0"


def test_clamp_keeps_its_bounds_and_passes_gradient_inside_them():
    x = _leaf([-1.0, 0.5, 2.0])
    y = x.clamp(min=0.0)
    assert y.grad_fn._saved_min == 0.0 and y.grad_fn._saved_max is None
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0]


def test_maximum_splits_ties_in_half():
    a, b = _leaf([1.0, 2.0]), _leaf([1.0, 3.0])
    torch.maximum(a, b).sum().backward()
    assert a.grad.tolist() == [0.5, 0.0] and b.grad.tolist() == [0.5, 1.0]


def test_mean_of_integers_is_refused():
    with pytest.raises(RuntimeError, match="could not infer output dtype"):
        torch.tensor([1, 2]).mean()


def test_equal_and_allclose_answer_with_python_bools():
    assert torch.equal(torch.ones(2), torch.ones(2)) is True
    assert torch.equal(torch.ones(2), torch.ones(3)) is False
    assert torch.equal(torch.ones(2), torch.ones(2, dtype=torch.float64))
    assert torch.allclose(torch.ones(2), torch.ones(2) + 1e-9)
    assert torch.allclose(torch.ones(2), torch.ones(1))
    nan = torch.tensor([float("nan")])
    assert torch.allclose(nan, nan, equal_nan=True) and not torch.allclose(nan, nan)
    with pytest.raises(RuntimeError, match="^Float did not match Double$"):
        torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))


NAN = float("nan")
# x, min and max, elementwise: inside, at each bound, outside, crossed bounds, and nans
CLAMP_X = [-2.0, -1.0, 0.0, 1.0, 2.0, 0.5, NAN, 0.0, 0.0, 1.0]
CLAMP_MIN = [-1.0, -1.0, 0.0, 1.0, -1.0, 1.0, 0.0, NAN, 0.0, 1.0]
CLAMP_MAX = [1.0, 1.0, 0.0, 1.0, 1.0, -1.0, 1.0, 1.0, NAN, 1.0]


def _saved_names(node):
    return sorted(n for n in dir(node) if n.startswith("_saved_"))


def _grads(*leaves):
    return [None if t.grad is None else t.grad.tolist() for t in leaves]


def test_clamp_with_tensor_bounds_records_clamp_backward0():
    x, lo, hi = _leaf(CLAMP_X), _leaf(CLAMP_MIN), _leaf(CLAMP_MAX)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t,
                                                  lambda t: t):
        y = torch.clamp(x, lo, hi)
    node = y.grad_fn
    assert type(node).__name__ == "ClampBackward0"
    assert [n is packed[i] for i, n in enumerate((hi, lo, x))] == [True] * 3
    assert _saved_names(node) == ["_saved_max", "_saved_min", "_saved_self"]
    np.testing.assert_array_equal(
        y.detach().numpy(), [-1.0, -1.0, 0.0, 1.0, 1.0, -1.0, NAN, NAN, NAN, 1.0])
    y.backward(torch.arange(1.0, 11.0, dtype=torch.float64))
    # ties go to the input; crossed bounds (index 5) send everything to max; nans stop it
    assert _grads(x, lo, hi) == [
        [0.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 5.0, 6.0, 0.0, 0.0, 0.0, 0.0],
    ]


@pytest.mark.parametrize(("name", "bound", "node", "grads"), [
    ("clamp_min", CLAMP_MIN, "ClampMinBackward1", [
        [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]]),
    ("clamp_max", CLAMP_MAX, "ClampMaxBackward1", [
        [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]]),
])
def test_one_sided_clamp_with_a_tensor_bound(name, bound, node, grads):
    x, b = _leaf(CLAMP_X), _leaf(bound)
    for y in (getattr(torch, name)(x, b), getattr(x, name)(b)):
        assert type(y.grad_fn).__name__ == node
        assert _saved_names(y.grad_fn) == sorted([f"_saved_{name[6:]}", "_saved_self"])
        x.grad = b.grad = None
        y.sum().backward()
        assert _grads(x, b) == grads


def test_clamp_with_one_tensor_bound_gives_the_one_sided_gradients():
    x, lo, hi = _leaf(CLAMP_X), _leaf(CLAMP_MIN), _leaf(CLAMP_MAX)
    torch.clamp(x, min=lo).sum().backward()
    torch.clamp(x, max=hi).sum().backward()
    assert _grads(lo, hi) == [[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
                              [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]]
    assert x.grad.tolist()[:6] == [1.0, 2.0, 2.0, 2.0, 1.0, 0.0]


@pytest.mark.parametrize(("name", "bound", "node", "saved", "grad"), [
    ("clamp_min", -1.0, "ClampMinBackward0", -1.0, [0.0, 1.0, 1.0, 1.0, 1.0]),
    ("clamp_min", 0, "ClampMinBackward0", 0, [0.0, 0.0, 1.0, 1.0, 1.0]),
    ("clamp_max", 1.0, "ClampMaxBackward0", 1.0, [1.0, 1.0, 1.0, 1.0, 0.0]),
])
def test_one_sided_clamp_with_a_number_keeps_it(name, bound, node, saved, grad):
    x = _leaf(CLAMP_X[:5])
    y = getattr(torch, name)(x, bound)
    assert type(y.grad_fn).__name__ == node
    kept = getattr(y.grad_fn, "_saved_" + name[6:])
    assert kept == saved and type(kept) is type(saved)
    assert type(y.grad_fn._saved_self) is torch.Tensor
    assert [n for n, _ in y.grad_fn.next_functions][0] is not None
    y.sum().backward()
    assert x.grad.tolist() == grad


def test_clamp_bounds_broadcast_and_promote():
    x, lo = _leaf([[0.0], [2.0]]), _leaf([1.0, 3.0, 0.0])
    y = torch.clamp_min(x, lo)
    assert y.shape == (2, 3) and y.tolist() == [[1.0, 3.0, 0.0], [2.0, 3.0, 2.0]]
    y.sum().backward()
    assert x.grad.tolist() == [[1.0], [2.0]] and lo.grad.tolist() == [1.0, 2.0, 0.0]
    ints = torch.tensor([1, 5, 9])
    assert torch.clamp(ints, torch.tensor([2.0, 3.0, 4.0], dtype=torch.float64)).dtype \
        == torch.float64
    assert torch.clamp_min(ints, torch.tensor([2, 3, 4])).dtype == torch.int64
    assert torch.clamp_min(ints, 2.5).dtype == torch.float32
    assert torch.clamp_max(ints, 2).tolist() == [1, 2, 2]


def test_clamp_refuses_a_number_and_a_tensor_together():
    x = torch.ones(2)
    message = (
        "clamp() received an invalid combination of arguments - got (Tensor, Tensor, float), "
        "but expected one of:\n"
        " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
        " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n"
    )
    with pytest.raises(TypeError) as info:
        torch.clamp(x, torch.zeros(2), 1.0)
    assert str(info.value) == message
    with pytest.raises(TypeError, match=r"^clamp_min\(\) received an invalid combination"):
        torch.clamp_min(x, None)


def test_clamp_in_place_with_tensor_bounds():
    x = _leaf([-1.0, 0.5, 2.0])
    lo = _leaf([0.0, 0.0, 0.0])
    for method, node in (("clamp_", "ClampBackward0"), ("clip_", "ClampBackward0"),
                         ("clamp_min_", "ClampMinBackward1"), ("clamp_max_", "ClampMaxBackward0")):
        y = x * 1
        args = (lo, lo + 1) if method in ("clamp_", "clip_") else (
            (lo,) if method == "clamp_min_" else (1.0,))
        assert getattr(y, method)(*args) is y and y._version == 1
        assert type(y.grad_fn).__name__ == node


@pytest.mark.parametrize(("dim", "shape"), [
    ((0, 2), (2, 3)), ([0, 2], (2, 3)), ((0, 1), (2, 1, 3)), ((), (1, 2, 1, 3)),
    ((2,), (1, 2, 3)), ((-2, 0), (2, 3)),
])
def test_squeeze_with_several_dims_is_squeeze_backward2(dim, shape):
    x = _leaf(np.ones((1, 2, 1, 3)))
    for y in (x.squeeze(dim), torch.squeeze(x, dim), torch.squeeze(x, dim=dim)):
        assert y.shape == shape and y._base is x
        node = y.grad_fn
        assert type(node).__name__ == "SqueezeBackward2"
        assert node._saved_self_sym_sizes == (1, 2, 1, 3)
        assert _saved_names(node) == ["_saved_dim", "_saved_self_sym_sizes"]
        if all(d >= 0 for d in dim):
            assert node._saved_dim == tuple(dim)
    y.backward(torch.ones(shape, dtype=torch.float64))
    assert x.grad.shape == (1, 2, 1, 3)
    assert type(x.squeeze(2).grad_fn).__name__ == "SqueezeBackward1"
    assert type(x.squeeze().grad_fn).__name__ == "SqueezeBackward0"


def test_squeeze_dims_are_checked():
    x = torch.ones(1, 2, 1, 3)
    with pytest.raises(RuntimeError, match="^dim 0 appears multiple times in the list of dims$"):
        x.squeeze((0, -4))
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                       r"of \[-4, 3\], but got 5\)$"):
        x.squeeze((0, 5))
    with pytest.raises(RuntimeError, match="^dim 1 appears multiple times in the list of dims$"):
        x.sum((1, 1))
    scalar = torch.ones((), requires_grad=True)
    assert type(scalar.squeeze((0,)).grad_fn).__name__ == "SqueezeBackward2"
    assert scalar.squeeze((-1,)).shape == ()


def test_spread_and_norm_nodes_show_what_the_spelling_chose():
    x = _leaf(np.arange(12.0).reshape(3, 4))
    shown = [
        (x.var().grad_fn._saved_correction, x.var().grad_fn._saved_dim),
        (x.var(1).grad_fn._saved_correction, x.var(1).grad_fn._saved_dim),
        (x.var(unbiased=False).grad_fn._saved_correction, None),
        (x.var(1, correction=None).grad_fn._saved_correction, None),
        (x.std(0, keepdim=True).grad_fn._saved_keepdim,
         x.std(correction=0.5).grad_fn._saved_correction),
    ]
    assert shown == [(None, None), (1, (1,)), (0, None), (None, None), (True, 0.5)]
    orders = [x.norm().grad_fn._saved_ord, x.norm("fro", dim=1).grad_fn._saved_ord,
              x.norm(2.0).grad_fn._saved_ord, torch.linalg.vector_norm(x, 3).grad_fn._saved_ord]
    assert orders == [2, 2, 2.0, 3] and [type(o) for o in orders] == [int, int, float, int]
    assert x.amax().grad_fn._saved_dim == () and x.amin(1).grad_fn._saved_dim == (1,)


def test_var_without_degrees_of_freedom_warns_and_is_nan():
    x = _leaf([2.0])
    with pytest.warns(UserWarning, match=r"^var\(\): degrees of freedom is <= 0"):
        v = x.var()
    v.backward()
    assert np.isnan(v.item()) and np.isnan(x.grad.item())


def test_amax_and_the_inf_norm_share_the_gradient_among_ties():
    x = _leaf([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]])
    x.amax(1).sum().backward()
    assert x.grad.tolist() == [[0.0, 0.5, 0.5, 0.0], [0.25, 0.25, 0.25, 0.25]]
    y = _leaf([-3.0, 1.0, 3.0])
    y.norm(float("inf")).backward()
    assert y.grad.tolist() == [-0.5, 0.0, 0.5]


def test_norms_at_zero_and_of_order_zero():
    z = _leaf([0.0, 0.0, 0.0])
    z.norm().backward()
    assert z.grad.tolist() == [0.0, 0.0, 0.0]
    x = _leaf([1.0, -2.0, 0.0])
    n = x.norm(0)
    n.backward()
    assert n.item() == 2.0 and x.grad is None


def test_split_and_chunk_are_views_from_one_node():
    x = _leaf(np.arange(20.0).reshape(5, 4))
    pieces = x.split(2)
    assert [tuple(p.shape) for p in pieces] == [(2, 4), (2, 4), (1, 4)]
    assert all(p.grad_fn is pieces[0].grad_fn for p in pieces)
    assert [p.output_nr for p in pieces] == [0, 1, 2]
    assert type(pieces[0].grad_fn).__name__ == "SplitBackward0"
    pieces[1].sum().backward()
    assert x.grad.sum(1).tolist() == [0.0, 0.0, 4.0, 4.0, 0.0]
    assert type(x.split([1, 4])[0].grad_fn).__name__ == "SplitWithSizesBackward0"
    assert [tuple(p.shape) for p in torch.chunk(x, 3, -1)] == [(5, 2), (5, 2)]
    empty = torch.ones(0, 2, requires_grad=True).chunk(3)
    assert len(empty) == 3 and type(empty[0].grad_fn).__name__ == "SplitWithSizesBackward0"


def test_gather_adds_where_an_element_is_picked_twice():
    x = _leaf(np.arange(12.0).reshape(3, 4))
    out = x.gather(1, torch.tensor([[0, 0], [1, 3], [2, 2]]))
    assert out.tolist() == [[0.0, 0.0], [5.0, 7.0], [10.0, 10.0]]
    out.sum().backward()
    assert x.grad.tolist() == [[2.0, 0, 0, 0], [0, 1.0, 0, 1.0], [0, 0, 2.0, 0]]
    assert out.grad_fn._saved_sparse_grad is False


def test_masked_fill_with_a_tensor_value_gives_it_the_masked_gradient():
    x, v = _leaf(np.ones((2, 3))), torch.tensor(5.0, requires_grad=True)
    out = x.masked_fill(torch.tensor([True, False, True]), v)
    assert type(out.grad_fn).__name__ == "MaskedFillBackward1"
    out.sum().backward()
    assert v.grad.item() == 4.0 and x.grad.tolist() == [[0.0, 1.0, 0.0]] * 2
    assert type(x.masked_fill(x > 2, 0.0).grad_fn).__name__ == "MaskedFillBackward0"


def test_repeat_cumsum_and_outer():
    x = _leaf([1.0, 2.0, 3.0])
    r = x.repeat(2, 2)
    assert tuple(r.shape) == (2, 6) and r.grad_fn._saved_repeats == (2, 2)
    r.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]
    x.grad = None
    x.cumsum(0).sum().backward()
    assert x.grad.tolist() == [3.0, 2.0, 1.0]
    o = torch.outer(x, _leaf([1.0, 2.0]))
    assert _chain(o) == ["MulBackward0", "ViewBackward0"]
    assert o.tolist() == [[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]


def test_relu_double_backward_records_threshold_backward_with_torchs_edges():
    x = torch.tensor([1.0, -2.0, 0.0, float("nan")], requires_grad=True)
    y = x.relu()
    g = torch.tensor([1.0, -3.0, float("nan"), 2.0], requires_grad=True)
    (gx,) = torch.autograd.grad(y, x, g, create_graph=True)
    node = gx.grad_fn
    assert type(node).__name__ == "ThresholdBackwardBackward0"
    assert [type(n).__name__ for n, _ in node.next_functions] == ["AccumulateGrad",
                                                                  "ReluBackward0"]
    assert node._saved_threshold == 0 and node.next_functions[1][0] is y.grad_fn
    np.testing.assert_array_equal(gx.detach().numpy(), [1.0, 0.0, 0.0, 2.0])
    gg, gself = torch.autograd.grad(gx, (g, x), torch.tensor([5.0, 6.0, 7.0, 8.0]))
    np.testing.assert_array_equal(gg.numpy(), [5.0, 0.0, 0.0, 8.0])
    np.testing.assert_array_equal(gself.numpy(), [0.0, 0.0, 0.0, 0.0])


def test_relu_second_derivative_is_zeros_when_the_incoming_gradient_is_plain():
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x.relu()
    (gx,) = torch.autograd.grad(y, x, torch.ones(3), create_graph=True)
    assert gx.grad_fn.next_functions[0] == (None, 0)  # nothing saved for the plain gradient
    (second,) = torch.autograd.grad(gx.sum(), x)
    np.testing.assert_array_equal(second.numpy(), [0.0, 0.0, 0.0])


def test_integers_and_negative_integer_powers():
    message = "Integers to negative integer powers are not allowed."
    for base in (torch.tensor([1, 2]), torch.tensor([1], dtype=torch.uint8)):
        with pytest.raises(RuntimeError, match=r"\A" + message + r"\Z"):
            base ** -1
    bases = torch.tensor([0, 1, -1, 2, -2, 3] * 2, dtype=torch.int8)
    exponents = torch.tensor([-1] * 6 + [-2] * 6, dtype=torch.int8)
    assert (bases ** exponents).tolist() == [0, 1, -1, 0, 0, 0, 0, 1, 1, 0, 0, 0]
    assert torch.pow(-1, torch.tensor([-1, -2, -3])).tolist() == [-1, 1, -1]
    assert (torch.tensor([1, 2]) ** torch.tensor(-1)).tolist() == [1, 0]
    assert (torch.tensor([1, 2]) ** -2.0).tolist() == [1.0, 0.25]


@pytest.mark.parametrize("number", [0.1, 1 / 3, 3.7, 1e-3, 123.456, 7, 70000, 1e-7])
def test_float16_times_or_over_a_number_rounds_once_from_float32(number):
    values = np.random.default_rng(0).standard_normal(4000).astype(np.float16)
    h = torch.tensor(values)
    wide, n = values.astype(np.float32), np.float32(number)
    with np.errstate(over="ignore"):
        for got, want in (((h * number).numpy(), wide * n), ((number * h).numpy(), wide * n),
                          ((h / number).numpy(), wide / n),
                          (h.clone().mul_(number).numpy(), wide * n)):
            assert got.dtype == np.float16
            np.testing.assert_array_equal(got, want.astype(np.float16))
        # add and sub round the number to float16 first, as NumPy's weak scalars do
        np.testing.assert_array_equal((h + number).numpy(), values + np.float16(number))


def test_float16_functions_of_several_steps_round_once_from_float32():
    values = (np.random.default_rng(1).standard_normal(2048) * 3).astype(np.float16)
    wide = values.astype(np.float32)
    with np.errstate(over="ignore"):
        sigmoid = (1 / (1 + np.exp(-wide))).astype(np.float16)
        rows = wide.reshape(32, 64)
        e = np.exp(rows - rows.max(1, keepdims=True))
        softmax = (e / e.sum(1, keepdims=True)).astype(np.float16)
    h = torch.tensor(values)
    np.testing.assert_array_equal(h.sigmoid().numpy(), sigmoid)
    np.testing.assert_array_equal(h.reshape(32, 64).softmax(1).numpy(), softmax)


def test_a_single_index_must_be_an_integer():
    x = torch.tensor([1.0, 2.0, 3.0])
    assert x[np.int64(1)].item() == 2.0 and x[-1].item() == 3.0
    for index, shown in ((2.5, "float"), (1.0, "float"), (np.float64(1.5), "numpy.float64"),
                         (np.bool_(True), "numpy.bool"), ((None, 1.5), "float")):
        message = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                   f"Variables are valid indices (got {shown})")
        with pytest.raises(IndexError, match=r"\A" + re.escape(message) + r"\Z"):
            x[index]
    with pytest.raises(IndexError):
        x[1.0] = 5.0
    assert x.tolist() == [1.0, 2.0, 3.0]


def test_ties_keep_the_input_so_signed_zeros_survive():
    def signs(t):
        return [math.copysign(1.0, v) for v in t.tolist()]

    z = torch.tensor([-0.0, 0.0])
    assert signs(z.relu()) == [-1.0, 1.0]
    assert signs(z.clamp(min=0.0)) == [-1.0, 1.0] and signs(z.clamp(max=-0.0)) == [-1.0, 1.0]
    assert signs(z.clamp(-0.0, 0.0)) == [-1.0, 1.0]
    assert signs(torch.clamp_min(z, 0.0)) == [-1.0, 1.0]
    assert signs(torch.clamp_max(z, torch.tensor(-0.0))) == [-1.0, 1.0]
    assert signs(torch.maximum(z, torch.tensor([0.0, -0.0]))) == [-1.0, 1.0]
    assert signs(torch.minimum(z, torch.tensor([0.0, -0.0]))) == [-1.0, 1.0]
    assert signs(z.clone().relu_()) == [-1.0, 1.0]
    big = torch.full((40,), -0.0)  # past any vector width
    assert set(signs(big.relu())) == {-1.0}
    nan = torch.tensor([float("nan"), 1.0])
    assert math.isnan(nan.clamp(min=0.0)[0]) and math.isnan(torch.tensor([1.0]).clamp(
        min=float("nan"))[0])


def test_a_list_of_floats_indexes_by_positions_cut_toward_zero():
    x = torch.tensor([1.0, 2.0, 3.0])
    assert x[[1.5]].tolist() == [2.0] and x[[1.5, 0.2]].tolist() == [2.0, 1.0]
    assert x[[1, 2.5]].tolist() == [2.0, 3.0] and x[[-1.5]].tolist() == [3.0]
    assert x[[True, False, True]].tolist() == [1.0, 3.0]


def test_softmax_dim_must_be_an_int():
    x = torch.tensor([1.0, 2.0])
    for dim, name in ((2.5, "float"), (None, "NoneType"), (True, "bool")):
        with raises(TypeError, f"softmax(): argument 'dim' (position 2) must be int, not {name}"):
            torch.softmax(x, dim)
    with raises(TypeError, "log_softmax(): argument 'dim' (position 2) must be int, not float"):
        torch.log_softmax(x, 0.0)


def test_in_place_clamp_with_number_bounds_names_c_types():
    for dtype, name in ((torch.uint8, "unsigned char"), (torch.int64, "long int"),
                        (torch.int8, "signed char"), (torch.int16, "short int"),
                        (torch.int32, "int"), (torch.bool, "bool")):
        t = torch.tensor([1, 0], dtype=dtype)
        for method, args, kwargs in (("clamp_", (0.5,), {}), ("clamp_min_", (0.5,), {}),
                                     ("clip_", (), {"max": 0.5})):
            with raises(RuntimeError, "result type Float can't be cast to the desired output "
                                      f"type {name}"):
                getattr(t, method)(*args, **kwargs)
        assert t.tolist() == [1, 0]
    u = torch.tensor([1, 2], dtype=torch.uint8)
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Byte"):
        u.clamp_(torch.tensor(0.5))


def test_a_power_with_a_constant_tensor_exponent():
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    (a ** torch.tensor([2.0, 3.0])).sum().backward()
    assert a.grad.tolist() == [4.0, 27.0]
    e = torch.tensor([2.0, 3.0], requires_grad=True)
    (torch.tensor([2.0, 3.0]) ** e).sum().backward()
    assert e.grad.tolist() == pytest.approx([4.0 * math.log(2.0), 27.0 * math.log(3.0)])


def test_index_put_records_its_public_node_and_index_the_internal_one():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = torch.tensor(5.0, requires_grad=True)
    put = torch.index_put(x, (torch.tensor([1]),), v)
    assert type(put.grad_fn).__name__ == "IndexPutBackward0"
    assert type(x.index_put((torch.tensor([0]),), v, True).grad_fn).__name__ == (
        "IndexPutBackward0")
    g = torch.ones(2, requires_grad=True)
    (gx,) = torch.autograd.grad(x[torch.tensor([0, 0])], x, g, create_graph=True)
    assert type(gx.grad_fn).__name__ == "IndexPutImplBackward0" and gx.tolist() == [2.0, 0, 0]
    gx_of_g = torch.autograd.grad(put.sum(), (x, v), create_graph=True)
    assert [t.tolist() for t in gx_of_g] == [[1.0, 0.0, 1.0], 1.0]


def test_narrow_checks_and_counts_a_negative_start_from_the_end():
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    last_two = x.narrow(-1, -2, 2)
    assert last_two.tolist() == [[2.0, 3.0], [6.0, 7.0], [10.0, 11.0]]
    node = last_two.grad_fn
    assert (node._saved_start, node._saved_end) == (2, 4)
    assert x.narrow(0, -1, 1).tolist() == [[8.0, 9.0, 10.0, 11.0]]
    assert x.narrow(1, torch.tensor(1), 2).tolist() == [[1.0, 2.0], [5.0, 6.0], [9.0, 10.0]]
    assert torch.narrow(x, torch.tensor(1), 1, torch.tensor(2)).tolist() == [
        [1.0, 2.0], [5.0, 6.0], [9.0, 10.0]]
    with pytest.raises(TypeError, match=r"narrow\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, int, int, float\)"):
        torch.narrow(x, 0, 1, 2.0)
    with raises(IndexError, "start out of range (expected to be in range of [-4, 4], but got -5)"):
        x.narrow(1, -5, 1)
    with raises(RuntimeError, "start (2) + length (3) exceeds dimension size (4)."):
        x.narrow(1, 2, 3)
    with raises(RuntimeError, "narrow(): length must be non-negative."):
        x.narrow(5, 0, -1)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            "got 2)"):
        x.narrow(2, 0, 1)
    with raises(RuntimeError, "narrow() cannot be applied to a 0-dim tensor."):
        torch.tensor(1.0).narrow(0, 0, 1)
    with raises(RuntimeError, "start must be an 0-dim integral Tensor."):
        x.narrow(1, torch.tensor([1]), 2)
    assert x.narrow(1, 4, 0).shape == (3, 0)


def test_stack_unbind_and_diagonal_keep_negative_dims_as_given():
    x = torch.ones(2, 3, 4, requires_grad=True)
    # torch shows a negative dim as an unsigned 64-bit number; either way, not wrapped
    as_given = {-1, 2**64 - 1}
    assert torch.stack([x, x], -1).grad_fn._saved_dim in as_given
    assert x.unbind(-1)[0].grad_fn._saved_dim in as_given
    node = x.diagonal(0, -1, -2).grad_fn
    assert node._saved_dim1 in as_given and node._saved_dim2 in {-2, 2**64 - 2}


def test_the_sign_of_a_bool_is_the_bool():
    b = torch.tensor([True, False])
    assert torch.sign(b).tolist() == [True, False] and b.sign().dtype == torch.bool
    assert b.sign_() is b and b.tolist() == [True, False]


BYTE_MASK = "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool"


def test_a_uint8_index_is_a_mask_with_a_warning():
    x = torch.arange(12.0).reshape(3, 4)
    u = torch.tensor([1, 0, 2], dtype=torch.uint8)
    with pytest.warns(UserWarning, match=BYTE_MASK) as seen:
        picked = x[u]
    assert seen[0].filename == __file__
    assert picked.tolist() == [[0.0, 1.0, 2.0, 3.0], [8.0, 9.0, 10.0, 11.0]]
    with pytest.warns(UserWarning, match=BYTE_MASK):
        put = torch.index_put(x, (u,), torch.ones(4))
    assert put[:, 0].tolist() == [1.0, 4.0, 1.0]
    with pytest.warns(UserWarning, match=BYTE_MASK):
        y = x.clone()
        y[u] = torch.zeros(4)
    assert y[:, 0].tolist() == [0.0, 4.0, 0.0]
    with raises(RuntimeError, "masked_fill_ only supports boolean masks, but got mask with "
                              "dtype unsigned char"):
        x.clone()[u] = 0.0
    leaf = x.clone().requires_grad_()
    with pytest.warns(UserWarning, match=BYTE_MASK):
        leaf[u].sum().backward()
    assert leaf.grad[:, 0].tolist() == [1.0, 0.0, 1.0]


def test_index_tensors_of_other_dtypes_and_masks_of_other_shapes_are_refused():
    x = torch.zeros(3, 4)
    with raises(IndexError, "tensors used as indices must be long, int, byte or bool tensors"):
        x[torch.tensor([1, 0], dtype=torch.int8)]
    assert x[torch.tensor([2, 0], dtype=torch.int32)].shape == (2, 4)
    with raises(IndexError, "The shape of the mask [2] at index 0 does not match the shape of "
                            "the indexed tensor [3, 4] at index 1"):
        x[:, torch.tensor([True, False])]
    with raises(IndexError, "The shape of the mask [3, 3] at index 1 does not match the shape "
                            "of the indexed tensor [3, 4] at index 1"):
        x[torch.ones(3, 3, dtype=torch.bool)]


@pytest.mark.parametrize("dim", [(), []])
def test_sum_over_no_dims_sums_everything(dim):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    total = x.sum(dim)
    assert total.shape == () and total.item() == 10.0
    assert type(total.grad_fn).__name__ == "SumBackward1" and total.grad_fn._saved_dim == ()
    assert x.sum(dim, keepdim=True).tolist() == [[10.0]]
    total.backward()
    assert x.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert torch.tensor([[True, False]]).sum(dim).tolist() == 1


@pytest.mark.parametrize("name", ["sum", "mean"])
@pytest.mark.parametrize("dim", [0, -1, (0,), ()])
@pytest.mark.parametrize("keepdim", [False, True])
def test_a_zero_dimensional_tensor_reduces_to_itself(name, dim, keepdim):
    x = torch.tensor(2.0, requires_grad=True)
    y = getattr(x, name)(dim, keepdim)
    assert y.shape == () and y.item() == 2.0
    y.backward()
    assert x.grad.item() == 1.0


SEQUENCE_AS_TUPLE = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
    "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[torch.tensor(seq)]")


def test_a_list_holding_indices_is_read_as_a_tuple_of_them_with_a_warning():
    x = torch.arange(12.0).view(3, 4)
    u = torch.tensor([0, 2])
    with pytest.warns(UserWarning, match=re.escape(SEQUENCE_AS_TUPLE)):
        assert x[[u]].tolist() == x[u].tolist()
    with pytest.warns(UserWarning, match=re.escape(SEQUENCE_AS_TUPLE)):
        assert x[[[0, 2], [1, 3]]].tolist() == [1.0, 11.0]
    with pytest.warns(UserWarning, match=re.escape(SEQUENCE_AS_TUPLE)):
        assert x[[None, 0]].tolist() == [[0.0, 1.0, 2.0, 3.0]]
    with pytest.warns(UserWarning, match=re.escape(SEQUENCE_AS_TUPLE)):
        y = x.clone()
        y[[u, slice(1, 3)]] = 0.0
    assert y[0].tolist() == [0.0, 0.0, 0.0, 3.0] and y[1].tolist() == [4.0, 5.0, 6.0, 7.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x[[0, 2]].tolist() == x[u].tolist()  # plain numbers: an index, no warning


WRAPPED = 2**64 - 1  # -1 as torch's nodes show an integer they keep


@pytest.mark.parametrize("make, attribute, shown", [
    (lambda x: x.sum(-1), "_saved_dim", (WRAPPED,)),
    (lambda x: x.transpose(-1, 0), "_saved_dim0", WRAPPED),
    (lambda x: x[:, -3:-1], "_saved_start", 2**64 - 3),
    (lambda x: x[:, -1], "_saved_index", WRAPPED),
    (lambda x: x.roll(-1, 0), "_saved_shifts", (WRAPPED,)),
    (lambda x: x.tril(-1), "_saved_diagonal", WRAPPED),
    (lambda x: x.rot90(-1, (0, -1)), "_saved_dims", (0, WRAPPED)),
    (lambda x: x.permute(-1, 0), "_saved_dims", (WRAPPED, 0)),
    (lambda x: x.add(x, alpha=-2), "_saved_alpha", -2),  # Scalars keep their sign
    (lambda x: x.pow(-2), "_saved_exponent", -2),
    (lambda x: x.clamp(-1, 1), "_saved_min", -1),
])
def test_a_node_shows_the_integers_it_keeps_unsigned_and_its_scalars_signed(
        make, attribute, shown):
    node = make(torch.ones(4, 5, requires_grad=True)).grad_fn
    assert getattr(node, attribute) == shown
