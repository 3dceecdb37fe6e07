"""A result written into an out= tensor or an in-place target of a narrower float dtype
overflows to inf silently, as the same cast does in a conversion."""

import warnings

import pytest
import torch

BIG = torch.tensor([1e10, -1e300, 2.0], dtype=torch.float64)


def written_out(kind):
    out = torch.empty(3, dtype=kind)
    torch.add(BIG, 0, out=out)
    return out


def added_in_place(kind):
    target = torch.zeros(3, dtype=kind)
    target += BIG
    return target


def multiplied_in_place(kind):
    target = torch.ones(3, dtype=kind)
    return target.mul_(BIG)


def written_transposed(kind):
    out = torch.empty(3, 2, dtype=kind).t()
    torch.mul(BIG.expand(2, 3), 1, out=out)
    return out[0]


@pytest.mark.parametrize("kind", [torch.float16, torch.float32])
@pytest.mark.parametrize("write", [written_out, added_in_place, multiplied_in_place,
                                   written_transposed])
def test_an_overflowing_write_is_silent(write, kind):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = write(kind)
    assert result.dtype == kind
    assert torch.equal(result, BIG.to(kind))
    assert result.isinf().tolist()[:2] == [kind == torch.float16, True]


def test_a_large_integer_power_written_into_float16_is_silent():
    out = torch.empty(1, dtype=torch.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.pow(torch.tensor([200], dtype=torch.uint8), torch.tensor([9]), out=out)
    assert torch.equal(out, torch.pow(torch.tensor([200]), 9).to(torch.float16))
