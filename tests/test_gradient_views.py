"""expand_gradient makes the very view ``expand`` makes through dispatch, and
leaves to dispatch every case where something could tell the two apart."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops.gradient_views import expand_gradient
from refgrad._ops.views import NO_GRAD_MODE


def _facts(view, source):
    info = view._view_info
    steps = info.replay
    replay = None if steps is None else [(op.name, params, i) for op, params, i in steps]
    refs = [r() for r in view._version_counter.views]
    return (view.shape, view.stride(), view._base is source, info.creation, replay,
            view._version_counter is source._version_counter, any(r is view for r in refs),
            view.requires_grad, view._data.flags.writeable, view._data.base is source._data)


@pytest.mark.parametrize("replay", [False, True])
@pytest.mark.parametrize("source, sizes", [
    (lambda: torch.tensor(2.0), (3, 4)),
    (lambda: torch.tensor(2.0), (0, 4)),
    (lambda: torch.tensor([[1.0], [2.0]]), (2, 3)),
    (lambda: torch.tensor([1.0, 2.0]), (3, 2)),
    (lambda: torch.tensor(2.0)[()], (5,)),  # a view itself: the base is its base
])
def test_the_direct_view_is_the_dispatched_one(source, sizes, replay):
    with torch.no_grad(), torch.autograd._force_original_view_tracking(replay):
        g = source()
        direct, dispatched = expand_gradient(g, sizes), g.expand(sizes)
    assert _facts(direct, g) == _facts(dispatched, g)
    base = g if g._base is None else g._base
    assert direct._base is base and dispatched._base is base
    assert direct._view_info.creation == NO_GRAD_MODE
    assert np.array_equal(direct._data, dispatched._data)


def test_a_view_of_a_base_that_requires_grad_requires_grad():
    g = torch.tensor(1.0, requires_grad=True)
    with torch.no_grad():
        assert expand_gradient(g, (3,)).requires_grad


def test_grad_mode_on_goes_through_dispatch_and_records():
    g = torch.tensor(1.0, requires_grad=True)
    assert expand_gradient(g, (3,)).grad_fn.name() == "ExpandBackward0"


def test_a_subclass_goes_through_dispatch():
    seen = []

    class Sub(torch.Tensor):
        def expand(self, *sizes):
            seen.append(sizes)
            return super().expand(*sizes)

    g = torch.tensor(1.0).as_subclass(Sub)
    with torch.no_grad():
        expand_gradient(g, [2])
    assert seen == [([2],)]


def test_a_dispatch_mode_sees_the_expand():
    from refgrad.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Watch(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    g = torch.tensor(1.0)
    with torch.no_grad(), Watch():
        expand_gradient(g, (2,))
    assert seen == ["aten.expand.default"]


def test_the_backward_of_a_sum_counts_no_write_and_registers_the_view():
    x = torch.ones(4, requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append((g._base._version_counter.views is not None,
                                           g._view_info.creation)))
    x.sum().backward()
    assert seen == [(True, NO_GRAD_MODE)]
