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


# --- lobpcg ---------------------------------------------------------------------------------


def symmetric(m, seed, low=1.0):
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((m, m)))
    return q @ np.diag(np.linspace(low, m, m) + rng.random(m)) @ q.T


def eigen(mod, a, dtype="float64", b=None, x=None, grad=False, **kw):
    mod.manual_seed(0)
    A = mod.tensor(a, dtype=getattr(mod, dtype), requires_grad=grad)
    B = None if b is None else mod.tensor(b, dtype=getattr(mod, dtype))
    X = None if x is None else mod.tensor(x, dtype=getattr(mod, dtype))
    log = []

    def tracker(w):
        log.append((dict(w.ivars), dict(w.fvars), dict(w.iparams), dict(w.fparams),
                    dict(w.bparams), sorted(w.tvars), w.E.numpy().copy()))
    E, V = mod.lobpcg(A, B=B, X=X, tracker=tracker, **kw)
    if not grad:
        return E.numpy(), V.numpy(), log, None, None
    (E.pow(2).sum() + (V @ V.mT * mod.tensor(np.cos(a))).sum()).backward()
    return E.detach().numpy(), V.detach().numpy(), log, A.grad.numpy(), graph_names(E)


A30 = symmetric(30, 0)
LOBPCG_CASES = {
    "default": (A30, {}), "k3": (A30, {"k": 3}), "smallest": (A30, {"k": 3, "largest": False}),
    "basic": (A30, {"k": 3, "method": "basic"}),
    "basic smallest": (A30, {"k": 3, "method": "basic", "largest": False}),
    "float32": (A30, {"k": 2, "dtype": "float32"}),
    "B": (A30, {"k": 2, "b": symmetric(30, 1, 5.0)}),
    "B basic": (A30, {"k": 2, "b": symmetric(30, 1, 5.0), "method": "basic"}),
    "iK": (A30, {"k": 2, "method": "basic", "iK": "diagonal"}),
    "n": (A30, {"k": 2, "n": 4}),
    "X": (A30, {"x": np.random.default_rng(5).standard_normal((30, 3))}),
    "drop": (A30, {"k": 3, "ortho_bparams": {"ortho_use_drop": True},
                   "ortho_iparams": {"ortho_j_max": 2}, "ortho_fparams": {"ortho_tol": 1e-9}}),
    "niter": (A30, {"k": 3, "niter": 3}), "tol": (A30, {"k": 3, "tol": 1e-4}),
    "batch": (np.stack([A30, symmetric(30, 2)]), {"k": 2}),
    "grad": (A30, {"k": 3, "grad": True}), "grad smallest": (A30, {"k": 2, "grad": True,
                                                                   "largest": False}),
    "grad k1": (A30, {"grad": True}), "grad batch": (np.stack([A30, symmetric(30, 3)]),
                                                     {"k": 2, "grad": True}),
}


@pytest.mark.parametrize("case", list(LOBPCG_CASES))
def test_lobpcg_against_torch(case):
    a, kw = LOBPCG_CASES[case]
    results = []
    for mod in (torch, refgrad):
        given = dict(kw)
        if given.get("iK") == "diagonal":
            given["iK"] = mod.diag(mod.tensor(1 / np.diag(a)))
        results.append(eigen(mod, a, **given))
    (tE, tV, tlog, tg, tnames), (rE, rV, rlog, rg, rnames) = results
    tol = TOL[kw.get("dtype", "float64")] * 30
    assert rE.dtype == tE.dtype and rE.shape == tE.shape and rV.shape == tV.shape
    np.testing.assert_allclose(rE, tE, rtol=0, atol=tol * 1e-2)
    np.testing.assert_allclose(signs_aligned(rV, tV), tV, rtol=0, atol=tol)
    assert len(rlog) == len(tlog)
    for (ri, rf, rip, rfp, rbp, rt, rEs), (ti, tf, tip, tfp, tbp, tt, tEs) in zip(rlog, tlog):
        assert (ri, rip, rfp, rbp, rt) == (ti, tip, tfp, tbp, tt)
        assert list(rf) == list(tf)
        # the orthonormality errors are rounding-sized, so only an absolute bound holds
        np.testing.assert_allclose([rf[key] for key in tf], list(tf.values()), rtol=tol, atol=tol)
        np.testing.assert_allclose(rEs, tEs, rtol=0, atol=tol)
    assert rnames == tnames
    if tg is not None:
        np.testing.assert_allclose(rg, tg, rtol=0, atol=tol * 10)


def test_lobpcg_float64_start_is_torchs_draw():
    # ortho's first step leaves E at zero and X at the Ritz vectors of the draw itself
    a = symmetric(12, 4)
    for mod in (torch, refgrad):
        mod.manual_seed(21)
    t = torch.lobpcg(torch.tensor(a), k=2, niter=1)
    r = refgrad.lobpcg(refgrad.tensor(a), k=2, niter=1)
    assert t[0].numpy().tobytes() == r[0].numpy().tobytes()
    np.testing.assert_allclose(signs_aligned(r[1].numpy(), t[1].numpy()), t[1].numpy(),
                               rtol=0, atol=1e-12)


def test_lobpcg_homes():
    assert torch.lobpcg.__module__ == "torch._lobpcg"
    assert refgrad.lobpcg.__module__ == "refgrad._lobpcg"
    assert torch._lobpcg.LOBPCG.__module__ == "torch._lobpcg"
    assert refgrad._lobpcg.LOBPCG.__module__ == "refgrad._lobpcg"
