"""Views whose grad_fn cannot be regenerated: made by a custom Function, in no_grad mode, or
as one of several outputs. After their base is written in place, reading grad_fn raises.
The same assertions run on torch."""

import pytest
import torch

from conformance._support import CUSTOM_VIEW, MULTI_VIEW, raises

INDIRECT = "its base or another view of its base has been modified inplace"
DIRECT = "is being modified inplace"
CUSTOM = " " + CUSTOM_VIEW
MULTI = " " + MULTI_VIEW
AMBIGUOUS = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)


class Tail(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[1:]

    @staticmethod
    def backward(ctx, g):
        return torch.cat([torch.zeros(1, 2), g])


class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g


def _base():
    return torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).clone()


@pytest.mark.parametrize("fn, name", [(Tail, "Tail"), (Same, "Same")])
@pytest.mark.parametrize("quietly", [True, False])
def test_a_custom_functions_view_refuses_its_grad_fn_after_its_base_is_written(fn, name, quietly):
    base = _base()
    view = fn.apply(base)
    assert type(view.grad_fn).__name__ == name + "Backward" and view._base is base
    if quietly:
        with torch.no_grad():
            base.mul_(2)
    else:
        base.mul_(2)
    message = f"Output 0 of {name} is a view and {INDIRECT}." + CUSTOM
    for _ in range(2):  # and again: the view stays as it is
        with raises(RuntimeError, message):
            view.grad_fn
    with raises(RuntimeError, message):
        view.is_leaf
    with raises(RuntimeError, message):
        view * 2
    with raises(RuntimeError, message):
        view.sum()
    assert view.requires_grad and view.output_nr == 0 and view._version == 1
    assert repr(view).endswith("grad_fn=<Invalid>)")
    assert view.detach().tolist() == (base.detach()[1:] if name == "Tail" else base).tolist()


def test_a_view_of_the_custom_view_and_a_write_through_a_sibling_view():
    base = _base()
    view = Tail.apply(base)
    row = view[0]
    assert type(row.grad_fn).__name__ == "SelectBackward0"
    with torch.no_grad():
        base[0].mul_(2)
    with raises(RuntimeError, f"Output 0 of Select is a view and {INDIRECT}." + CUSTOM):
        row.grad_fn
    with raises(RuntimeError, f"Output 0 of Tail is a view and {INDIRECT}." + CUSTOM):
        view.grad_fn


def test_made_under_no_grad_a_custom_view_still_counts_as_one():
    base = _base()
    with torch.no_grad():
        view = Tail.apply(base)
        base.mul_(2)
    message = f"A view was created in no_grad mode and {INDIRECT} with grad mode enabled." + CUSTOM
    with raises(RuntimeError, message):
        view.grad_fn


def test_a_custom_view_of_a_base_without_grad_still_refuses():
    base = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    weight = torch.tensor(1.0, requires_grad=True)

    class TailOf(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t, k):
            return t[1:]

        @staticmethod
        def backward(ctx, g):
            return None, None

    view = TailOf.apply(base, weight)
    assert view.requires_grad and type(view.grad_fn).__name__ == "TailOfBackward"
    with torch.no_grad():
        base.mul_(2)
    with raises(RuntimeError, f"Output 0 of TailOf is a view and {INDIRECT}." + CUSTOM):
        view.grad_fn


@pytest.mark.parametrize("quietly", [True, False])
def test_a_view_made_in_no_grad_mode_refuses_after_its_base_is_written(quietly):
    base = _base()
    with torch.no_grad():
        view = base[1:]
    assert view.grad_fn is None and view.requires_grad
    if quietly:
        with torch.no_grad():
            base.mul_(2)
    else:
        base.mul_(2)
    message = f"A view was created in no_grad mode and {INDIRECT} with grad mode enabled."
    with raises(RuntimeError, message + AMBIGUOUS):
        view.grad_fn


def test_a_no_grad_view_of_a_base_without_grad_says_nothing():
    base = torch.tensor([1.0, 2.0])
    with torch.no_grad():
        view = base[1:]
    base.mul_(2)
    assert view.grad_fn is None and not view.requires_grad and view.is_leaf


@pytest.mark.parametrize("quietly", [True, False])
def test_an_output_of_unbind_refuses_after_its_base_is_written(quietly):
    base = _base()
    first, second = base.unbind(0)
    if quietly:
        with torch.no_grad():
            base.mul_(2)
    else:
        base.mul_(2)
    with raises(RuntimeError, f"Output 0 of Unbind is a view and {INDIRECT}." + MULTI):
        first.grad_fn
    with raises(RuntimeError, f"Output 1 of Unbind is a view and {INDIRECT}." + MULTI):
        second.grad_fn


def test_an_ordinary_view_is_regenerated():
    base = _base()
    view = base[1:]
    with torch.no_grad():
        base.mul_(2)
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"
    view.sum().backward()


def _unbound(b):
    return b.unbind()[1], "Output 1 of Unbind"


def _split(b):
    return b.split(2)[0], "Output 0 of Split"


def _custom(b):
    return Tail.apply(b), "Output 0 of Tail"


@pytest.mark.parametrize("make, ending", [(_unbound, MULTI), (_split, MULTI), (_custom, CUSTOM)])
@pytest.mark.parametrize("quietly", [True, False])
def test_a_saved_view_past_regenerating_refuses_to_be_unpacked(make, ending, quietly):
    b = torch.ones(2, 2, requires_grad=True) * 1
    view, which = make(b)
    y = view * view
    if quietly:
        with torch.no_grad():
            b.add_(1)
    else:
        b.add_(1)
    message = f"{which} is a view and {INDIRECT}." + ending
    with raises(RuntimeError, message):
        y.grad_fn._saved_self
    with raises(RuntimeError, message):
        y.grad_fn._raw_saved_self.unpack()
    with raises(RuntimeError, message):
        y.sum().backward()


def test_a_write_to_a_view_past_regenerating_names_its_first_node():
    b = torch.ones(4, requires_grad=True) * 1
    view = b.unbind()[1]
    b.add_(1)
    b.add_(1)
    with raises(RuntimeError, f"Output 1 of Unbind is a view and {INDIRECT}." + MULTI):
        view.grad_fn
    with raises(RuntimeError, f"Output 1 of Unbind is a view and {DIRECT}." + MULTI):
        view.add_(1)


class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, write):
        if write:
            x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2, None


def _no_grad_view(b):
    with torch.no_grad():
        return b[:2]


@pytest.mark.parametrize("write", [True, False])
@pytest.mark.parametrize("make, message", [
    (lambda b: b.unbind()[0], f"Output 0 of Unbind is a view and {DIRECT}." + MULTI),
    (lambda b: b.split(2)[1], f"Output 1 of Split is a view and {DIRECT}." + MULTI),
    (lambda b: Tail.apply(b.view(2, 2)), f"Output 0 of Tail is a view and {DIRECT}." + CUSTOM),
    (lambda b: Same.apply(b), f"Output 0 of Same is a view and {DIRECT}." + CUSTOM),
    (_no_grad_view, "a leaf Variable that requires grad has been used in an in-place operation."),
])
def test_a_view_marked_dirty_is_refused_in_torchs_words(write, make, message):
    b = torch.ones(4, requires_grad=True) * 1
    with raises(RuntimeError, message):
        Dirty.apply(make(b), write)


def test_a_no_grad_view_of_a_leaf_marked_dirty_is_a_leaf_written():
    with raises(RuntimeError, "a leaf Variable that requires grad has been used in an in-place "
                              "operation."):
        Dirty.apply(_no_grad_view(torch.ones(4, requires_grad=True)), True)


def test_the_edges_of_a_function_are_taken_before_its_forward_writes():
    class Write(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            x.mul_(2)
            return w * 1

        @staticmethod
        def backward(ctx, g):
            return None, g

    a = torch.ones(4, requires_grad=True)
    v = (a * 1)[1:3]
    y = Write.apply(v, torch.ones(2, requires_grad=True))
    assert [type(f).__name__ for f, _ in y.grad_fn.next_functions] == [
        "SliceBackward0", "AccumulateGrad"]
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
