"""torch.testing.assert_close and assert_allclose: what passes, and every message, to the letter."""

import math
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

T = torch.tensor
ac = torch.testing.assert_close
NOT_CLOSE = "Tensor-likes are not close!\n\nMismatched elements: "
UNEXPECTED = (
    "resulted in the unexpected exception above. If you are a user and see this message during "
    "normal operation please file an issue at https://github.com/pytorch/pytorch/issues. If you "
    "are a developer and working on the comparison functions, please except the previous error "
    "and raise an expressive `ErrorMeta` instead.")


@pytest.mark.parametrize("actual, expected, options", [
    (T([1.0, 2.0, 3.0]), T([1.0, 2.0, 3.00001]), {}),
    (T([math.nan]), T([math.nan]), {"equal_nan": True}),
    (T([math.inf, 1.0]), T([math.inf, 1.0]), {}),
    (T([0.0]), T([-0.0]), {}),
    (T([1.0], dtype=torch.float16), T([1.001], dtype=torch.float16), {}),
    (T([1]), T([2]), {"rtol": 0, "atol": 1}),
    (T([]), T([]), {}),
    (None, None, {}),
    (1.0, 1.0 + 1e-9, {}),
    (1.0, 1, {"check_dtype": False}),
    ((1, 2), [1, 2], {}),
    ({"a": 1, 2: 3}, {"a": 1, 2: 3}, {}),
    (T([1, 2]), T([1.0, 2.0]), {"check_dtype": False}),
    (np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-9]), {}),
    (torch.ones(2, 3)[:, 0], torch.ones(2), {}),
    (T([1.0], requires_grad=True), T([1.0]), {}),
])
def test_what_agrees_passes(actual, expected, options):
    assert ac(actual, expected, **options) is None


@pytest.mark.parametrize("actual, expected, options, message", [
    (T([1.0, 2.0, 3.0]), T([1.0, 2.1, 3.0]), {}, NOT_CLOSE + "1 / 3 (33.3%)\n"
     "Greatest absolute difference: 0.09999990463256836 at index (1,) (up to 1e-05 allowed)\n"
     "Greatest relative difference: 0.04761900380253792 at index (1,) (up to 1.3e-06 allowed)"),
    (T([1.0, 2.0], dtype=torch.float64), T([1.0, 2.1], dtype=torch.float64), {}, NOT_CLOSE +
     "1 / 2 (50.0%)\n"
     "Greatest absolute difference: 0.10000000000000009 at index (1,) (up to 1e-07 allowed)\n"
     "Greatest relative difference: 0.04761904761904766 at index (1,) (up to 1e-07 allowed)"),
    (T([[[1.0, 2.0]]]), T([[[1.0, 2.5]]]), {}, NOT_CLOSE + "1 / 2 (50.0%)\n"
     "Greatest absolute difference: 0.5 at index (0, 0, 1) (up to 1e-05 allowed)\n"
     "Greatest relative difference: 0.20000000298023224 at index (0, 0, 1) "
     "(up to 1.3e-06 allowed)"),
    (T([1.0, 2.0]), T([3.0, 5.0]), {}, NOT_CLOSE + "2 / 2 (100.0%)\n"
     "Greatest absolute difference: 3.0 at index (1,) (up to 1e-05 allowed)\n"
     "Greatest relative difference: 0.6666666865348816 at index (0,) (up to 1.3e-06 allowed)"),
    (T([1, 2, 3]), T([1, 5, 3]), {}, "Tensor-likes are not equal!\n\nMismatched elements: "
     "1 / 3 (33.3%)\nGreatest absolute difference: 3 at index (1,)\n"
     "Greatest relative difference: 0.6000000238418579 at index (1,)"),
    (T([True, False]), T([True, True]), {}, "Tensor-likes are not equal!\n\nMismatched elements: "
     "1 / 2 (50.0%)\nGreatest absolute difference: 1 at index (1,)\n"
     "Greatest relative difference: 1.0 at index (1,)"),
    (T([1], dtype=torch.uint8), T([3], dtype=torch.uint8), {}, "Tensor-likes are not equal!\n\n"
     "Mismatched elements: 1 / 1 (100.0%)\nGreatest absolute difference: 2 at index (0,)\n"
     "Greatest relative difference: 0.6666666865348816 at index (0,)"),
    (T([1, 2], dtype=torch.uint8), T([0, 2], dtype=torch.int8), {"check_dtype": False},
     "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\n"
     "Greatest absolute difference: 1 at index (0,)\n"
     "Greatest relative difference: inf at index (0,)"),
    (T([1.0, math.nan]), T([1.0, 2.0]), {}, NOT_CLOSE + "1 / 2 (50.0%)\n"
     "Greatest absolute difference: nan at index (1,) (up to 1e-05 allowed)\n"
     "Greatest relative difference: nan at index (1,) (up to 1.3e-06 allowed)"),
    (T([math.inf]), T([-math.inf]), {}, NOT_CLOSE + "1 / 1 (100.0%)\n"
     "Greatest absolute difference: inf at index (0,) (up to 1e-05 allowed)\n"
     "Greatest relative difference: nan at index (0,) (up to 1.3e-06 allowed)"),
    (T([0.0, 1.0]), T([0.0, 2.0]), {}, NOT_CLOSE + "1 / 2 (50.0%)\n"
     "Greatest absolute difference: 1.0 at index (1,) (up to 1e-05 allowed)\n"
     "Greatest relative difference: 0.5 at index (1,) (up to 1.3e-06 allowed)"),
    (T([1.0]), T([1.5]), {"rtol": 0.1, "atol": 0.1}, NOT_CLOSE + "1 / 1 (100.0%)\n"
     "Greatest absolute difference: 0.5 at index (0,) (up to 0.1 allowed)\n"
     "Greatest relative difference: 0.3333333432674408 at index (0,) (up to 0.1 allowed)"),
    (T([1.0]), T([1.1]), {"rtol": 0.0, "atol": 0.0}, "Tensor-likes are not equal!\n\n"
     "Mismatched elements: 1 / 1 (100.0%)\n"
     "Greatest absolute difference: 0.10000002384185791 at index (0,)\n"
     "Greatest relative difference: 0.09090910851955414 at index (0,)"),
    (torch.arange(1000.0).reshape(10, 100), torch.arange(1000.0).reshape(10, 100) * 1.01, {},
     NOT_CLOSE + "999 / 1000 (99.9%)\n"
     "Greatest absolute difference: 9.989990234375 at index (9, 99) (up to 1e-05 allowed)\n"
     "Greatest relative difference: 0.009901036508381367 at index (5, 15) (up to 1.3e-06 allowed)"),
    (T(1.0), T(2.0), {}, "Scalars are not close!\n\nExpected 2.0 but got 1.0.\n"
     "Absolute difference: 1.0 (up to 1e-05 allowed)\n"
     "Relative difference: 0.5 (up to 1.3e-06 allowed)"),
    (T(math.nan), T(math.nan), {}, "Scalars are not close!\n\nExpected nan but got nan.\n"
     "Absolute difference: nan (up to 1e-05 allowed)\n"
     "Relative difference: nan (up to 1.3e-06 allowed)"),
    (1.0, 1.1, {}, "Scalars are not close!\n\nExpected 1.1 but got 1.0.\n"
     "Absolute difference: 0.10000000000000009 (up to 1e-07 allowed)\n"
     "Relative difference: 0.09090909090909098 (up to 1e-07 allowed)"),
    (1, 2, {}, "Scalars are not equal!\n\nExpected 2 but got 1.\nAbsolute difference: 1\n"
     "Relative difference: 0.5"),
    (1, 1.5, {"check_dtype": False}, "Scalars are not close!\n\nExpected 1.5 but got 1.\n"
     "Absolute difference: 0.5 (up to 1e-07 allowed)\n"
     "Relative difference: 0.3333333333333333 (up to 1e-07 allowed)"),
    (1 + 1j, 1 + 2j, {}, "Scalars are not close!\n\nExpected (1+2j) but got (1+1j).\n"
     "Absolute difference: 1.0 (up to 1e-07 allowed)\n"
     "Relative difference: 0.4472135954999579 (up to 1e-07 allowed)"),
    (np.float32(1), np.float32(1.5), {}, "Scalars are not close!\n\nExpected 1.5 but got 1.0.\n"
     "Absolute difference: 0.5 (up to 1e-07 allowed)\n"
     "Relative difference: 0.3333333333333333 (up to 1e-07 allowed)"),
    (np.array([1.0]), np.array([2.0]), {}, NOT_CLOSE + "1 / 1 (100.0%)\n"
     "Greatest absolute difference: 1.0 at index (0,) (up to 1e-07 allowed)\n"
     "Greatest relative difference: 0.5 at index (0,) (up to 1e-07 allowed)"),
    (True, False, {}, "Booleans mismatch: True is not False"),
    (None, 1, {}, "None mismatch: None is not 1"),
    (1, 1.0, {}, "The (d)types do not match: <class 'int'> != <class 'float'>."),
    (T([1.0, 2.0]), T([1.0, 2.0, 3.0]), {},
     "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([3])."),
    (T([1.0]), T([1.0], dtype=torch.float64), {},
     "The values for attribute 'dtype' do not match: torch.float32 != torch.float64."),
    (T([1]), T([1.0]), {},
     "The values for attribute 'dtype' do not match: torch.int64 != torch.float32."),
    (T([[1.0, 2.0], [3.0, 4.0]]).t(), T([[1.0, 3.0], [2.0, 4.0]]), {"check_stride": True},
     "The values for attribute 'stride()' do not match: (1, 2) != (2, 1)."),
    ([T([1.0]), T([2.0])], [T([1.0]), T([2.5])], {}, NOT_CLOSE + "1 / 1 (100.0%)\n"
     "Greatest absolute difference: 0.5 at index (0,) (up to 1e-05 allowed)\n"
     "Greatest relative difference: 0.20000000298023224 at index (0,) (up to 1.3e-06 allowed)"
     "\n\nThe failure occurred for item [1]"),
    ({"a": T([1.0]), "b": [1, {"c": 2}]}, {"a": T([1.0]), "b": [1, {"c": 3}]}, {},
     "Scalars are not equal!\n\nExpected 3 but got 2.\nAbsolute difference: 1\n"
     "Relative difference: 0.3333333333333333\n\nThe failure occurred for item ['b'][1]['c']"),
    ([1, 2], [1, 2, 3], {}, "The length of the sequences mismatch: 2 != 3"),
    ([T(1.0), [1, 2]], [T(2.0), [1]], {"msg": "ignored"},
     "The length of the sequences mismatch: 2 != 1\n\nThe failure occurred for item [1]"),
    ({"a": 1}, {"b": 1}, {}, "The keys of the mappings do not match:\n"
     "Missing keys in the actual mapping: ['b']\nAdditional keys in the actual mapping: ['a']"),
    (T([1.0]), T([2.0]), {"msg": "custom"}, "custom"),
    ([T([1.0])], [T([2.0])], {"msg": "custom"}, "custom"),
    (T([1.0]), T([2.0]), {"msg": lambda text: "X" + text[:10] + "Y"}, "XTensor-likY"),
])
def test_a_mismatch_is_described_as_torch_describes_it(actual, expected, options, message):
    with raises(AssertionError, message):
        ac(actual, expected, **options)


@pytest.mark.parametrize("actual, expected, options, kind, message", [
    (T(1.0), 1.0, {}, TypeError, "No comparison pair was able to handle inputs of type "
     "<class 'torch.Tensor'> and <class 'float'>."),
    (T([1.0]), [1.0], {}, TypeError, "No comparison pair was able to handle inputs of type "
     "<class 'torch.Tensor'> and <class 'list'>."),
    ("a", "b", {}, TypeError, "No comparison pair was able to handle inputs of type "
     "<class 'str'> and <class 'str'>."),
    (np.array(1.0), T(1.0), {}, TypeError, "No comparison pair was able to handle inputs of "
     "type <class 'numpy.ndarray'> and <class 'torch.Tensor'>."),
    (torch.nn.Parameter(T([1.0])), T([1.0]), {"allow_subclasses": False}, TypeError,
     "No comparison pair was able to handle inputs of type "
     "<class 'torch.nn.parameter.Parameter'> and <class 'torch.Tensor'>."),
    (T(1.0), T(1.0), {"rtol": 1e-3}, ValueError,
     "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol."),
    ([T(1.0)], [T(1.0)], {"atol": 1e-3, "msg": "m"}, ValueError,
     "Both 'rtol' and 'atol' must be either specified or omitted, but got no rtol.\n\n"
     "The failure occurred for item [0]"),
    (True, 1, {}, RuntimeError, "Originating a NumberPair() at item  with\n\nbool(): True\n\n"
     "and\n\nint(): 1\n\n" + UNEXPECTED),
    ([0, 1], [0, True], {}, RuntimeError, "Originating a NumberPair() at item [1] with\n\n"
     "int(): 1\n\nand\n\nbool(): True\n\n" + UNEXPECTED),
    (T([1.0]), T([1.0]), {"rtol": -1.0, "atol": 0.0}, RuntimeError, "Comparing\n\n"
     "TensorLikePair(\n    id=(),\n    actual=tensor([1.]),\n    expected=tensor([1.]),\n"
     "    rtol=-1.0,\n    atol=0.0,\n    equal_nan=False,\n    check_device=True,\n"
     "    check_dtype=True,\n    check_layout=True,\n    check_stride=False,\n)\n\n" + UNEXPECTED),
])
def test_inputs_it_cannot_compare_are_refused(actual, expected, options, kind, message):
    with raises(kind, message):
        ac(actual, expected, **options)


def test_a_comparison_that_breaks_outranks_an_earlier_mismatch():
    with pytest.raises(RuntimeError, match=r"\AComparing\n\nTensorLikePair\(\n    id=\(1,\),"):
        ac([1, T([1.0])], [2, T([1.0])], rtol=-1.0, atol=0.0)  # item [0] fails first


def test_comparing_leaves_the_inputs_and_their_gradients_alone():
    x = T([1.0, 2.0], requires_grad=True)
    y = x * 2
    with pytest.raises(AssertionError):
        ac(y, T([2.0, 5.0]))
    assert x.grad is None and y.grad_fn.name() == "MulBackward0" and y._version == 0
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_assert_allclose_warns_and_uses_its_own_tolerances():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.testing.assert_allclose(T([1.0]), T([1.00005]))  # within its rtol 1e-4
        torch.testing.assert_allclose(T([1.0, math.nan]), [1.0, math.nan])  # NaNs equal
        with raises(AssertionError, NOT_CLOSE + "1 / 1 (100.0%)\n"
                    "Greatest absolute difference: 0.001000046730041504 at index (0,) "
                    "(up to 1e-05 allowed)\nGreatest relative difference: 0.001000046730041504 "
                    "at index (0,) (up to 0.0001 allowed)"):
            torch.testing.assert_allclose(T([1.001]), [1.0])
    assert [w.category for w in caught] == [FutureWarning] * 3
    assert str(caught[0].message).startswith("`torch.testing.assert_allclose()` is deprecated")
    assert caught[0].filename == __file__  # pointed at the caller's line
