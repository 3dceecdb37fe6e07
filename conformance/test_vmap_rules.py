"""torch.library.register_vmap: a custom operator's rule, called by vmap with the whole batch."""

import numpy as np
import pytest
import torch
from torch.library import custom_op

# torch's first custom_op imports modules that warn of their own deprecation.
pytestmark = pytest.mark.filterwarnings(
    "ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def sine(name, seen):
    @custom_op(f"vmaprules::{name}", mutates_args=())
    def op(x: torch.Tensor) -> torch.Tensor:
        seen.append(("kernel", tuple(x.shape)))
        return x.sin()

    def rule(info, in_dims, x):
        seen.append(("rule", info.batch_size, info.randomness, in_dims, tuple(x.shape)))
        return op(x), in_dims[0]
    return op, rule


def test_the_rule_is_called_once_with_the_whole_batch():
    seen = []
    op, rule = sine("whole", seen)
    assert op.register_vmap(rule) is None
    x = numbers(2, 3)
    assert torch.equal(torch.vmap(op)(x), x.sin())
    assert seen == [("rule", 2, "error", (0,), (2, 3)), ("kernel", (2, 3))]
    seen.clear()
    assert torch.equal(torch.vmap(op, in_dims=1, out_dims=1)(x), x.sin())
    assert seen == [("rule", 3, "error", (1,), (2, 3)), ("kernel", (2, 3))]


def test_without_a_rule_the_kernel_runs_once_per_slice():
    seen = []
    op, _ = sine("unruled", seen)
    x = numbers(2, 3, seed=1)
    assert torch.equal(torch.vmap(op)(x), x.sin())
    assert seen == [("kernel", (3,)), ("kernel", (3,))]


def test_inside_a_function_unbatched_arguments_get_none():
    seen = []

    @custom_op("vmaprules::axpy", mutates_args=())
    def axpy(x: torch.Tensor, y: torch.Tensor, k: float) -> torch.Tensor:
        return x + y * k

    def rule(info, in_dims, x, y, k):
        seen.append((info.batch_size, in_dims, k, tuple(x.shape), tuple(y.shape)))
        x = x.movedim(in_dims[0], 0)
        return axpy(x, y.expand(info.batch_size, *y.shape), k), 0

    assert torch.library.register_vmap("vmaprules::axpy", rule) is None
    x, y = numbers(2, 3, seed=2), numbers(3, seed=3)
    out = torch.vmap(lambda t: axpy(t.exp(), y, 3.0), randomness="same")(x)
    assert torch.equal(out, x.exp() + y * 3.0)
    assert seen == [(2, (0, None, None), 3.0, (2, 3), (3,))]
    seen.clear()
    assert torch.equal(torch.vmap(axpy, in_dims=(1, None, None))(x, y[:2], 2.0),
                       (x + y[:2, None] * 2.0).t())
    assert seen == [(3, (1, None, None), 2.0, (2, 3), (2,))]


def test_a_list_of_tensors_gets_a_list_of_dims():
    seen = []

    @custom_op("vmaprules::pair", mutates_args=())
    def pair(xs: list[torch.Tensor], k: int) -> torch.Tensor:
        return xs[0] + xs[1] * k

    def rule(info, in_dims, xs, k):
        seen.append((in_dims, info.batch_size, k, [tuple(t.shape) for t in xs]))
        a, b = (t.movedim(d, 0) if d is not None else t.expand(info.batch_size, *t.shape)
                for t, d in zip(xs, in_dims[0]))
        return pair([a, b], k), 0

    torch.library.register_vmap(torch.ops.vmaprules.pair.default, rule)
    x, y = numbers(2, 3, seed=4), numbers(3, seed=5)
    assert torch.equal(torch.vmap(lambda t: pair([t, y], 2))(x), x + y * 2)
    assert seen == [(([0, None], None), 2, 2, [(2, 3), (3,)])]


def test_out_dims_place_each_output_and_none_is_shared_by_the_batch():
    @custom_op("vmaprules::two", mutates_args=())
    def two(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return x.sin(), x.cos()

    def rule(info, in_dims, x):
        a, b = two(x.movedim(in_dims[0], 0))
        return (a, b[0]), (0, None)

    two.register_vmap(rule)
    x = numbers(2, 3, seed=6)
    a, b = torch.vmap(two)(x)
    assert torch.equal(a, x.sin()) and torch.equal(b, x[0].cos().expand(2, 3))
    a, b = torch.vmap(two, out_dims=(1, 0))(x)
    assert a.shape == (3, 2) and torch.equal(a, x.sin().t())


def test_a_later_rule_replaces_the_earlier_and_the_decorators_bind_none():
    seen = []
    op, rule = sine("replaced", seen)

    @op.register_vmap
    def first(info, in_dims, x):
        seen.append("first")
        return rule(info, in_dims, x)

    @torch.library.register_vmap("vmaprules::replaced")
    def second(info, in_dims, x):
        seen.append("second")
        return rule(info, in_dims, x)

    assert first is None and second is None
    torch.vmap(op)(numbers(2, 2))
    assert seen[0] == "second" and "first" not in seen


def test_nested_vmaps_call_the_rule_at_each_level():
    seen = []
    op, rule = sine("nested", seen)
    op.register_vmap(rule)
    x = numbers(2, 3, seed=7)
    assert torch.equal(torch.vmap(torch.vmap(op))(x), x.sin())
    calls = {entry for entry in seen if entry[0] == "rule"}
    assert calls == {("rule", 3, "error", (0,), (3,)), ("rule", 2, "error", (0,), (2, 3))}
    assert [entry for entry in seen if entry[0] == "kernel"] == [("kernel", (2, 3))]


def test_what_a_rule_returns_is_checked():
    seen = []
    op, _ = sine("checked", seen)
    x = numbers(2, 3, seed=8)
    op.register_vmap(lambda info, in_dims, t: t)
    with pytest.raises(RuntimeError) as caught:
        torch.vmap(op)(x)
    assert str(caught.value) == (
        "Expected the vmap staticmethod to have two returns, an output and out_dims with "
        "pytree structure compatible with the output. Got a <class 'torch.Tensor'> instead")
    op.register_vmap(lambda info, in_dims, t: (t.sin(), (0,)))
    with pytest.raises(RuntimeError) as caught:
        torch.vmap(op)(x)
    assert str(caught.value) == (
        "The autograd.Function's vmap staticmethod returned an incompatible (output, out_dims) "
        "tuple. Expected out_dims=(0,) to be compatible with the structure of `output`. "
        "out_dims has structure TreeSpec(tuple, None, [*]) but output has structure *. For "
        "more details, please see https://pytorch.org/docs/main/notes/extending.func.html")


def test_register_vmap_refuses_names_as_the_library_does():
    with pytest.raises(ValueError) as caught:
        torch.library.register_vmap("vmaprules", lambda *a: None)
    assert str(caught.value).startswith(
        'Expected `qualname` to be of the form "namespace::name", but got vmaprules.')
    with pytest.raises(AttributeError) as caught:
        torch.library.register_vmap("vmaprules::nowhere", lambda *a: None)
    assert str(caught.value) == "'_OpNamespace' 'vmaprules' object has no attribute 'nowhere'"


def test_an_operator_on_unbatched_tensors_runs_as_outside_vmap():
    seen = []
    op, rule = sine("unbatched", seen)
    op.register_vmap(rule)
    x, y = numbers(2, 3, seed=9), numbers(3, seed=10)
    assert torch.equal(torch.vmap(lambda t: t + op(y))(x), x + y.sin())
    assert seen == [("kernel", (3,))]


# --- autograd.Function ---------------------------------------------------------------------

MORE = " For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def sine_function(seen, **attributes):
    class Sine(torch.autograd.Function):
        @staticmethod
        def forward(x):
            seen.append(("forward", tuple(x.shape)))
            return x.sin()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.cos()

    for name, value in attributes.items():
        setattr(Sine, name, value)
    return Sine


def test_a_functions_vmap_method_is_its_rule():
    seen = []

    def rule(info, in_dims, x):
        seen.append(("rule", info.batch_size, info.randomness, in_dims, tuple(x.shape),
                     type(info).__name__))
        return Sine.apply(x.movedim(in_dims[0], 0)), 0

    Sine = sine_function(seen, vmap=staticmethod(rule))
    x = numbers(2, 3, seed=11)
    assert torch.equal(torch.vmap(Sine.apply, in_dims=1)(x), x.sin().t())
    assert seen == [("rule", 3, "error", (1,), (2, 3), "VmapInfo"), ("forward", (3, 2))]
    leaf = x.clone().requires_grad_()
    torch.vmap(lambda t: Sine.apply(t) * 2)(leaf).sum().backward()
    assert torch.allclose(leaf.grad, 2 * x.cos())


def test_generate_vmap_rule_runs_the_forward_on_the_batch():
    seen = []
    Sine = sine_function(seen, generate_vmap_rule=True)
    x = numbers(2, 3, seed=12)
    assert torch.equal(torch.vmap(Sine.apply)(x), x.sin())
    assert seen and all(entry == ("forward", (3,)) for entry in seen)


def test_functions_vmap_cannot_batch_are_refused_in_torchs_words():
    seen = []
    x = numbers(2, 3, seed=13)
    Sine = sine_function(seen)
    with pytest.raises(RuntimeError) as caught:
        torch.vmap(Sine.apply)(x)
    assert str(caught.value) == (
        "You tried to vmap over Sine, but it does not have vmap support. Please override and "
        "implement the vmap staticmethod or set generate_vmap_rule=True." + MORE)
    Both = sine_function(seen, generate_vmap_rule=True,
                         vmap=staticmethod(lambda info, in_dims, t: (t, 0)))
    with pytest.raises(RuntimeError) as caught:
        torch.vmap(Both.apply)(x)
    assert str(caught.value) == (
        "You tried to vmap over Sine, but it has both generate_vmap_rule=True and an overridden "
        "vmap staticmethod. Please set generate_vmap_rule=False or delete the overridden vmap "
        "staticmethod to avoid ambiguity." + MORE)

    class Old(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(ctx, t):
            return t.sin()

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError) as caught:
        torch.vmap(Old.apply)(x)
    assert str(caught.value) == (
        "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
        "jacrev, ...), it must override the setup_context staticmethod." + MORE)


def test_on_unbatched_tensors_a_function_skips_its_rule_but_is_still_refused():
    seen = []

    def rule(info, in_dims, x):
        seen.append("rule")
        return Sine.apply(x), in_dims[0]

    Sine = sine_function(seen, vmap=staticmethod(rule))
    x, y = numbers(2, 3, seed=14), numbers(3, seed=15)
    assert torch.equal(torch.vmap(lambda t: t * Sine.apply(y))(x), x * y.sin())
    assert seen == [("forward", (3,))]
    Plain = sine_function(seen)
    with pytest.raises(RuntimeError) as caught:
        torch.vmap(lambda t: t * Plain.apply(y))(x)
    assert str(caught.value).startswith("You tried to vmap over Sine, but it does not have vmap")
