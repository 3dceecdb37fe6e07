"""Journeys through the autograd tools of training code: checkpoints in a residual stack,
a custom Function that sorts in place and returns indices, and a physics-informed network's
higher derivatives (the models' walks are in test_user_journeys_thirteen.py)."""

import numpy as np
import pytest
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

RNG = np.random.default_rng(113)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


@pytest.mark.parametrize("reentrant", [False, True])
def test_checkpointed_residual_blocks_give_the_plain_gradients(reentrant):
    blocks = nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.LayerNorm(4))
                            for _ in range(3)]).double()
    x = arr(2, 4).requires_grad_()

    def run(wrap):
        h = x
        for block in blocks:
            h = h + wrap(block, h)
        x.grad = blocks[0][0].weight.grad = None
        h.pow(2).sum().backward()
        return x.grad, blocks[0][0].weight.grad

    plain = run(lambda block, h: block(h))
    wrapped = run(lambda block, h: checkpoint(block, h, use_reentrant=reentrant))
    assert all(torch.allclose(p, w) for p, w in zip(plain, wrapped))
    kind = checkpoint(lambda a: a * 2, x, use_reentrant=reentrant).grad_fn.name()
    assert kind == ("CheckpointFunctionBackward" if reentrant else "MulBackward0")


def test_reentrant_checkpoints_refuse_grad_and_keywords():
    x = arr(3).requires_grad_()
    with pytest.raises(RuntimeError, match="When use_reentrant=True, torch.utils.checkpoint is "
                                           "incompatible with .grad()"):
        torch.autograd.grad(checkpoint(torch.exp, x, use_reentrant=True).sum(), x)
    with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
        checkpoint(lambda a, scale: a * scale, x, scale=3.0, use_reentrant=True)
    with pytest.raises(ValueError, match="Passing `context_fn` or `debug` is only supported"):
        checkpoint(lambda a: a, x, use_reentrant=True, context_fn=lambda: None)
    out = checkpoint(lambda a, scale: (a * scale, 7, None), x, scale=3.0, use_reentrant=False)
    assert out[1:] == (7, None) and out[0].grad_fn.name() == "MulBackward0"


class SortInPlace(torch.autograd.Function):
    """Sorts its input in place, and returns it with the indices of the sort."""

    @staticmethod
    def forward(ctx, x):
        values, indices = x.sort()
        x.copy_(values)
        ctx.mark_dirty(x)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return x, indices

    @staticmethod
    def backward(ctx, g, g_indices):
        (indices,) = ctx.saved_tensors
        assert g_indices.dtype == torch.int64 and not g_indices.any()
        return torch.zeros_like(g).index_put((indices,), g)


def test_a_function_that_sorts_in_place_and_returns_indices():
    a = arr(4).requires_grad_()
    b = a.clone()
    values, indices = SortInPlace.apply(b)
    assert values is b and values.grad_fn.name() == "SortInPlaceBackward" and b._version == 2
    assert not indices.requires_grad and indices.grad_fn is None
    assert torch.equal(values, a.detach().sort()[0])
    (values * torch.arange(4.0, dtype=torch.float64)).sum().backward()
    assert torch.equal(a.grad[a.detach().argsort()], torch.arange(4.0, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad has been used in "
                                           "an in-place operation."):
        SortInPlace.apply(arr(3).requires_grad_())


def test_a_residual_of_burgers_equation_by_nested_grads():
    net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1)).double()
    xt = torch.tensor(RNG.random((6, 2))).requires_grad_(True)
    u = net(xt)
    du = torch.autograd.grad(u, xt, torch.ones_like(u), create_graph=True)[0]
    u_x, u_t = du[:, :1], du[:, 1:]
    u_xx = torch.autograd.grad(u_x, xt, torch.ones_like(u_x), create_graph=True)[0][:, :1]
    assert u_xx.grad_fn.name() == "SliceBackward0"
    params = dict(net.named_parameters())

    def u_of(p, point):
        return torch.func.functional_call(net, p, (point,)).squeeze(-1)

    H = torch.func.vmap(torch.func.hessian(u_of, argnums=1), in_dims=(None, 0))(params, xt)
    assert torch.allclose(H[:, 0, 0], u_xx.squeeze(1))
    (u_t + u * u_x - 0.01 * u_xx).pow(2).mean().backward()
    assert net[0].weight.grad.shape == (8, 2)
    (g,) = torch.autograd.grad(net[0].bias.sum(), xt, allow_unused=True, materialize_grads=True)
    assert torch.equal(g, torch.zeros(6, 2, dtype=torch.float64))
