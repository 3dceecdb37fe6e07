"""Black-box tests: `@` with what is no tensor, and NumPy results coming back as tensors.
The same assertions run on torch.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def _quietly(f):
    """``f()`` with NumPy's warning about torch's older ``__array_wrap__`` signature ignored."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return f()


@pytest.mark.parametrize("other, name", [
    (2, "int"), (2.5, "float"), ([1.0, 1.0], "list"), (None, "NoneType"),
    (np.float64(2), "numpy.float64")])
def test_matmul_with_no_tensor_is_pythons_refusal(other, name):
    t = torch.ones(2)
    with raises(TypeError, f"unsupported operand type(s) for @: 'Tensor' and '{name}'"):
        t @ other
    with raises(TypeError, f"unsupported operand type(s) for @: '{name}' and 'Tensor'"):
        other @ t
    assert t.__matmul__(other) is NotImplemented and t.__rmatmul__(other) is NotImplemented
    u = torch.ones(2, 2)
    with raises(TypeError, f"unsupported operand type(s) for @=: 'Tensor' and '{name}'"):
        u @= other
    assert u.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_the_functions_keep_their_argument_errors():
    t = torch.ones(2)
    with raises(TypeError, "matmul(): argument 'other' (position 2) must be Tensor, not list"):
        torch.matmul(t, [1.0, 1.0])
    with raises(TypeError, "matmul(): argument 'other' (position 1) must be Tensor, not int"):
        t.matmul(2)


def test_matmul_with_an_array_is_computed_by_numpy_and_comes_back_a_tensor():
    result = _quietly(lambda: torch.ones(2) @ np.ones(2))
    assert type(result) is torch.Tensor and result.dtype == torch.float64
    assert result.shape == () and result.item() == 2.0
    square = _quietly(lambda: torch.ones(2, 2) @ np.ones((2, 2), dtype=np.float32))
    assert square.dtype == torch.float32 and square.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    flags = _quietly(lambda: torch.ones(2, dtype=torch.bool) @ np.ones(2, dtype=bool))
    assert flags.dtype == torch.uint8 and flags.item() == 1
    u = torch.ones(2, 2)
    u @= torch.full((2, 2), 3.0)
    assert u.tolist() == [[6.0, 6.0], [6.0, 6.0]]
    with raises(TypeError, "unsupported operand type(s) for @: 'numpy.ndarray' and 'Tensor'"):
        np.ones(2) @ torch.ones(2)
    with raises(RuntimeError, "Can't call numpy() on Tensor that requires grad. "
                              "Use tensor.detach().numpy() instead."):
        torch.ones(2, requires_grad=True) @ np.ones(2)


def test_numpy_functions_of_a_tensor_give_tensors():
    t = torch.ones(2)
    sines = _quietly(lambda: np.sin(t))
    assert type(sines) is torch.Tensor and sines.dtype == torch.float32
    assert sines.tolist() == pytest.approx([0.8414709568023682] * 2)
    greater = _quietly(lambda: np.greater(t, 0))
    assert greater.dtype == torch.uint8 and greater.tolist() == [1, 1]


def test_array_wrap_shares_the_array():
    array = np.ones(2)
    wrapped = torch.ones(2).__array_wrap__(array)
    wrapped.add_(1)
    assert array.tolist() == [2.0, 2.0] and wrapped.dtype == torch.float64
    with raises(TypeError, "expected np.ndarray (got numpy.float64)"):
        torch.ones(2).__array_wrap__(np.float64(3))
