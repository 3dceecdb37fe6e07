"""Gradients of the determinant, the inverse, the solvers and the factorizations, taken again.

Each case takes a gradient with ``create_graph=True`` and checks the nodes of its graph
(preorder, each once), its strides, the values of its own gradient, and the layout and
version of the gradient a leaf receives from a plain ``backward()``: torch's formulas
solve rather than invert, scale rows rather than build diagonal matrices, and write
blocks in place, and a second derivative sees every one of those steps.
"""

import pytest
import torch

from conformance._support import unique_preorder

D = torch.float64
def _wide():
    """The (2, 3) leaf with strides (1, 2) that the sweep of every op uses."""
    return (torch.arange(6, dtype=D).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


def _square():
    values = torch.tensor([[0.9, 0.2, -0.4], [0.1, 1.3, 0.5], [-0.3, 0.6, 1.7]], dtype=D)
    return values.requires_grad_()


def _batch():
    values = torch.tensor([[[2.0, 0.5, 0.1], [0.3, 1.5, 0.2], [0.1, 0.4, 1.1]],
                           [[1.0, 0.2, -0.3], [0.4, 0.9, 0.1], [0.0, 0.3, 1.4]]], dtype=D)
    return values.requires_grad_()


def _eye(n=2):
    return torch.eye(n, dtype=D)


def _other(x):
    return torch.arange(6, dtype=D).reshape(x.shape) * 0.3 + 0.2


def _spd(a):
    return a @ a.mT + _eye(a.shape[-1])


def _squares(results):
    """Every output of a decomposition, squared, in one vector: a loss through all of them."""
    return torch.cat([v.flatten() ** 2 for v in results])


def _lstsq_residuals(x):
    b = torch.tensor([[0.5], [-1.0], [2.0], [0.3]], dtype=D)
    return torch.linalg.lstsq(torch.cat([x, x[:1] * 2 + 1]), b, driver="gelsd").residuals

# (name, leaf, function, graph of the gradient, its strides, the values of its gradient,
#  strides and version of the leaf's .grad after a plain backward)
CASES = [
    ('det', _wide,
     lambda x: torch.det(x[:, :2] + _eye()),
     ['SliceBackwardBackward0', 'LinalgSolveExBackward0', 'TransposeBackward0',
      'AddBackward0', 'SliceBackward0', 'AccumulateGrad', 'TransposeBackward0',
      'DiagEmbedBackward0', 'ExpandBackward0', 'UnsqueezeBackward0', 'MulBackward0',
      'AddBackward0', 'MulBackward0', 'LinalgDetBackward0', 'MulBackward0'],
     (3, 1), [12.1444, -6.7844, 0.0, -7.4644, 10.1044, 0.0], (1, 2), 1),
    ('inverse', _wide,
     lambda x: torch.inverse(x[:, :2] + _eye()),
     ['SliceBackwardBackward0', 'NegBackward0', 'MmBackward0', 'TransposeBackward0',
      'LinalgInvExBackward0', 'AddBackward0', 'SliceBackward0', 'AccumulateGrad',
      'MmBackward0', 'AddBackward0', 'MulBackward0', 'MulBackward0',
      'TransposeBackward0'],
     (3, 1), [0.962671, 0.209857, 0.0, 0.090074, -0.110958, 0.0], (1, 2), 1),
    ('slogdet', _wide,
     lambda x: torch.slogdet(x[:, :2] + _eye())[1],
     ['SliceBackwardBackward0', 'LinalgSolveExBackward0', 'TransposeBackward0',
      'AddBackward0', 'SliceBackward0', 'AccumulateGrad', 'TransposeBackward0',
      'DiagEmbedBackward0', 'ExpandBackward0', 'UnsqueezeBackward0', 'AddBackward0',
      'MulBackward0', 'LinalgSlogdetBackward0', 'MulBackward0'],
     (3, 1), [1.004293, -0.805536, 0.0, -0.830752, 0.928647, 0.0], (1, 2), 1),
    ('logdet', _wide,
     lambda x: torch.logdet(x[:, :2] + 2 * _eye()),
     ['SliceBackwardBackward0', 'LinalgSolveExBackward0', 'TransposeBackward0',
      'AddBackward0', 'SliceBackward0', 'AccumulateGrad', 'TransposeBackward0',
      'DiagEmbedBackward0', 'ExpandBackward0', 'UnsqueezeBackward0', 'WhereBackward0',
      'AddBackward0', 'MulBackward0', 'WhereBackward0', 'LinalgSlogdetBackward0',
      'MulBackward0'],
     (3, 1), [0.096929, -0.480057, 0.0, -0.452223, 0.180431, 0.0], (1, 2), 1),
    ('linalg_slogdet', _wide,
     lambda x: torch.linalg.slogdet(x[:, :2] + _eye())[1],
     ['SliceBackwardBackward0', 'LinalgSolveExBackward0', 'TransposeBackward0',
      'AddBackward0', 'SliceBackward0', 'AccumulateGrad', 'TransposeBackward0',
      'DiagEmbedBackward0', 'ExpandBackward0', 'UnsqueezeBackward0', 'AddBackward0',
      'MulBackward0', 'LinalgSlogdetBackward0', 'MulBackward0'],
     (3, 1), [1.004293, -0.805536, 0.0, -0.830752, 0.928647, 0.0], (1, 2), 1),
    ('cholesky', _wide,
     lambda x: torch.linalg.cholesky(x @ x.t() + _eye()),
     ['AddBackward0', 'TBackward0', 'MmBackward0', 'TBackward0', 'AccumulateGrad',
      'TBackward0', 'LinalgSolveTriangularBackward0', 'LinalgCholeskyExBackward0',
      'AddBackward0', 'MmBackward0', 'LinalgSolveTriangularBackward0',
      'TransposeBackward0', 'MulBackward1', 'AddBackward0', 'TrilBackward0',
      'MmBackward0', 'TransposeBackward0', 'AddBackward0', 'MulBackward0',
      'MulBackward0', 'TransposeBackward0', 'TrilBackward0', 'TBackward0',
      'MmBackward0', 'TBackward0'],
     (1, 2), [2.0, 2.0, 2.0, 2.0, 2.0, 2.0], (1, 2), 0),
    ('solve', _wide,
     lambda x: torch.linalg.solve(x[:, :2] + _eye(), x),
     ['AddBackward0', 'LinalgSolveExBackward0', 'TransposeBackward0', 'AddBackward0',
      'SliceBackward0', 'AccumulateGrad', 'AddBackward0', 'MulBackward0',
      'LinalgSolveExBackward0', 'MulBackward0', 'SliceBackwardBackward0',
      'NegBackward0', 'MmBackward0', 'TransposeBackward0'],
     (1, 2), [0.410579, 0.050105, -0.539344, 0.05123, -0.024584, -0.263646], (1, 2), 1),
    ('matrix_exp', _wide,
     lambda x: torch.linalg.matrix_exp(x[:, :2]),
     ['SliceBackwardBackward0', 'SliceBackward0', 'SliceBackward0',
      'LinalgMatrixExpBackward0', 'CopySlices', 'CopySlices', 'CopySlices',
      'TransposeBackward0', 'SliceBackward0', 'AccumulateGrad', 'AddBackward0',
      'MulBackward0', 'LinalgMatrixExpBackward0', 'MulBackward0'],
     (3, 1), [44.149493, 55.668723, 0.0, 58.024142, 72.708731, 0.0], (1, 2), 1),
    ('pinv', _wide,
     lambda x: torch.linalg.pinv(x),
     ['AddBackward0', 'SubBackward0', 'AddBackward0', 'NegBackward0',
      'TransposeBackward0', 'MmBackward0', 'LinalgPinvBackward0', 'AccumulateGrad',
      'MmBackward0', 'TransposeBackward0', 'AddBackward0', 'MulBackward0',
      'MulBackward0', 'MmBackward0', 'TransposeBackward0', 'MmBackward0',
      'MmBackward0', 'MmBackward0', 'MmBackward0', 'SubBackward0', 'MmBackward0'],
     (1, 2), [13773.566703, 2036.59007, -9700.386563, -12121.405018, -1837.039458,
      8447.326103], (1, 2), 0),
    ('svdvals', _wide,
     lambda x: torch.linalg.svdvals(x),
     ['MmBackward0', 'MulBackward0', 'LinalgSvdBackward0', 'AccumulateGrad',
      'UnsqueezeBackward0', 'AddBackward0', 'MulBackward0', 'MulBackward0'],
     (3, 1), [2.0, 2.0, 2.0, 2.0, 2.0, 2.0], (1, 2), 1),
    ('qr', _wide,
     lambda x: torch.linalg.qr(x.t())[1],
     ['TBackward0', 'LinalgSolveTriangularBackward0', 'TransposeBackward0',
      'LinalgQrBackward0', 'TBackward0', 'AccumulateGrad', 'MmBackward0',
      'CopySlices', 'AddBackward0', 'TriuBackward0', 'MmBackward0', 'AddBackward0',
      'MulBackward0', 'MulBackward0', 'TransposeBackward0', 'TransposeBackward0'],
     (3, 1), [2.0, 2.0, 2.0, 2.0, 2.0, 2.0], (1, 2), 1),
    ('eigvalsh', _wide,
     lambda x: torch.linalg.eigvalsh(x @ x.t()),
     ['AddBackward0', 'TBackward0', 'MmBackward0', 'TBackward0', 'AccumulateGrad',
      'TBackward0', 'MmBackward0', 'MulBackward0', 'LinalgEighBackward0',
      'MmBackward0', 'UnsqueezeBackward0', 'AddBackward0', 'MulBackward0',
      'MulBackward0', 'TransposeBackward0', 'TBackward0', 'MmBackward0', 'TBackward0'],
     (1, 2), [34.8916, 47.662, 60.4324, 40.2364, 54.394, 68.5516], (1, 2), 0),
    ('lstsq', _wide,
     lambda x: torch.linalg.lstsq(x.t(), _other(x).t()).solution,
     ['TBackward0', 'SubBackward0', 'AddBackward0', 'AddBackward0', 'NegBackward0',
      'TransposeBackward0', 'MmBackward0', 'MmBackward0', 'LinalgPinvBackward0',
      'TBackward0', 'AccumulateGrad', 'TransposeBackward0', 'MmBackward0',
      'AddBackward0', 'MulBackward0', 'LinalgLstsqBackward0', 'MulBackward0',
      'MmBackward0', 'MmBackward0', 'SubBackward0', 'MmBackward0',
      'TransposeBackward0', 'MmBackward0', 'MmBackward0', 'MmBackward0'],
     (3, 1), [-243.624368, -176.778366, -109.932363, 497.171028, 248.616586,
      0.062144], (1, 2), 1),
    ('nuc', _wide,
     lambda x: torch.linalg.matrix_norm(x, 'nuc'),
     ['PermuteBackward0', 'MmBackward0', 'MulBackward0', 'LinalgSvdBackward0',
      'PermuteBackward0', 'AccumulateGrad', 'UnsqueezeBackward0', 'ExpandBackward0',
      'UnsqueezeBackward0', 'AddBackward0', 'MulBackward0', 'SumBackward1',
      'MulBackward0'],
     (3, 1), [-0.44949, 2.0, 4.44949, 4.44949, 2.0, -0.44949], (1, 2), 1),
    ('det_batch', _batch,
     torch.linalg.det,
     ['LinalgSolveExBackward0', 'TransposeBackward0', 'AccumulateGrad',
      'TransposeBackward0', 'DiagEmbedBackward0', 'ExpandBackward0',
      'UnsqueezeBackward0', 'MulBackward0', 'AddBackward0', 'MulBackward0',
      'LinalgDetBackward0', 'MulBackward0'],
     (9, 1, 3), [26.3406, -9.4062, -5.643, -11.2422, 37.3998, -17.6202, -5.8266,
      -14.1318, 42.2658, 10.0402, -6.378, 0.1456, -5.2458, 12.5908, -3.8264,
      0.7486, -3.2244, 6.7656], (9, 3, 1), 1),
    ('det_singular', _square,
     lambda x: torch.linalg.det(x * torch.tensor([1.0, 1.0, 0.0], dtype=D)),
     ['MulBackward0', 'MmBackward0', 'MulBackward0', 'LinalgSvdBackward0',
      'MulBackward0', 'AccumulateGrad', 'UnsqueezeBackward0', 'MulBackward0',
      'UnsqueezeBackward0', 'MulBackward0', 'MulBackward0', 'LinalgDetBackward0',
      'LinalgDetBackward0', 'AddBackward0', 'MulBackward0', 'LinalgDetBackward0',
      'MulBackward0', 'MulBackward0', 'CumprodBackward0', 'CatBackward0',
      'SliceBackward0', 'FlipBackward0', 'CumprodBackward0', 'CatBackward0',
      'FlipBackward0', 'SliceBackward0'],
     (3, 1), [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], (3, 1), 1),
    ('slogdet_batch', _batch,
     lambda x: torch.linalg.slogdet(x).logabsdet,
     ['LinalgSolveExBackward0', 'TransposeBackward0', 'AccumulateGrad',
      'TransposeBackward0', 'DiagEmbedBackward0', 'ExpandBackward0',
      'UnsqueezeBackward0', 'AddBackward0', 'MulBackward0', 'LinalgSlogdetBackward0',
      'MulBackward0'],
     (9, 1, 3), [1.31551, -0.776439, -0.656646, -0.757321, 1.915758, -1.247335,
      -0.654734, -1.283659, 1.70611, 4.941728, -2.371527, 0.425981, -1.636358,
      5.703018, -1.298035, 1.056161, -0.980057, 3.299342], (9, 3, 1), 1),
    ('inv_batch', _batch,
     torch.linalg.inv,
     ['NegBackward0', 'UnsafeViewBackward0', 'BmmBackward0', 'ViewBackward0',
      'ExpandBackward0', 'TransposeBackward0', 'LinalgInvExBackward0',
      'AccumulateGrad', 'ViewBackward0', 'ExpandBackward0', 'UnsafeViewBackward0',
      'BmmBackward0', 'ReshapeAliasBackward0', 'ExpandBackward0', 'AddBackward0',
      'MulBackward0', 'MulBackward0', 'ViewBackward0', 'ExpandBackward0',
      'TransposeBackward0'],
     (9, 3, 1), [0.102131, 0.09757, 0.692204, -0.033957, -0.106282, 0.334066, 0.667313,
      0.788246, 2.601686, 5.101117, 1.062621, 2.734635, 1.975044, -0.3373,
      0.91865, 4.148748, 0.446101, 2.13226], (9, 3, 1), 0),
    ('solve_vector', _square,
     lambda x: torch.linalg.solve(_spd(x), torch.tensor([0.5, -1.0, 2.0], dtype=D)),
     ['AddBackward0', 'MmBackward0', 'NegBackward0', 'MmBackward0',
      'LinalgSolveExBackward0', 'TransposeBackward0', 'AddBackward0', 'MmBackward0',
      'AccumulateGrad', 'TransposeBackward0', 'UnsqueezeBackward0', 'AddBackward0',
      'MulBackward0', 'LinalgSolveExBackward0', 'MulBackward0', 'TransposeBackward0',
      'UnsqueezeBackward0', 'TBackward0', 'TransposeBackward0', 'TBackward0',
      'MmBackward0', 'TBackward0'],
     (3, 1), [1.022089, -0.678434, 2.327803, 0.314813, -1.348849, 0.593315, 0.723701,
      -0.004494, 1.466615], (3, 1), 1),
    ('solve_right', _batch,
     lambda x: torch.linalg.solve(x, x[:, :2] * 0.5, left=False),
     ['AddBackward0', 'NegBackward0', 'UnsafeViewBackward0', 'BmmBackward0',
      'ReshapeAliasBackward0', 'ExpandBackward0', 'TransposeBackward0',
      'LinalgSolveExBackward0', 'AccumulateGrad', 'MulBackward0', 'SliceBackward0',
      'ViewBackward0', 'ExpandBackward0', 'LinalgSolveExBackward0',
      'TransposeBackward0', 'AddBackward0', 'MulBackward0', 'MulBackward0',
      'SliceBackwardBackward0', 'MulBackward0'],
     (9, 3, 1), [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
      0.0, 0.0, 0.0, 0.0], (9, 3, 1), 1),
    ('cholesky_upper_batch', _batch,
     lambda x: torch.linalg.cholesky(_spd(x), upper=True),
     ['AddBackward0', 'ViewBackward0', 'BmmBackward0', 'ReshapeAliasBackward0',
      'LinalgSolveTriangularBackward0', 'TransposeBackward0',
      'LinalgCholeskyExBackward0', 'AddBackward0', 'UnsafeViewBackward0',
      'BmmBackward0', 'ViewBackward0', 'ExpandBackward0', 'AccumulateGrad',
      'ReshapeAliasBackward0', 'ExpandBackward0', 'TransposeBackward0',
      'LinalgSolveTriangularBackward0', 'TransposeBackward0', 'MulBackward1',
      'AddBackward0', 'TrilBackward0', 'UnsafeViewBackward0', 'BmmBackward0',
      'ReshapeAliasBackward0', 'ExpandBackward0', 'TransposeBackward0',
      'ViewBackward0', 'ExpandBackward0', 'TransposeBackward0', 'AddBackward0',
      'MulBackward0', 'MulBackward0', 'TransposeBackward0', 'TrilBackward0',
      'TransposeBackward0', 'TransposeBackward0', 'ViewBackward0', 'BmmBackward0',
      'TransposeBackward0'],
     (9, 3, 1), [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0,
      2.0, 2.0, 2.0, 2.0], (9, 3, 1), 0),
    ('svd_vectors_wide', _wide,
     lambda x: torch.linalg.svd(x, full_matrices=False).Vh[:, :2] ** 2,
     ['MmBackward0', 'LinalgSvdBackward0', 'AccumulateGrad', 'SubBackward0',
      'AddBackward0', 'MmBackward0', 'MulBackward0', 'UnsqueezeBackward0',
      'DivBackward0', 'SubBackward0', 'MmBackward0', 'TransposeBackward0',
      'SliceBackwardBackward0', 'MulBackward0', 'AddBackward0', 'MulBackward0',
      'PowBackward0', 'SliceBackward0', 'MulBackward0', 'MulBackward1',
      'PowBackward0', 'TransposeBackward0', 'CopySlices', 'SubBackward0',
      'UnsqueezeBackward0', 'MulBackward0', 'UnsqueezeBackward0', 'DivBackward0',
      'UnsqueezeBackward0', 'MmBackward0', 'MmBackward0', 'TransposeBackward0'],
     (3, 1), [-2.925737, 6.136657, -3.073108, 3.545586, -6.638138, 3.34095], (1, 2), 1),
    ('svd_vectors_tall', _wide,
     lambda x: torch.linalg.svd(x.t()).U[:2, :2] ** 2,
     ['TBackward0', 'MmBackward0', 'SubBackward0', 'AddBackward0', 'MmBackward0',
      'SliceBackward0', 'LinalgSvdBackward0', 'TBackward0', 'AccumulateGrad',
      'MulBackward0', 'DivBackward0', 'SubBackward0', 'MmBackward0',
      'TransposeBackward0', 'SliceBackward0', 'SliceBackwardBackward0',
      'SliceBackwardBackward0', 'MulBackward0', 'AddBackward0', 'MulBackward0',
      'PowBackward0', 'SliceBackward0', 'SliceBackward0', 'MulBackward0',
      'MulBackward1', 'PowBackward0', 'TransposeBackward0', 'CopySlices',
      'SubBackward0', 'UnsqueezeBackward0', 'MulBackward0', 'UnsqueezeBackward0',
      'UnsqueezeBackward0', 'DivBackward0', 'UnsqueezeBackward0', 'MmBackward0',
      'MmBackward0', 'TransposeBackward0', 'SliceBackward0'],
     (1, 2), [-2.925737, 6.136657, -3.073108, 3.545586, -6.638138, 3.34095], (1, 2), 0),
    ('svd_all_square', _square,
     lambda x: _squares(torch.linalg.svd(x)),
     ['MmBackward0', 'SliceBackward0', 'LinalgSvdBackward0', 'AccumulateGrad',
      'MmBackward0', 'AddBackward0', 'DivBackward0', 'AddBackward0', 'MulBackward0',
      'SubBackward0', 'MmBackward0', 'TransposeBackward0', 'SliceBackward0',
      'ViewBackward0', 'MulBackward0', 'SliceBackward0', 'AddBackward0',
      'MulBackward0', 'CatBackward0', 'PowBackward0', 'UnsafeViewBackward0',
      'CloneBackward0', 'PowBackward0', 'PowBackward0', 'UnsafeViewBackward0',
      'CloneBackward0', 'MulBackward0', 'MulBackward1', 'PowBackward0',
      'TransposeBackward0', 'UnsqueezeBackward0', 'MulBackward0',
      'UnsqueezeBackward0', 'SubBackward0', 'MmBackward0', 'SliceBackward0',
      'TransposeBackward0', 'SliceBackward0', 'ViewBackward0', 'MulBackward0',
      'SliceBackward0', 'MulBackward1', 'PowBackward0', 'TransposeBackward0',
      'CopySlices', 'SubBackward0', 'UnsqueezeBackward0', 'MulBackward0',
      'UnsqueezeBackward0', 'DiagEmbedBackward0', 'MulBackward0', 'SliceBackward0',
      'MulBackward1', 'PowBackward0'],
     (3, 1), [16.673819, 24.305327, 24.500853, 22.757934, 39.743279, 53.804049,
      24.717427, 57.569426, 40.870605], (3, 1), 0),
    ('eigh_vectors', _square,
     lambda x: torch.linalg.eigh(x + x.t()).eigenvectors[:, :1] ** 2,
     ['AddBackward0', 'MmBackward0', 'LinalgEighBackward0', 'AddBackward0',
      'AccumulateGrad', 'TBackward0', 'MmBackward0', 'DivBackward0', 'MulBackward1',
      'SubBackward0', 'MmBackward0', 'TransposeBackward0', 'SliceBackwardBackward0',
      'MulBackward0', 'AddBackward0', 'MulBackward0', 'PowBackward0',
      'SliceBackward0', 'MulBackward0', 'MulBackward1', 'PowBackward0',
      'TransposeBackward0', 'CopySlices', 'SubBackward0', 'UnsqueezeBackward0',
      'UnsqueezeBackward0', 'TransposeBackward0', 'TBackward0'],
     (3, 1), [2.490675, 1.477721, 0.097073, 1.477721, -1.817112, 1.288349, 0.097073,
      1.288349, -0.673564], (3, 1), 0),
    ('eigh_both_batch', _batch,
     lambda x: _squares(torch.linalg.eigh(x + x.mT)),
     ['AddBackward0', 'UnsafeViewBackward0', 'BmmBackward0', 'ReshapeAliasBackward0',
      'ExpandBackward0', 'LinalgEighBackward0', 'AddBackward0', 'AccumulateGrad',
      'TransposeBackward0', 'ViewBackward0', 'ExpandBackward0', 'UnsafeViewBackward0',
      'BmmBackward0', 'ViewBackward0', 'ExpandBackward0', 'CopySlices',
      'DivBackward0', 'MulBackward1', 'SubBackward0', 'UnsafeViewBackward0',
      'BmmBackward0', 'ViewBackward0', 'ExpandBackward0', 'TransposeBackward0',
      'ViewBackward0', 'ExpandBackward0', 'ViewBackward0', 'MulBackward0',
      'SliceBackward0', 'AddBackward0', 'MulBackward0', 'CatBackward0',
      'PowBackward0', 'ViewBackward0', 'PowBackward0', 'UnsafeViewBackward0',
      'CloneBackward0', 'MulBackward0', 'MulBackward1', 'PowBackward0',
      'TransposeBackward0', 'CopySlices', 'SubBackward0', 'UnsqueezeBackward0',
      'UnsqueezeBackward0', 'ViewBackward0', 'MulBackward0', 'SliceBackward0',
      'MulBackward1', 'PowBackward0', 'ViewBackward0', 'ExpandBackward0',
      'TransposeBackward0', 'TransposeBackward0'],
     (9, 3, 1), [1168.039642, 1045.487011, 789.946672, 1045.487011, 917.839344,
      683.193646, 789.946672, 683.193646, 475.401014, 279.466619, 296.981554,
      280.089884, 296.981554, 337.891501, 356.892747, 280.089884, 356.892747,
      416.56188], (9, 3, 1), 0),
    ('pinv_tall_batch', _batch,
     lambda x: torch.linalg.pinv(x[:, :, :2]),
     ['SliceBackwardBackward0', 'SubBackward0', 'AddBackward0', 'AddBackward0',
      'NegBackward0', 'TransposeBackward0', 'UnsafeViewBackward0', 'BmmBackward0',
      'ViewBackward0', 'ExpandBackward0', 'UnsafeViewBackward0', 'BmmBackward0',
      'ViewBackward0', 'ExpandBackward0', 'LinalgPinvBackward0', 'SliceBackward0',
      'AccumulateGrad', 'ReshapeAliasBackward0', 'ExpandBackward0',
      'TransposeBackward0', 'AddBackward0', 'MulBackward0', 'MulBackward0',
      'ViewBackward0', 'ExpandBackward0', 'UnsafeViewBackward0', 'BmmBackward0',
      'ViewBackward0', 'ExpandBackward0', 'UnsafeViewBackward0', 'BmmBackward0',
      'ReshapeAliasBackward0', 'ExpandBackward0', 'SubBackward0',
      'UnsafeViewBackward0', 'BmmBackward0', 'ReshapeAliasBackward0',
      'ExpandBackward0', 'ViewBackward0', 'ExpandBackward0', 'ViewBackward0',
      'ExpandBackward0', 'ReshapeAliasBackward0', 'ExpandBackward0',
      'TransposeBackward0', 'UnsafeViewBackward0', 'BmmBackward0',
      'ReshapeAliasBackward0', 'ExpandBackward0', 'ViewBackward0', 'ExpandBackward0',
      'UnsafeViewBackward0', 'BmmBackward0', 'ViewBackward0', 'ExpandBackward0',
      'UnsafeViewBackward0', 'BmmBackward0', 'ViewBackward0', 'ExpandBackward0',
      'ViewBackward0', 'ExpandBackward0', 'ReshapeAliasBackward0', 'ExpandBackward0'],
     (9, 3, 1), [0.029258, 0.352715, 0.0, 0.198359, 0.827196, 0.0, 0.067463, 0.048922,
      0.0, 0.591351, 2.129566, 0.0, 2.117801, 5.571347, 0.0, 0.633424,
      0.476669, 0.0], (9, 3, 1), 0),
    ('lstsq_residuals', _square,
     _lstsq_residuals,
     ['AddBackward0', 'SliceBackward0', 'MulBackward1', 'MmBackward0',
      'MulBackward0', 'UnsqueezeBackward0', 'AddBackward0', 'MulBackward0',
      'LinalgLstsqBackward0', 'CatBackward0', 'AccumulateGrad', 'AddBackward0',
      'MulBackward0', 'SliceBackward0', 'MulBackward0', 'SubBackward0', 'MmBackward0',
      'TransposeBackward0', 'SliceBackwardBackward0', 'MulBackward0',
      'SliceBackward0'],
     (3, 1), [3.054069, -4.502602, 5.907014, 0.344331, -0.507646, 0.665987, 1.916278,
      -2.825162, 3.706362], (3, 1), 0),
    ('qr_both_wide', _wide,
     lambda x: _squares(torch.linalg.qr(x)),
     ['AddBackward0', 'CatBackward0', 'LinalgSolveTriangularBackward0',
      'TransposeBackward0', 'SliceBackward0', 'LinalgQrBackward0', 'AccumulateGrad',
      'MmBackward0', 'TrilBackward0', 'SubBackward0', 'NegBackward0', 'SubBackward0',
      'MmBackward0', 'ViewBackward0', 'MulBackward0', 'SliceBackward0',
      'AddBackward0', 'MulBackward0', 'CatBackward0', 'PowBackward0',
      'UnsafeViewBackward0', 'CloneBackward0', 'PowBackward0', 'UnsafeViewBackward0',
      'CloneBackward0', 'MulBackward0', 'MulBackward1', 'PowBackward0',
      'TransposeBackward0', 'MmBackward0', 'TransposeBackward0', 'ViewBackward0',
      'MulBackward0', 'SliceBackward0', 'MulBackward1', 'PowBackward0',
      'TransposeBackward0', 'MmBackward0'],
     (3, 1), [5.325048, 15.24448, 32.024904, 4.831843, 17.837634, 34.987609], (1, 2), 1),
    ('qr_q_tall', _wide,
     lambda x: torch.linalg.qr(x.t()).Q[:2] ** 4,
     ['TBackward0', 'LinalgSolveTriangularBackward0', 'TransposeBackward0',
      'LinalgQrBackward0', 'TBackward0', 'AccumulateGrad', 'AddBackward0',
      'MmBackward0', 'CopySlices', 'AddBackward0', 'TriuBackward0', 'NegBackward0',
      'MmBackward0', 'TransposeBackward0', 'SliceBackwardBackward0', 'MulBackward0',
      'AddBackward0', 'MulBackward0', 'PowBackward0', 'SliceBackward0',
      'MulBackward0', 'MulBackward1', 'PowBackward0', 'TransposeBackward0'],
     (3, 1), [0.766205, -0.155273, 0.161203, 0.62582, -1.25164, 0.62582], (1, 2), 1),
    ('matrix_exp_batch', _batch,
     torch.linalg.matrix_exp,
     ['SliceBackward0', 'SliceBackward0', 'LinalgMatrixExpBackward0', 'CopySlices',
      'CopySlices', 'CopySlices', 'TransposeBackward0', 'AccumulateGrad',
      'AddBackward0', 'MulBackward0', 'LinalgMatrixExpBackward0', 'MulBackward0'],
     (36, 6, 1), [489.836478, 383.86658, 261.106165, 405.77398, 316.150903, 208.347314,
      253.690326, 193.014386, 121.996539, 41.331966, 51.041722, 55.285968,
      50.099858, 61.821893, 67.393093, 55.271455, 68.343082, 75.026243], (9, 3, 1), 1),
]


def _graph(t) -> list:
    """The names of the nodes of ``t``'s graph, in preorder, each once."""
    return unique_preorder(t.grad_fn)


@pytest.mark.parametrize("leaf, fn, graph, strides, second, leaf_strides, version",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_second_derivative_graph(leaf, fn, graph, strides, second, leaf_strides, version):
    x = leaf()
    y = fn(x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert _graph(g) == graph
    assert g.stride() == strides
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.flatten().tolist() == pytest.approx(second, rel=1e-6, abs=1e-5)
    x = leaf()
    fn(x).sum().backward()
    assert (x.grad.stride(), x.grad._version) == (leaf_strides, version)


def test_sign_alone_gives_no_gradient():
    a = torch.tensor([[2.0, 0.5], [0.3, 1.5]], dtype=D, requires_grad=True)
    torch.linalg.slogdet(a).sign.sum().backward()
    assert a.grad is None


@pytest.mark.parametrize("a, b, left, strides", [
    ((3, 3), (3, 2), True, (1, 3)),
    ((2, 3, 3), (2, 3, 2), True, (6, 1, 3)),
    ((2, 3, 3), (2, 3), True, (1, 2)),
    ((3, 3), (3,), True, (1,)),
    ((2, 3, 3), (2, 2, 3), False, (6, 3, 1)),
], ids=["matrix", "batch", "batch_of_vectors", "vector", "right"])
def test_solution_layout(a, b, left, strides):
    A = torch.eye(3, dtype=D) * 2 + torch.ones(a, dtype=D) * 0.1
    B = torch.arange(1.0, 1.0 + torch.Size(b).numel(), dtype=D).reshape(b)
    assert torch.linalg.solve(A, B, left=left).stride() == strides


@pytest.mark.parametrize("fn", [torch.linalg.inv, torch.linalg.cholesky,
                                lambda a: torch.linalg.cholesky(a, upper=True)],
                         ids=["inv", "cholesky", "cholesky_upper"])
def test_factors_by_columns(fn):
    a = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=D)
    assert fn(a).stride() == (1, 3)
    assert fn(torch.stack([a, a * 2])).stride() == (9, 1, 3)
