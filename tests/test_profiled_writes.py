"""White-box tests of refgrad._profiled_writes."""

import refgrad as torch
from refgrad._profiled_writes import even_share_in_place, profiler_alone
from refgrad.utils._python_dispatch import TorchDispatchMode


class Passing(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def test_the_profiler_alone_is_told_apart_from_other_modes():
    assert not profiler_alone()
    with torch.autograd.profiler.profile():
        assert profiler_alone()
        with Passing():
            assert not profiler_alone()
    with Passing():
        assert not profiler_alone()


def test_the_even_share_is_written_in_place_once():
    x = torch.tensor([1.0, 3.0, 3.0])
    share, = even_share_in_place(torch.tensor(4.0), x, x.max())
    assert share.tolist() == [0.0, 2.0, 2.0]
    assert share._version == 1

