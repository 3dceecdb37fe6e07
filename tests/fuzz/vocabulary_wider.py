"""A fourth list of statement templates: writes and dtypes the other lists seldom combine.

``out=`` into tensors of another shape (which the op resizes and lays out),
into strided or transposed tensors of the right shape, and into tensors of
another dtype; arithmetic mixing dtypes, 0-d tensors and Python numbers;
integer and bool tensors; in-place writes through views of views, of tensors
autograd records, followed by a backward; ``retain_grad`` and tensor hooks on
such views, and node hooks on the nodes a write replaces; inference tensors,
and the ops whose kernels write into what they return; float16 reductions over
column-major and sliced tables, empty leaves, writes under no_grad through views
of leaves, and out= into views. Names beginning
with an underscore are a statement's own temporaries (they are traced, but
no later statement picks them). ``{a}`` and ``{b}`` are the statement's
variables, as in ``templates.py``.
"""

LEAVES = [
    "T.arange(6.0).reshape(2, 3).t()", "T.rand(4, 6)[::2, 1::2]", "T.rand(2, 3, dtype=T.float64)",
    "T.rand(3, 2).t().contiguous().t()", "T.rand(1, 3).expand(2, 3).clone()",
    "T.rand(3, 37).half().t().contiguous().t()", "T.rand(0, 3)", "T.rand(3, 0).t()",
]

PLAIN_LEAVES = [
    "T.arange(-3, 3).reshape(2, 3)", "T.tensor([[1, 2], [3, 4]], dtype=T.int32)",
    "T.tensor([[True, False], [False, True]])", "T.tensor([200, 3, 7], dtype=T.uint8)",
    "T.arange(6, dtype=T.int16).reshape(3, 2).t()", "T.tensor(3)", "T.tensor(2.5)",
    "T.inference_mode()(lambda: T.rand(2, 3))()",
    "T.inference_mode()(lambda: T.tensor([[1.0, 1.0], [0.5, 2.0]]))()",
]

UNARY = [
    "long().add(2.5)", "long() * T.tensor(1.5)", "int().div(2)",
    "int().div(2, rounding_mode='floor')", "mul(T.tensor(2.0, dtype=T.float64))",
    "add(T.tensor([1.0], dtype=T.float64))", "half().add(T.tensor(1e4))", "bool().sum()",
    "bool().cumsum(0)", "long().pow(2)", "long().abs().sqrt()", "to(T.int8).mul(100)",
    "long().remainder(-3)", "long().fmod(-3)", "long().floor_divide(-3)",
    "long().bitwise_left_shift(2)", "bool().logical_xor({a} > 0.5)", "long().float_power(2)",
    "bool().float().mean()", "long().clamp(0.5)", "long().mean(dtype=T.float32)",
    "sum(dtype=T.float64)", "cumsum(0, dtype=T.float64)", "mul(10).prod(dtype=T.int64)",
    "t()[0].unsqueeze(0)", "reshape(-1)[::2]", "unflatten(-1, (1, -1)).transpose(0, -1)",
    "select(0, 0)[None]", "movedim(0, -1).narrow(0, 0, 1)", "unfold(0, 1, 1).squeeze(-1)",
    "mT.flip(0).unsqueeze(1).squeeze(1)", "expand(2, *{a}.shape)[1].t()", "int().neg()",
    "bool().sub(1)", "sign().long().sum()", "long().sum(0).double()", "to(T.uint8).add(-1)",
    "new_ones(2)", "new_full((1,), 2.0)", "frexp()[0]", "isin({a})", "logical_xor({a})",
    "unique_consecutive(return_counts=True)[1]", "unique(return_inverse=True)[1]",
    "median()", "roll(1)", "amin(0)", "long().amin()", "select_scatter({a}[0], 0, 0)",
    "half().prod(0)", "half().prod(-1)", "half().t().contiguous().t().logsumexp(0)",
    "half().logsumexp(-1)", "half().cumprod(0)", "half().var(0)", "half().norm(dim=0)",
    "half().mT.contiguous().mT.mean(-1)", "half().softmax(0)", "half()[..., ::2].prod(0)",
    "half().logcumsumexp(0)", "half().nansum(0)", "half().std(-1)", "half().mT.prod(0)",
]

BINARY = [
    "T.add({a}, {b}, out=T.zeros(0))", "T.mul({a}.detach(), {b}.detach(), out=T.zeros(2, 1))",
    "T.exp({a}.detach(), out=T.zeros(0, dtype=T.float64))",
    "T.gt({a}, {b}, out=T.zeros(0, dtype=T.bool))", "T.lt({a}, {b}, out=T.zeros(1))",
    "T.sub({a}.detach(), 1, out=T.zeros({a}.shape[::-1]).mT)",
    "T.where({a} > 0.5, {a}.detach(), {b}.detach(), out=T.zeros(0))",
    "T.clamp({a}.detach(), 0.2, 0.6, out=T.zeros(5))", "T.cumsum({a}.detach(), 0, out=T.zeros(0))",
    "T.sum({a}.detach(), 0, out=T.zeros(3))",
    "T.mm({a}.detach().reshape(-1, 1), {b}.detach().reshape(1, -1), out=T.zeros(0))",
    "T.cat([{a}.detach(), {a}.detach()], out=T.zeros(0))",
    "T.sort({a}.detach(), 0, out=(T.zeros(0), T.zeros(0, dtype=T.long)))[0]",
    "T.neg({a}.detach(), out=T.zeros(4, 6)[::2, ::3])", "T.abs({a}.detach(), out={b}.detach())",
    "{a} + {b}.double()", "{a}.double() * {b}.sum()", "{a} * {b}.long().sum()",
    "{a}.half() + {b}", "{a} + True", "{a}.long() + {b}.bool()", "{a}.int() * {b}",
    "T.where({a} > 0.5, {a}, 2)", "T.where({a} > {b}, 1.5, {b}.double())",
    "T.maximum({a}, {b}.sum().double())", "T.add({a}, {b}.sum(), alpha=2)",
    "T.lerp({a}, {b}, T.tensor(0.25))", "T.true_divide({a}.long(), {b}.sum())",
    "T.pow({a}.long(), {b}.long())", "T.pow(2, {a})", "T.fmod({a}.int(), 2.5)",
    "T.eq({a}.long(), {b}.double())", "{a}.bool() ^ {b}.bool()", "{a}.long() % {b}.sum().long()",
    "T.add({a}.detach(), 1, out=T.zeros(4, 40)[:{a}.shape[0], :{a}.shape[-1]])",
    "T.mul({a}.detach(), 2, out=T.zeros(*{a}.shape[::-1]).mT)",
    "T.prod({a}.detach().half(), 0, out=T.zeros(80, dtype=T.half)[::2])",
    "T.logsumexp({a}.detach().half(), 0, out=T.zeros(80, dtype=T.half)[::2])",
    "T.sum({a}.detach(), -1, out=T.zeros(8)[::2])",
]

INPLACE = [
    "T.exp({a}.detach(), out={a}.detach())", "T.add({a}, 1, out={b})",
    "{a}.detach().t().add_(1)", "{a}[0].unsqueeze(0).t().mul_(2)",
    "{a}.view(-1)[::2].zero_()", "{a}.unflatten(-1, (1, -1))[..., 0].neg_()",
    "{a}.flatten()[:1].copy_({b}.reshape(-1)[:1])", "{a}.add_({b}.sum().double())",
    "{a}.mul_(T.tensor(2, dtype=T.int64))", "{a}.add_(True)", "{a}.long().add_(1.5)",
    "{a}.long().div_(2)", "{a}.long().bitwise_or_(2)", "{a}.bool().logical_and_({b} > 0.5)",
    "{a}.half().add_({b})", "{a}.int().mul_({b}.long())",
    "{a}.clamp_(T.tensor(0.2), T.tensor(0.6))",
    "{a}.masked_fill_({a} > 0.5, T.tensor(1, dtype=T.int64))", "{a}.copy_({b}.long())",
    "{a}.sub_({b}.double(), alpha=2)", "{a}.t().t().mul_({b})", "{a}.mT[..., :1].div_(3)",
    "with T.no_grad(): {a}[..., :1].mul_(2)", "with T.no_grad(): {a}.view(-1)[:1].zero_()",
    "with T.no_grad(): {a}.unsqueeze(0).squeeze(0).add_(1)",
    "with T.no_grad(): {a}.mT.copy_({b}.mT.detach())",
]

FUNCTIONAL = [
    "F.relu({a}.long())", "F.mse_loss({a}, {b}.double())", "F.linear({a}, {b}.double())",
    "F.hardtanh({a}.int())", "F.softmax({a}, 0, dtype=T.float64)", "F.normalize({a}.double())",
    "F.softmax({a}.half(), 0)", "F.log_softmax({a}.half().mT, -1)",
    "F.normalize({a}.half(), dim=0)",
]

OTHER = [
    "_v = {a} * 1; _w = _v.mT[0]; _w.retain_grad(); _w.mul_(2); "
    "_v.sum().backward(retain_graph=True); _g = (_w.grad,)",
    "_v = {a} * 1; _w = _v[:, None]; _w.register_hook(lambda g: g * 3); _w.sin_(); "
    "_v.sum().backward(retain_graph=True)",
    "_v = {a}.clone(); _v.retain_grad(); _v[0].exp_(); (_v * {b}).sum().backward("
    "retain_graph=True); _g = (_v.grad,)",
    "_v = {a} + 0; _v.view(-1)[0].mul_({b}.reshape(-1)[0]); "
    "_g = T.autograd.grad(_v.sum(), ({a}, {b}), allow_unused=True, retain_graph=True)",
    "_v = {a} * 2; _h = _v.register_hook(lambda g: g + 1); _h.remove(); "
    "_v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _v.grad_fn.register_hook(lambda gi, go: (gi[0] * 2,)); _v[0].add_(1); "
    "_v.sum().backward(retain_graph=True)",
    "_v = {a}.detach().requires_grad_(); _w = _v.mT; _w[0].mul_(2)",
    "_v = {a}.exp(); _v.detach().zero_(); _v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _w = _v[0]; _v.mul_(2); _x = _w * 1",
    "_v = {a} * 1; _w = _v.view(-1); _w.retain_grad(); _v.mul_({b}); "
    "_v.sum().backward(retain_graph=True); _g = (_w.grad,)",
    "_v = {a}.detach().view(-1); _v.mul_(2)", "_v = {a}.detach()[0]; _v.requires_grad_()",
]
