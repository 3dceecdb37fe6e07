"""More statement templates for the differential fuzzer, beyond those of ``templates.py``.

Reductions with dims, keepdim and dtype; cumulative ops; sort, topk and the
order statistics; gather, scatter, index_put, masked and take-style indexing;
pad in its modes; convolution, pooling and the matrix-product family; in-place
writes through views of every kind (narrow, split, unbind, mT, detach, data);
integer, bool and float64 operands meeting float32 ones; custom Functions that
write their input in place or return an output they mark non-differentiable;
double backward through autograd.grad; the autograd.functional helpers; and losses,
convolutions, pools and normalizations with arguments beyond their defaults.
``{a}`` and ``{b}`` are the statement's variables, as in ``templates.py``.
"""

# Leaves besides T.rand: negative values, 0-d, empty, strided, float64, and
# tensors that cannot require grad (int64 and bool), left as they are.
LEAVES = ["T.randn(2, 3)", "T.tensor(0.7)", "T.rand(2, 4)[:, ::2]", "T.rand(2, 3, dtype=T.float64)",
          "T.zeros(0, 3)", "T.randn(3, 3).t()", "T.tensor([1.5, -2.0, 0.0])", "T.randn(1, 3)"]
PLAIN_LEAVES = ["T.randint(0, 3, (2, 3))", "(T.rand(2, 3) > 0.5)", "T.arange(3)",
                "T.tensor(2)", "T.tensor([True, False, True])"]

IDX = "T.zeros_like({a}, dtype=T.int64)"
UNARY = [
    # reductions with dim, keepdim, dtype
    "amin(0, keepdim=True)", "max(-1)[0]", "max(-1)[1]", "min(0).values", "max()",
    "median()", "median(-1)[0]", "nanmedian(0)[0]", "nansum()", "prod(-1, keepdim=True)",
    "std(0, correction=0)", "var(-1, keepdim=True)", "norm(dim=-1)", "norm(1)",
    "argmax()", "argmax(-1, keepdim=True)", "logsumexp(-1, keepdim=True)",
    "mean(dtype=T.float64)", "sum(dtype=T.float64)", "kthvalue(1, 0)[0]", "mode(-1)[0]",
    "count_nonzero()", "all()", "any(0)", "aminmax(dim=0)[1]", "std_mean(-1)[0]",
    "var_mean(0, keepdim=True)[1]", "sum((0, -1))", "mean((-1,))",
    # cumulative
    "cumprod(0)", "cumsum(-1, dtype=T.float64)", "cummin(-1)[0]", "logcumsumexp(0)",
    "cummax(-1)[1]",
    # sort and topk
    "sort(-1, descending=True)[0]", "sort(0, stable=True)[1]", "topk(2, -1, largest=False)[0]",
    "argsort(0)", "msort()", "topk(1, sorted=False)[1]",
    # shapes and views
    "transpose(0, -1)", "flatten()", "squeeze()", "squeeze(-1)", "unsqueeze(-1)",
    "narrow(0, 0, 1)", "select(0, -1)", "unfold(0, 1, 1)", "split(1)[0]", "chunk(2)[-1]",
    "unbind()[0]", "movedim(0, -1)", "rot90()", "tril()", "triu(1)", "diag()", "diag_embed()",
    "contiguous()", "mT", "view_as({a})", "expand_as({a})", "repeat_interleave(2)",
    "tile((2,))", "flip(-1)", "swapaxes(0, -1)", "trace()", "view(-1, 1)",
    # elementwise
    "log()", "log1p()", "expm1()", "rsqrt()", "reciprocal()", "erf()", "erfinv()", "lgamma()",
    "digamma()", "atan()", "asin()", "sinc()", "logit()", "frac()", "round()", "floor()",
    "sign()", "sgn()", "trunc()", "nan_to_num()", "square()", "exp2()", "log2()",
    "clamp(min=0.3)", "clamp_max(0.5)", "pow(0.5)", "pow(0)", "pow(-1)", "float()", "long()",
    "bool()", "int()", "to(T.float64)", "type_as({a}.double())", "cosh()", "atanh()",
    "relu().sqrt()", "abs().log()", "round(decimals=1)", "xlogy(2)", "heaviside({a})",
    # indexing
    "take(T.tensor([0, 1]))", "index_add(0, T.tensor([0]), {a}[:1])",
    "index_copy(0, T.tensor([0]), {a}[:1] * 2)", "scatter(0, " + IDX + ", 1.5)",
    "scatter_add(0, " + IDX + ", {a})", "scatter_reduce(0, " + IDX + ", {a}, 'amax')",
    "scatter_reduce(0, " + IDX + ", {a}, 'mean', include_self=False)",
    "masked_select({a} > 0.5)", "index_put((T.tensor([0]),), T.tensor(2.0))",
    "put(T.tensor([0]), T.tensor([5.0]))", "index_fill(-1, T.tensor([0]), -1.0)",
    "masked_fill({a} > 0.5, T.tensor(2.0))",
]
BINARY = [
    "T.where({a} > 0.5, {a}, 0.0)", "{a} ** {b}", "2 ** {a}", "{a} ** 2.0", "T.atan2({a}, {b})",
    "T.hypot({a}, {b})", "T.fmod({a}, 0.3)", "{a} % {b}", "{a} // 0.3", "T.minimum({a}, {b})",
    "T.fmax({a}, {b})", "T.copysign({a}, {b})", "T.xlogy({a}, {b})", "T.logaddexp({a}, {b})",
    "T.dist({a}, {b})", "T.outer({a}.reshape(-1), {b}.reshape(-1))",
    "T.bmm({a}.unsqueeze(0), {b}.unsqueeze(0))", "T.addmm({a}, {a}, {b})",
    "T.einsum('ij,kj->ik', {a}, {b})", "T.matmul({a}, {b}.reshape(-1))",
    "T.tensordot({a}, {b}, 1)", "T.inner({a}, {b})", "{a}.mv({b}.reshape(-1))",
    "{a} == {b}", "{a} < {b}", "{a} + 1", "{a}.long() + {b}", "{a}.long() * 2.5",
    "{a}.bool() + {b}", "{a}.int() / 2", "{a}.long() // 2", "{a}.int() + {a}.long()",
    "{a} + T.tensor(2)", "{a} * T.tensor(2.0, dtype=T.float64)", "{a}.half() * T.tensor(3.0)",
    "{a} + True", "T.add({a}, {b}, alpha=2)", "T.sub({a}, {b}, alpha=0.5)",
    "T.cat([{a}, {b}], -1)", "T.hstack([{a}, {b}])", "T.vstack([{a}, {b}])",
    "T.broadcast_tensors({a}, {b})[0]", "T.block_diag({a}, {b})", "T.kron({a}, {b})",
    "T.cdist({a}, {b})", "T.lerp({a}, {b}, {b})", "T.addcdiv({a}, {b}, {b} + 1, value=2)",
    "T.baddbmm({a}.unsqueeze(0), {a}.unsqueeze(0), {b}.unsqueeze(0))",
    "T.addmv({a}.sum(-1), {a}, {b}.reshape(-1))", "T.vdot({a}.reshape(-1), {b}.reshape(-1))",
    "T.where({a} > {b}, {a}.double(), 1)", "{a}.float() * {b}.long()", "{a} / {a}.int()",
    "{a}.masked_scatter({a} > 0.5, {b})", "T.gather({a}, -1, T.zeros_like({b}, dtype=T.int64))",
    "{a}.scatter(0, T.zeros_like({b}, dtype=T.int64), {b})", "{a}[T.tensor([0, 0])]",
    "{a}[{a} > 0.5]", "{a}[[0, -1]]", "{a}[None, ..., None]", "{a}[:, None]",
    "T.logaddexp2({a}, {b})", "T.ldexp({a}, {b})", "T.float_power({a}, 2)",
    "T.clamp({a}, {b}, None)", "T.trapezoid({a})", "T.cumulative_trapezoid({a})", "T.diff({a})",
    "T.renorm({a}, 2, 0, 1.0)",
]
INPLACE = [
    "{a}.index_put_((T.tensor([0, 0]),), T.tensor(1.0), accumulate=True)",
    "{a}.scatter_(0, " + IDX + ", 2.0)", "{a}.masked_fill_({a} > 0.5, 1.0)",
    "{a}.index_add_(0, T.tensor([0]), {b}[:1])", "{a}[{a} > 0.5] = 0.0", "{a}[[0]] = {b}[0]",
    "{a}.pow_(2)", "{a}.exp_()", "{a}.div_(3)", "{a}.sub_({b}, alpha=2)",
    "{a}.addcmul_({b}, {b})", "{a}.lerp_({b}, 0.5)", "{a}.fill_(3)", "{a}.clamp_(max=0.5)",
    "{a}.relu_()", "{a}.sigmoid_()", "{a}.squeeze_()", "{a}.unsqueeze_(0)", "{a}.t_()",
    "{a}.detach_()", "{a}.requires_grad_(False)", "{a}.data.mul_(2)", "{a}.grad = None",
    "{a}.narrow(0, 0, 1).mul_(3)", "{a}.diagonal().copy_({b}.diagonal())",
    "{a}.unbind()[0].mul_(2)", "{a}.split(1)[0].add_(1)", "{a}.mT.mul_(2)",
    "{a}.view_as({a}).mul_(2)", "{a}.expand(2, *{a}.shape).mul_(2)", "{a}.float().add_(1)",
    "{a}.detach().mul_(2)", "F.relu({a}, inplace=True)", "{a}.copy_({b}.double())",
    "{a}.add_({b}.long())", "{a}.mul_(True)", "{a}.long().add_(1)", "{a}[...] = {b}",
    "{a}.scatter_add_(0, " + IDX + ", {b})", "{a}.index_fill_(0, T.tensor([0]), {b}.sum())",
    "{a}[0:1].copy_({b}[0:1])", "{a}.flatten().mul_(2)", "{a}.reshape(-1).add_(1)",
    "{a}.add_({a})", "{a}.mul_({a}[0])", "{a}.copy_({a}.flip(0))", "{a}.clamp_({b}, {b} + 1)",
    "{a}.data = {b}.detach()", "F.leaky_relu_({a}, 0.2)", "F.elu({a}, inplace=True)",
    "{a}.uniform_()", "{a}.normal_()", "{a}.bernoulli_(0.5)", "{a}.zero_().add_({b})",
    # the source is a copy: torch's kernel reads a source that overlaps the tensor it
    # writes as it writes it, an order of reads refgrad does not follow; and it has
    # as many source elements as the mask can ask for: torch reads past a short source
    "{a}.masked_scatter_({a} > 0.5, {a}.detach().clone() * 2)",
    "{a}.put_(T.tensor([0]), T.tensor([9.0]), accumulate=True)",
]
FUNCTIONAL = [
    "F.pad({a}, (1, 2), mode='reflect')", "F.pad({a}, (0, 1), value=2.0)",
    "F.pad({a}.unsqueeze(0), (1, 1), mode='replicate')",
    "F.pad({a}.unsqueeze(0), (1, 1), mode='circular')", "F.pad({a}, (-1, 1))",
    "F.conv1d({a}.unsqueeze(0), {b}.unsqueeze(0))",
    "F.conv1d({a}.unsqueeze(0), {a}.unsqueeze(0)[..., :1], padding=1)",
    "F.conv2d({a}[None, None], {b}[None, None][..., :1, :1], stride=2)",
    "F.conv_transpose1d({a}.unsqueeze(0), {b}.unsqueeze(0))",
    "F.max_pool1d({a}.unsqueeze(0), 2)", "F.avg_pool1d({a}.unsqueeze(0), 1)",
    "F.adaptive_avg_pool1d({a}.unsqueeze(0), 1)", "F.max_pool2d({a}[None], 1)",
    "F.softmax({a}, 0, dtype=T.float64)", "F.dropout({a}, 0.5)",
    "F.embedding(T.tensor([0, 1]), {a})", "F.cross_entropy({a}, {b}.softmax(-1))",
    "F.cross_entropy({a}, T.zeros({a}.shape[0], dtype=T.long), label_smoothing=0.1)",
    "F.nll_loss({a}.log_softmax(-1), T.zeros({a}.shape[0], dtype=T.long))",
    "F.layer_norm({a}, {a}.shape[-1:])", "F.batch_norm({a}, None, None, training=True)",
    "F.group_norm({a}.unsqueeze(-1), 1)", "F.glu({a}, 0)", "F.prelu({a}, T.tensor([0.25]))",
    "F.celu({a})", "F.threshold({a}, 0.5, 0.0)", "F.softsign({a})", "F.tanhshrink({a})",
    "F.binary_cross_entropy_with_logits({a}, {b}.detach().clamp(0, 1))",
    "F.soft_margin_loss({a}, {b})", "F.poisson_nll_loss({a}, {b})",
    "F.hinge_embedding_loss({a}, {b})", "F.pairwise_distance({a}, {b})", "F.pdist({a})",
    "F.interpolate({a}.unsqueeze(0), scale_factor=2)",
    "F.interpolate({a}.unsqueeze(0), size=4, mode='linear')",
    "F.scaled_dot_product_attention({a}[None], {b}[None], {b}[None])",
    "F.mse_loss({a}, {b}, reduction='sum')", "F.l1_loss({a}, {b}, reduction='none')",
    "F.cosine_embedding_loss({a}, {b}, T.ones({a}.shape[0]))",
    "F.margin_ranking_loss({a}, {b}, T.ones_like({a}))", "F.triplet_margin_loss({a}, {b}, {a})",
    "F.gaussian_nll_loss({a}, {b}, T.ones_like({a}))", "F.logsigmoid({a}.double())",
    "F.log_softmax({a}, 0)", "F.softmin({a}, -1)", "F.unfold({a}[None, None], 1)",
    "F.pixel_shuffle({a}[None, None].expand(1, 4, *{a}.shape), 2)",
    "Twice.apply({a})", "Split.apply({a})[0]", "Split.apply({a})[1]", "Once.apply({a})",
    # loss arguments beyond the defaults: a target that need not be a probability, a delta,
    # a beta of zero; dilated and "same"-padded, strided transposed convolutions; more
    # pools and normalizations
    "F.binary_cross_entropy({a}.sigmoid(), {b}.detach())",
    "F.huber_loss({a}, {b}, delta=0.5, reduction='sum')", "F.smooth_l1_loss({a}, {b}, beta=0.0)",
    "F.multilabel_soft_margin_loss({a}, {b}.detach().clamp(0, 1))",
    "F.multi_margin_loss({a}, T.zeros({a}.shape[0], dtype=T.long))",
    "F.conv1d({a}.unsqueeze(0), {b}.unsqueeze(0)[..., :1], dilation=2)",
    "F.conv1d({a}.unsqueeze(0), {b}.unsqueeze(0)[..., :2], padding='same')",
    "F.conv_transpose2d({a}[None, None], {b}[None, None], stride=2)",
    "F.avg_pool1d({a}.unsqueeze(0), 2, ceil_mode=True)",
    "F.max_pool1d({a}.unsqueeze(0), 2, return_indices=True)[1]",
    "F.local_response_norm({a}.unsqueeze(0), 2)", "F.instance_norm({a}.unsqueeze(0))",
    "F.rrelu({a}, training=False)",
]
OTHER = [
    "{a}.backward(T.ones_like({a}), retain_graph=True)",
    "{a}.sum().backward(inputs=[{b}], retain_graph=True)",
    "T.autograd.backward([{a}.sum()], inputs=[{b}])",
    "_g = T.autograd.grad(T.autograd.grad(({a} ** 3).sum(), {b}, create_graph=True, "
    "allow_unused=True)[0].sum(), {b}, allow_unused=True)",
    "_g = T.autograd.grad(({a}.sin() * {b}).sum(), ({a}, {b}), create_graph=True, "
    "allow_unused=True, materialize_grads=True)",
    "_g = T.autograd.functional.jacobian(lambda x: x.sin() * 2, {a})",
    "_g = T.autograd.functional.vjp(lambda x: x.exp(), {a}, T.ones_like({a}))",
    "_g = T.autograd.functional.hessian(lambda x: (x ** 3).sum(), {a})",
    "_g = (T.autograd.grad({a}.sum(), {b}, retain_graph=True, allow_unused=True), {b}.grad)",
    "{a}.register_hook({hook}).remove()", "{a}.grad = T.ones_like({a})",
    "{a}.grad.zero_()", "{a}.grad.mul_(2)", "{a}.sum().backward(); {a}.sum().backward()",
    "{a}.grad_fn.name()", "{a}.sum().backward(retain_graph=True); {b}.sum().backward()",
]
