"""Black-box tests: shapes that do not fit give torch's RuntimeError and text."""

import math

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize(("a", "b", "message"), [
    ((2,), (3,), "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
                 "dimension 0"),
    ((2, 3), (3, 2), "The size of tensor a (3) must match the size of tensor b (2) at "
                     "non-singleton dimension 1"),
    ((2, 3), (4, 1, 2), "The size of tensor a (3) must match the size of tensor b (2) at "
                        "non-singleton dimension 2"),
    ((5, 2, 3), (4, 1, 3), "The size of tensor a (5) must match the size of tensor b (4) at "
                           "non-singleton dimension 0"),
])
def test_elementwise_operands_that_do_not_broadcast(a, b, message):
    x = torch.ones(a, requires_grad=True)
    for op in (lambda: x + torch.ones(b), lambda: x * torch.ones(b), lambda: x.sub(torch.ones(b))):
        with raises(RuntimeError, message):
            op()


def test_a_failed_broadcast_records_nothing():
    x = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
                              "non-singleton dimension 0"):
        x * torch.ones(3)
    assert torch.is_grad_enabled() and x.grad is None


@pytest.mark.parametrize(("shapes", "dim", "message"), [
    (((2, 3), (2, 2)), 0, "Sizes of tensors must match except in dimension 0. Expected size 3 "
                          "but got size 2 for tensor number 1 in the list."),
    (((2, 3), (4, 3), (1, 2)), 0, "Sizes of tensors must match except in dimension 0. Expected "
                                  "size 3 but got size 2 for tensor number 2 in the list."),
    (((2, 3), (4, 3)), 1, "Sizes of tensors must match except in dimension 1. Expected size 2 "
                          "but got size 4 for tensor number 1 in the list."),
    (((2, 3), (3,)), 0, "Tensors must have same number of dimensions: got 2 and 1"),
    (((2, 3), (3, 2)), -1, "Sizes of tensors must match except in dimension 1. Expected size 2 "
                           "but got size 3 for tensor number 1 in the list."),
])
def test_cat_of_pieces_that_do_not_fit(shapes, dim, message):
    with raises(RuntimeError, message):
        torch.cat([torch.ones(s) for s in shapes], dim)


def test_stack_of_unequal_tensors():
    with raises(RuntimeError, "stack expects each tensor to be equal size, but got [2] at entry "
                              "0 and [3] at entry 1"):
        torch.stack([torch.ones(2), torch.ones(3)])


def test_requires_grad_on_an_integer_tensor_words_the_setter_and_the_method_apart():
    x = torch.ones(2, dtype=torch.long)
    with raises(RuntimeError, "only Tensors of floating point and complex dtype can require "
                              "gradients"):
        x.requires_grad = True
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        x.requires_grad_()


@pytest.mark.parametrize(("shape", "sizes", "message"), [
    ((2,), (3,), "The expanded size of the tensor (3) must match the existing size (2) at "
                 "non-singleton dimension 0.  Target sizes: [3].  Tensor sizes: [2]"),
    ((2,), (2, -3), "The expanded size of the tensor (-3) must match the existing size (2) at "
                    "non-singleton dimension 1.  Target sizes: [2, -3].  Tensor sizes: [2]"),
    ((2, 3), (3,), "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided "
                   "(1) must be greater or equal to the number of dimensions in the tensor (2)"),
    ((2,), (-1, 2), "The expanded size of the tensor (-1) isn't allowed in a leading, "
                    "non-existing dimension 0"),
    ((2,), (-2, -1, 2), "The expanded size of the tensor (-1) isn't allowed in a leading, "
                        "non-existing dimension 1"),
    ((2,), (3, -2, 2), "numel: integer multiplication overflow"),
    ((), (-1,), "numel: integer multiplication overflow"),
    ((2,), (-2, 2), "numel: integer multiplication overflow"),
    # several dimensions at fault: torch checks from the last, and names it
    ((2, 3), (3, 4), "The expanded size of the tensor (4) must match the existing size (3) at "
                     "non-singleton dimension 1.  Target sizes: [3, 4].  Tensor sizes: [2, 3]"),
    ((2, 1, 3), (4, 5, 6), "The expanded size of the tensor (6) must match the existing size "
                           "(3) at non-singleton dimension 2.  Target sizes: [4, 5, 6].  "
                           "Tensor sizes: [2, 1, 3]"),
    ((2, 3), (-1, 3, 3), "The expanded size of the tensor (3) must match the existing size (2) "
                         "at non-singleton dimension 1.  Target sizes: [-1, 3, 3].  Tensor "
                         "sizes: [2, 3]"),
    ((2, 3), (-1, -1, 2, 3), "The expanded size of the tensor (-1) isn't allowed in a leading, "
                             "non-existing dimension 1"),
    ((2, 3), (3, -1), "The expanded size of the tensor (3) must match the existing size (2) at "
                      "non-singleton dimension 0.  Target sizes: [3, -1].  Tensor sizes: "
                      "[2, 3]"),
])
def test_expand_to_sizes_that_do_not_fit(shape, sizes, message):
    with raises(RuntimeError, message):
        torch.ones(shape).expand(*sizes)


@pytest.mark.parametrize(("shape", "sizes", "expected"), [
    ((1, 3), (2, -1), [2, 3]),
    ((3, 1), (2, 3, 4), [2, 3, 4]),
    ((), (0,), [0]),
    ((2,), (0, 2), [0, 2]),
    ((), (2, 3), [2, 3]),  # a full sum's gradient, expanded back
    ((2, 3), (4, 2, 3), [4, 2, 3]),
    ((2, 3), (2, 3), [2, 3]),
])
def test_expand_keeps_minus_one_dimensions_and_adds_leading_ones(shape, sizes, expected):
    x = torch.arange(float(max(1, math.prod(shape)))).reshape(shape)
    y = x.expand(*sizes)
    assert list(y.shape) == expected
    assert torch.equal(y, x + torch.zeros(expected))
