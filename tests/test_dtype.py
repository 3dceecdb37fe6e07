"""refgrad._dtype: torch's promotion, checked on every pair and with number priorities."""

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from refgrad import _dtype as dt


@pytest.mark.parametrize(("a", "b"), list(itertools.product(dt.ALL, repeat=2)))
def test_promote_types_is_symmetric_and_never_narrows_a_category(a, b):
    result = dt.promote_types(a, b)
    assert result is dt.promote_types(b, a)
    assert result.category == max(a.category, b.category)
    if a.category == b.category == dt.FLOATING:  # the two two-byte floats meet in float32
        wider = 4 if {a, b} == {dt.float16, dt.bfloat16} else max(a.itemsize, b.itemsize)
        assert result.itemsize == wider


def _operand(d, ndim):
    return SimpleNamespace(dtype=d, ndim=ndim)


@pytest.mark.parametrize(
    ("operands", "expected"),
    [
        ((_operand(dt.int32, 1), 2.5), dt.float32),
        ((_operand(dt.int32, 1), 2), dt.int32),
        ((_operand(dt.float16, 1), _operand(dt.float64, 0)), dt.float16),
        ((_operand(dt.int64, 1), _operand(dt.float64, 0)), dt.float64),
        ((_operand(dt.bool, 1), True), dt.bool),
        ((_operand(dt.bool, 1), 1), dt.int64),
        ((_operand(dt.uint8, 0), _operand(dt.int8, 0)), dt.int16),
        ((_operand(dt.float64, 0), 1.5), dt.float64),
        ((3, 1.5), dt.float32),
        ((True, 2), dt.int64),
    ],
)
def test_result_type_priorities(operands, expected):
    assert dt.result_type(*operands) is expected


def test_from_numpy_refuses_what_refgrad_does_not_have():
    assert dt.from_numpy(np.float64) is dt.float64
    assert dt.from_numpy(np.complex128) is dt.complex128
    with pytest.raises(TypeError, match="refgrad has no dtype for NumPy's uint16"):
        dt.from_numpy(np.uint16)


def test_complex_numbers_make_complex_tensors():
    # the complex dtypes: chapter "Complex numbers"
    import refgrad

    t = refgrad.ones(2)
    for make in (lambda: t + 1j, lambda: t * (2 + 0j), lambda: refgrad.full((2,), 1j),
                 lambda: refgrad.tensor(1j)):
        assert make().dtype is dt.complex64
    assert t.tolist() == [1.0, 1.0]
