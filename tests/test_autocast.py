"""CPU autocast's switches: bfloat16 by default, regions counted, the cast cache emptied."""

import pytest

import refgrad as torch
import refgrad.nn.functional as F
from refgrad._autocast_state import amp_state, autocast_on


def test_a_cpu_region_without_a_dtype_computes_in_bfloat16():
    assert torch.get_autocast_dtype("cpu") is torch.bfloat16
    with torch.autocast("cpu") as region:
        assert region.fast_dtype is torch.bfloat16
        assert torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype is torch.bfloat16
    with pytest.warns(FutureWarning), torch.cpu.amp.autocast():
        assert F.linear(torch.ones(2, 2), torch.ones(2, 2)).dtype is torch.bfloat16


def test_a_disabled_region_keeps_float32():
    with torch.autocast("cpu", enabled=False) as region:
        assert region.fast_dtype is torch.bfloat16 and not torch.is_autocast_enabled("cpu")
        assert F.linear(torch.ones(2, 2), torch.ones(2, 2)).dtype is torch.float32


def test_a_set_dtype_is_the_default_until_set_back():
    torch.set_autocast_dtype("cpu", torch.float16)
    try:
        with torch.autocast("cpu"):
            assert torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype is torch.float16
    finally:
        torch.set_autocast_dtype("cpu", torch.bfloat16)
    with torch.autocast("cpu"):
        assert torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype is torch.bfloat16


def test_regions_count_themselves_and_empty_the_cache_when_the_outermost_ends():
    w = torch.ones(2, 2, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.float16):
        assert autocast_on.cpu == 1
        with torch.autocast("cpu", dtype=torch.float16):
            torch.mm(w, w)
        assert list(amp_state.cache) == [id(w)]  # an inner exit keeps it
    assert amp_state.cache == {} and autocast_on.cpu == 0


def test_a_cpu_region_counts_itself_among_the_switches_a_row_tests():
    from refgrad.autograd._state import switched_on

    before = switched_on.dispatch_modes, autocast_on.cpu
    with torch.autocast("cpu", dtype=torch.float16):
        assert switched_on.dispatch_modes == before[0] + 1 and autocast_on.cpu == before[1] + 1
        with torch.autocast("cpu", enabled=False):  # off inside: uncounted while off
            assert switched_on.dispatch_modes == before[0]
            assert torch.ones(2, 2).mm(torch.ones(2, 2)).dtype == torch.float32
        assert torch.ones(2, 2).mm(torch.ones(2, 2)).dtype == torch.float16
    with pytest.raises(ZeroDivisionError):
        with torch.autocast("cpu", dtype=torch.float16):
            raise ZeroDivisionError
    assert (switched_on.dispatch_modes, autocast_on.cpu) == before
