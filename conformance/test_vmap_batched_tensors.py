"""What tensors say inside torch.vmap: batched ones report no autograd state of their own
(requires_grad False, no grad_fn, leaves), while gradients still flow through vmap's result;
and out_dims=None refuses an output made from the batch, whatever its values."""

import pytest
import torch
from torch.func import grad, vmap

from conformance._support import printed_in_a_fresh_process, raises

BATCHED = "can not return a BatchedTensor when out_dim is None"


def _said(t):
    return (t.requires_grad, t.grad_fn is None, t.is_leaf)


def _batch(requires_grad):
    return torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=requires_grad)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_inputs_and_intermediates_report_no_autograd(requires_grad):
    said = []

    def f(t):
        u = t * 2
        w = u.sin()
        said.extend([_said(t), _said(u), _said(w)])
        return w

    x = _batch(requires_grad)
    y = vmap(f)(x)
    assert said and all(s == (False, True, True) for s in said)
    assert y.requires_grad is requires_grad
    assert (y.grad_fn is None) is not requires_grad


def test_gradient_flows_through_vmap_to_its_input():
    x = _batch(True)
    vmap(lambda t: (t * 2).sin())(x).sum().backward()
    expected = 2 * (2 * x.detach()).cos()
    torch.testing.assert_close(x.grad, expected)


def test_gradient_flows_through_nested_vmap():
    x = _batch(True)
    said = []

    def f(t):
        said.append(_said(t))
        return t.exp()

    vmap(vmap(f))(x).sum().backward()
    assert said and all(s == (False, True, True) for s in said)
    torch.testing.assert_close(x.grad, x.detach().exp())


def test_grad_and_retains_grad_of_a_batched_tensor():
    said = []

    def f(t):
        said.append((t.grad, t.retains_grad))
        return t

    vmap(f)(_batch(True))
    assert said and all(s == (None, False) for s in said)


def test_a_batched_tensor_refuses_hooks_and_retain_grad():
    def hooked(t):
        t.register_hook(lambda g: g)
        return t

    def retained(t):
        t.retain_grad()
        return t

    with raises(RuntimeError, "cannot register a hook on a tensor that doesn't require "
                "gradient"):
        vmap(hooked)(_batch(True))
    with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        vmap(retained)(_batch(True))


def test_captured_tensors_say_what_they_are():
    w = torch.ones(3, requires_grad=True)
    said = {}

    def f(t):
        said["w"], said["w*2"], said["t*w"] = _said(w), _said(w * 2), _said(t * w)
        return t * w

    y = vmap(f)(_batch(False))
    assert said == {"w": (True, True, True), "w*2": (True, False, False),
                    "t*w": (False, True, True)}
    y.sum().backward()
    assert w.grad.tolist() == [3.0, 5.0, 7.0]


def test_an_input_passed_whole_says_what_it_is():
    said = []

    def f(a, b):
        said.append((_said(a), _said(b)))
        return a + b

    vmap(f, in_dims=(0, None))(torch.ones(2, 3), torch.ones(3, requires_grad=True))
    assert said and all(s == ((False, True, True), (True, True, True)) for s in said)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_under_grad_inside_vmap_the_followed_tensors_require_grad(requires_grad):
    said = []

    def f(t):
        u = t * 2
        said.append((t.requires_grad, u.requires_grad, type(u.grad_fn).__name__))
        return u.sin().sum()

    x = _batch(requires_grad)
    g = vmap(grad(f))(x)
    assert said and all(s == (True, True, "MulBackward0") for s in said)
    torch.testing.assert_close(g.detach(), 2 * (2 * x.detach()).cos())


def test_under_grad_a_batched_operand_stays_batched():
    said = []

    def f(a, y):
        said.append((_said(a)[0], _said(y), _said(a * y)[0]))
        return (a * y).sum()

    vmap(lambda x, y: grad(f)(x, y))(torch.ones(2, 3), torch.ones(2, 3))
    assert said and all(s == (True, (False, True, True), True) for s in said)


def test_vmap_inside_grad_hides_grads_tracking():
    said = []

    def f(t):
        u = t * 2
        said.extend([_said(t), _said(u)])
        return u

    g = grad(lambda a: vmap(f)(a).sum())(_batch(False))
    assert said and all(s == (False, True, True) for s in said)
    assert g.tolist() == [[2.0] * 3] * 2


def test_under_no_grad_inside_vmap_nothing_is_recorded():
    def f(t):
        with torch.no_grad():
            return t * 2

    y = vmap(f)(_batch(True))
    assert not y.requires_grad and y.grad_fn is None


def test_out_dims_none_refuses_an_output_made_from_the_batch():
    x = _batch(False)
    for f in (lambda t: t * 2, lambda t: t * 0 + 1, lambda t: t.sum() * 0):
        with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` " + BATCHED):
            vmap(f, out_dims=None)(x)


def test_out_dims_none_for_one_output_refuses_it_when_batched():
    def g(t):
        return t * 2, (t - t).sum()

    with raises(ValueError, "vmap(g, ...): `g` " + BATCHED):
        vmap(g, out_dims=(0, None))(_batch(True))


def test_out_dims_none_takes_an_output_made_without_the_batch():
    c = torch.ones(3)
    out = vmap(lambda t: (t * 2, c * 3, c, 5), out_dims=(0, None, None, None))(_batch(False))
    assert out[1].tolist() == [3.0, 3.0, 3.0]
    assert out[2] is c and out[3] == 5


def test_inner_vmap_refuses_a_tensor_batched_by_the_outer_one():
    def outer(t):
        return vmap(lambda s: (s * 2, t * 3), out_dims=(0, None))(t)

    with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` " + BATCHED):
        vmap(outer)(_batch(False))


def test_inner_vmap_takes_a_tensor_of_the_outer_one_passed_whole():
    def outer(t, c):
        return vmap(lambda s: (s * 2, c * 3), out_dims=(0, None))(t)

    doubled, tripled = vmap(outer, in_dims=(0, None))(_batch(False), torch.ones(3))
    assert doubled.tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    assert tripled.tolist() == [[3.0, 3.0, 3.0]] * 2


def _counting_function(rule_applies_itself):
    calls = {"forward": 0, "backward": 0, "vmap": 0}

    class Tripled(torch.autograd.Function):
        @staticmethod
        def forward(x):
            calls["forward"] += 1
            return x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            calls["backward"] += 1
            return g * 10

        @staticmethod
        def vmap(info, in_dims, x):
            calls["vmap"] += 1
            moved = x.movedim(in_dims[0], 0)
            return (Tripled.apply(moved) if rule_applies_itself else moved * 3), 0

    return Tripled, calls


def test_a_function_under_vmap_alone_is_differentiated_through_its_rule():
    tripled, calls = _counting_function(rule_applies_itself=False)
    x = _batch(True)
    y = vmap(tripled.apply)(x)
    y.sum().backward()
    assert calls == {"forward": 0, "backward": 0, "vmap": 1}
    assert x.grad.tolist() == [[3.0] * 3] * 2


def test_a_rule_that_applies_its_function_reaches_the_functions_backward():
    tripled, calls = _counting_function(rule_applies_itself=True)
    x = _batch(True)
    y = vmap(tripled.apply)(x)
    y.sum().backward()
    assert calls == {"forward": 1, "backward": 1, "vmap": 1}
    assert x.grad.tolist() == [[10.0] * 3] * 2


def test_grad_of_a_batched_slice_gives_none_without_warning():
    import warnings

    x = _batch(True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seen = []
        vmap(lambda t: seen.append(t.grad) or t * 2)(x)
        assert seen == [None, None] or seen == [None]  # torch runs f once, refgrad per slice
        assert caught == []
        (x * 2).grad  # a plain non-leaf still warns, pointing at this line
    assert len(caught) == 1 and caught[0].filename == __file__


def test_out_dims_none_refuses_draws_that_differ_between_slices():
    x = _batch(False)
    with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` " + BATCHED):
        vmap(lambda t: torch.rand(3), randomness="different", out_dims=None)(x)
    assert vmap(lambda t: torch.rand(3), randomness="same", out_dims=None)(x).shape == (3,)


def test_a_rule_is_told_a_batched_argument_is_batched_even_when_its_slices_agree():
    told = []

    @torch.library.custom_op("batchedtensors::scaled", mutates_args=())
    def scaled(x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
        return x * s

    @scaled.register_vmap
    def rule(info, in_dims, x, s):
        told.append(in_dims)
        moved = s if in_dims[1] is None else s.movedim(in_dims[1], 0)
        return scaled(x.movedim(in_dims[0], 0), moved), 0

    c = torch.tensor([1.0, 2.0, 3.0])
    x = torch.ones(2, 3)
    vmap(lambda t: scaled(t, c * 2))(x)
    vmap(lambda t: scaled(t, t * 0 + 1))(x)
    vmap(lambda t: scaled(t, torch.rand(3)), randomness="different")(x)
    vmap(lambda t: scaled(t, torch.rand(3)), randomness="same")(x)
    assert told == [(0, None), (0, 0), (0, 0), (0, None)]



_BEFORE_AND_AFTER = """
import {module} as torch

bound = [torch.Tensor.requires_grad, torch.Tensor.grad_fn, torch.Tensor.is_leaf,
         torch.Tensor.retain_grad, torch.Tensor.register_hook, torch.Tensor.requires_grad_]


def said(t):
    refused = []
    for ask in (t.retain_grad, lambda: t.register_hook(print), t.requires_grad_):
        try:
            ask()
        except RuntimeError as e:
            refused.append(str(e)[:24])
    return (t.requires_grad, t.grad_fn, t.is_leaf, t.retains_grad, *refused)


def seen():
    inside = []
    x = torch.ones(2, 3, requires_grad=True)
    torch.vmap(lambda t: inside.append(said(t * 2)) or t)(x)
    return inside[0]


print(seen())


class Logged(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {{}})


print(seen())
print([a is b for a, b in zip(bound, [torch.Tensor.requires_grad, torch.Tensor.grad_fn,
       torch.Tensor.is_leaf, torch.Tensor.retain_grad, torch.Tensor.register_hook,
       torch.Tensor.requires_grad_])])
"""


def test_answers_hold_with_a_subclass_defined_and_tensor_keeps_its_own_methods():
    """A Tensor subclass brings the __torch_function__ protocol into play; the answers inside
    vmap are the same before and after, and vmap replaces nothing on Tensor."""
    printed = printed_in_a_fresh_process(_BEFORE_AND_AFTER).splitlines()
    expected = str((False, None, True, False, "can't retain_grad on Ten",
                    "cannot register a hook o", "You are attempting to ca"))
    assert printed == [expected, expected, str([True] * 6)]


def test_a_row_of_a_batched_tensor_is_batched():
    """An index of a slice is made from the batch, so out_dims=None refuses it."""
    x = torch.ones(2, 3, 4)
    with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` " + BATCHED):
        vmap(lambda t: t[0], out_dims=None)(x)
    with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` " + BATCHED):
        vmap(lambda t: t[None, 1:, ..., 2], out_dims=None)(x)
    assert vmap(lambda t: t[0])(x).shape == (2, 4)
