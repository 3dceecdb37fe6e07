"""A view without a grad_fn requires grad when its base does, but only its own flag gives it an
AccumulateGrad: without one, no gradient reaches it. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

VIEW_OF_LEAF = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
NOT_USED = ("The differentiated Tensor at index 0 appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior.")


def _no_grad_view(base):
    with torch.no_grad():
        return base[1:]


@pytest.mark.parametrize("computed", [False, True])
def test_a_no_grad_view_requires_grad_but_has_no_edge(computed):
    a = torch.ones(3, requires_grad=True)
    v = _no_grad_view(a * 1 if computed else a)
    assert (v.requires_grad, v.is_leaf, v.grad_fn) == (True, True, None)
    y = (v * 3).sum()
    mul = y.grad_fn.next_functions[0][0]
    assert y.requires_grad and mul.next_functions == ((None, 0), (None, 0))
    y.backward()
    assert v.grad is None and a.grad is None


def test_no_gradient_reaches_a_no_grad_view_through_grad_hooks_or_retain_grad():
    a = torch.ones(3, requires_grad=True)
    v = _no_grad_view(a)
    seen = []
    v.register_hook(seen.append)
    v.retain_grad()
    v.register_post_accumulate_grad_hook(seen.append)
    (v * 3).sum().backward(inputs=[v])
    assert seen == [] and v.grad is None and not v.retains_grad
    with raises(RuntimeError, NOT_USED):
        torch.autograd.grad((v * 3).sum(), v)
    assert torch.autograd.grad((v * 3).sum(), [a, v], allow_unused=True) == (None, None)


def test_a_no_grad_view_has_no_gradient_edge_and_is_no_root():
    a = torch.ones(3, requires_grad=True)
    v = _no_grad_view(a)
    with raises(AssertionError, "Expected gradient function to be set"):
        torch.autograd.graph.get_gradient_edge(v)
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have a "
                              "grad_fn"):
        v.backward(torch.ones(2))


def test_nothing_is_saved_for_a_no_grad_view_so_a_later_write_breaks_nothing():
    a = torch.ones(4, requires_grad=True)
    b = a * 1
    v = _no_grad_view(b)
    y = v * v
    assert y.grad_fn._saved_self is None and y.grad_fn._saved_other is None
    b.add_(1)
    e = _no_grad_view(b).exp()
    with torch.no_grad():
        b.mul_(2)
    y.sum().backward()
    e.sum().backward()
    assert a.grad is None


def test_its_own_flag_gives_a_view_an_accumulator():
    a = torch.ones(3, requires_grad=True)
    v = _no_grad_view(a)
    v.requires_grad_(False)
    assert v.requires_grad  # its base's flag still answers
    v.requires_grad_()
    (v * 3).sum().backward()
    assert v.grad.tolist() == [3.0, 3.0] and a.grad is None
    v.requires_grad_(False)
    assert (v * 3).grad_fn.next_functions == ((None, 0), (None, 0))


def test_a_view_follows_its_base_requires_grad_both_ways():
    a = torch.ones(3)
    v = a[1:]
    a.requires_grad_()
    assert (v.requires_grad, v.is_leaf, v.grad_fn) == (True, True, None)
    assert (v * 2).grad_fn.next_functions == ((None, 0), (None, 0))
    with raises(RuntimeError, VIEW_OF_LEAF):
        v.add_(1)
    a.requires_grad = False
    assert not v.requires_grad
    v.add_(1)  # no longer refused
    with torch.no_grad():
        w = _no_grad_view(torch.ones(3, requires_grad=True))
    w._base.detach_()
    assert not w.requires_grad and a.tolist() == [1.0, 2.0, 2.0]


def test_a_views_own_flag_outlasts_its_bases():
    a = torch.ones(3)
    v = a[1:]
    v.requires_grad_()
    a.requires_grad_()
    a.requires_grad_(False)
    assert v.requires_grad and not a.requires_grad
    (v * v).sum().backward()
    assert v.grad.tolist() == [2.0, 2.0]


NO_GRAD_VIEW_WRITTEN = ("A view was created in no_grad mode and its base or another view of its "
                        "base has been modified inplace with grad mode enabled.")


@pytest.mark.parametrize(("name", "call", "saved"), [
    ("sin", lambda v: v.sin(), "_saved_self"), ("exp", lambda v: v.exp(), "_saved_result"),
    ("sigmoid", lambda v: v.sigmoid(), "_saved_result"),
    ("prod", lambda v: v.prod(), "_saved_self"),
])
def test_what_torch_keeps_whenever_it_records_is_kept_for_such_a_view(name, call, saved):
    a = torch.ones(3, requires_grad=True)
    v = _no_grad_view(a)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = call(v)
    assert packed and getattr(y.grad_fn, saved) is not None


def test_a_write_to_the_base_then_refuses_the_backward_in_the_no_grad_views_words():
    a = torch.ones(3, requires_grad=True)
    y = _no_grad_view(a).sin()
    with torch.no_grad():
        a.add_(1)
    with pytest.raises(RuntimeError) as error:
        y.sum().backward()
    assert str(error.value).startswith(NO_GRAD_VIEW_WRITTEN)


@pytest.mark.parametrize("read", [lambda y: y.grad_fn._saved_self,
                                  lambda y: y.grad_fn._raw_saved_self.unpack(),
                                  lambda y: y.sum().backward()],
                         ids=["_saved_self", "unpack", "backward"])
def test_a_saved_no_grad_view_whose_base_was_written_refuses_in_its_words(read):
    a = torch.ones(4, requires_grad=True)
    x = torch.ones(3, requires_grad=True)
    y = _no_grad_view(a) * x
    with torch.no_grad():
        a.add_(1)
    with pytest.raises(RuntimeError) as error:
        read(y)
    assert str(error.value).startswith(NO_GRAD_VIEW_WRITTEN)


def test_a_views_accumulator_survives_its_flag_going_off_and_on():
    a = torch.ones(3)
    v = _no_grad_view(a)
    v.requires_grad_()
    y = v * 2
    v.requires_grad_(False)
    assert not (v * 3).requires_grad
    v.requires_grad_()
    z = v * 3
    assert y.grad_fn.next_functions[0][0] is z.grad_fn.next_functions[0][0]
    (y.sum() + z.sum()).backward()
    assert v.grad.tolist() == [5.0, 5.0]
