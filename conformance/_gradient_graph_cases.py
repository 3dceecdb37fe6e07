"""The cases of conformance/test_gradient_graphs_swept.py: for each, the shapes of its
float64 leaves, the scale of their values and the function of them: grid_sample in every
mode, padding and alignment, then torch.nn.functional and its kin."""

import torch
import torch.nn.functional as F


def _sampling(mode, padding, align):
    return lambda a, b: F.grid_sample(a, b, mode=mode, padding_mode=padding,
                                      align_corners=align)


_GRIDS = {2: [(1, 2, 3, 4), (1, 2, 3, 2)], 3: [(1, 2, 2, 3, 4), (1, 2, 2, 3, 3)]}
CASES = {
    f"grid_sample{n}d_{mode}_{padding}_{align}": (_GRIDS[n], [1, 1.3],
                                                  _sampling(mode, padding, align))
    for mode in ("bilinear", "nearest", "bicubic")
    for padding in ("zeros", "border", "reflection")
    for align in (False, True) for n in (2, 3) if n == 2 or mode != "bicubic"
}
CASES.update({
    "pad_reflect1d": ([(1, 2, 5)], [1], lambda a: F.pad(a, (2, 1), mode='reflect')),
    "pad_reflect2d": ([(1, 2, 4, 5)], [1], lambda a: F.pad(a, (2, 1, 1, 2), mode='reflect')),
    "pad_reflect3d": ([(1, 1, 3, 4, 5)], [1], lambda a:
        F.pad(a, (2, 1, 1, 2, 1, 1), mode='reflect')),
    "pad_replicate1d": ([(1, 2, 5)], [1], lambda a: F.pad(a, (2, 1), mode='replicate')),
    "pad_replicate2d": ([(1, 2, 4, 5)], [1], lambda a: F.pad(a, (2, 1, 1, 2), mode='replicate')),
    "pad_replicate3d": ([(1, 1, 3, 4, 5)], [1], lambda a:
        F.pad(a, (2, 1, 1, 2, 1, 1), mode='replicate')),
    "pad_circular2d": ([(1, 2, 4, 5)], [1], lambda a: F.pad(a, (2, 1, 1, 2), mode='circular')),
    "pad_constant": ([(2, 3)], [1], lambda a: F.pad(a, (2, 1), value=0.5)),
    "interp_nearest1d": ([(1, 2, 5)], [1], lambda a: F.interpolate(a, size=8, mode='nearest')),
    "interp_nearest2d": ([(1, 2, 3, 4)], [1], lambda a:
        F.interpolate(a, scale_factor=2, mode='nearest')),
    "interp_nearest_exact2d": ([(1, 2, 3, 4)], [1], lambda a:
        F.interpolate(a, size=(5, 7), mode='nearest-exact')),
    "interp_nearest3d": ([(1, 1, 2, 3, 4)], [1], lambda a:
        F.interpolate(a, scale_factor=2, mode='nearest')),
    "interp_linear": ([(1, 2, 5)], [1], lambda a: F.interpolate(a, size=8, mode='linear')),
    "interp_bilinear": ([(1, 2, 3, 4)], [1], lambda a:
        F.interpolate(a, size=(5, 7), mode='bilinear')),
    "interp_bilinear_ac": ([(1, 2, 3, 4)], [1], lambda a:
        F.interpolate(a, size=(5, 7), mode='bilinear', align_corners=True)),
    "interp_bilinear_aa": ([(1, 2, 6, 8)], [1], lambda a:
        F.interpolate(a, size=(3, 5), mode='bilinear', antialias=True)),
    "interp_bicubic": ([(1, 2, 3, 4)], [1], lambda a:
        F.interpolate(a, size=(5, 7), mode='bicubic')),
    "interp_bicubic_aa": ([(1, 2, 6, 8)], [1], lambda a:
        F.interpolate(a, size=(3, 5), mode='bicubic', antialias=True)),
    "interp_trilinear": ([(1, 1, 2, 3, 4)], [1], lambda a:
        F.interpolate(a, size=(3, 4, 5), mode='trilinear')),
    "interp_area": ([(1, 2, 6, 8)], [1], lambda a: F.interpolate(a, size=(3, 5), mode='area')),
    "mse_loss": ([(3, 4), (3, 4)], [1, 1], lambda a, b: F.mse_loss(a, b)),
    "huber_loss": ([(3, 4), (3, 4)], [1, 1], lambda a, b: F.huber_loss(a, b, delta=0.5)),
    "smooth_l1_loss": ([(3, 4), (3, 4)], [1, 1], lambda a, b: F.smooth_l1_loss(a, b, beta=0.5)),
    "l1_loss": ([(3, 4), (3, 4)], [1, 1], lambda a, b: F.l1_loss(a, b)),
    "soft_margin_loss": ([(3, 4)], [1], lambda a:
        F.soft_margin_loss(a, torch.tensor([1.0, -1.0, -1.0, 1.0]).double())),
    "multi_margin_loss": ([(3, 4)], [1], lambda a:
        F.multi_margin_loss(a, torch.tensor([0, 3, 1]))),
    "multilabel_margin_loss": ([(2, 3)], [1], lambda a:
        F.multilabel_margin_loss(a, torch.tensor([[0, -1, 1], [2, 1, 0]]))),
    "multilabel_soft_margin_loss": ([(2, 3), (2, 3)], [1, 1], lambda a, b:
        F.multilabel_soft_margin_loss(a, b.sigmoid())),
    "bce": ([(3, 4), (3, 4)], [1, 1], lambda a, b:
        F.binary_cross_entropy(a.sigmoid(), b.sigmoid())),
    "bce_logits": ([(3, 4), (3, 4)], [1, 1], lambda a, b:
        F.binary_cross_entropy_with_logits(a, b.sigmoid(), pos_weight=torch.ones(4).double())),
    "kl_div": ([(3, 4), (3, 4)], [1, 1], lambda a, b:
        F.kl_div(a, b, reduction='batchmean', log_target=True)),
    "nll_loss": ([(3, 4)], [1], lambda a:
        F.nll_loss(a, torch.tensor([0, 3, 1]), weight=torch.tensor([1.0, 0.5, 2.0, 1.5]).double())),
    "nll_loss2d": ([(2, 3, 2, 2)], [1], lambda a:
        F.nll_loss(a, torch.tensor([[[0, 2], [1, 1]], [[2, 0], [0, 1]]]))),
    "cross_entropy": ([(3, 4)], [1], lambda a:
        F.cross_entropy(a, torch.tensor([0, 3, 1]), label_smoothing=0.1)),
    "poisson_nll": ([(3, 4), (3, 4)], [1, 1], lambda a, b: F.poisson_nll_loss(a, b.abs())),
    "gaussian_nll": ([(3, 4), (3, 4), (3, 4)], [1, 1, 1], lambda a, b, c:
        F.gaussian_nll_loss(a, b, c.abs() + 0.5)),
    "cosine_embedding": ([(3, 4), (3, 4)], [1, 1], lambda a, b:
        F.cosine_embedding_loss(a, b, torch.tensor([1, -1, 1]))),
    "margin_ranking": ([(3,), (3,)], [1, 1], lambda a, b:
        F.margin_ranking_loss(a, b, torch.tensor([1.0, -1.0, 1.0]).double())),
    "hinge_embedding": ([(3, 4)], [1], lambda a:
        F.hinge_embedding_loss(a, torch.ones(3, 4).double())),
    "triplet": ([(3, 4), (3, 4), (3, 4)], [1, 1, 1], lambda a, b, c:
        F.triplet_margin_loss(a, b, c)),
    "threshold": ([(3, 4)], [1], lambda a: F.threshold(a, 0.1, 20.0)),
    "relu": ([(3, 4)], [1], lambda a: F.relu(a)),
    "rrelu_eval": ([(3, 4)], [1], lambda a: F.rrelu(a, training=False)),
    "hardtanh": ([(3, 4)], [2], lambda a: F.hardtanh(a)),
    "relu6": ([(3, 4)], [5], lambda a: F.relu6(a)),
    "hardshrink": ([(3, 4)], [1], lambda a: F.hardshrink(a)),
    "softshrink": ([(3, 4)], [1], lambda a: F.softshrink(a)),
    "leaky_relu": ([(3, 4)], [1], lambda a: F.leaky_relu(a, 0.2)),
    "elu": ([(3, 4)], [1], lambda a: F.elu(a)),
    "selu": ([(3, 4)], [1], lambda a: F.selu(a)),
    "celu": ([(3, 4)], [1], lambda a: F.celu(a, 0.7)),
    "softplus": ([(3, 4)], [1], lambda a: F.softplus(a, beta=2.0, threshold=1.0)),
    "hardswish": ([(3, 4)], [4], lambda a: F.hardswish(a)),
    "hardsigmoid": ([(3, 4)], [4], lambda a: F.hardsigmoid(a)),
    "gelu": ([(3, 4)], [1], lambda a: F.gelu(a)),
    "gelu_tanh": ([(3, 4)], [1], lambda a: F.gelu(a, approximate='tanh')),
    "silu": ([(3, 4)], [1], lambda a: F.silu(a)),
    "mish": ([(3, 4)], [1], lambda a: F.mish(a)),
    "logsigmoid": ([(3, 4)], [1], lambda a: F.logsigmoid(a)),
    "glu": ([(3, 4)], [1], lambda a: F.glu(a)),
    "prelu": ([(2, 3, 4), (3,)], [1, 1], lambda a, b: F.prelu(a, b)),
    "softmax": ([(3, 4)], [1], lambda a: F.softmax(a, 1)),
    "log_softmax": ([(3, 4)], [1], lambda a: F.log_softmax(a, 1)),
    "softmin": ([(3, 4)], [1], lambda a: F.softmin(a, 0)),
    "tanh": ([(3, 4)], [1], lambda a: torch.tanh(a)),
    "sigmoid": ([(3, 4)], [1], lambda a: torch.sigmoid(a)),
    "normalize": ([(3, 4)], [1], lambda a: F.normalize(a, dim=1)),
    "layer_norm": ([(3, 4), (4,), (4,)], [1, 1, 1], lambda a, b, c: F.layer_norm(a, (4,), b, c)),
    "group_norm": ([(2, 4, 3), (4,), (4,)], [1, 1, 1], lambda a, b, c: F.group_norm(a, 2, b, c)),
    "batch_norm": ([(3, 4), (4,), (4,)], [1, 1, 1], lambda a, b, c:
        F.batch_norm(a, None, None, b, c, training=True)),
    "instance_norm": ([(2, 3, 4)], [1], lambda a: F.instance_norm(a)),
    "rms_norm": ([(3, 4), (4,)], [1, 1], lambda a, b: F.rms_norm(a, (4,), b)),
    "local_response_norm": ([(2, 4, 3)], [1], lambda a: F.local_response_norm(a, 2)),
    "conv1d": ([(2, 3, 5), (4, 3, 2), (4,)], [1, 1, 1], lambda a, b, c: F.conv1d(a, b, c)),
    "conv2d": ([(1, 2, 4, 4), (3, 2, 2, 2), (3,)], [1, 1, 1], lambda a, b, c:
        F.conv2d(a, b, c, stride=2, padding=1)),
    "conv_transpose2d": ([(1, 2, 3, 3), (2, 3, 2, 2), (3,)], [1, 1, 1], lambda a, b, c:
        F.conv_transpose2d(a, b, c, stride=2)),
    "conv_tbc": ([(3, 1, 2), (2, 2, 1), (1,)], [1, 1, 1], lambda a, b, c:
        torch.conv_tbc(a, b, c, 0)),
    "max_pool2d": ([(1, 2, 4, 4)], [1], lambda a: F.max_pool2d(a, 2)),
    "max_pool1d": ([(1, 2, 5)], [1], lambda a: F.max_pool1d(a, 2)),
    "max_pool3d": ([(1, 1, 2, 4, 4)], [1], lambda a: F.max_pool3d(a, 2)),
    "avg_pool2d": ([(1, 2, 4, 4)], [1], lambda a: F.avg_pool2d(a, 2)),
    "avg_pool1d": ([(1, 2, 5)], [1], lambda a: F.avg_pool1d(a, 2)),
    "avg_pool3d": ([(1, 1, 2, 4, 4)], [1], lambda a: F.avg_pool3d(a, 2)),
    "adaptive_avg2d": ([(1, 2, 5, 4)], [1], lambda a: F.adaptive_avg_pool2d(a, 3)),
    "adaptive_avg3d": ([(1, 1, 3, 5, 4)], [1], lambda a: F.adaptive_avg_pool3d(a, 2)),
    "adaptive_max2d": ([(1, 2, 5, 4)], [1], lambda a: F.adaptive_max_pool2d(a, 3)),
    "adaptive_max3d": ([(1, 1, 3, 5, 4)], [1], lambda a: F.adaptive_max_pool3d(a, 2)),
    "lp_pool2d": ([(1, 2, 4, 4)], [1], lambda a: F.lp_pool2d(a, 2, 2)),
    "fractional_max2d": ([(1, 1, 5, 5)], [1], lambda a:
        F.fractional_max_pool2d(a, 2, output_size=3,
                                _random_samples=torch.tensor([[[0.3, 0.7]]]).double())),
    "fractional_max3d": ([(1, 1, 5, 5, 5)], [1], lambda a:
        F.fractional_max_pool3d(a, 2, output_size=3,
                                _random_samples=torch.tensor([[[0.3, 0.7, 0.5]]]).double())),
    "max_unpool2d": ([(1, 1, 4, 4)], [1], lambda a:
        F.max_unpool2d(*F.max_pool2d(a, 2, return_indices=True), 2)),
    "max_unpool3d": ([(1, 1, 2, 4, 4)], [1], lambda a:
        F.max_unpool3d(*F.max_pool3d(a, 2, return_indices=True), 2)),
    "max_unpool1d": ([(1, 1, 4)], [1], lambda a:
        F.max_unpool1d(*F.max_pool1d(a, 2, return_indices=True), 2)),
    "pixel_shuffle": ([(1, 4, 2, 3)], [1], lambda a: F.pixel_shuffle(a, 2)),
    "unfold": ([(1, 2, 4, 4)], [1], lambda a: F.unfold(a, 2)),
    "fold": ([(1, 8, 9)], [1], lambda a: F.fold(a, (4, 4), 2)),
    "embedding": ([(5, 3)], [1], lambda a: F.embedding(torch.tensor([0, 2, 2, 4]), a)),
    "embedding_bag": ([(5, 3)], [1], lambda a:
        F.embedding_bag(torch.tensor([0, 2, 2, 4]), a, torch.tensor([0, 2]), mode='mean')),
    "embedding_bag_max": ([(5, 3)], [1], lambda a:
        F.embedding_bag(torch.tensor([0, 2, 2, 4]), a, torch.tensor([0, 2]), mode='max')),
    "embedding_bag_psw": ([(5, 3), (4,)], [1, 1], lambda a, b:
        F.embedding_bag(torch.tensor([0, 2, 2, 4]), a, torch.tensor([0, 2]), mode='sum',
                        per_sample_weights=b)),
    "cosine_similarity": ([(3, 4), (3, 4)], [1, 1], lambda a, b: F.cosine_similarity(a, b)),
    "pairwise_distance": ([(3, 4), (3, 4)], [1, 1], lambda a, b: F.pairwise_distance(a, b)),
    "cdist": ([(3, 4), (2, 4)], [1, 1], lambda a, b: torch.cdist(a, b)),
    "pdist": ([(3, 4)], [1], lambda a: F.pdist(a)),
    "sdpa": ([(1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)], [1, 1, 1], lambda a, b, c:
        F.scaled_dot_product_attention(a, b, c)),
    "sdpa_causal": ([(1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)], [1, 1, 1], lambda a, b, c:
        F.scaled_dot_product_attention(a, b, c, is_causal=True)),
    "affine_grid": ([(2, 2, 3)], [1], lambda a:
        F.affine_grid(a, (2, 1, 3, 4), align_corners=False)),
    "linear": ([(3, 4), (2, 4), (2,)], [1, 1, 1], lambda a, b, c: F.linear(a, b, c)),
    "bilinear": ([(3, 4), (3, 2), (5, 4, 2), (5,)], [1, 1, 1, 1], lambda a, b, c, d:
        F.bilinear(a, b, c, d)),
    "ctc_loss": ([(4, 1, 3)], [1], lambda a:
        F.ctc_loss(a.log_softmax(2), torch.tensor([[1, 2]]), [4], [2])),
    "roll": ([(3, 4)], [1], lambda a: torch.roll(a, (1, 2), (0, 1))),
    "scatter": ([(3, 4), (2, 4)], [1, 1], lambda a, b:
        torch.scatter(a, 0, torch.tensor([[0, 1, 2, 0], [2, 0, 1, 1]]), b)),
    "scatter_add": ([(3, 4), (2, 4)], [1, 1], lambda a, b:
        torch.scatter_add(a, 0, torch.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), b)),
    "scatter_reduce_prod": ([(3, 4), (2, 4)], [1, 1], lambda a, b:
        torch.scatter_reduce(a, 0, torch.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), b, 'prod')),
    "scatter_reduce_amax": ([(3, 4), (2, 4)], [1, 1], lambda a, b:
        torch.scatter_reduce(a, 0, torch.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), b, 'amax')),
    "scatter_reduce_mean": ([(3, 4), (2, 4)], [1, 1], lambda a, b:
        torch.scatter_reduce(a, 0, torch.tensor([[0, 1, 2, 0], [0, 0, 1, 1]]), b, 'mean',
                             include_self=False)),
    "index_reduce_prod": ([(3, 4), (2, 4)], [1, 1], lambda a, b:
        a.index_reduce(0, torch.tensor([0, 2]), b, 'prod')),
    "where": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.where(a > 0, a, b)),
    "masked_scatter": ([(3, 4), (12,)], [1, 1], lambda a, b: a.masked_scatter(a > 0, b)),
    "masked_fill": ([(3, 4)], [1], lambda a: a.masked_fill(a > 0, 2.0)),
    "index_put_acc": ([(3, 4), (2, 4)], [1, 1], lambda a, b:
        a.index_put((torch.tensor([0, 0]),), b, accumulate=True)),
    "take_along_dim": ([(3, 4)], [1], lambda a:
        torch.take_along_dim(a, torch.tensor([[0], [2], [1]]), 1)),
    "gather": ([(3, 4)], [1], lambda a:
        torch.gather(a, 1, torch.tensor([[0, 0], [2, 1], [1, 3]]))),
    "unfold_tensor": ([(6, 3)], [1], lambda a: a.unfold(0, 2, 1)),
    "segment_reduce": ([(4,)], [1], lambda a:
        torch.segment_reduce(a, 'max', lengths=torch.tensor([2, 2]))),
    "segment_reduce_prod": ([(4,)], [1], lambda a:
        torch.segment_reduce(a, 'prod', lengths=torch.tensor([2, 2]))),
    "cumprod": ([(3, 4)], [1], lambda a: torch.cumprod(a, 1)),
    "logcumsumexp": ([(3, 4)], [1], lambda a: torch.logcumsumexp(a, 1)),
    "cummax": ([(3, 4)], [1], lambda a: torch.cummax(a, 1)[0]),
    "prod": ([(3, 4)], [1], lambda a: a.prod(1)),
    "norm": ([(3, 4)], [1], lambda a: a.norm(3, dim=1)),
    "vector_norm_inf": ([(3, 4)], [1], lambda a:
        torch.linalg.vector_norm(a, float('inf'), dim=1)),
    "matrix_norm_nuc": ([(3, 4)], [1], lambda a: torch.linalg.matrix_norm(a, 'nuc')),
    "trace": ([(3, 4)], [1], lambda a: a.trace()),
    "weight_norm": ([(3, 4), (3, 1)], [1, 1], lambda a, b: torch._weight_norm(a, b, 0)),
    "kthvalue": ([(3, 4)], [1], lambda a: a.kthvalue(2, 1)[0]),
    "median": ([(3, 4)], [1], lambda a: a.median(1)[0]),
    "sort": ([(3, 4)], [1], lambda a: a.sort(1)[0]),
    "topk": ([(3, 4)], [1], lambda a: a.topk(2, 1)[0]),
    "dropout_eval": ([(3, 4)], [1], lambda a: F.dropout(a, 0.5, training=False)),
    "alpha_dropout_eval": ([(3, 4)], [1], lambda a: F.alpha_dropout(a, 0.5, training=False)),
    "clamp_tensors": ([(3, 4), (3, 4), (3, 4)], [1, 1, 1], lambda a, b, c:
        torch.clamp(a, b - 1, c + 1)),
    "lerp": ([(3, 4), (3, 4), (3, 4)], [1, 1, 1], lambda a, b, c: torch.lerp(a, b, c)),
    "addcmul": ([(3, 4), (3, 4), (3, 4)], [1, 1, 1], lambda a, b, c:
        torch.addcmul(a, b, c, value=0.5)),
    "addcdiv": ([(3, 4), (3, 4), (3, 4)], [1, 1, 1], lambda a, b, c:
        torch.addcdiv(a, b, c.abs() + 1, value=0.5)),
    "atan2": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.atan2(a, b)),
    "hypot": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.hypot(a, b)),
    "pow_tensor": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.pow(a.abs() + 0.5, b)),
    "pow_scalar_base": ([(3, 4)], [1], lambda a: torch.pow(2.0, a)),
    "xlogy": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.xlogy(a, b.abs() + 0.1)),
    "fmod": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.fmod(a, b.abs() + 0.5)),
    "remainder": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.remainder(a, b.abs() + 0.5)),
    "maximum": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.maximum(a, b)),
    "fmax": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.fmax(a, b)),
    "copysign": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.copysign(a, b)),
    "cross": ([(3, 3), (3, 3)], [1, 1], lambda a, b: torch.linalg.cross(a, b)),
    "einsum": ([(3, 4), (4, 2)], [1, 1], lambda a, b: torch.einsum('ij,jk->ik', a, b)),
    "tensordot": ([(3, 4), (4, 2)], [1, 1], lambda a, b: torch.tensordot(a, b, 1)),
    "kron": ([(2, 2), (2, 3)], [1, 1], lambda a, b: torch.kron(a, b)),
    "det": ([(3, 3)], [1], lambda a: torch.linalg.det(a)),
    "inv": ([(3, 3)], [1], lambda a: torch.linalg.inv(a + 3 * torch.eye(3).double())),
    "solve": ([(3, 3), (3, 2)], [1, 1], lambda a, b:
        torch.linalg.solve(a + 3 * torch.eye(3).double(), b)),
    "cholesky": ([(3, 3)], [1], lambda a:
        torch.linalg.cholesky(a @ a.mT + torch.eye(3).double())),
    "qr": ([(4, 3)], [1], lambda a: torch.linalg.qr(a)[0]),
    "eigh": ([(3, 3)], [1], lambda a: torch.linalg.eigh(a + a.mT)[0]),
    "svdvals": ([(3, 4)], [1], lambda a: torch.linalg.svdvals(a)),
    "pinv": ([(3, 4)], [1], lambda a: torch.linalg.pinv(a)),
    "lstsq": ([(4, 3), (4, 2)], [1, 1], lambda a, b: torch.linalg.lstsq(a, b).solution),
    "matrix_exp": ([(3, 3)], [0.3], lambda a: torch.linalg.matrix_exp(a)),
    "slogdet": ([(3, 3)], [1], lambda a: torch.linalg.slogdet(a + 3 * torch.eye(3).double())[1]),
    "lu_factor": ([(3, 3)], [1], lambda a: torch.linalg.lu_factor(a)[0]),
    "triangular_solve": ([(3, 3), (3, 2)], [1, 1], lambda a, b:
        torch.linalg.solve_triangular(a.triu() + 3 * torch.eye(3).double(), b, upper=True)),
    "special_gammaln": ([(3, 4)], [1], lambda a: torch.special.gammaln(a.abs() + 0.5)),
    "digamma": ([(3, 4)], [1], lambda a: torch.digamma(a.abs() + 0.5)),
    "polygamma": ([(3, 4)], [1], lambda a: torch.polygamma(2, a.abs() + 0.5)),
    "erfinv": ([(3, 4)], [0.8], lambda a: torch.erfinv(a)),
    "i0": ([(3, 4)], [1], lambda a: torch.i0(a)),
    "i1e": ([(3, 4)], [1], lambda a: torch.special.i1e(a)),
    "sinc": ([(3, 4)], [1], lambda a: torch.sinc(a)),
    "logit": ([(3, 4)], [1], lambda a: torch.logit(a.sigmoid(), eps=0.01)),
    "nan_to_num": ([(3, 4)], [1], lambda a: torch.nan_to_num(a)),
    "std": ([(3, 4)], [1], lambda a: a.std(1)),
    "var_mean": ([(3, 4)], [1], lambda a: torch.var_mean(a, 1)[0]),
    "logsumexp": ([(3, 4)], [1], lambda a: a.logsumexp(1)),
    "amax": ([(3, 4)], [1], lambda a: a.amax(1)),
    "max_all": ([(3, 4)], [1], lambda a: a.max()),
    "dist": ([(3, 4), (3, 4)], [1, 1], lambda a, b: torch.dist(a, b, 3)),
    "renorm": ([(3, 4)], [1], lambda a: a.renorm(2, 0, 1.0)),
    "rnn_tanh": ([(3, 1, 2), (4, 2), (4, 4)], [1, 1, 1], lambda a, b, c:
        torch.rnn_tanh(a, torch.zeros(1, 1, 4).double(), [b, c], False, 1, 0.0, False, False,
                       False)[0]),
    "lstm_cell": ([(2, 3), (8, 3), (8, 2)], [1, 1, 1], lambda a, b, c:
        torch.lstm_cell(a, (torch.zeros(2, 2).double(), torch.zeros(2, 2).double()), b, c)[0]),
    "gru_cell": ([(2, 3), (6, 3), (6, 2)], [1, 1, 1], lambda a, b, c:
        torch.gru_cell(a, torch.zeros(2, 2).double(), b, c)),
    "channel_shuffle": ([(1, 4, 2, 2)], [1], lambda a: F.channel_shuffle(a, 2)),
    "cumsum": ([(3, 4)], [1], lambda a: a.cumsum(0)),
    "diff": ([(3, 4)], [1], lambda a: torch.diff(a, 2, 1)),
    "trapz": ([(3, 4)], [1], lambda a: torch.trapezoid(a, dim=1)),
    "repeat_interleave": ([(3,)], [1], lambda a: a.repeat_interleave(torch.tensor([1, 2, 0]))),
    "nanmedian": ([(3, 4)], [1], lambda a: a.nanmedian()),
    "quantile": ([(3, 4)], [1], lambda a: a.quantile(0.3, dim=1)),
})
