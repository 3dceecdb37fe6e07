"""Behaviour the differential fuzzer found in its ninth round: float16 rsqrt, and the out= of
sort over an empty tensor.

torch's float16 rsqrt takes whole vectors of thirty-two elements through float32, rounded
once, and the rest one at a time, its square root rounded to float16 before the reciprocal
is taken and rounded again. sort resizes its outs to its input's strides, an empty input's
too. The same assertions run on torch.
"""

import pytest
import torch

QUARTER = 0.0655517578125  # a float16 whose two roundings part from one


def one_rounding(x):
    return (1 / x.float().sqrt()).half()


def two_roundings(x):
    return (1 / x.float().sqrt().half().float()).half()


def test_the_value_parts_by_rounding():
    x = torch.tensor([QUARTER], dtype=torch.float16)
    assert one_rounding(x).item() == 3.90625
    assert two_roundings(x).item() == 3.904296875


@pytest.mark.parametrize("n", [1, 3, 31])
def test_a_short_row_goes_one_element_at_a_time(n):
    x = torch.full((n,), QUARTER, dtype=torch.float16)
    assert torch.equal(x.rsqrt(), two_roundings(x))


@pytest.mark.parametrize("n", [32, 64, 96])
def test_whole_vectors_round_once(n):
    x = torch.full((n,), QUARTER, dtype=torch.float16)
    assert torch.equal(x.rsqrt(), one_rounding(x))


def test_the_tail_after_the_vectors_rounds_twice():
    x = torch.full((40,), QUARTER, dtype=torch.float16)
    y = x.rsqrt()
    assert torch.equal(y[:32], one_rounding(x[:32]))
    assert torch.equal(y[32:], two_roundings(x[32:]))


def test_adjacent_rows_join_and_apart_rows_keep_their_tails():
    joined = torch.full((3, 40), QUARTER, dtype=torch.float16).rsqrt().reshape(-1)
    assert torch.equal(joined[:96], one_rounding(torch.full((96,), QUARTER).half()))
    assert torch.equal(joined[96:], two_roundings(torch.full((24,), QUARTER).half()))
    apart = torch.full((3, 50), QUARTER, dtype=torch.float16)[:, :40].rsqrt()
    assert torch.equal(apart[:, :32], one_rounding(apart.new_full((3, 32), QUARTER)))
    assert torch.equal(apart[:, 32:], two_roundings(apart.new_full((3, 8), QUARTER)))


def test_a_row_of_elements_not_adjacent_goes_one_at_a_time():
    x = torch.full((80,), QUARTER, dtype=torch.float16)[::2]
    assert torch.equal(x.rsqrt(), two_roundings(x))
    y = torch.full((40,), QUARTER, dtype=torch.float16)
    y.rsqrt_()
    assert torch.equal(y[32:], two_roundings(y.new_full((8,), QUARTER)))


def test_sort_into_empty_outs_takes_an_empty_inputs_strides():
    x = torch.zeros(3, 0).t()
    assert x.stride() == (1, 1)
    values, indices = torch.zeros(0), torch.zeros(0, dtype=torch.long)
    torch.sort(x, 0, out=(values, indices))
    assert values.shape == indices.shape == (0, 3)
    assert values.stride() == indices.stride() == (1, 1)
    out = torch.zeros(0)
    torch.msort(x, out=out)
    assert out.stride() == (1, 1)
    w = torch.zeros(4, 0, 2).permute(2, 1, 0)
    torch.sort(w, 0, descending=True, out=(values, indices))
    assert values.stride() == indices.stride() == w.stride()
