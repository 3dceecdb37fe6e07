"""Property tests of division that rounds and of the two remainders."""

import math

from hypothesis import given
from hypothesis import strategies as st

import refgrad as torch

INTEGER_DTYPES = {"int8": 7, "int16": 15, "int32": 31, "int64": 63}


@st.composite
def integer_pairs(draw):
    name = draw(st.sampled_from(sorted(INTEGER_DTYPES)))
    bits = INTEGER_DTYPES[name]
    # Away from the smallest value, whose negation overflows.
    values = st.integers(-(2**bits) + 1, 2**bits - 1)
    a = draw(st.lists(values, min_size=1, max_size=8))
    b = draw(st.lists(values.filter(bool), min_size=len(a), max_size=len(a)))
    dtype = getattr(torch, name)
    return torch.tensor(a, dtype=dtype), torch.tensor(b, dtype=dtype)


@given(integer_pairs())
def test_each_quotient_and_its_remainder_rebuild_the_dividend(pair):
    a, b = pair
    floor, trunc = a // b, torch.div(a, b, rounding_mode="trunc")
    remainder, fmod = a % b, torch.fmod(a, b)
    for q, r in ((floor, remainder), (trunc, fmod)):
        assert q.dtype == r.dtype == a.dtype
        assert all(qi * bi + ri == ai for qi, bi, ri, ai in zip(
            q.tolist(), b.tolist(), r.tolist(), a.tolist()))
    for r, bi, ai, f in zip(remainder.tolist(), b.tolist(), a.tolist(), fmod.tolist()):
        assert abs(r) < abs(bi) and (r == 0 or (r < 0) == (bi < 0))  # the divisor's sign
        assert abs(f) < abs(bi) and (f == 0 or (f < 0) == (ai < 0))  # the dividend's sign


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@given(st.lists(finite, min_size=1, max_size=8), st.floats(0.25, 100.0), st.booleans())
def test_float_remainders_keep_their_signs_and_stay_below_the_divisor(values, divisor, flip):
    b = -divisor if flip else divisor
    a = torch.tensor(values, dtype=torch.float64)
    for r, f, ai in zip((a % b).tolist(), torch.fmod(a, b).tolist(), values):
        assert abs(r) <= abs(b) and abs(f) < abs(b)
        assert f == math.fmod(ai, b) and math.copysign(1, f) == math.copysign(1, math.fmod(ai, b))
        if r != 0:
            assert (r < 0) == (b < 0)
        else:  # a zero is fmod's, with fmod's sign
            assert math.copysign(1, r) == math.copysign(1, f)
    # Python's // on floats is the same floor division, correction and all
    assert (a // b).tolist() == [v // b for v in values]
