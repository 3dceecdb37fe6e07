"""CPU autocast's float32 list: losses, linear algebra, quantiles, pads and pools.

Each op below is given float16 inputs inside a float16 CPU region; torch casts
them to float32 first, so the result is float32, its graph reaches the inputs
through ToCopyBackward0 where the op's own node meets them, and its values are
those of the op on the same inputs in float32, outside any region.
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

HALF = torch.float16


def _arrays(shapes, seed):
    rng = np.random.default_rng(seed)
    found = []
    for shape in shapes:
        if shape[0] == "pos":  # a positive array: a Poisson target, a variance
            found.append(np.abs(rng.standard_normal(shape[1:])) + 0.1)
        elif shape[0] == "spd":  # symmetric positive definite
            m = rng.standard_normal(shape[1:])
            found.append(m @ m.T + 3 * np.eye(shape[-1]))
        elif shape[0] == "well":  # a square matrix far from singular
            found.append(rng.standard_normal(shape[1:]) + 4 * np.eye(shape[-1]))
        else:
            found.append(rng.standard_normal(shape))
    return [a.astype(np.float16) for a in found]


def _eye_lu():
    return torch.linalg.lu_factor(torch.eye(3))


def _ctc(lp):
    return F.ctc_loss(lp, torch.tensor([[1, 2]]), torch.tensor([5]), torch.tensor([2]))


def _ctc_log_probs():
    return np.log(np.full((5, 1, 4), 0.25)) + np.random.default_rng(5).random((5, 1, 4)) / 4


# op, input shapes, grad_fn's name, the names of its next functions: torch 2.13's
CASES = {
    "kl_div": (lambda a, b: F.kl_div(a, b, reduction="batchmean"), [(3, 4), (3, 4)],
               "DivBackward0", ["SumBackward0", "NoneType"]),
    "cosine_embedding_loss": (
        lambda a, b: F.cosine_embedding_loss(a, b, torch.tensor([1, -1, 1])),
        [(3, 4), (3, 4)], "MeanBackward0", ["AddBackward0"]),
    "hinge_embedding_loss": (lambda a: F.hinge_embedding_loss(a, torch.ones(3, 4)), [(3, 4)],
                             "MeanBackward0", ["AddBackward0"]),
    "poisson_nll_loss": (F.poisson_nll_loss, [(3, 4), ("pos", 3, 4)], "MeanBackward0",
                         ["SubBackward0"]),
    "soft_margin_loss": (lambda a: F.soft_margin_loss(a, torch.ones(4)), [(4,)],
                         "SoftMarginLossBackward0", ["ToCopyBackward0"]),
    "triplet_margin_loss": (F.triplet_margin_loss, [(3, 4)] * 3, "MeanBackward0",
                            ["ClampMinBackward0"]),
    "multi_margin_loss": (lambda a: F.multi_margin_loss(a, torch.tensor([0, 1, 2])), [(3, 4)],
                          "MultiMarginLossBackward0", ["ToCopyBackward0"]),
    "multilabel_margin_loss": (
        lambda a: F.multilabel_margin_loss(a, torch.tensor([[0, 1, -1, 0]] * 3)), [(3, 4)],
        "MultilabelMarginLossBackward0", ["ToCopyBackward0"]),
    "inverse": (torch.inverse, [("well", 3, 3)], "LinalgInvExBackward0", ["ToCopyBackward0"]),
    "pinverse": (torch.pinverse, [(3, 3)], "LinalgPinvBackward0", ["ToCopyBackward0"]),
    "linalg.inv": (torch.linalg.inv, [("well", 3, 3)], "LinalgInvExBackward0",
                   ["ToCopyBackward0"]),
    "linalg.solve": (torch.linalg.solve, [("well", 3, 3), (3, 1)], "LinalgSolveExBackward0",
                     ["ToCopyBackward0", "ToCopyBackward0"]),
    "linalg.matrix_rank": (lambda a: torch.linalg.matrix_rank(a).float(), [(3, 3)], None, []),
    "linalg.eigvalsh": (torch.linalg.eigvalsh, [(3, 3)], "LinalgEighBackward0",
                        ["ToCopyBackward0"]),
    "linalg.svdvals": (torch.linalg.svdvals, [(3, 3)], "LinalgSvdBackward0",
                       ["ToCopyBackward0"]),
    "linalg.cholesky": (torch.linalg.cholesky, [("spd", 3, 3)],
                        "LinalgCholeskyExBackward0", ["ToCopyBackward0"]),
    "quantile": (lambda a: torch.quantile(a, 0.3), [(5,)], "SqueezeBackward4",
                 ["LerpBackward1"]),
    "nanquantile": (lambda a: torch.nanquantile(a, 0.3), [(5,)], "SqueezeBackward4",
                    ["LerpBackward1"]),
    "lu_solve": (lambda b: torch.lu_solve(b, *_eye_lu()), [(3, 1)], "LinalgLuSolveBackward0",
                 ["NoneType", "ToCopyBackward0"]),
    "reflection_pad1d": (lambda a: F.pad(a, (1, 1), mode="reflect"), [(1, 2, 4)],
                         "ReflectionPad1DBackward0", ["ToCopyBackward0"]),
    "replication_pad1d": (lambda a: F.pad(a, (1, 1), mode="replicate"), [(1, 2, 4)],
                          "ReplicationPad1DBackward0", ["ToCopyBackward0"]),
    "reflection_pad2d": (lambda a: F.pad(a, (1, 1, 1, 1), mode="reflect"), [(1, 2, 4, 4)],
                         "ReflectionPad2DBackward0", ["ToCopyBackward0"]),
    "replication_pad2d": (lambda a: F.pad(a, (1, 1, 1, 1), mode="replicate"), [(1, 2, 4, 4)],
                          "ReplicationPad2DBackward0", ["ToCopyBackward0"]),
    "replication_pad3d": (lambda a: F.pad(a, (1,) * 6, mode="replicate"), [(1, 1, 3, 3, 3)],
                          "ReplicationPad3DBackward0", ["ToCopyBackward0"]),
    "fractional_max_pool2d": (
        lambda a: F.fractional_max_pool2d(a, 2, output_size=3,
                                          _random_samples=torch.full((1, 1, 2), 0.5)),
        [(1, 1, 6, 6)], "FractionalMaxPool2DBackward0", ["ToCopyBackward0"]),
}


@pytest.mark.filterwarnings("ignore:torch.lu_solve is deprecated")
@pytest.mark.parametrize("name", list(CASES))
def test_a_float32_op_computes_in_float32(name):
    op, shapes, node, nexts = CASES[name]
    arrays = _arrays(shapes, seed=len(name))
    with torch.autocast("cpu", dtype=HALF):
        result = op(*(torch.tensor(a).requires_grad_() for a in arrays))
    wide = op(*(torch.tensor(a.astype(np.float32)) for a in arrays))
    assert result.dtype == torch.float32
    assert (type(result.grad_fn).__name__ if result.grad_fn else None) == node
    assert [type(n).__name__ for n, _ in (result.grad_fn.next_functions if node else ())] == nexts
    np.testing.assert_allclose(result.detach().numpy(), wide.numpy(), rtol=1e-5, atol=1e-6)


def test_ctc_loss_computes_in_float32():
    log_probs = _ctc_log_probs().astype(np.float16)
    with torch.autocast("cpu", dtype=HALF):
        result = _ctc(torch.tensor(log_probs).requires_grad_())
    assert result.dtype == torch.float32
    assert type(result.grad_fn).__name__ == "MeanBackward0"
    assert [type(n).__name__ for n, _ in result.grad_fn.next_functions] == ["DivBackward0"]
    wide = _ctc(torch.tensor(log_probs.astype(np.float32)))
    np.testing.assert_allclose(result.detach().numpy(), wide.numpy(), rtol=1e-5)


def test_the_gradient_reaches_the_float16_input_as_float16():
    a = torch.tensor(_arrays([(3, 4), (3, 4)], seed=1)[0]).requires_grad_()
    with torch.autocast("cpu", dtype=HALF):
        loss = F.kl_div(a, torch.ones(3, 4), reduction="batchmean")
    loss.backward()
    assert a.grad.dtype == HALF
    np.testing.assert_allclose(a.grad.numpy(), np.full((3, 4), -1 / 3, np.float16))


def test_the_ops_stay_in_their_inputs_dtype_outside_a_region():
    a = torch.tensor(_arrays([(1, 2, 4)], seed=2)[0])
    assert F.pad(a, (1, 1), mode="reflect").dtype == HALF
    assert F.soft_margin_loss(a, torch.ones(1, 2, 4, dtype=HALF)).dtype == HALF


@pytest.mark.parametrize("op", [
    lambda a, b: torch.linalg.solve_ex(a, b),
    lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(torch.eye(3)), b),
    lambda a, b: torch.linalg.pinv(a),
], ids=["linalg.solve_ex", "linalg.lu_solve", "linalg.pinv"])
def test_spellings_off_the_list_are_not_cast(op):
    a, b = (torch.tensor(x) for x in _arrays([("well", 3, 3), (3, 1)], seed=3))
    with pytest.raises((RuntimeError, NotImplementedError)) as inside:
        with torch.autocast("cpu", dtype=HALF):
            op(a, b)
    with pytest.raises(type(inside.value)) as outside:
        op(a, b)
    assert str(inside.value) == str(outside.value)
