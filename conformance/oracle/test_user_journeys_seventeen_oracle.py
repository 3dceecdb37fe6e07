"""Oracle test: grid_sample where coordinates are NaN or infinite, and the values of the
seventeenth journeys' spatial transformer and mixture density network.

torch's kernel for images multiplies each tap's NaN weight by the tap's value, so the sample
is NaN; its kernel for volumes adds only the taps inside, so the sample is 0, and so is the
grid's gradient; `nearest` gives the grid zeros. `border` clips an infinite coordinate to the
edge, forward and backward. NaN is swept with `zeros` padding only: with the other paddings
torch's clipping of a NaN is left to its compiler (and its image kernel may crash).
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_walks_agree

BAD = [np.nan, np.inf, -np.inf]


def sampled(lib, x, g, **kw):
    xi, gi = lib.tensor(x, requires_grad=True), lib.tensor(g, requires_grad=True)
    out = lib.nn.functional.grid_sample(xi, gi, **kw)
    weights = lib.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)).astype(x.dtype))
    (out * weights).sum().backward()
    return [out.detach().numpy(), xi.grad.numpy(), gi.grad.numpy()]


@pytest.mark.parametrize("padding", ["zeros", "border"])
@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_grid_sample_at_coordinates_that_are_not_finite(dims, dtype, padding):
    rng, bad = np.random.default_rng(dims), BAD if padding == "zeros" else BAD[1:]
    for trial in range(60):
        # a size of 1 with align_corners makes an infinite coordinate NaN (inf * 0)
        sizes = tuple(int(v) for v in rng.integers(1 if padding == "zeros" else 2, 5, dims))
        x = rng.standard_normal((2, 2) + sizes).astype(dtype)
        g = (rng.standard_normal((2,) + tuple(int(v) for v in rng.integers(1, 4, dims)) + (dims,))
             * 1.5).astype(dtype)
        g.reshape(-1)[rng.integers(0, g.size, 2)] = rng.choice(bad, 2)
        mode = ["bilinear", "nearest", "bicubic"][trial % (3 if dims == 2 else 2)]
        kw = {"mode": mode, "padding_mode": padding, "align_corners": bool(trial % 4 < 2)}
        tol = 1e-10 if dtype == np.float64 else 1e-4
        assert_walks_agree(sampled(refgrad, x, g, **kw), sampled(torch, x, g, **kw),
                           rtol=tol, atol=tol)


def transformer_walk(lib):
    F, rng = lib.nn.functional, np.random.default_rng(7)
    img = lib.tensor(rng.standard_normal((2, 3, 5, 6)), requires_grad=True)
    theta = lib.tensor(np.array([[1.0, 0, 0], [0, 1, 0]]) + 0.1 * rng.standard_normal((2, 2, 3)),
                       requires_grad=True)
    record = []
    for ac in (False, True):
        grid = F.affine_grid(theta, [2, 3, 4, 4], align_corners=ac)
        for mode in ("bilinear", "nearest", "bicubic"):
            for pad in ("zeros", "border", "reflection"):
                out = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=ac)
                grads = lib.autograd.grad(out.pow(2).sum(), [img, theta])
                record += [out.detach().numpy()] + [t.numpy() for t in grads]
    return record


def mixture_walk(lib):
    D, rng = lib.distributions, np.random.default_rng(8)
    logits, mu, ls = (lib.tensor(rng.standard_normal(s), requires_grad=True)
                      for s in ((4, 3), (4, 3, 2), (4, 3, 2)))
    mix = D.MixtureSameFamily(D.Categorical(logits=logits),
                              D.Independent(D.Normal(mu, ls.exp()), 1))
    lp = mix.log_prob(lib.tensor(rng.standard_normal((4, 2))))
    grads = lib.autograd.grad(lp.mean(), [logits, mu, ls])
    conc = lib.tensor(np.exp(rng.standard_normal((3, 4))), requires_grad=True)
    kl = D.kl_divergence(D.Dirichlet(conc), D.Dirichlet(lib.ones(3, 4, dtype=lib.float64)))
    return [lp.detach().numpy(), mix.mean.detach().numpy(), mix.variance.detach().numpy(),
            kl.detach().numpy(), *[t.numpy() for t in grads],
            lib.autograd.grad(kl.sum(), conc)[0].numpy()]


@pytest.mark.parametrize("walk", [transformer_walk, mixture_walk])
def test_the_journeys_values_are_torch_values(walk):
    assert_walks_agree(walk(refgrad), walk(torch))
