"""Black-box tests: which item assignments fill and which copy, by shapes alone; the history,
gradients, versions and saved-tensor hooks each leaves. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

FILL = "FillBackward3"
COPY, SLICES = "torch::autograd::CopyBackwards", "torch::autograd::CopySlices"


def _names(node, depth):
    if node is None or depth == 0:
        return None if node is None else node.name()
    return (node.name(), [_names(f, depth - 1) for f, _ in node.next_functions])


@pytest.mark.parametrize("shape, index, node", [
    ((3,), Ellipsis, FILL), ((3,), slice(None), FILL), ((3,), (), FILL),
    ((3,), slice(0, 3), FILL), ((3,), (Ellipsis,), FILL), ((2, 3), (slice(None),) * 2, FILL),
    ((3,), slice(1, None), SLICES), ((3,), None, SLICES), ((3,), True, SLICES),
    ((), (), COPY), ((), Ellipsis, COPY), ((), None, SLICES), ((), True, SLICES),
])
def test_a_0d_value_fills_unless_the_shapes_agree(shape, index, node):
    x = torch.arange(1.0, 4.0, requires_grad=True)
    t = torch.zeros(shape)
    t[index] = x.mean()
    assert t.grad_fn.name() == node and t._version == 1
    assert _names(t.grad_fn, 2) == (node, [None, ("MeanBackward0", [
        "torch::autograd::AccumulateGrad"])])
    (t * 2).sum().backward()
    written = torch.zeros(shape)[index].numel()  # each written element gives mean's 1/3
    assert torch.allclose(x.grad, torch.full((3,), 2.0 * written / 3))


@pytest.mark.parametrize("value_of", [
    lambda x: x.mean().reshape(1), lambda x: x.mean().reshape(1, 1)])
def test_a_one_element_value_of_another_shape_is_viewed_expanded_and_copied(value_of):
    x = torch.arange(1.0, 4.0, requires_grad=True)
    t = torch.zeros(3)
    t[...] = value_of(x)
    assert _names(t.grad_fn, 2) == (COPY, [None, ("ExpandBackward0", ["ViewBackward0"])])
    t.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_the_view_is_made_even_when_it_drops_nothing():
    x = torch.arange(1.0, 4.0, requires_grad=True)
    t = torch.zeros(2, 3)
    t[...] = x * 2
    assert _names(t.grad_fn, 3) == (COPY, [None, ("ExpandBackward0", [
        ("ViewBackward0", ["MulBackward0"])])])
    t.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]


def test_a_number_fills_a_tensor_that_requires_grad_and_copies_into_a_0d_one():
    y = torch.arange(1.0, 4.0, requires_grad=True) * 1
    y[...] = 2.5
    assert y.grad_fn.name() == FILL and y.grad_fn.next_functions[1] == (None, 0)
    s = torch.ones((), requires_grad=True) * 1
    s[...] = 2.5
    assert s.grad_fn.name() == COPY


def test_a_fill_of_another_dtype_casts_and_hands_back_the_value_s_dtype():
    x = torch.arange(1.0, 4.0, dtype=torch.float64, requires_grad=True)
    t = torch.zeros(3)
    t[:] = x.mean()
    assert t.grad_fn.name() == FILL and t.dtype == torch.float32
    t.sum().backward()
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [1.0, 1.0, 1.0]


def test_a_fill_wraps_as_a_copy_does_and_may_read_its_own_target():
    t = torch.zeros(3, dtype=torch.uint8)
    t[...] = torch.tensor(300.0)
    assert t.tolist() == [44, 44, 44]
    u = torch.arange(3.0)
    u[...] = u[2]
    assert u.tolist() == [2.0, 2.0, 2.0]


def test_pack_hooks_see_only_what_the_later_product_saves():
    calls = []
    x = torch.arange(1.0, 4.0, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(
            lambda t: calls.append(("pack", tuple(t.shape))) or t,
            lambda t: calls.append(("unpack", tuple(t.shape))) or t):
        t = torch.zeros(3)
        t[True] = x.mean()
        out = (t * torch.ones(3)).sum()
    out.backward()
    assert calls == [("pack", (3,)), ("unpack", (3,))]


def test_a_single_false_writes_nothing_yet_checks_the_value():
    x = torch.ones(3, requires_grad=True)
    t = torch.zeros(3)
    t[False] = x.sum()
    t[False] = torch.ones(5)
    assert t._version == 0 and t.grad_fn is None
    with raises(TypeError, "can't assign a str to a torch.FloatTensor"):
        t[False] = "a"


def test_a_single_true_is_a_new_dimension_and_expand_names_the_sizes():
    t = torch.zeros(())
    t[True] = torch.ones(1, 1, 1)
    assert t.item() == 1.0 and t._version == 1
    with raises(RuntimeError, "The expanded size of the tensor (3) must match the existing size "
                "(2) at non-singleton dimension 1.  Target sizes: [1, 3].  Tensor sizes: [2]"):
        torch.zeros(3)[True] = torch.ones(2)


def test_a_fill_into_a_leaf_is_refused_as_torch_words_it():
    leaf = torch.zeros(3, requires_grad=True)
    with raises(RuntimeError,
                "a leaf Variable that requires grad is being used in an in-place operation."):
        leaf[...] = torch.ones(3, requires_grad=True).sum()
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in an "
                "in-place operation."):
        leaf[1:] = 1.0
    assert leaf._version == 0
