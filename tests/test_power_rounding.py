"""How refgrad rounds the powers torch does not multiply out (chapter "Arithmetic", Powers).

torch's own results for these come from its vectorised power on long inputs, which
refgrad does not copy, so these are refgrad's rules, checked against NumPy.
"""

import numpy as np
import pytest

import refgrad as torch


def _values(dtype):
    return (np.sin(np.arange(2003) * 0.7) * 10).astype(dtype)


@pytest.mark.parametrize("e", [4, 1.5, -3, 0.25, 7.0])
def test_float32_number_powers_are_double_powers_rounded_once(e):
    v = _values(np.float32)
    with np.errstate(all="ignore"):  # 0 to a negative power, sin(0) = 0
        expected = np.power(v.astype(np.float64), float(e)).astype(np.float32)
    got = (torch.tensor(v) ** e).numpy()
    assert np.array_equal(got, expected, equal_nan=True)
    # NumPy's own float32 power is not compared: it rounds differently by processor
    # (its AVX-512 loop is less exact than its AVX2 one), and the rule must not.


def test_float16_and_tensor_exponents_take_numpys_power():
    h = _values(np.float16)
    assert np.array_equal((torch.tensor(h) ** 3).numpy(), np.power(h, 3))
    v = _values(np.float32)
    got = (torch.tensor(v) ** torch.tensor(3.0)).numpy()
    assert np.array_equal(got, np.power(v, np.float32(3.0)))
    assert not np.array_equal(got, v * v * v)  # a tensor exponent is not multiplied out
