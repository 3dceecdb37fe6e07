"""refgrad.utils._saving_above_modes: a node's values saved around the dispatch modes."""

import refgrad
from refgrad.autograd._state import state
from refgrad.autograd.graph import saved_tensors_hooks
from refgrad.utils._python_dispatch import TorchDispatchMode


class Passing(TorchDispatchMode):
    def __init__(self, change=None):
        self.seen, self.change = [], change

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func))
        if self.change is not None:
            args = self.change(func, args)
        return func(*args, **(kwargs or {}))


def _noting(log):
    def pack(t):
        log.append(("pack", t.tolist()))
        return t

    def unpack(t):
        log.append(("unpack", t.tolist()))
        return t

    return saved_tensors_hooks(pack, unpack)


def test_hooks_are_back_in_force_once_the_modes_return():
    x = refgrad.ones(2, requires_grad=True)
    log = []
    with _noting(log), Passing():
        in_force = list(state.saved_tensors_hooks)
        x.sin()
        assert state.saved_tensors_hooks == in_force and len(in_force) == 1
    assert state.saved_tensors_hooks == [] and state.held_saved_tensors_hooks == []


def test_a_mode_that_raises_leaves_the_hooks_in_force():
    class Refusing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            raise ValueError("no")

    x = refgrad.ones(2, requires_grad=True)
    log = []
    with _noting(log):
        with Refusing():
            try:
                x.sin()
            except ValueError:
                pass
        assert len(state.saved_tensors_hooks) == 1
    assert log == [("pack", [1.0, 1.0])]  # packed before the mode refused


def test_the_node_keeps_the_values_packed_first_and_unpacks_them():
    x = refgrad.tensor([0.5, 1.0], requires_grad=True)
    log = []
    with _noting(log), Passing():
        y = x.sin() * x
    assert [e[0] for e in log] == ["pack", "pack", "pack"]
    y.sum().backward()
    assert [e[0] for e in log[3:]] == ["unpack", "unpack", "unpack"]
    expected = (x.detach().cos() * x.detach() + x.detach().sin()).tolist()
    assert x.grad.tolist() == expected


def test_a_mode_that_calls_func_on_other_tensors_packs_the_operand_it_was_given():
    def doubled(func, args):  # the node is made above the mode, on the input given
        return (args[0] * 2,) if "sin" in str(func) else args

    x = refgrad.ones(2, requires_grad=True)
    log = []
    with _noting(log), Passing(doubled):
        y = x.sin()
        y.sum().backward()
    assert log == [("pack", [1.0, 1.0]), ("unpack", [1.0, 1.0])]
    assert x.grad.tolist() == x.detach().cos().tolist()


def test_without_hooks_nothing_is_held_and_the_graph_is_the_same():
    x = refgrad.tensor([0.5, 1.0], requires_grad=True)
    with Passing() as mode:
        y = x.exp()
    assert mode.seen == ["aten.exp.default", "aten.detach.default"]  # the saved output
    assert y._grad_fn._saved[0]._data is not None  # a saved output keeps its data
    y.sum().backward()
    assert x.grad.tolist() == x.detach().exp().tolist()


def test_a_refused_check_answered_by_the_mode_gives_the_modes_result():
    class Answering(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return refgrad.zeros(2, 2)

    m = refgrad.ones(2, 3, requires_grad=True)
    with Answering():
        out = m.mm(m)
    assert out.shape == (2, 2)


def test_in_place_write_through_a_view_packs_before_the_write():
    base = refgrad.ones(2, 3, requires_grad=True).clone()
    log = []
    with _noting(log), Passing() as mode:
        base[0].sigmoid_()
    assert mode.seen == ["aten.select.int", "aten.sigmoid_.default"]
    assert log == [("pack", [0.7310585975646973] * 3)]  # the result, after the write
