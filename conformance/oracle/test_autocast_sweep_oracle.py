"""Oracle test: ops under a float16 CPU autocast region, in refgrad and in torch.

Each case runs on float16 inputs (and a few float32 ones) inside
``autocast("cpu", dtype=float16)`` in both libraries; the result's dtype, its
grad_fn's name and the names of that node's next functions must agree, or, where
torch refuses, the error's type and message. The ops span the lower-precision,
float32 and promote lists and ops in none of them.
"""

import warnings

import numpy as np
import pytest
import torch

import refgrad


def _t(lib, rng, *shape, pos=False):
    a = rng.standard_normal(shape).astype(np.float16)
    if pos:
        a = np.abs(a) + np.float16(0.1)
    return lib.tensor(a).requires_grad_()


def _square(lib, t):
    return t(3, 3) + lib.eye(3, dtype=lib.float16) * 4


def _losses(lib, t):
    F = lib.nn.functional
    return {
        "kl_div": lambda: F.kl_div(t(3, 4), t(3, 4), reduction="batchmean"),
        "cosine_embedding_loss": lambda: F.cosine_embedding_loss(
            t(3, 4), t(3, 4), lib.tensor([1, -1, 1])),
        "hinge_embedding_loss": lambda: F.hinge_embedding_loss(t(3, 4), lib.ones(3, 4)),
        "poisson_nll_loss": lambda: F.poisson_nll_loss(t(3, 4), t(3, 4, pos=True)),
        "margin_ranking_loss": lambda: F.margin_ranking_loss(t(4), t(4), lib.ones(4)),
        "soft_margin_loss": lambda: F.soft_margin_loss(t(4), lib.ones(4)),
        "triplet_margin_loss": lambda: F.triplet_margin_loss(t(3, 4), t(3, 4), t(3, 4)),
        "multi_margin_loss": lambda: F.multi_margin_loss(t(3, 4), lib.tensor([0, 1, 2])),
        "multilabel_margin_loss": lambda: F.multilabel_margin_loss(
            t(3, 4), lib.tensor([[0, 1, -1, 0]] * 3)),
        "multilabel_soft_margin_loss": lambda: F.multilabel_soft_margin_loss(
            t(3, 4), lib.ones(3, 4)),
        "gaussian_nll_loss": lambda: F.gaussian_nll_loss(t(3, 4), t(3, 4), t(3, 4, pos=True)),
        "ctc_loss": lambda: F.ctc_loss(t(5, 1, 4).log_softmax(2), lib.tensor([[1, 2]]),
                                       lib.tensor([5]), lib.tensor([2])),
    }


def _linalg(lib, t):
    la = lib.linalg
    return {
        "inverse": lambda: lib.inverse(_square(lib, t)),
        "pinverse": lambda: lib.pinverse(t(3, 3)),
        "linalg.inv": lambda: la.inv(_square(lib, t)),
        "linalg.pinv": lambda: la.pinv(t(3, 3)),
        "linalg.det": lambda: la.det(t(3, 3)),
        "linalg.slogdet": lambda: la.slogdet(t(3, 3))[1],
        "linalg.norm": lambda: la.norm(t(3, 3)),
        "linalg.matrix_norm": lambda: la.matrix_norm(t(3, 3)),
        "linalg.vector_norm": lambda: la.vector_norm(t(3, 3)),
        "linalg.solve": lambda: la.solve(_square(lib, t), t(3, 1)),
        "linalg.vecdot": lambda: la.vecdot(t(3, 3), t(3, 3)),
        "linalg.matrix_rank": lambda: la.matrix_rank(t(3, 3)).float(),
        "linalg.eigvalsh": lambda: la.eigvalsh(t(3, 3)),
        "linalg.svdvals": lambda: la.svdvals(t(3, 3)),
        "linalg.cholesky": lambda: la.cholesky(lib.eye(3, dtype=lib.float16).requires_grad_()),
        # linalg.matrix_exp is left out: "What is left" in chapter "Mixed precision"
        "quantile": lambda: lib.quantile(t(5), 0.3),
        "nanquantile": lambda: lib.nanquantile(t(5), 0.3),
        "lu_solve": lambda: lib.lu_solve(t(3, 1), *la.lu_factor(lib.eye(3))),
        "dist": lambda: lib.dist(t(3), t(3)),
        "addmv": lambda: lib.addmv(t(3), t(3, 4), t(4)),
        "mv": lambda: lib.mv(t(3, 4), t(4)),
        "dot": lambda: lib.dot(t(4), t(4)),
        "outer": lambda: lib.outer(t(4), t(4)),
        "addr": lambda: lib.addr(t(4, 4), t(4), t(4)),
        "einsum": lambda: lib.einsum("ij,jk->ik", t(3, 4), t(4, 2)),
        "tensordot": lambda: lib.tensordot(t(3, 4), t(4, 2), 1),
        "multi_dot": lambda: la.multi_dot([t(3, 4), t(4, 2)]),
        "baddbmm": lambda: lib.baddbmm(t(2, 3, 3), t(2, 3, 4), t(2, 4, 3)),
    }


def _max_unpool2d(lib, t):
    F = lib.nn.functional
    values, _ = F.max_pool2d(t(1, 1, 4, 4).float(), 2, return_indices=True)
    return F.max_unpool2d(values, F.max_pool2d(t(1, 1, 4, 4).float(), 2,
                                               return_indices=True)[1], 2)


def _layers(lib, t):
    F = lib.nn.functional
    samples = lib.full((1, 1, 2), 0.5, dtype=lib.float16)
    return {
        "reflection_pad1d": lambda: F.pad(t(1, 2, 4), (1, 1), mode="reflect"),
        "replication_pad1d": lambda: F.pad(t(1, 2, 4), (1, 1), mode="replicate"),
        "reflection_pad2d": lambda: F.pad(t(1, 2, 4, 4), (1, 1, 1, 1), mode="reflect"),
        "replication_pad3d": lambda: F.pad(t(1, 1, 3, 3, 3), (1,) * 6, mode="replicate"),
        "max_pool3d": lambda: F.max_pool3d(t(1, 1, 4, 4, 4), 2),
        "max_unpool2d": lambda: _max_unpool2d(lib, t),
        "fractional_max_pool2d": lambda: F.fractional_max_pool2d(
            t(1, 1, 6, 6), 2, output_size=3, _random_samples=samples),
        "adaptive_avg_pool3d": lambda: F.adaptive_avg_pool3d(t(1, 1, 4, 4, 4), 2),
        "pdist": lambda: F.pdist(t(3, 4)),
        "cosine_similarity": lambda: F.cosine_similarity(t(3, 4), t(3, 4)),
        "layer_norm": lambda: F.layer_norm(t(3, 4), (4,)),
        "group_norm": lambda: F.group_norm(t(2, 4, 3), 2),
        "batch_norm": lambda: F.batch_norm(t(3, 4), None, None, training=True),
        "softmax": lambda: F.softmax(t(3, 4), 1),
        "log_softmax": lambda: F.log_softmax(t(3, 4), 1),
        "sum": lambda: t(3, 4).sum(),
        "cumsum": lambda: t(3, 4).cumsum(0),
        "exp": lambda: t(3, 4).exp(),
        "bilinear": lambda: F.bilinear(t(2, 3), t(2, 4), t(5, 3, 4)),
        "embedding_bag": lambda: F.embedding_bag(lib.tensor([0, 1, 2]), t(4, 3),
                                                 lib.tensor([0, 2])),
        "conv_transpose1d": lambda: F.conv_transpose1d(t(1, 2, 5), t(2, 3, 3)),
        "addcmul": lambda: lib.addcmul(t(3), t(3), t(3)),
        "where": lambda: lib.where(lib.tensor([True, False, True]), t(3), t(3).float()),
        "add mixed": lambda: t(3) + t(3).float(),
        "index_put": lambda: t(3).index_put((lib.tensor([0]),), t(1).float()),
        "scatter_add": lambda: t(3).scatter_add(0, lib.tensor([0, 1]), t(2).float()),
        "dropout": lambda: lib.nn.functional.dropout(t(3), 0.0),
    }


def _cases(lib):
    rng = np.random.default_rng(0)

    def t(*shape, pos=False):
        return _t(lib, rng, *shape, pos=pos)

    return {**_losses(lib, t), **_linalg(lib, t), **_layers(lib, t)}


def _outcome(lib, name):
    with warnings.catch_warnings(), lib.autocast("cpu", dtype=lib.float16):
        warnings.simplefilter("ignore")
        try:
            result = _cases(lib)[name]()
        except Exception as error:  # noqa: BLE001 - a refusal is part of the outcome
            return type(error).__name__, str(error)
    node = result.grad_fn
    nexts = [type(n).__name__ for n, _ in node.next_functions] if node else []
    return str(result.dtype), type(node).__name__ if node else None, nexts


@pytest.mark.parametrize("name", list(_cases(torch)))
def test_autocast_outcome_is_torchs(name):
    assert _outcome(refgrad, name) == _outcome(torch, name)


def test_the_sweep_names_the_same_cases():
    assert list(_cases(refgrad)) == list(_cases(torch))
