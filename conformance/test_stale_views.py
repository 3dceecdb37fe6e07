"""What a view whose grad_fn torch refuses (made under no_grad, in inference mode or by
unbind/split, its base written since) still allows, and what refuses it with the view's
error: copies to integer dtypes work, hooks and differentiable ops are refused. The same
assertions run on torch."""

import pytest
import torch

from conformance._support import MULTI_VIEW, raises

INDIRECT = "its base or another view of its base has been modified inplace"
AMBIGUOUS = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the {} block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked)."
)
MULTI = " " + MULTI_VIEW
NO_GRAD = ("A view was created in no_grad mode and " + INDIRECT + " with grad mode enabled."
           + AMBIGUOUS.format("no_grad"))
INFERENCE = ("A view was created in inference mode and " + INDIRECT + " in normal mode."
             + AMBIGUOUS.format("inference_mode"))
SPLIT = "Output 0 of SplitWithSizes is a view and " + INDIRECT + "." + MULTI
NONE_NEXT = "'NoneType' object has no attribute 'next_functions'"


def _no_grad_view():
    y = torch.tensor([1.5, -2.5, 3.0], requires_grad=True) * 1
    with torch.no_grad():
        v = y[:2]
    y.mul_(2)
    return v, NO_GRAD


def _inference_view():
    c = torch.tensor([[1.5, -2.5], [3.0, 4.0]], requires_grad=True)
    with torch.inference_mode():
        v = c[0]
    with torch.no_grad():
        c.mul_(2)
    return v, INFERENCE


def _split_view():
    y = torch.tensor([[1.5, -2.5], [3.0, 4.0], [1.0, 2.0]], requires_grad=True) * 1
    v = y.split([1, 2])[0]
    y.mul_(2)
    return v, SPLIT


STALE = [_no_grad_view, _inference_view, _split_view]
INTEGER_COPIES = [
    lambda v: v.to(torch.int64), lambda v: v.long(), lambda v: v.int(), lambda v: v.bool(),
    lambda v: v.type(torch.int32), lambda v: v.to(torch.int64, copy=True),
    lambda v: v.to(dtype=torch.int16), lambda v: torch.zeros(v.shape, dtype=torch.int64).copy_(v),
]


@pytest.mark.parametrize("make", STALE)
@pytest.mark.parametrize("copy", INTEGER_COPIES)
def test_a_copy_to_an_integer_dtype_reads_no_history(make, copy):
    v, _ = make()
    out = copy(v)
    assert out.reshape(-1)[:2].tolist() in ([3, -5], [True, True])
    assert not out.requires_grad and out.grad_fn is None


@pytest.mark.parametrize("make", STALE)
@pytest.mark.parametrize("use", [
    lambda v: v.to(torch.float64), lambda v: v.floor(), lambda v: v.sign(),
    lambda v: v.sort(), lambda v: v * 2, lambda v: v.grad_fn, lambda v: v.is_leaf,
])
def test_differentiable_uses_read_the_history_and_are_refused(make, use):
    v, message = make()
    with raises(RuntimeError, message):
        use(v)


@pytest.mark.parametrize("make", STALE)
def test_uses_without_gradient_still_work(make):
    v, _ = make()
    assert (v > 0).reshape(-1).tolist()[:2] == [True, False]
    assert v.detach().reshape(-1).tolist()[:2] == [3.0, -5.0]
    assert v.argmax().item() == 0 and v.requires_grad
    assert "grad_fn=<Invalid>" in repr(v)


@pytest.mark.parametrize("make", STALE)
def test_register_hook_is_refused_once_then_taken(make):
    v, message = make()
    with raises(RuntimeError, message):
        v.register_hook(lambda g: None)
    # the hook dictionary was set up before grad_fn was read: a second call finds it
    assert type(v.register_hook(lambda g: None)).__name__ == "RemovableHandle"


@pytest.mark.parametrize("make", STALE)
def test_post_accumulate_grad_hooks_are_refused_every_time(make):
    v, message = make()
    for _ in range(2):
        with raises(RuntimeError, message):
            v.register_post_accumulate_grad_hook(lambda t: None)


@pytest.mark.parametrize("make", STALE)
@pytest.mark.parametrize("mode", ["all", "any"])
def test_a_multi_grad_hook_refuses_a_stale_view(make, mode):
    v, message = make()
    x = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, message):
        torch.autograd.graph.register_multi_grad_hook((v, x), lambda gs: None, mode=mode)


def test_a_multi_grad_hook_in_mode_all_refuses_leaves_in_inference_mode():
    a, b = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    seen = []
    with torch.inference_mode():
        with raises(AttributeError, NONE_NEXT):
            torch.autograd.graph.register_multi_grad_hook((a, b), seen.append, mode="all")
        view = a.chunk(2)[0]
        with raises(AttributeError, NONE_NEXT):
            torch.autograd.graph.register_multi_grad_hook((view, a), seen.append, mode="all")
        y = a * 1
    (a * b).sum().backward()
    assert seen == [] and y.grad_fn is None
    with torch.no_grad():  # grad mode alone does not stop torch's throw-away view
        handle = torch.autograd.graph.register_multi_grad_hook((a, b), seen.append)
    (a * b).sum().backward()
    handle.remove()
    assert [[g.tolist() for g in gs] for gs in seen] == [[[1.0, 1.0], [1.0, 1.0]]]


def _chain(first, second, many):
    y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) * 1
    with first():
        a = y[0]
    with second():
        b = a.unbind(0)[0] if many else a[0:1]
    with torch.no_grad():
        y.mul_(2)
    return b


@pytest.mark.parametrize("many", [False, True])
def test_inference_mode_marks_every_later_view_of_a_view(many):
    with raises(RuntimeError, INFERENCE):
        _chain(torch.inference_mode, torch.no_grad, many).grad_fn
    name = "Unbind" if many else "Slice"
    with raises(RuntimeError, f"Output 0 of {name} is a view of a view which was created in "
                              f"inference mode and {INDIRECT} in normal mode."
                              + AMBIGUOUS.format("inference_mode")):
        _chain(torch.inference_mode, torch.enable_grad, many).grad_fn
    with raises(RuntimeError, INFERENCE):  # the other way round: the later mark wins
        _chain(torch.no_grad, torch.inference_mode, many).grad_fn


@pytest.mark.parametrize("kind", ["unbind", "split"])
def test_retain_grad_on_a_stale_view_asks_for_its_node(kind):
    y = torch.zeros(3, 4, requires_grad=True) * 1
    u = y.unbind(0)[0] if kind == "unbind" else y.split(1)[0]
    kept = y.unbind(0)[1] if kind == "unbind" else y.split(1)[1]
    kept.retain_grad()  # asked before the write: a second request returns at once
    with torch.no_grad():
        y.mul_(2)
    with pytest.raises(RuntimeError, match="is a view and its base or another view"):
        u.retain_grad()
    kept.retain_grad()
    assert kept.retains_grad and not u.retains_grad


def test_retain_grad_on_a_stale_view_made_under_no_grad_is_a_leafs():
    x = torch.zeros(3, 4, requires_grad=True)
    with torch.no_grad():
        u = x[0]
        x.mul_(2)
    u.retain_grad()
    assert not u.retains_grad
