"""Journeys through the pages users copy next: module hooks, torch.utils.checkpoint,
torch.func over a module's parameters, custom Functions under the transforms, and the
examples of torch.autograd.graph. Each test asserts what such a program observes: hook
orders, node names, versions, how often a user's code is called, and messages."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.autograd.graph import (
    allow_mutation_on_saved_tensors,
    get_gradient_edge,
    register_multi_grad_hook,
    saved_tensors_hooks,
)
from torch.func import functional_call, grad, jacrev, jvp, vjp, vmap
from torch.utils.checkpoint import checkpoint


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape))


def edges(t):
    return [type(t.grad_fn).__name__] + [
        None if n is None else type(n).__name__ for n, _ in t.grad_fn.next_functions]


WEIGHT = numbers(4, 3, seed=1)


@pytest.mark.parametrize(("x_shape", "b_shape", "nodes", "version"), [
    ((2, 5, 3), (), ["AddBackward0", "UnsafeViewBackward0", None], 1),
    ((3,), (), ["AddBackward0", "SqueezeBackward4", None], 2),
    ((2, 5, 3), (1, 4), ["ViewBackward0", "AddmmBackward0"], 0),
    ((3,), (1, 4), ["ViewBackward0", "AddmmBackward0"], 0),
    ((2, 2, 5, 3), (4,), ["ViewBackward0", "AddmmBackward0"], 0),
])
def test_linear_fuses_a_bias_of_one_real_dimension_and_adds_others_in_place(
        x_shape, b_shape, nodes, version):
    x = torch.ones(x_shape, dtype=torch.float64).cumsum(-1).requires_grad_()
    out = F.linear(x, WEIGHT, torch.full(b_shape, 0.5, dtype=torch.float64))
    assert edges(out) == nodes and out._version == version
    assert torch.allclose(out, x.matmul(WEIGHT.t()) + 0.5)


def test_linear_adds_a_strided_bias_after_matmul_in_the_results_dtype():
    x = torch.ones(2, 5, 3, requires_grad=True)
    out = F.linear(x, WEIGHT.float(), torch.ones(8)[::2])
    assert edges(out) == ["AddBackward0", "UnsafeViewBackward0", None] and out._version == 1
    out = F.linear(x, WEIGHT.float(), torch.tensor(0.5, dtype=torch.float64))
    assert out.dtype == torch.float32 and out._version == 1


def test_linear_adds_a_bias_with_a_tangent_out_of_place():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        bias = fwAD.make_dual(torch.tensor(0.5, dtype=torch.float64),
                              torch.tensor(1.0, dtype=torch.float64))
        out = F.linear(torch.ones(2, 5, 3, dtype=torch.float64), WEIGHT, bias)
        assert out._version == 0
        assert torch.equal(fwAD.unpack_dual(out).tangent, torch.ones(2, 5, 4, dtype=torch.float64))


@pytest.mark.parametrize(("shape", "nodes"), [
    ((3,), ["AddBackward0", "SqueezeBackward4", None]),
    ((1, 1, 1, 3), ["AddBackward0", "UnsafeViewBackward0", None]),
    ((2, 5, 3), ["ViewBackward0", "AddmmBackward0"]),
])
def test_linear_inside_grad_flattens_only_a_3d_input(shape, nodes):
    seen = []

    def loss(t):
        out = F.linear(t, WEIGHT, torch.ones(4, dtype=torch.float64))
        seen.append(edges(out))
        return out.sum()

    g = grad(loss)(torch.ones(shape, dtype=torch.float64))
    assert seen == [nodes]
    assert torch.allclose(g, WEIGHT.sum(0).expand(shape))


def test_a_model_of_1d_samples_under_jacrev_matches_autograd():
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)).double()
    params = dict(model.named_parameters())
    x = numbers(3, seed=2)
    jac = jacrev(lambda p: functional_call(model, p, (x,)))(params)
    out = model(x)
    for row in range(2):
        grads = torch.autograd.grad(out[row], list(params.values()), retain_graph=True)
        for name, g in zip(params, grads):
            assert torch.allclose(jac[name][row], g)


class Scale(torch.autograd.Function):
    calls: list = []

    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        Scale.calls.append(ctx.needs_input_grad)
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None

    @staticmethod
    def jvp(ctx, t, _):
        return t * ctx.k


@pytest.mark.parametrize(("run", "calls"), [
    (lambda x: Scale.apply(x.requires_grad_(), 3.0), [(True, False)]),
    (lambda x: grad(lambda t: Scale.apply(t, 3.0).sum())(x), [(False, False), (True, False)]),
    (lambda x: vjp(lambda t: Scale.apply(t, 3.0), x), [(False, False), (True, False)]),
    (lambda x: jvp(lambda t: Scale.apply(t, 3.0), (x,), (x,)), [(False, False)] * 2),
    (lambda x: grad(grad(lambda t: Scale.apply(t, 3.0)))(x[0]),
     [(False, False), (True, False), (True, False)]),
])
def test_setup_context_runs_once_below_the_transforms_and_once_per_transform(run, calls):
    Scale.calls.clear()
    run(torch.arange(3.0))
    assert Scale.calls == calls


def test_a_vmap_rule_that_returns_one_thing_is_refused_naming_torch_tensor():
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def vmap(info, in_dims, x):
            return x * 2

    with pytest.raises(RuntimeError) as caught:
        vmap(Twice.apply)(torch.ones(2, 3))
    assert str(caught.value).endswith("Got a <class 'torch.Tensor'> instead")


def test_module_backward_hooks_run_between_the_tensor_hooks_of_output_and_input():
    order = []
    lin = nn.Linear(3, 2).double()
    lin.register_full_backward_pre_hook(lambda m, go: (order.append("module pre"), (go[0] * 2,))[1])
    lin.register_full_backward_hook(lambda m, gi, go: order.append("module"))
    x = numbers(4, 3).requires_grad_()
    y = lin(x)
    assert type(y.grad_fn).__name__ == "BackwardHookFunctionBackward"
    y.register_hook(lambda g: order.append("output"))
    x.register_hook(lambda g: order.append("input"))
    y.sum().backward()
    assert order == ["output", "module pre", "module", "input"]
    assert torch.allclose(x.grad, 2 * lin.weight.sum(0).expand(4, 3))


def test_forward_hooks_with_kwargs_and_always_call():
    class Affine(nn.Module):
        def forward(self, a, scale=1.0, *, shift=0.0):
            if shift < 0:
                raise ValueError("negative shift")
            return a * scale + shift

    log = []
    m = Affine()
    m.register_forward_pre_hook(lambda mod, a, kw: (a, {**kw, "shift": 1.0}), with_kwargs=True)
    m.register_forward_hook(lambda mod, a, kw, out: log.append(sorted(kw)), with_kwargs=True)
    m.register_forward_hook(lambda mod, a, out: log.append("always"), always_call=True)
    assert m(torch.ones(2), scale=3.0).tolist() == [4.0, 4.0]
    assert log == [["scale", "shift"], "always"]
    log.clear()
    m2 = Affine()
    m2.register_forward_hook(lambda mod, a, out: log.append(("always", out)), always_call=True)
    with pytest.raises(ValueError, match="negative shift"):
        m2(torch.ones(2), shift=-1.0)
    assert log == [("always", None)]


@pytest.mark.parametrize("reentrant", [True, False])
def test_checkpoint_passes_non_tensor_outputs_and_recomputes_once(reentrant):
    calls = []
    x, w = numbers(4, 3).requires_grad_(), numbers(3, 3, seed=1).requires_grad_()

    def block(a, b, n):
        calls.append(torch.is_grad_enabled())
        return (a @ b).sin() * n, n, "label", None

    out = checkpoint(block, x, w, 2.0, use_reentrant=reentrant)
    assert out[1:] == (2.0, "label", None)
    out[0].sum().backward()
    assert calls == [not reentrant, True]
    assert torch.allclose(w.grad, x.t() @ ((x @ w).cos() * 2.0))


def test_non_reentrant_checkpoint_refuses_a_different_recomputation():
    state = {"n": 0}

    def changing(a):
        state["n"] += 1
        return a.exp() if state["n"] == 1 else a.reshape(3, 1).exp()

    x = torch.ones(3, requires_grad=True)
    out = checkpoint(changing, x, use_reentrant=False)
    with pytest.raises(torch.utils.checkpoint.CheckpointError) as caught:
        out.sum().backward()
    assert "have different metadata than during the forward pass" in str(caught.value)
    assert "recomputed metadata: {'shape': torch.Size([3, 1])" in str(caught.value)


def test_multi_grad_hooks_all_and_any():
    a, b = numbers(3).requires_grad_(), numbers(3, seed=1).requires_grad_()
    seen = []
    handle = register_multi_grad_hook((a, b), lambda gs: seen.append([g is not None for g in gs]))
    (a * 2).sum().backward()
    handle.remove()
    handle = register_multi_grad_hook((a, b), lambda g: seen.append(tuple(g.shape)), mode="any")
    (a * b).sum().backward()
    handle.remove()
    assert seen == [[True, False], (3,)]
    with pytest.raises(ValueError, match="Expects mode to be one of"):
        register_multi_grad_hook((a, b), print, mode="every")


def test_a_gradient_edge_stands_for_an_intermediate_in_grad():
    x = numbers(2, 3).requires_grad_()
    h = x.sin()
    out = h.exp().sum()
    edge = get_gradient_edge(h)
    assert edge.node is h.grad_fn and edge.output_nr == 0
    (g_h,) = torch.autograd.grad(out, edge, retain_graph=True)
    assert torch.equal(g_h, h.exp())
    (g_x,) = torch.autograd.grad(h, x, g_h)
    assert torch.allclose(g_x, x.cos() * x.sin().exp())


def test_mutation_on_saved_tensors_and_its_context():
    p = numbers(3).requires_grad_()
    with allow_mutation_on_saved_tensors():
        q = p.clone()
        r = q.sin()
        q.mul_(2)
        r.sum().backward()
    assert torch.equal(p.grad, p.cos())
    with allow_mutation_on_saved_tensors():
        r = p.clone().sin()
    with pytest.raises(AssertionError, match="Trying to backward outside of the"):
        r.sum().backward()


def test_saved_tensor_hooks_nest_and_see_what_is_packed():
    log = []

    def hooks(tag):
        return (lambda t: (log.append(("pack", tag, tuple(t.shape))), t)[1],
                lambda t: (log.append(("unpack", tag)), t)[1])

    a = torch.ones(5, requires_grad=True)
    with saved_tensors_hooks(*hooks("outer")):
        with saved_tensors_hooks(*hooks("inner")):
            y = a.sin()
        z = y.cos()
    z.sum().backward()
    assert log == [("pack", "inner", (5,)), ("pack", "outer", (5,)),
                   ("unpack", "outer"), ("unpack", "inner")]
