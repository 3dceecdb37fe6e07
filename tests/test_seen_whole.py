"""refgrad.utils._seen_whole: the one question a composite asks once a mode is on, whether
a mode takes it whole or a profile records an event around its steps."""

import refgrad
from refgrad._ops.reshaping import reshape
from refgrad.profiler import profile
from refgrad.utils._python_dispatch import TorchDispatchMode
from refgrad.utils._seen_whole import NOT_ASKED, seen_whole


class Names(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), args, kwargs or {}))
        return func(*args, **(kwargs or {}))


def test_autograd_in_the_way_and_no_profile_leave_the_steps_to_run():
    x = refgrad.arange(4.0, requires_grad=True)
    with Names() as mode:
        assert seen_whole("square", refgrad.square, (x,)) is NOT_ASKED
    assert mode.seen == []  # asking hands nothing to the mode


def test_a_mode_gets_the_composite_whole_below_autograd():
    x = refgrad.arange(6.0)
    with refgrad.inference_mode(), Names() as mode:
        out = seen_whole("reshape", reshape, (x, 2, 3))
    assert out.shape == (2, 3)
    assert [(name, args[1:]) for name, args, _ in mode.seen] == [("aten.reshape.default",
                                                                  ([2, 3],))]


def test_only_the_leading_tensors_are_checked_for_autograd():
    with refgrad.inference_mode():
        a = refgrad.ones(3)  # an inference tensor: no autograd for it
    b = refgrad.ones(3)
    with Names() as mode:
        assert seen_whole("outer", refgrad.outer, (a, b), tensors=2) is NOT_ASKED
        out = seen_whole("outer", refgrad.outer, (a, b), tensors=1)  # b not read: whole
    assert out.shape == (3, 3)
    assert [name for name, _, _ in mode.seen][:1] == ["aten.outer.default"]


def test_a_profile_records_the_event_named_and_the_shapes_shown():
    x = refgrad.ones(2, 3, 4, requires_grad=True)
    with profile(record_shapes=True) as p:
        out = seen_whole("flatten", refgrad.flatten, (x, 1, -1), event="flatten.using_ints")
    assert out.shape == (2, 12)
    events = [(e.name, e.input_shapes) for e in p.events()]
    assert events[0] == ("aten::flatten", [[2, 3, 4], [], []])
    with profile(record_shapes=True) as p:
        seen_whole("reshape", reshape, (x, 24), shown=(x, (24,)))
    assert [(e.name, e.input_shapes) for e in p.events()][0] == ("aten::reshape",
                                                                 [[2, 3, 4], []])
