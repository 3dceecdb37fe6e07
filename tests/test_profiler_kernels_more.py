"""The second table of kernel events: repeated events, and the questions it adds."""

import refgrad as torch
from refgrad.autograd import _profiler_kernels as kernels
from refgrad.autograd import _profiler_kernels_more as more
from refgrad.autograd.profiler import profile


def test_a_repeated_event_keeps_its_star_until_recorded():
    (event,) = kernels.entry("unbind", "int")
    assert event[0] == "*select" and event[3][0][0] == "as_strided"


def test_only_adjacent_integer_indices_of_one_shape_are_described():
    f, i = torch.ones(2, 3, 4), torch.zeros(2).long()
    assert more.CONDITIONS["adjacent"]((f, [None, i, i]), {}, None)
    assert not more.CONDITIONS["adjacent"]((f, [i, None, i]), {}, None)
    assert not more.CONDITIONS["adjacent"]((f, [i.bool()]), {}, None)
    assert not more.CONDITIONS["adjacent"]((f, [i, torch.zeros(1).long()]), {}, None)


def test_a_split_records_one_narrow_for_each_piece_without_a_profile_nothing():
    f = torch.ones(3, 2)
    with profile() as prof:
        f.split(1)
    names = [e.name for e in prof.function_events]
    assert names.count("aten::narrow") == 3 and names.count("aten::slice") == 3
    assert len(f.split(1)) == 3  # and outside a profile, the same pieces
