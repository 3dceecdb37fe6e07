"""Which linear-algebra functions and losses take float16, as torch's CPU kernels do.

The matrix norms made of sums (Frobenius, 1, inf) take the half types; those made of
the SVD refuse them. The class margin losses' kernels take only float and double.
"""

import pytest
import torch
import torch.nn.functional as F

H = torch.float16


def _matrix():
    return (torch.arange(9, dtype=torch.float64).reshape(3, 3) * 0.1 + torch.eye(3)).to(H)


@pytest.mark.parametrize("ord, value", [("fro", 2.73), (1, 2.5), (-1, 1.9), (float("inf"), 3.1)])
def test_matrix_norms_made_of_sums_take_float16(ord, value):
    out = torch.linalg.matrix_norm(_matrix(), ord)
    assert out.dtype == H and round(out.item(), 2) == value


@pytest.mark.parametrize("ord", ["nuc", 2, -2])
def test_matrix_norms_made_of_the_svd_refuse_float16(ord):
    with pytest.raises(RuntimeError, match="^linalg.matrix_norm: Low precision dtypes not "
                                           "supported. Got Half$"):
        torch.linalg.matrix_norm(_matrix(), ord)


def test_matrix_norms_refuse_integers_whatever_the_order():
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor as "
                                           "input. Got Long"):
        torch.linalg.matrix_norm(torch.eye(3, dtype=torch.int64), 1)


@pytest.mark.parametrize("loss, target, kernel", [
    (F.multi_margin_loss, torch.tensor([0, 2, 1]), "multi_margin_loss_cpu_kernel"),
    (F.multilabel_margin_loss, torch.tensor([[0, -1, 1]] * 3),
     "multilabel_margin_loss_forward_out_frame"),
])
def test_class_margin_losses_refuse_float16(loss, target, kernel):
    with pytest.raises(NotImplementedError, match=f'^"{kernel}" not implemented for \'Half\'$'):
        loss(_matrix(), target)
