"""Black-box tests: every form of tensordot's dims, read as torch reads it. A count, a tensor
of one element, a tensor of two rows and two lists are taken; two numbers, lists of floats,
tensors in the pair and forms that are none of these are refused with torch's errors, in
torch's order; and a dispatch mode is handed two lists of ints whatever the form. The same
assertions run on torch."""

import numpy as np
import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()


def _a():
    return torch.arange(6.0).reshape(2, 3)


def _b():
    return torch.arange(12.0).reshape(3, 4)


def _c():
    return torch.arange(6.0).reshape(3, 2)


ONE = [[20.0, 23.0, 26.0, 29.0], [56.0, 68.0, 80.0, 92.0]]  # _a() and _b() over one pair

TAKEN = [  # (id, dims)
    ("count", 1), ("count_bool", True), ("pairs_tuple", ([1], [0])), ("pairs_list", [[1], [0]]),
    ("tensor_0d", torch.tensor(1)), ("tensor_0d_float", torch.tensor(1.7)),
    ("tensor_0d_bool", torch.tensor(True)), ("tensor_one_element", torch.tensor([1])),
    ("tensor_0d_uint8", torch.tensor(1, dtype=torch.uint8)),
    ("tensor_two_rows", torch.tensor([[1], [0]])), ("tensor_2x1x1", torch.tensor([[[1]]])),
    ("tensor_row_negative", torch.tensor([[-1], [0]])),
    ("element_tensor", ([torch.tensor(1)], [torch.tensor(0)])),
    ("element_one_element_tensor", ([torch.tensor([1])], [0])),
    ("element_bool_tensor", ([torch.tensor(True)], [0])),
    ("element_numpy", ([np.int64(1)], [np.int32(0)])),
]


@pytest.mark.parametrize("dims", [pytest.param(d, id=i) for i, d in TAKEN])
def test_a_form_that_is_taken(dims):
    assert torch.tensordot(_a(), _b(), dims).tolist() == ONE
    assert torch.tensordot(_a(), _b(), dims=dims, out=torch.empty(2, 4)).tolist() == ONE


def test_a_number_from_sides_that_are_not_contiguous_has_torchs_graph():
    a = torch.arange(6.0).reshape(2, 3).requires_grad_()
    c = torch.arange(6.0).reshape(3, 2).requires_grad_()
    r = torch.tensordot(a, c, ([0, 1], [1, 0]))
    names, stack = [], [r.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            names.append(node.name())
            stack.extend(n for n, _ in node.next_functions)
    assert names == ["ViewBackward0", "SumBackward0", "MulBackward0", "SqueezeBackward0",
                     "PermuteBackward0", "torch::autograd::AccumulateGrad", "SqueezeBackward0",
                     "PermuteBackward0", "torch::autograd::AccumulateGrad"]
    r.backward()
    assert a.grad.tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
    assert c.grad.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]


def test_more_pairs_and_none():
    assert torch.tensordot(_a(), _c(), torch.tensor([[0, 1], [1, 0]])).tolist() == 50.0
    assert torch.tensordot(_a(), _c(), ((0, 1), (1, 0))).tolist() == 50.0
    assert torch.tensordot(_a(), _c(), ([1, np.int32(0)], [0, 1])).tolist() == 50.0
    assert torch.tensordot(_a(), _b(), torch.tensor(False)).shape == (2, 3, 3, 4)
    assert torch.tensordot(_a(), _b(), ([], [])).shape == (2, 3, 3, 4)


_FORM = ("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
         "containing two lists, but got dims={}")
_SELF = "tensordot(): argument 'dims_self' (position 3) must be tuple of ints, "
_OTHER = "tensordot(): argument 'dims_other' (position 4) must be tuple of ints, "
_UNPACK = ("tensordot(): argument '{}' failed to unpack the object at pos 2 with error "
           "\"type must be tuple of ints,but got {}\"")

REFUSED = [  # (id, second operand, dims, error type, message)
    ("two_ints", _b, (1, 0), TypeError, _SELF + "not int"),
    ("two_ints_list", _b, [1, 0], TypeError, _SELF + "not int"),
    ("int_and_list", _b, (1, [0]), TypeError, _SELF + "not int"),
    ("list_and_int", _b, ([1], 0), TypeError, _OTHER + "not int"),
    ("both_bad", _b, (1, 0.5), TypeError, _SELF + "not int"),
    ("tensor_two_elements", _b, torch.tensor([1, 0]), TypeError, _SELF + "not int"),
    ("tensor_two_floats", _b, torch.tensor([1.0, 0.0]), TypeError, _SELF + "not float"),
    ("tensor_float_rows", _b, torch.tensor([[1.0], [0.0]]), TypeError,
     _SELF + "but found element of type float at pos 0"),
    ("tensor_bool_rows", _b, torch.tensor([[True], [False]]), TypeError,
     _SELF + "but found element of type bool at pos 0"),
    ("tensor_nested_rows", _b, torch.tensor([[[1]], [[0]]]), TypeError,
     _SELF + "but found element of type list at pos 0"),
    ("tensors_in_pair", _b, (torch.tensor([1]), torch.tensor([0])), TypeError,
     _SELF + "not Tensor"),
    ("tensor_second", _b, ([1], torch.tensor([0])), TypeError, _OTHER + "not Tensor"),
    ("arrays_in_pair", _b, (np.array([1]), np.array([0])), TypeError,
     _SELF + "not numpy.ndarray"),
    ("strings_in_pair", _b, ("a", "b"), TypeError, _SELF + "not str"),
    ("ranges_in_pair", _b, (range(1, 2), range(0, 1)), TypeError, _SELF + "not range"),
    ("float_elements", _b, ([1.0], [0.0]), TypeError,
     _SELF + "but found element of type float at pos 0"),
    ("bool_element", _b, ([True], [False]), TypeError,
     _SELF + "but found element of type bool at pos 0"),
    ("float_tensor_element", _b, ([torch.tensor(1.0)], [0]), TypeError,
     _SELF + "but found element of type Tensor at pos 0"),
    ("nested_elements", _b, ([[1]], [[0]]), TypeError,
     _SELF + "but found element of type list at pos 0"),
    ("other_first_element", _b, ([], [0.5]), TypeError,
     _OTHER + "but found element of type float at pos 0"),
    ("later_float", _c, ([1, 0.5], [0, 1]), TypeError, _UNPACK.format("dims_self", "float")),
    ("later_none", _c, ([1, None], [0, 1]), TypeError, _UNPACK.format("dims_self", "NoneType")),
    ("later_float_tensor", _c, ([1, torch.tensor(0.7)], [0, 1]), TypeError,
     _UNPACK.format("dims_self", "Tensor")),
    ("later_numpy_float", _c, ([1, np.float64(0)], [0, 1]), TypeError,
     _UNPACK.format("dims_self", "numpy.float64")),
    ("later_in_both", _c, ([1, 0.5], [0, 0.5]), TypeError,
     _UNPACK.format("dims_other", "float")),
    ("later_and_other_not_a_list", _c, ([1, 0.5], 3), TypeError, _OTHER + "not int"),
    ("tensor_three_rows", _b, torch.zeros(3, 1, dtype=torch.int64), AssertionError,
     "dims tensor must have size 2 in first dimension, got 3"),
    ("tensor_three_elements", _b, torch.tensor([1, 0, 0]), AssertionError,
     "dims tensor must have size 2 in first dimension, got 3"),
    ("tensor_empty", _b, torch.empty(2, 0, dtype=torch.int64), RuntimeError,
     "a Tensor with 0 elements cannot be converted to Scalar"),
    ("tensor_negative", _b, torch.tensor(-1), RuntimeError,
     "tensordot expects dims >= 0, but got dims=-1"),
    ("tensor_one_negative", _b, torch.tensor([-2]), RuntimeError,
     "tensordot expects dims >= 0, but got dims=tensor([-2])"),
    ("tensor_too_many", _b, torch.tensor(3), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
    ("negative", _b, -1, RuntimeError, "tensordot expects dims >= 0, but got dims=-1"),
    ("too_many", _b, 3, RuntimeError,
     "tensordot expects dims < ndim_a or ndim_b, but got dims=3"),
    ("float", _b, 1.0, RuntimeError, _FORM.format("1.0")),
    ("none", _b, None, RuntimeError, _FORM.format("None")),
    ("string", _b, "ab", RuntimeError, _FORM.format("ab")),
    ("numpy_int", _b, np.int64(1), RuntimeError, _FORM.format("1")),
    ("dict", _b, {1: 0}, RuntimeError, _FORM.format("{1: 0}")),
    ("unequal_lists", _c, ([0, 1], [1]), RuntimeError,
     "both dimension lists should have same length"),
    ("named_twice", _c, ([0, 0], [1, 1]), RuntimeError,
     "dim 0 appears multiple times in the list of dims"),
    ("out_of_range", _b, ([2], [0]), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
]


@pytest.mark.parametrize(("other", "dims", "kind", "message"),
                         [pytest.param(*c[1:], id=c[0]) for c in REFUSED])
def test_a_form_that_is_refused(other, dims, kind, message):
    with pytest.raises(kind) as caught:
        torch.tensordot(_a(), other(), dims)
    assert str(caught.value) == message
    with pytest.raises(kind) as caught:
        torch.tensordot(_a(), other(), dims, out=torch.empty(0))
    assert str(caught.value) == message


@pytest.mark.parametrize("dims", [(1,), ([1], [0], [0]), ()])
def test_a_sequence_of_other_than_two_is_unpacked_by_python(dims):
    with pytest.raises(ValueError, match="values to unpack"):
        torch.tensordot(_a(), _b(), dims)


MODE_CASES = [  # (id, call, inside inference_mode, what the mode sees last)
    ("tensor_0d_steps", lambda: torch.tensordot(_a(), _b(), torch.tensor(1)), False,
     [("aten.permute.default", ("T", [0, -1]), {}), ("aten.view.default", ("T", [2, 3]), {}),
      ("aten.permute.default", ("T", [0, 1]), {}), ("aten.view.default", ("T", [3, 4]), {}),
      ("aten.mm.default", ("T", "T"), {}), ("aten.view.default", ("T", [2, 4]), {})]),
    ("tensor_rows_steps", lambda: torch.tensordot(_a(), _c(), torch.tensor([[0, 1], [1, 0]])),
     False,
     [("aten.permute.default", ("T", [0, 1]), {}), ("aten.permute.default", ("T", [1, 0]), {}),
      ("aten.squeeze.default", ("T",), {}), ("aten.squeeze.default", ("T",), {}),
      ("aten.mul.Tensor", ("T", "T"), {}), ("aten.sum.default", ("T",), {"dtype": torch.float32}),
      ("aten.view.default", ("T", []), {})]),
    ("a_side_not_contiguous", lambda: torch.tensordot(_a(), _c().t(), 2), False,
     [("aten.permute.default", ("T", [-2, -1]), {}), ("aten.permute.default", ("T", [0, 1]), {}),
      ("aten.squeeze.default", ("T",), {}), ("aten.squeeze.default", ("T",), {}),
      ("aten.mul.Tensor", ("T", "T"), {}), ("aten.sum.default", ("T",), {"dtype": torch.float32}),
      ("aten.view.default", ("T", []), {})]),
    ("strided_vectors", lambda: torch.tensordot(torch.arange(6.0)[::2], torch.arange(3.0), 1),
     False,
     [("aten.permute.default", ("T", [-1]), {}), ("aten.permute.default", ("T", [0]), {}),
      ("aten.squeeze.default", ("T",), {}), ("aten.squeeze.default", ("T",), {}),
      ("aten.mul.Tensor", ("T", "T"), {}), ("aten.sum.default", ("T",), {"dtype": torch.float32}),
      ("aten.view.default", ("T", []), {})]),
    ("contiguous_vectors", lambda: torch.tensordot(torch.arange(3.0), torch.arange(3.0), 1),
     False,
     [("aten.permute.default", ("T", [-1]), {}), ("aten.permute.default", ("T", [0]), {}),
      ("aten.dot.default", ("T", "T"), {}), ("aten.view.default", ("T", []), {})]),
    ("numpy_elements_whole", lambda: torch.tensordot(_a(), _b(), ([np.int64(1)], [0])), True,
     [("aten.tensordot.default", ("T", "T", [1], [0]), {})]),
    ("pairs_out_whole",
     lambda: torch.tensordot(_a(), _c(), ([0, 1], [1, 0]), out=torch.empty(())), True,
     [("aten.tensordot.out", ("T", "T", [0, 1], [1, 0]), {"out": "T"})]),
]


@pytest.mark.parametrize(("call", "inference", "expected"),
                         [pytest.param(*c[1:], id=c[0]) for c in MODE_CASES])
def test_a_mode_is_handed_two_lists_of_ints(call, inference, expected):
    import contextlib

    with torch.inference_mode() if inference else contextlib.nullcontext():
        alone = call()
        with Calls() as mode:
            under = call()
    assert mode.seen[-len(expected):] == expected
    assert under.tolist() == alone.tolist()


def test_a_refusal_comes_before_the_mode_sees_anything():
    a, b = _a(), _b()
    with Calls() as mode, pytest.raises(TypeError):
        torch.tensordot(a, b, (1, 0))
    assert mode.seen == []
