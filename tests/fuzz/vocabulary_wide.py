"""Still more statement templates for the differential fuzzer: awkward layouts and rarer ops.

Leaves in layouts the other lists never make: channels_last and permuted,
sliced with an offset and a step, expanded (one element seen many times),
flipped, of size one or zero along a dimension. Ops the other lists leave out:
the comparisons and logical ops, the special functions, trigonometry and
hyperbolics, the scatter-shaped inverses of views (slice, select, diagonal),
as_strided itself, more products (addr, addbmm, dot), 2-d pools,
affine grids, channel shuffles and the small linalg family. Left out, as
known differences: as_strided_scatter's gradient for its input (refgrad's is
the right one, torch 2.13's its complement), the graphs torch.func builds, and
grid_sample's second derivative, one node of its own in torch.
``{a}`` and ``{b}`` are the statement's variables, as in ``templates.py``.
"""

LEAVES = [
    "T.rand(1, 2, 2, 3).to(memory_format=T.channels_last)", "T.rand(2, 3, 2).permute(2, 0, 1)",
    "T.rand(3, 4)[1:, 1::2]", "T.rand(3).expand(2, 3)", "T.rand(2, 1).expand(2, 3)",
    "T.rand(2, 3).flip(0)", "T.rand(1, 1, 3)", "T.rand(2, 0)", "T.randn(4)[1::2]",
    "T.rand(6).as_strided((2, 2), (1, 2))", "(T.rand(3, 3) + T.eye(3) * 3)",
    "T.tensor([[-1.5, 0.0], [2.0, float('inf')]])",
]

UNARY = [
    "acos()", "acosh()", "asinh()", "cos()", "sinh()", "tan()", "ceil()", "erfc()", "i0()",
    "log10()", "angle()", "deg2rad()", "rad2deg()", "signbit()", "isfinite()", "isnan()",
    "isinf()", "isposinf()", "logical_not()", "positive()", "nextafter(T.tensor(1.0))",
    "frexp()[0]", "frexp()[1]", "polygamma(1)", "mvlgamma(1)", "argmin()",
    "argmin(0, keepdim=True)", "nonzero()", "unique_consecutive()", "clamp_min(0.2)",
    "clamp(min={a} * 0.5)", "clamp(max={a}.detach())", "fmin({a}.flip(0))",
    "permute(*range({a}.dim() - 1, -1, -1))", "slice_scatter({a}[:1], 0, 0, 1)",
    "select_scatter({a}[0], 0, 0)", "diagonal_scatter({a}.diagonal())", "as_strided((1,), (1,))",
    "narrow_copy(0, 0, 1)", "unsafe_split(1)[0]", "split_with_sizes([1, {a}.shape[0] - 1])[1]",
    "index_reduce(0, T.tensor([0]), {a}[:1], 'prod')",
    "index_reduce(0, T.tensor([0, 0]), {a}[[0, 0]], 'amin', include_self=False)", "remainder(0.3)",
    "floor_divide(0.3)", "div(0.3, rounding_mode='floor')", "div(0.3, rounding_mode='trunc')",
    "rsub(1)", "float_power(0.5)", "lerp({a} * 2, {a})", "logit(0.1)",
    "nan_to_num(0.0, 1.0, -1.0)", "sum(-1).relu().sqrt()", "exp().log1p()",
    "std(dim=None, correction=2)", "var(unbiased=False)", "max(0, keepdim=True)[1]",
    "expand(3, *{a}.shape).sum(0)", "contiguous().view(-1)", "reshape({a}.shape[::-1])",
    "new_zeros(2)", "new_ones(())", "new_full((1,), 3.0)", "new_tensor([1.0])",
    "clone(memory_format=T.contiguous_format)", "mul(0.5).exp_()", "sum().expand(2)",
]

BINARY = [
    "{a} >= {b}", "{a} != {b}", "T.eq({a}, {b})", "T.logical_and({a}, {b})",
    "T.logical_xor({a} > 0.5, {b})", "{a}.bool() | {b}.bool()", "{a}.long() & 3",
    "{a}.long() << 1", "T.gcd({a}.long(), {b}.long())", "T.fmin({a}, {b})",
    "T.remainder({a}, {b})", "T.floor_divide({a}, {b})", "T.div({a}, {b}, rounding_mode='trunc')",
    "T.igamma({a}.abs() + 0.1, {b}.abs() + 0.1)", "T.special.xlog1py({a}, {b})",
    "T.special.zeta({a} + 2, {b} + 1)", "T.nextafter({a}, {b})", "T.copysign({a}, -1.0)",
    "T.addr({a}.reshape(-1), {a}.reshape(-1), {b}.reshape(-1))",
    "T.dot({a}.reshape(-1), {b}.reshape(-1))",
    "T.addbmm({a}.reshape(-1).outer({b}.reshape(-1)), {a}.reshape(1, -1, 1), "
    "{b}.reshape(1, 1, -1))",
    "T.linalg.cross({a}.reshape(-1)[:3], {b}.reshape(-1)[:3])", "T.lerp({a}, {b}, {a})",
    "T.clamp({a}, max={b})", "T.clamp({a}, {b}, {b})", "T.rsub({a}, {b}, alpha=2)",
    "T.cartesian_prod({a}.reshape(-1), {b}.reshape(-1))", "T.dstack([{a}, {b}])",
    "T.column_stack([{a}, {b}])", "T.isclose({a}, {b})", "T.where({a} > {b}, {a}, {b}.t())",
    "{a}.expand(2, *{a}.shape) * {b}", "{a}.t() @ {b}", "{a} @ {b}.t()", "T.mm({a}.t(), {b})",
    "T.diagonal_scatter({a}, {b}.diagonal())", "T.slice_scatter({a}, {b}[:1], 0, 0, 1)",
    "T.select_scatter({a}, {b}[0], 0, 0)",
    "{a}.index_put((T.tensor([0, 0]),), {b}[0], accumulate=True)", "{a}[..., T.tensor([0, -1])]",
    "{a}[:, [0]] * {b}", "{a}.flip(0) + {b}.flip(-1)", "T.maximum({a}, {b}.mT)",
]

INPLACE = [
    "{a}.acos_()", "{a}.cos_()", "{a}.tan_()", "{a}.ceil_()", "{a}.erfc_()", "{a}.log10_()",
    "{a}.clamp_min_(0.4)", "{a}.fmod_(0.3)", "{a}.remainder_({b})", "{a}.floor_divide_(0.3)",
    "{a}.div_({b}, rounding_mode='floor')", "{a}.lt_({b})", "{a}.ge_(0.5)", "{a}.eq_({b})",
    "{a}.logit_()", "{a}.nan_to_num_(0.0)", "{a}.polygamma_(1)", "{a}.mvlgamma_(1)",
    "{a}.index_reduce_(0, T.tensor([0]), {b}[:1], 'mean')", "{a}.addr_({a}[:, 0], {b}[0])",
    "{a}.as_strided_((1,), (1,))", "{a}.as_strided((1,), (1,), 1).mul_(2)",
    "{a}.permute(*range({a}.dim() - 1, -1, -1)).mul_(2)", "{a}.diagonal(0, -2, -1).add_(1)",
    "{a}.select(-1, 0).copy_({b}.select(-1, 0))", "{a}[:, ::2].mul_(3)", "{a}[1:].zero_()",
    "{a}.expand(2, *{a}.shape).add_(1)", "{a}.add_({b}.expand_as({a}))",
    "{a}.copy_({b}.expand_as({a}))", "{a}.copy_({b}.t())", "{a}.resize_(1)",
    "{a}.swapdims_(0, -1)", "{a}.squeeze_(0)", "{a}.set_({b})", "{a}.cauchy_()",
    "{a}.exponential_()", "{a}.geometric_(0.5)", "{a}.log_normal_()", "{a}.random_(0, 3)",
    "{a}.masked_fill_({b} > 0.5, {b}.sum())", "{a}.index_copy_(0, T.tensor([0]), {b}[:1])",
    "{a}.put_(T.tensor([0, 0]), T.tensor([1.0, 2.0]), accumulate=True)",
    "{a}.scatter_(0, T.zeros_like({a}, dtype=T.int64), {b}, reduce='multiply')",
    "{a}.baddbmm_({a}.unsqueeze(0), {b}.unsqueeze(0))",
    "{a}.unsqueeze(0).baddbmm_({a}[None], {b}[None])",
]

FUNCTIONAL = [
    "F.avg_pool2d({a}[None], 2, ceil_mode=True, count_include_pad=False)",
    "F.avg_pool2d({a}[None], 1, divisor_override=2)", "F.max_pool2d({a}[None], 2, ceil_mode=True)",
    "F.max_pool2d({a}[None, None], 1, return_indices=True)[1]",
    "F.adaptive_max_pool2d({a}[None], 1)", "F.adaptive_avg_pool2d({a}[None], (1, 2))",
    "F.adaptive_max_pool1d({a}[None], 1, return_indices=True)[0]", "F.lp_pool1d({a}[None], 2, 1)",
    "F.avg_pool3d({a}[None, None], 1)", "F.max_pool3d({a}[None, None], 1)",
    "F.affine_grid(T.eye(2, 3)[None] + {a}.reshape(-1)[0], (1, 1, 2, 2), align_corners=False)",
    "F.channel_shuffle({a}[None].expand(1, 4, *{a}.shape[1:]), 2)",
    "F.pixel_unshuffle({a}[None, None].expand(1, 1, 2, 2), 2)",
    "F.conv2d({a}[None], {b}[None, None].expand(1, {a}.shape[0], *{b}.shape), padding=1)",
    "F.conv1d({a}[None], {b}[None], groups=1, stride=2)",
    "F.conv_transpose1d({a}[None], {b}[None], padding=1)",
    "F.embedding_bag(T.tensor([0, 1, 0]), {a}, T.tensor([0, 1]), mode='max')",
    "F.embedding_bag(T.tensor([0, 1]), {a}, T.tensor([0]), "
    "per_sample_weights={b}.reshape(-1)[:2], mode='sum')",
    "F.embedding(T.tensor([0, 0]), {a}, max_norm=0.5)",
    "F.embedding(T.tensor([[0]]), {a}, padding_idx=0)", "F.one_hot({a}.long().abs().reshape(-1))",
    "F.normalize({a}, p=1, dim=0)", "F.rms_norm({a}, {a}.shape[-1:])",
    "F.layer_norm({a}, {a}.shape[-1:], {b}.reshape(-1)[:{a}.shape[-1]])",
    "F.hardtanh({a}, 0.2, 0.6, inplace=True)", "F.threshold({a}, 0.5, 2.0, inplace=True)",
    "F.silu({a}, inplace=True)", "F.hardswish({a}, inplace=True)", "F.mish({a}, inplace=True)",
    "F.softplus({a}, beta=2, threshold=1)", "F.elu({a}, alpha=0.5)", "F.celu({a}, alpha=2.0)",
    "F.gumbel_softmax({a}, hard=True)", "F.dropout({a}, 0.0)",
    "F.alpha_dropout({a}, 0.5, training=False)",
    "F.cross_entropy({a}, T.zeros({a}.shape[0], dtype=T.long), ignore_index=0)",
    "F.nll_loss({a}.log_softmax(-1), T.zeros({a}.shape[0], dtype=T.long), "
    "weight=T.ones({a}.shape[-1]), reduction='sum')",
    "F.kl_div({a}, {b}, reduction='sum', log_target=True)",
    "F.poisson_nll_loss({a}, {b}, log_input=False)",
    "F.triplet_margin_with_distance_loss({a}, {b}, {a})",
    "F.multilabel_margin_loss({a}, T.zeros_like({a}, dtype=T.long))",
    "F.ctc_loss({a}.log_softmax(-1)[:, None], T.tensor([[1]]), "
    "T.tensor([{a}.shape[0]]), T.tensor([1]))",
    "T.linalg.det({a})", "T.linalg.slogdet({a})[1]", "T.linalg.inv({a})",
    "T.linalg.solve({a}, {b})", "T.linalg.qr({a})[1]", "T.linalg.svdvals({a})",
    "T.linalg.eigvalsh({a} + {a}.mT)", "T.linalg.pinv({a})", "T.linalg.matrix_exp({a})",
    "T.linalg.cholesky({a} @ {a}.mT + T.eye({a}.shape[-1]))", "T.linalg.norm({a}, 'fro')",
    "T.linalg.matrix_norm({a}, 'nuc')", "T.linalg.lstsq({a}, {b}).solution",
    "T.linalg.solve_triangular({a}.triu() + 2, {b}, upper=True)", "T.linalg.lu_factor({a})[0]",
    "T.linalg.vector_norm({a}, ord=float('inf'), dim=0)", "T.linalg.matrix_power({a}, 3)",
    "T.cholesky_inverse({a}.tril() + 2)", "T.special.entr({a})", "T.special.erfcx({a})",
    "T.special.log_ndtr({a})", "T.special.ndtri({a}.sigmoid())", "T.special.i0e({a})",
    "T.special.i1({a})", "T.special.bessel_j0({a})", "T.special.spherical_bessel_j0({a})",
    "T.special.chebyshev_polynomial_t({a}, 2)", "T.special.hermite_polynomial_h({a}, 3)",
    "T.special.modified_bessel_k0({a}.abs() + 0.1)", "T.special.airy_ai({a})", "T.histc({a}, 4)",
    "T.bincount({a}.long().abs().reshape(-1))", "T.bucketize({a}, T.tensor([0.3, 0.6]))",
    "T.searchsorted(T.tensor([0.3, 0.6]), {a})", "T.cov({a})", "T.corrcoef({a})",
    "T.tril_indices(3, 3)", "T.cummax({a}.flip(0), 0)[1]", "T.unique({a}, return_counts=True)[1]",
    "T.nn.utils.parameters_to_vector([{a}, {b}])", "T.cdist({a}, {b}, p=1)",
    "T.rot90({a}, 2, (0, -1))", "T.vander({a}.reshape(-1), 3)",
    "T.logdet({a} @ {a}.mT + T.eye({a}.shape[-2]))",
]

OTHER = [
    "_g = T.autograd.grad({a}.sum(), {b}, allow_unused=True, materialize_grads=True)",
    "_g = T.autograd.functional.jvp(lambda x: x.cos(), {a}, T.ones_like({a}))",
    "_g = T.autograd.functional.hvp(lambda x: (x.sin()).sum(), {a}, T.ones_like({a}))",
    "{a}.backward(T.ones_like({a}).t().contiguous().t(), retain_graph=True)",
    "{a}.sum().backward(inputs={b}, retain_graph=True)", "{a}.grad = T.ones_like({a}).t()",
    "{a}.grad = T.zeros(0)",
]
