"""Shapes that do not broadcast, or a result larger than the tensor written: torch's
RuntimeError in torch's words, for copy_, item assignment and the functions that broadcast
without promoting; nothing is changed by the failed call. The same assertions run on torch.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

A, B = (5, 2, 4, 1), (3, 1, 1)
SIZES = ("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
         "dimension {}")
OUTPUT = "output with shape {} doesn't match the broadcast shape {}"
EXPAND = ("expand(torch.FloatTensor{{{}}}, size={}): the number of sizes provided ({}) must be "
          "greater or equal to the number of dimensions in the tensor ({})")
EXPANDED = ("The expanded size of the tensor ({}) must match the existing size ({}) at "
            "non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}")


def ones(shape, dtype=None):
    return torch.ones(shape, dtype=dtype)


@pytest.mark.parametrize("call", [
    lambda: torch.lerp(ones(A), ones(B), 0.5),
    lambda: torch.lerp(ones(A), ones(A), ones(B)),
    lambda: ones(A).lerp(ones(B), 0.5),
    lambda: torch.lerp(torch.ones(A, requires_grad=True), ones(B), 0.5),
    lambda: torch.ldexp(ones(A), ones(B, torch.int64)),
    lambda: torch.isclose(ones(A), ones(B)),
    lambda: torch.allclose(ones(A), ones(B)),
    lambda: torch.logical_and(ones(A), ones(B)),
    lambda: torch.logical_or(ones(A), ones(B)),
    lambda: torch.logical_xor(ones(A) > 0, ones(B) > 0),
    lambda: torch.cdist(ones(A), ones(B)),
    lambda: torch.matmul(ones(A), ones(B)),
    lambda: F.binary_cross_entropy_with_logits(ones(A), ones(A), ones(B)),
    lambda: torch.sub(ones(A), ones(B)),
], ids=["lerp", "lerp_tensor", "lerp_method", "lerp_grad", "ldexp", "isclose", "allclose",
        "logical_and", "logical_or", "logical_xor", "cdist", "matmul", "bce_weight", "sub"])
def test_functions_name_the_first_mismatch(call):
    with raises(RuntimeError, SIZES.format(2, 3, 1)):
        call()


@pytest.mark.parametrize("name", ["ldexp_", "logical_and_", "lerp_"])
def test_in_place_forms_refuse_and_write_nothing(name):
    x = ones(A)
    args = (ones(B), 0.5) if name == "lerp_" else (ones(B),)
    with raises(RuntimeError, SIZES.format(2, 3, 1)):
        getattr(x, name)(*args)
    assert x._version == 0 and bool((x == 1).all())


def test_rsub_names_other_first():
    with raises(RuntimeError, SIZES.format(3, 2, 0)):
        torch.rsub(ones(2), ones(3))
    with raises(RuntimeError, SIZES.format(3, 2, 0)):
        torch.rsub(ones(2), ones(3), alpha=2)
    with raises(RuntimeError, SIZES.format(3, 2, 0)):
        ones(2).__rsub__(ones(3))
    with raises(RuntimeError, SIZES.format(2, 3, 0)):
        torch.sub(ones(2), ones(3))


def test_cross_without_dim_looks_at_input_alone():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(RuntimeError, "no dimension of size 3 in input"):
            torch.cross(ones(A), ones(B))
        with raises(RuntimeError, "no dimension of size 3 in input"):
            torch.cross(ones((2, 4)), ones((2, 4)))
        with raises(RuntimeError, "linalg.cross: inputs dimension 0 must have length 3. Got 3 "
                                  "and 1"):
            torch.cross(ones((3, 4)), ones((1, 4)))
        with raises(RuntimeError, SIZES.format(2, 4, 0)):
            torch.cross(ones((2, 3)), ones((4, 3)))


@pytest.mark.parametrize("target, source, message", [
    ((1, 3, 1), (3, 1, 7), OUTPUT.format([1, 3, 1], [3, 3, 7])),
    ((2, 3), (3, 2), SIZES.format(3, 2, 1)),
    ((6,), (2, 3), SIZES.format(6, 3, 1)),
    ((3,), (2, 3), OUTPUT.format([3], [2, 3])),
])
def test_copy_refuses_and_leaves_the_tensor(target, source, message):
    x = torch.zeros(target)
    with raises(RuntimeError, message):
        x.copy_(ones(source))
    assert x._version == 0 and bool((x == 0).all())


def test_a_failed_copy_leaves_the_graph():
    w = torch.ones(2, 3, requires_grad=True)
    b = w * 1
    v = b[0]
    with raises(RuntimeError, OUTPUT.format([3], [2, 3])):
        v.copy_(torch.ones(2, 3))
    assert (b._version, v._version) == (0, 0)
    assert type(b.grad_fn).__name__ == "MulBackward0"
    assert type(v.grad_fn).__name__ == "SelectBackward0"
    with raises(RuntimeError, EXPAND.format([2, 3], [3], 1, 2)):
        b[0] = torch.ones(2, 3)
    assert b._version == 0 and type(b.grad_fn).__name__ == "MulBackward0"
    b.sum().backward()
    assert w.grad.tolist() == [[1.0] * 3] * 2


@pytest.mark.parametrize("index, shape, message", [
    (0, (2, 3), EXPAND.format([2, 3], [3], 1, 2)),
    (0, (1, 2, 3), EXPAND.format([2, 3], [3], 1, 2)),
    ((slice(None), 1), (3,), EXPANDED.format(2, 3, 0, [2], [3])),
    ((slice(None), 1), (2, 1), EXPAND.format([2, 1], [2], 1, 2)),
    (Ellipsis, (3, 3), EXPANDED.format(2, 3, 0, [2, 3], [3, 3])),
    (slice(0, 1), (2, 1, 3), EXPAND.format([2, 1, 3], [1, 3], 2, 3)),
])
def test_item_assignment_expands_the_value(index, shape, message):
    x = torch.zeros(2, 3)
    with raises(RuntimeError, message):
        x[index] = torch.ones(shape)
    assert x._version == 0 and bool((x == 0).all())


def test_item_assignment_drops_leading_ones():
    x = torch.zeros(2, 3)
    x[0] = torch.ones(1, 1, 3)
    x[:, 1] = torch.full((1, 2), 2.0)
    assert x.tolist() == [[1.0, 2.0, 1.0], [0.0, 2.0, 0.0]]
    v = torch.ones(1, 3, requires_grad=True)
    y = torch.zeros(2, 3)
    y[1] = v * 2
    y.sum().backward()
    assert v.grad.tolist() == [[2.0, 2.0, 2.0]]


def test_fill_takes_a_zero_dim_value_only():
    x = ones(A)
    with raises(RuntimeError, "fill_ only supports 0-dimension value tensor but got tensor "
                              "with 3 dimensions."):
        x.fill_(ones(B))
    with raises(RuntimeError, "fill_ only supports 0-dimension value tensor but got tensor "
                              "with 1 dimensions."):
        x.fill_(ones(1))
    assert x._version == 0
    assert x.fill_(torch.tensor(2.0)).sum().item() == 80.0


def test_binary_cross_entropy_weights():
    x = ones(A)
    with raises(RuntimeError, SIZES.format(3, 2, 1)):
        F.binary_cross_entropy_with_logits(x, x, pos_weight=ones(B))
    with raises(RuntimeError, OUTPUT.format([5, 2, 4, 1], [2, 5, 2, 4, 1])):
        F.binary_cross_entropy_with_logits(x, x, ones(B), pos_weight=ones((2, 1, 1, 1, 1)))
    with raises(RuntimeError, OUTPUT.format([3], [2, 3])):
        F.binary_cross_entropy_with_logits(ones(3), ones(3), ones((2, 3)), reduction="none")
    with raises(RuntimeError, "Attempting to broadcast a dimension of length 3 at -3! "
                              "Mismatching argument at index 1 had torch.Size([3, 1, 1]); but "
                              "expected shape should be broadcastable to [5, 2, 4, 1]"):
        F.binary_cross_entropy(x / 2, x, ones(B))


@pytest.mark.parametrize("call", [
    lambda: torch.gcd(ones(A), ones(B)),
    lambda: torch.bitwise_and(ones(A), ones(B)),
    lambda: torch.hypot(ones(A, torch.int64), ones(B, torch.int64)),
    lambda: torch.logaddexp(ones(A) > 0, ones(B) > 0),
    lambda: torch.remainder(ones(A) > 0, ones(B) > 0),
    lambda: torch.pow(ones(A) > 0, ones(B) > 0),
], ids=["gcd", "bitwise_and", "hypot", "logaddexp", "remainder", "pow"])
def test_shapes_are_checked_before_the_dtype(call):
    with raises(RuntimeError, SIZES.format(2, 3, 1)):
        call()


VALUES = ("shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of "
          "shape {}")


@pytest.mark.parametrize("index, shape, message", [
    (lambda x: x > -1, (5,), VALUES.format([5], [6])),
    (lambda x: torch.tensor([True, False]), (2, 3), VALUES.format([2, 3], [1, 3])),
    (lambda x: (slice(None), torch.tensor([True, False, True])), (3,),
     VALUES.format([3], [2, 2])),
    (lambda x: (torch.tensor([True, True]), torch.tensor([0, 1])), (3,), VALUES.format([3], [2])),
    (lambda x: torch.tensor([False, False]), (2,), VALUES.format([2], [0, 3])),
])
def test_values_must_fit_what_a_mask_picks(index, shape, message):
    x = torch.zeros(2, 3)
    with raises(RuntimeError, message):
        x[index(x)] = torch.ones(shape)
    with raises(RuntimeError, VALUES.format([4], [6])):
        x.index_put_((x > -1,), torch.ones(4))
    assert x._version == 0 and bool((x == 0).all())
    x[x > -1] = torch.arange(6.0)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
