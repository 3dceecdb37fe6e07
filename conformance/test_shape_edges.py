"""Shape functions at the edges: promotion when stacking, empty lists, impossible shapes."""

import numpy as np
import pytest
import torch

from conformance._support import raises


def test_stack_promotes_as_torch_does():
    ints, floats = torch.zeros(2, 3, dtype=torch.int64), torch.ones(2, 3)
    assert torch.stack([ints, floats]).dtype == torch.float32
    mixed = torch.stack([torch.tensor([True]), torch.tensor([2], dtype=torch.uint8)])
    assert mixed.dtype == torch.uint8 and mixed.tolist() == [[1], [2]]


def test_stack_gives_each_input_a_gradient_of_its_own_dtype():
    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2, dtype=torch.float64, requires_grad=True)
    z = torch.stack([x, y])
    assert z.dtype == torch.float64
    (z * torch.arange(4.0).reshape(2, 2)).sum().backward()
    assert x.grad.dtype == torch.float32 and x.grad.tolist() == [0.0, 1.0]
    assert y.grad.tolist() == [2.0, 3.0]


def test_stack_of_nothing_is_refused():
    with raises(RuntimeError, "stack expects a non-empty TensorList"):
        torch.stack([])


@pytest.mark.parametrize("sizes, message", [
    ((-1, -1), "only one dimension can be inferred"),
    ((2, -1, -1), "only one dimension can be inferred"),
    ((-2, 3), "invalid shape dimension -2 at index 0 of shape [-2, 3]"),
    ((-1, -2), "invalid shape dimension -2 at index 1 of shape [-1, -2]"),
    ((-2, -3), "invalid shape dimension -2 at index 0 of shape [-2, -3]"),
    ((0, -1), "shape '[0, -1]' is invalid for input of size 6"),
])
@pytest.mark.parametrize("how", ["view", "reshape"])
def test_sizes_that_cannot_be_read(sizes, message, how):
    with raises(RuntimeError, message):
        getattr(torch.arange(6.0), how)(*sizes)


@pytest.mark.parametrize("sizes", [(0, -1), (-1, 0), (0, -1, 5)])
def test_a_size_left_to_infer_from_nothing_is_ambiguous(sizes):
    with raises(RuntimeError, f"cannot reshape tensor of 0 elements into shape {list(sizes)} "
                              "because the unspecified dimension size -1 can be any value and "
                              "is ambiguous"):
        torch.zeros(2, 0, 3).view(*sizes)
    assert torch.zeros(2, 0, 3).reshape(3, -1).shape == (3, 0)


@pytest.mark.parametrize("call, message", [
    (lambda x: x.select(0, 2), "select(): index 2 out of range for tensor of size [2, 3, 4] "
                               "at dimension 0"),
    (lambda x: torch.select(x, -1, -5), "select(): index -5 out of range for tensor of size "
                                        "[2, 3, 4] at dimension 2"),
    (lambda x: x[2], "index 2 is out of bounds for dimension 0 with size 2"),
    (lambda x: x[0, 3], "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda x: x[0, 0, 9], "index 9 is out of bounds for dimension 2 with size 4"),
    (lambda x: x[..., 9], "index 9 is out of bounds for dimension 1 with size 4"),
    (lambda x: x[None, 0, None, 3], "index 3 is out of bounds for dimension 3 with size 3"),
])
def test_an_index_out_of_range(call, message):
    with raises(IndexError, message):
        call(torch.zeros(2, 3, 4))


@pytest.mark.parametrize("call, got", [
    (lambda s: s.flatten(1), 1),
    (lambda s: torch.flatten(s, 0, 5), 5),
    (lambda s: s.flatten(-2), -2),
    (lambda s: s.movedim(0, 1), 1),
    (lambda s: s.movedim((0, 1), (1, 0)), 1),
    (lambda s: s.moveaxis(-1, 2), 2),
    (lambda s: s.unbind(1), 1),
])
def test_a_0d_tensor_has_dims_0_and_minus_1_only(call, got):
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                            f"got {got})"):
        call(torch.tensor(5.0))


def test_what_a_0d_tensor_still_allows():
    s = torch.tensor(5.0)
    assert s.flatten(-1, 0).shape == (1,)
    assert s.movedim(0, -1).shape == ()
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        s.unbind(-1)
    with raises(RuntimeError, "unflatten: sizes must be non-empty"):
        s.unflatten(0, ())
    with pytest.raises(RuntimeError, match=r"\Aunflatten got an unexpected error:\n"
                                           r"Dimension specified as 0 but tensor has no "
                                           r"dimensions"):
        s.unflatten(0, (1,))


@pytest.mark.parametrize("x, shifts, dims, kind, message", [
    (torch.ones(2), (), 0, RuntimeError, "`shifts` required"),
    (torch.ones(2), 1, (0, 1), RuntimeError, "shifts and dimensions must align. shifts: 1, "
                                             "dims:2"),
    (torch.tensor(1.0), 1, (0, 1), RuntimeError, "shifts and dimensions must align. shifts: 1, "
                                                 "dims:2"),
    (torch.tensor(1.0), 1, 3, IndexError, "Dimension specified as 3 but tensor has no "
                                          "dimensions"),
    (torch.tensor(1.0), (1, 1), (0, 1), IndexError, "Dimension specified as 0 but tensor has "
                                                    "no dimensions"),
])
def test_roll_checks_in_torch_order(x, shifts, dims, kind, message):
    with raises(kind, message):
        x.roll(shifts, dims)


@pytest.mark.parametrize("x, strides", [
    (torch.tensor([[1, 0], [2, 3]]), (1, 3)),
    (torch.ones(2, 3, 4), (1, 24)),
    (torch.tensor(3.0), (1, 1)),
])
def test_nonzero_positions_are_a_transposed_view(x, strides):
    assert torch.nonzero(x).stride() == strides
    assert torch.argwhere(x).stride() == strides
    assert torch.nonzero(x).tolist() == [list(p) for p in zip(*torch.where(x))] or x.ndim == 0
    assert all(t.stride() == (1,) for t in torch.nonzero(x, as_tuple=True))


def test_a_zero_slice_step():
    x = torch.arange(12.0)
    with raises(ValueError, "slice step cannot be zero"):
        x[::0]
    with raises(ValueError, "step must be greater than zero"):
        x[::-1]


@pytest.mark.parametrize("shape, dim, kind, message", [
    ((3, 4), 0, IndexError, "index out of range in self"),
    ((3, 4), 1, RuntimeError, "INDICES element is out of DATA bounds, id=9 axis_dim=4"),
    ((2, 3, 4), 1, RuntimeError, "INDICES element is out of DATA bounds, id=9 axis_dim=3"),
    ((2, 3, 4), 2, IndexError, "index out of range in self"),
    ((5,), 0, IndexError, "index out of range in self"),
])
def test_index_select_out_of_range(shape, dim, kind, message):
    with raises(kind, message):
        torch.zeros(*shape).index_select(dim, torch.tensor([0, 9, -1]))


def test_cat_leaves_out_an_empty_1d_tensor():
    e, y = torch.zeros(0, requires_grad=True), torch.ones(2, 3, requires_grad=True)
    z = torch.cat([e, y, e], 1)
    assert z.shape == (2, 3) and z.grad_fn._saved_dim == 1
    (z * torch.arange(6.0).reshape(2, 3)).sum().backward()
    assert e.grad.shape == (0,) and y.grad.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    grown = torch.tensor([])
    for i in range(3):
        grown = torch.cat([grown, torch.full((1, 2), float(i))])
    assert grown.tolist() == [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]
    assert torch.cat([torch.zeros(0, dtype=torch.float64), torch.ones(2, 2)]).dtype == torch.float64


def test_cat_checks_the_others_against_the_first_that_counts():
    with raises(RuntimeError, "Tensors must have same number of dimensions: got 2 and 1"):
        torch.cat([torch.zeros(0), torch.zeros(2, 3), torch.zeros(2)])
    with raises(RuntimeError, "Sizes of tensors must match except in dimension 0. Expected size 3 "
                              "but got size 2 for tensor number 2 in the list."):
        torch.cat([torch.zeros(0), torch.zeros(2, 3), torch.zeros(2, 2)])


def test_view_as_another_dtype_reads_the_same_bytes():
    x = torch.tensor([1.0, -2.0])
    bits = x.view(torch.int32)
    assert bits.dtype == torch.int32 and bits.tolist() == [1065353216, -1073741824]
    assert torch.arange(6.0).reshape(2, 3).view(torch.int8).shape == (2, 12)
    assert torch.ones(2, dtype=torch.float64).view(torch.float32).shape == (4,)
    assert torch.arange(12.0).reshape(3, 4)[::2].view(torch.float64).stride() == (4, 1)


def test_a_dtype_view_shares_memory_and_versions_but_no_gradient():
    x = torch.arange(4.0, requires_grad=True)
    bits = x.view(torch.int32)
    assert not bits.requires_grad and bits.grad_fn is None and bits._base is None
    plain = x.detach()
    seen = plain.view(torch.int32)
    plain.add_(1)
    assert seen._version == 1 and seen.tolist()[0] == 1065353216  # the bits of 1.0


@pytest.mark.parametrize("make, dtype, message", [
    (lambda: torch.arange(6.0).reshape(2, 3), torch.float64,
     "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), "
     "but got 3"),
    (lambda: torch.arange(6.0).reshape(2, 3).t(), torch.float16,
     "self.stride(-1) must be 1 to view Float as Half (different element sizes), but got 3"),
    (lambda: torch.arange(6.0).reshape(2, 3)[:, 1:], torch.float64,
     "self.storage_offset() must be divisible by 2 to view Float as Double (different element "
     "sizes), but got 1"),
    (lambda: torch.arange(6.0).reshape(2, 3)[:, :2], torch.float64,
     "self.stride(0) must be divisible by 2 to view Float as Double (different element sizes), "
     "but got 3"),
    (lambda: torch.tensor(2.0), torch.uint8,
     "self.dim() cannot be 0 to view Float as Byte (different element sizes)"),
])
def test_a_dtype_view_the_memory_cannot_give(make, dtype, message):
    with raises(RuntimeError, message):
        make().view(dtype)


def _graph(t) -> list:
    found, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            found.append(type(node).__name__)
            stack.extend(n for n, _ in node.next_functions)
    return found


def test_cartesian_prod():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)
    pairs = torch.cartesian_prod(a, b)
    assert pairs.tolist() == [[1, 3], [1, 4], [1, 5], [2, 3], [2, 4], [2, 5]]
    assert _graph(pairs)[0] == "StackBackward0"
    pairs.sum().backward()
    assert a.grad.tolist() == [3.0, 3.0] and b.grad.tolist() == [2.0, 2.0, 2.0]
    assert torch.cartesian_prod(a) is a


@pytest.mark.parametrize("r, replace, expected", [
    (2, False, [[3, 4], [3, 5], [4, 5]]),
    (2, True, [[3, 3], [3, 4], [3, 5], [4, 4], [4, 5], [5, 5]]),
    (3, False, [[3, 4, 5]]),
    (4, False, []),
])
def test_combinations(r, replace, expected):
    b = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)
    chosen = torch.combinations(b, r, with_replacement=replace)
    assert chosen.tolist() == expected and chosen.shape == (len(expected), r)
    assert _graph(chosen)[:2] == ["StackBackward0", "MaskedSelectBackward0"]


def test_combinations_refuse():
    with raises(RuntimeError, "Expect a 1D vector, but got shape [2, 2]"):
        torch.combinations(torch.ones(2, 2))
    with raises(RuntimeError, "Expect a non-negative number, but got -1"):
        torch.combinations(torch.ones(3), -1)
    assert torch.combinations(torch.ones(3), 0).shape == (0,)


def test_a_size_stays_a_size():
    size = torch.Size([2, 3])
    for made in ((4,) + size, size + (4,), size * 2, 2 * size, size[::-1]):
        assert type(made) is torch.Size
    assert (4,) + size == (4, 2, 3) and size * 2 == (2, 3, 2, 3)


def test_a_size_holds_ints():
    assert torch.Size([torch.tensor(2), np.int64(3), True]) == (2, 3, 1)
    assert [type(n) for n in torch.Size([torch.tensor([2]), True])] == [int, int]
    with raises(TypeError, "torch.Size() takes an iterable of 'int' (item 1 is 'float')"):
        torch.Size([2, 2.5])
    with raises(TypeError, "torch.Size() takes an iterable of 'int' (item 0 is 'Tensor')"):
        torch.Size([torch.tensor(2.0)])
    with raises(TypeError, "can only concatenate tuple (not list) to torch.Size"):
        torch.Size([2]) + [4]


def test_an_expand_to_no_elements_has_zero_strides_and_its_views_keep_them():
    assert torch.ones(1, 1).expand(0, 0).stride() == (0, 0)
    assert torch.tensor(1.0).expand(0).stride() == (0,)
    assert torch.ones(1).expand(3, 0).stride() == (0, 0)
    assert torch.ones(1, 1).expand(0, 0).t().stride() == (0, 0)
    assert torch.ones(1, 1).expand(0, 0).unsqueeze(0).stride() == (0, 0, 0)
    assert torch.ones(2, 1).expand(2, 0).stride() == (1, 0)  # a kept dimension keeps its own
    x = torch.ones(1, 1, requires_grad=True)
    y = x.expand(0, 0)
    assert y.stride() == (0, 0) and type(y.grad_fn).__name__ == "ExpandBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [[0.0]]
