"""Black-box tests: behaviour the differential fuzzer found in its thirteenth round.

A leaf given .data of another shape keeps its AccumulateGrad while a graph holds it:
the engine checks gradients against the old shape, and a first gradient of that shape
is taken over or copied into the leaf's shape, while set_ forgets the node whatever
the shape; ldexp's gradient for its input is
pow(2, other) in an integer exponent's own dtype, wrapping around; copy_ from a source
of the same dtype that reads elements it has already written follows the kernel's
order, in 64-byte blocks. The same assertions run on torch.
"""

import re
import warnings

import pytest
import torch


def _regrown(old_shape, new_shape, dtype=torch.float32):
    """A leaf whose AccumulateGrad a graph keeps, then given data of another shape."""
    leaf = torch.ones(old_shape, requires_grad=True)
    kept = leaf * 2
    leaf.data = torch.ones(new_shape, dtype=dtype)
    return leaf, kept


def _invalid(got, expected):
    return re.escape(f"Function MulBackward0 returned an invalid gradient at index 0 - got "
                     f"{got} but expected shape compatible with {expected}")


@pytest.mark.parametrize("new_shape", [(2, 3), (6,)])
def test_a_gradient_of_the_new_shape_is_checked_against_the_old(new_shape):
    leaf, kept = _regrown((3, 2), new_shape)
    with pytest.raises(RuntimeError, match=_invalid(list(new_shape), [3, 2])):
        (leaf * 3).sum().backward()
    assert leaf.grad is None
    assert kept.grad_fn is not None


def test_a_gradient_that_reduces_to_the_old_shape_is_reduced_then_copied():
    leaf, _ = _regrown((3, 1), (3, 4))
    (g,) = torch.autograd.grad((leaf * 3).sum(), leaf)
    assert g.shape == (3, 1) and g.tolist() == [[12.0]] * 3
    (leaf * 3).sum().backward()
    assert leaf.grad.shape == (3, 4) and leaf.grad.stride() == (4, 1)
    assert leaf.grad._version == 1
    assert leaf.grad.tolist() == [[12.0] * 4] * 3


def test_the_old_graph_sends_a_gradient_of_the_old_shape():
    leaf, kept = _regrown((3, 2), (2, 3))
    message = "The size of tensor a (3) must match the size of tensor b (2) at non-singleton"
    with pytest.raises(RuntimeError, match=re.escape(message)):
        kept.sum().backward()
    assert leaf.grad is None


@pytest.mark.parametrize("old_shape, new_data, twice", [
    ((1, 4), lambda: torch.ones(3, 4), 18.0),  # the gradient's own strides fit the leaf's
    ((3, 1), lambda: torch.ones(4, 3).t(), 24.0),
])
def test_a_first_gradient_that_obeys_the_layout_is_taken_over_in_its_shape(old_shape,
                                                                              new_data, twice):
    leaf = torch.ones(old_shape, requires_grad=True)
    kept = leaf * 2  # noqa: F841 - holds the AccumulateGrad
    leaf.data = new_data()
    (leaf * 3).sum().backward()
    assert leaf.grad.shape == old_shape and leaf.grad._version == 0
    (leaf * 3).sum().backward()
    assert leaf.grad.shape == old_shape and leaf.grad._version == 1
    assert set(leaf.grad.flatten().tolist()) == {twice}


def test_a_leaf_that_is_not_dense_gets_a_clone_of_the_old_shape():
    leaf, _ = _regrown((3, 1), (3, 8))
    leaf.data = torch.ones(3, 8)[:, ::2]
    (leaf * 3).sum().backward()
    assert leaf.grad.shape == (3, 1) and leaf.grad.tolist() == [[12.0]] * 3


def test_create_graph_copies_into_the_leaf_shape_with_a_recorded_copy():
    leaf, _ = _regrown((3, 1), (3, 4))
    w = torch.ones(3, 4, requires_grad=True)
    with warnings.catch_warnings():  # torch's reference-cycle warning, given once a process
        warnings.simplefilter("ignore", UserWarning)
        (leaf * w).sum().backward(create_graph=True)
    assert leaf.grad.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert leaf.grad.shape == (3, 4) and leaf.grad._version == 1
    assert leaf.grad.tolist() == [[4.0] * 4] * 3


def test_a_new_dtype_still_makes_a_new_accumulator():
    leaf, _ = _regrown((3, 1), (3, 4), torch.float64)
    (leaf * 3).sum().backward()
    assert leaf.grad.shape == (3, 4) and leaf.grad.dtype == torch.float64


@pytest.mark.parametrize("new_shape", [(2, 3), (3, 4)])
def test_set_forgets_the_accumulator_whatever_the_shape(new_shape):
    leaf = torch.ones(3, 1 if new_shape == (3, 4) else 2, requires_grad=True)
    kept = leaf * 2  # noqa: F841 - holds the old AccumulateGrad
    with torch.no_grad():
        leaf.set_(torch.ones(new_shape))
    (leaf * 3).sum().backward()
    assert leaf.grad.shape == new_shape
    assert leaf.grad.flatten().tolist() == [3.0] * leaf.numel()


@pytest.mark.parametrize("dtype, expected", [
    (torch.int8, [0.0, 1.0, 0.0, 0.0, -128.0]),
    (torch.uint8, [0.0, 1.0, 0.0, 0.0, 128.0]),
    (torch.int16, [0.0, 1.0, 0.0, 0.0, 128.0]),
    (torch.int32, [0.0, 1.0, 0.0, -2147483648.0, 128.0]),
    (torch.int64, [0.0, 1.0, -9223372036854775808.0, 2147483648.0, 128.0]),
])
def test_ldexp_gradient_is_an_integer_power_of_two(dtype, expected):
    x = torch.ones(5, dtype=torch.float64, requires_grad=True)
    exponent = torch.tensor([-1, 0, 63, 31, 7]).to(dtype)
    y = torch.ldexp(x, exponent)
    assert y[1:].tolist() == [1.0, 2.0 ** 63, 2.0 ** 31, 128.0]  # the values are exact
    (g,) = torch.autograd.grad(y.sum(), x)
    assert g.tolist() == expected


def test_ldexp_gradient_of_a_large_exponent_is_zero_and_a_float_exponent_is_not():
    x = torch.tensor([0.5, 0.25], requires_grad=True)
    y = torch.ldexp(x, torch.tensor([100, 3]))
    (g,) = torch.autograd.grad(y.sum(), x)
    assert g.tolist() == [0.0, 8.0]
    h = torch.tensor([0.5, 0.25], dtype=torch.float16, requires_grad=True)
    (g,) = torch.autograd.grad(torch.ldexp(h, torch.tensor([20.0, 3.0])).sum(), h)
    assert g.tolist() == [float("inf"), 8.0]


def test_copy_of_a_transpose_into_itself_reads_what_it_wrote():
    x = torch.arange(8.0).reshape(2, 4)[:, ::2]
    x.copy_(x.t())
    assert x.tolist() == [[0.0, 4.0], [4.0, 6.0]]
    dense = torch.arange(9.0).reshape(3, 3)
    with pytest.raises(RuntimeError, match="^unsupported operation: some elements"):
        dense.copy_(dense.t())


@pytest.mark.parametrize("dtype, first_block", [
    (torch.float32, 16), (torch.float64, 8), (torch.int16, 0), (torch.float16, 0),
])
def test_copy_shifted_along_a_row_goes_in_blocks_of_64_bytes(dtype, first_block):
    base = torch.arange(80).to(dtype).reshape(2, 40)
    base[:, 1:26].copy_(base[:, :25])
    row = base[0].tolist()
    assert row[:first_block + 1] == [0.0] + list(range(first_block))
    step = 64 // base.element_size()
    whole = 25 - 25 % step
    after = row[whole + 1:26]  # one at a time: the last element written, again and again
    assert after == [row[whole]] * len(after)
    assert row[26:] == list(range(26, 40))


def test_copy_shifted_by_one_element_of_a_strided_row_repeats_the_first():
    x = torch.arange(10.0)[::2]
    x[1:].copy_(x[:-1])
    assert x.tolist() == [0.0] * 5
    y = torch.arange(10.0)[::2]
    y[:-1].copy_(y[1:])  # reads ahead of what it writes: as if all were read first
    assert y.tolist() == [2.0, 4.0, 6.0, 8.0, 8.0]


def test_a_recorded_overlapping_copy_keeps_its_gradient():
    x = torch.arange(80.0).reshape(2, 40).requires_grad_(True)
    y = x * 1
    y[:, 1:26].copy_(y[:, :25])
    assert y[0, 16:26].tolist() == [15.0] * 10
    assert y.grad_fn.name() == "torch::autograd::CopySlices" and y._version == 1
    y.sum().backward()
    assert x.grad[0, :3].tolist() == [2.0, 1.0, 1.0] and x.grad[0, 25].item() == 0.0
