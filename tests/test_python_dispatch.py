"""refgrad.utils._python_dispatch: the mode stack and what a mode sees."""

import threading

import pytest

import refgrad
from refgrad.autograd._state import state
from refgrad.utils._python_dispatch import (
    TorchDispatchMode,
    _get_current_dispatch_mode,
    _get_current_dispatch_mode_stack,
)


class Recording(TorchDispatchMode):
    def __init__(self):
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), func.writes, types, type(kwargs)))
        return func(*args, **kwargs)


def test_enter_pushes_and_exit_pops():
    with Recording() as mode:
        assert _get_current_dispatch_mode() is mode
        assert _get_current_dispatch_mode_stack() == [mode]
    assert state.dispatch_modes == []
    assert _get_current_dispatch_mode() is None


def test_mode_sees_out_of_place_in_place_and_out_calls_with_their_writes():
    a = refgrad.ones(3)
    with Recording() as mode:
        b = a.sin()
        a.sin_()
        refgrad.mul(a, 2, out=b)
        a += 1
    assert mode.seen == [
        ("aten.sin.default", (), (), dict), ("aten.sin_.default", ("self",), (), dict),
        ("aten.mul.out", ("out",), (), dict), ("aten.add_.Tensor", ("self",), (), dict),
    ]
    assert b.tolist() == pytest.approx([2 * 0.8414709848] * 3, rel=1e-6)


def test_ops_inside_a_running_op_are_not_seen_by_the_same_mode():
    a = refgrad.ones(2)
    with Recording() as mode:
        a.zero_()
        a.fill_(3.0)
        a.copy_(refgrad.zeros(2))
    assert [name for name, *_ in mode.seen if "_." in name] == [
        "aten.zero_.default", "aten.fill_.Scalar", "aten.copy_.default"]


def test_func_call_goes_to_the_next_mode_down():
    outer, inner = Recording(), Recording()
    with outer, inner:
        refgrad.ones(2).neg()
    assert [s[0] for s in inner.seen] == [s[0] for s in outer.seen]
    assert "aten.neg.default" in [s[0] for s in inner.seen]


def test_a_mode_can_replace_the_result():
    class Zeroing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **kwargs)
            return out * 0 if func.name() == "aten::exp" else out

    with Zeroing():
        y = refgrad.ones(2).exp()
    assert y.tolist() == [0.0, 0.0]


def test_written_names_the_tensors_of_write_arguments():
    a = refgrad.ones(2)
    found = []

    class Writes(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            found.append(func.written(args, kwargs))
            return func(*args, **kwargs)

    with Writes():
        a[0] = 5.0
    assert any(any(t.data_ptr() == a.data_ptr() for t in w) for w in found)


def test_base_class_refuses_ops():
    with pytest.raises(NotImplementedError), TorchDispatchMode():
        refgrad.ones(2).neg()


def test_stack_is_per_thread():
    seen = []
    with Recording():
        thread = threading.Thread(target=lambda: seen.append(list(state.dispatch_modes)))
        thread.start()
        thread.join()
    assert seen == [[]]


def test_composites_go_whole_only_where_autograd_is_off():
    from refgrad.utils._python_dispatch_composites import composite_whole

    normal = refgrad.ones(2)
    with refgrad.inference_mode():
        inference = refgrad.ones(2)
        assert composite_whole((normal,))
    assert composite_whole((inference,)) and not composite_whole((normal,))
    assert not composite_whole((inference, normal))


def test_a_composite_handed_whole_gives_back_no_view():
    x = refgrad.arange(6.0)
    with refgrad.inference_mode(), Recording() as mode:
        r = x.reshape(2, 3)
        same = x.flatten()
    assert [name for name, *_ in mode.seen] == ["aten.reshape.default", "aten.flatten.using_ints"]
    assert mode.seen[0][1] == () and mode.seen[0][3] is dict  # writes nothing; kwargs a dict
    assert r._view_base is None and r._version_counter is not x._version_counter
    assert same is x  # already flat: the input itself, as without a mode
    with refgrad.inference_mode():
        assert x.reshape(2, 3)._view_base is x  # no mode: a view, as before
