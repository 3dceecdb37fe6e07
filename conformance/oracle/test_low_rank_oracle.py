"""Oracle test: svd_lowrank, pca_lowrank and lobpcg, refgrad against torch.

Both draw their random matrices from the global generator, whose float64 draws agree bit for
bit for one seed (float32 ones to the last bit), and both run the same ops on them. What is
left to differ is LAPACK's rounding and the signs it gives singular vectors, so factors are
compared to rounding, column signs aside, and the graphs node for node.
"""

import numpy as np
import pytest
import torch

import refgrad

RNG = np.random.default_rng(77)
TOL = {"float64": 1e-9, "float32": 2e-4}


def graph_names(t):
    seen, order, queue = set(), [], [t.grad_fn]
    while queue:
        node = queue.pop(0)
        if node is None or node in seen:
            continue
        seen.add(node)
        order.append(node.name())
        queue.extend(n for n, _ in node.next_functions)
    return order


def signs_aligned(ours, theirs):
    """ours with each column's sign turned to agree with theirs."""
    flip = np.sign(np.sum(ours * theirs, axis=-2, keepdims=True))
    return ours * np.where(flip == 0, 1, flip)


def factor(mod, name, a, dtype, **kw):
    mod.manual_seed(3)
    A = mod.tensor(a, dtype=getattr(mod, dtype), requires_grad=True)
    U, S, V = getattr(mod, name)(A, **kw)
    loss = S.sum() + ((U * S.unsqueeze(-2)) @ V.mT).pow(2).sum() + (U @ U.mT).sum()
    loss.backward()
    return [x.detach().numpy() for x in (U, S, V, A.grad)], [graph_names(x) for x in (U, S, V)]


CASES = [((9, 6), {"q": 3}), ((6, 9), {"q": 4}), ((9, 6), {}), ((3, 8, 6), {"q": 4}),
         ((20, 30), {"q": 5, "niter": 4}), ((9, 6), {"q": 3, "niter": 0}),
         ((2, 2, 7, 5), {"q": 2}), ((12, 4), {"q": 9})]


@pytest.mark.parametrize("name", ["svd_lowrank", "pca_lowrank"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape,kw", CASES, ids=[str(i) for i in range(len(CASES))])
def test_factors_gradients_and_graphs(name, dtype, shape, kw):
    if name == "pca_lowrank" and kw.get("q", 0) > min(shape[-2:]):
        kw = {}
    a = RNG.standard_normal(shape)
    (tU, tS, tV, tg), tnames = factor(torch, name, a, dtype, **kw)
    (rU, rS, rV, rg), rnames = factor(refgrad, name, a, dtype, **kw)
    assert rnames == tnames
    tol = TOL[dtype] * max(1.0, float(np.abs(tS).max(initial=0)))
    assert rS.dtype == tS.dtype and rS.shape == tS.shape
    np.testing.assert_allclose(rS, tS, rtol=0, atol=tol)
    keep = tS > 1e-6 * tS.max(initial=0)  # columns of a vanishing value are any basis
    for ours, theirs in ((rU, tU), (rV, tV)):
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
        aligned = signs_aligned(ours, theirs)
        np.testing.assert_allclose(np.where(keep[..., None, :], aligned, 0),
                                   np.where(keep[..., None, :], theirs, 0), rtol=0, atol=tol)
    np.testing.assert_allclose(rg, tg, rtol=0, atol=tol * max(1.0, float(np.abs(tg).max())))


def test_float64_draws_are_torchs_bit_for_bit():
    torch.manual_seed(9)
    refgrad.manual_seed(9)
    t, r = torch.randn(30, 7, dtype=torch.float64), refgrad.randn(30, 7, dtype=refgrad.float64)
    assert t.numpy().tobytes() == r.numpy().tobytes()


def test_the_mean_argument():
    a, m = RNG.standard_normal((10, 6)), RNG.standard_normal((1, 6))
    for mod in (torch, refgrad):
        mod.manual_seed(4)
    t = torch.svd_lowrank(torch.tensor(a), q=4, M=torch.tensor(m))
    r = refgrad.svd_lowrank(refgrad.tensor(a), q=4, M=refgrad.tensor(m))
    np.testing.assert_allclose(r[1].numpy(), t[1].numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(signs_aligned(r[0].numpy(), t[0].numpy()), t[0].numpy(),
                               rtol=0, atol=1e-12)


def test_homes():
    for name in ("svd_lowrank", "pca_lowrank"):
        assert getattr(torch, name).__module__ == "torch._lowrank"
        assert getattr(refgrad, name).__module__ == "refgrad._lowrank"
