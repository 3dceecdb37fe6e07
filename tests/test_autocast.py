"""refgrad's deliberate difference: no bfloat16, so CPU autocast has no default dtype."""

import re

import pytest

import refgrad as torch
import refgrad.nn.functional as F
from refgrad._autocast_state import amp_state, autocast_on

NO_BFLOAT16 = ("refgrad has no bfloat16, torch's default autocast dtype for 'cpu': pass "
               "dtype=torch.float16 to torch.autocast, or call "
               "torch.set_autocast_dtype('cpu', torch.float16)")


def _refuses():
    return pytest.raises(RuntimeError, match=re.escape(NO_BFLOAT16))


def test_a_cpu_region_without_a_dtype_is_refused():
    with _refuses():
        torch.autocast("cpu")
    with _refuses():
        torch.get_autocast_dtype("cpu")
    with _refuses(), pytest.warns(FutureWarning):
        torch.cpu.amp.autocast()


def test_a_disabled_region_needs_no_dtype():
    with torch.autocast("cpu", enabled=False) as region:
        assert region.fast_dtype is None and not torch.is_autocast_enabled("cpu")
        assert F.linear(torch.ones(2, 2), torch.ones(2, 2)).dtype is torch.float32


def test_a_set_dtype_is_the_default_until_unset():
    torch.set_autocast_dtype("cpu", torch.float16)
    try:
        with torch.autocast("cpu"):
            assert torch.mm(torch.ones(2, 2), torch.ones(2, 2)).dtype is torch.float16
    finally:
        torch.set_autocast_dtype("cpu", None)
    with _refuses():
        torch.autocast("cpu")


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
