"""Black-box tests: an as_strided storage offset that is not given stays not given. A dispatch
mode is handed no offset for as_strided, as_strided_, as_strided_copy and as_strided_scatter
called without one, and the node saves None, while the view still starts where the input
does and its gradient lands there. The same assertions run on torch."""

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()


def _x():
    return torch.arange(8.0)[2:]


CASES = [  # (id, call, what the mode sees last)
    ("method", lambda: _x().as_strided((2,), (1,)),
     ("aten.as_strided.default", ("T", [2], [1]), {})),
    ("function", lambda: torch.as_strided(_x(), (2,), (2,)),
     ("aten.as_strided.default", ("T", [2], [2]), {})),
    ("none_given", lambda: _x().as_strided((2,), (1,), None),
     ("aten.as_strided.default", ("T", [2], [1]), {})),
    ("given", lambda: _x().as_strided((2,), (1,), 3),
     ("aten.as_strided.default", ("T", [2], [1], 3), {})),
    ("given_by_name", lambda: _x().as_strided((2,), (1,), storage_offset=0),
     ("aten.as_strided.default", ("T", [2], [1], 0), {})),
    ("in_place", lambda: _x().as_strided_((2,), (2,)),
     ("aten.as_strided_.default", ("T", [2], [2]), {})),
    ("in_place_given", lambda: _x().as_strided_((2,), (2,), 1),
     ("aten.as_strided_.default", ("T", [2], [2], 1), {})),
    ("copy", lambda: torch.as_strided_copy(_x(), (2,), (1,)),
     ("aten.as_strided_copy.default", ("T", [2], [1]), {})),
    ("copy_given", lambda: torch.as_strided_copy(_x(), (2,), (1,), 4),
     ("aten.as_strided_copy.default", ("T", [2], [1], 4), {})),
    ("scatter", lambda: torch.as_strided_scatter(torch.zeros(6), torch.ones(2), (2,), (1,)),
     ("aten.as_strided_scatter.default", ("T", "T", [2], [1]), {})),
    ("scatter_given",
     lambda: torch.zeros(6).as_strided_scatter(torch.ones(2), (2,), (1,), 1),
     ("aten.as_strided_scatter.default", ("T", "T", [2], [1], 1), {})),
]


@pytest.mark.parametrize(("call", "expected"), [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_a_mode_sees_the_offset_as_given(call, expected):
    alone = call()
    with Calls() as mode:
        under = call()
    assert mode.seen[-1] == expected
    assert under.tolist() == alone.tolist() and under.storage_offset() == alone.storage_offset()


def test_the_view_starts_where_the_input_does():
    with Calls() as mode:
        view = _x().as_strided((2,), (1,))
    assert view.tolist() == [2.0, 3.0] and view.storage_offset() == 2
    func, args, kwargs = mode.kept[-1]
    again = func(*args, **kwargs)  # what the mode passes back makes the same view
    assert again.tolist() == [2.0, 3.0] and again.storage_offset() == 2


@pytest.mark.parametrize(("offset", "saved"), [((), None), ((None,), None), ((1,), 1)])
def test_the_node_saves_the_offset_as_given(offset, saved):
    x = torch.arange(6.0, requires_grad=True)
    y = x[2:].as_strided((2,), (2,), *offset)
    assert y.grad_fn._saved_storage_offset == saved
    z = torch.arange(6.0, requires_grad=True).clone()[2:]
    z.as_strided_((2,), (1,), *offset)
    assert (type(z.grad_fn).__name__, z.grad_fn._saved_storage_offset) == (
        "AsStridedBackward1", saved)
    c = torch.as_strided_copy(x[2:], (2,), (1,), *offset)
    assert c.grad_fn._saved_storage_offset == saved
    s = torch.as_strided_scatter(torch.zeros(6, requires_grad=True), torch.ones(2), (2,), (1,),
                                 *offset)
    assert s.grad_fn._saved_storage_offset == saved


def test_gradients_land_at_the_inputs_own_offset():
    x = torch.arange(6.0, dtype=torch.float64, requires_grad=True)
    y = x[2:].as_strided((2, 2), (1, 1))
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [0.0, 0.0, 1.0, 2.0, 1.0, 0.0]
    assert g.grad_fn is None  # the gradient does not depend on x
    assert torch.autograd.gradcheck(lambda a: a[1:].as_strided((2, 2), (2, 1)), (x,))
    z = torch.arange(6.0, requires_grad=True).clone()[2:]
    z.as_strided_((2,), (1,))
    z.sum().backward()


def test_a_tangent_is_viewed_at_its_own_offset():
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.arange(8.0)[1:5], (torch.arange(10.0) * 10)[3:7])
        y = d.as_strided((2,), (1,))
        assert fwAD.unpack_dual(y).tangent.tolist() == [30.0, 40.0]
        assert y.tolist() == [1.0, 2.0]


def test_view_func_compares_the_storages_with_an_op_a_mode_sees():
    x = torch.arange(6.0, requires_grad=True)
    view = x[1:].as_strided((2,), (1,))
    same, longer, short = torch.arange(6.0) * 2, torch.arange(8.0)[:6], torch.arange(7.0)[:5]
    with Calls() as mode:
        again = view._view_func(same)
        assert view._view_func(longer) is None and view._view_func(short) is None
        unsafe = view._view_func_unsafe(longer)
    assert mode.seen == [
        ("aten._has_same_storage_numel.default", ("T", "T"), {}),
        ("aten.as_strided.default", ("T", [2], [1], 1), {}),
        ("aten._has_same_storage_numel.default", ("T", "T"), {}),
        ("aten._has_same_storage_numel.default", ("T", "T"), {}),
        ("aten.as_strided.default", ("T", [2], [1], 1), {})]
    assert [mode.kept[i][1][0].shape[0] for i in (0, 2, 3)] == [6, 6, 5]  # the new base first
    assert again.tolist() == [2.0, 4.0] and unsafe.tolist() == [1.0, 2.0]
    func, args, kwargs = mode.kept[0]
    assert func(*args, **kwargs) is True
