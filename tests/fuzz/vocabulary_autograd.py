"""A fifth list of statement templates: the autograd API, used the way real code uses it.

Tensor hooks that scale, replace or record gradients on views and on tensors
written in place (a hook registered before a write sees the gradient of the
value it was registered on); node pre-hooks and hooks on the CopySlices and
AccumulateGrad nodes; multi-grad hooks that record which gradients came;
``retain_graph`` and a second backward, and the error of a second backward
without it; ``autograd.grad`` with ``grad_outputs``, ``allow_unused``,
``materialize_grads`` and ``create_graph``, then a second derivative through
one of many ops; ``backward(inputs=...)``; saved-tensor hooks that pack to a
copy (so a later write to the input does not matter) or to a tuple; grad mode
switched by decorators and nested blocks, inference tensors met by autograd;
views of views written in place (CopySlices chains) and views that refuse to
be written; integer and bool tensors mixed with float ones under grad.
A hook records into ``_c`` (a tensor, so that the trace sees it) by returning
``_c.add_(...) and None``. ``{a}`` and ``{b}`` are the statement's variables,
as in ``templates.py``; names with an underscore are a statement's own.
"""

# Ops whose first and second derivatives the double-backward templates take.
SECOND = [
    "{a}.sin() * {b}", "{a}.exp()", "{a}.tanh()", "{a}.sigmoid()", "{a}.softmax(-1)",
    "{a}.log_softmax(-1)", "{a} ** 3", "{a} / ({b}.abs() + 1)", "{a}.pow({b})",
    "{a}.norm()", "{a}.cumsum(0) * {a}", "{a}.prod()", "F.gelu({a})", "F.silu({a})",
    "F.softplus({a})", "F.elu({a})", "F.mse_loss({a}, {b})", "{a}.logsumexp(0)",
    "T.atan2({a}, {b}.abs() + 1)", "{a}.sqrt()", "{a}.log1p()", "{a}.var()", "{a}.std(0)",
    "F.normalize({a}, dim=0)", "{a}.abs() * {a}", "{a}.clamp(0.2, 0.8) * {a}",
    "T.maximum({a}, {b}) * {a}", "{a} @ {b}.t()", "{a}.reciprocal()", "{a}.rsqrt()",
    "F.logsigmoid({a})", "F.smooth_l1_loss({a} * 3, {b})", "{a}.amax(0) * {a}.mean()",
    "F.cosine_similarity({a}, {b}, dim=-1)", "{a}.erf()", "{a}.lgamma()", "{a}.digamma()",
    "T.where({a} > 0.5, {a} ** 2, {b})", "{a}.expand(2, *{a}.shape).sum(0) ** 2",
    "F.kl_div({a}.log_softmax(-1), {b}.softmax(-1), reduction='batchmean')",
]

DOUBLE = [
    t.format(op=op, a="{a}", b="{b}") for op in SECOND for t in (
        "_g = T.autograd.grad(({op}).sum(), {a}, create_graph=True); "
        "_h = T.autograd.grad(_g[0].sum(), ({a}, {b}), allow_unused=True, retain_graph=True)",
        "_g = T.autograd.grad(({op}).sum(), ({a}, {b}), create_graph=True, allow_unused=True, "
        "materialize_grads=True); (_g[0] * _g[1]).sum().backward(retain_graph=True)",
    )
]

HOOKED = [
    "_v = {a} * 1; _w = _v[0]; _w.register_hook(lambda g: g * 2); "
    "_v.register_hook(lambda g: g + 1); _w.mul_(3); _v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _c = T.zeros(()); _v.register_hook(lambda g: _c.add_(g.sum()) and None); "
    "_v.mul_(2); _v.register_hook(lambda g: g * 10); (_v * {b}).sum().backward(retain_graph=True)",
    "_v = {a} + 0; _w = _v.t(); _w.register_hook(lambda g: T.ones_like(g) * 5); "
    "_w[0].add_(1); _v.sum().backward(retain_graph=True)",
    "_v = {a} * 2; _v.register_hook(lambda g: g.sum()); _v.sum().backward(retain_graph=True)",
    "_v = {a} * 2; _v.register_hook(lambda g: g.double()); _v.sum().backward(retain_graph=True)",
    "_v = {a} * 2; _v.register_hook(lambda g: g.half()); "
    "(_v * _v).sum().backward(retain_graph=True)",
    "_v = {a} * 1; _v[0].mul_(2); _v.grad_fn.register_prehook(lambda go: (go[0] * 3,)); "
    "_v.grad_fn.register_hook(lambda gi, go: tuple(None if g is None else g * 2 for g in gi)); "
    "_v.sum().backward(retain_graph=True)",
    "_n = ({a} * 1).grad_fn.next_functions[0][0]; "
    "_n.register_prehook(lambda go: (go[0] * 2,)); ({a} * {b}).sum().backward(retain_graph=True)",
    "_n = ({a} * 1).grad_fn.next_functions[0][0]; _c = T.zeros(()); "
    "_n.register_hook(lambda gi, go: _c.add_(go[0].sum()) and None); "
    "({a} ** 2).sum().backward(retain_graph=True)",
    "_c = T.zeros(2); T.autograd.graph.register_multi_grad_hook(({a}, {b}), lambda gs: _c.add_("
    "T.tensor([float(g is None) for g in gs])) and None); "
    "({a} * 2).sum().backward(retain_graph=True)",
    "_c = T.zeros(()); T.autograd.graph.register_multi_grad_hook(({a}, {b}), lambda g: _c.add_("
    "g.sum()) and None, mode='any'); ({a} * {b}).sum().backward(retain_graph=True)",
    "_v = {a} * 1; _h = _v.register_hook(lambda g: g * 7); _v.add_(1); _h.remove(); "
    "_v.sum().backward(retain_graph=True)",
    "_v = {a}.clone(); _v.retain_grad(); _v.register_hook(lambda g: g * 2); "
    "_v.sum().backward(retain_graph=True); _g = (_v.grad,)",
    "_v = {a}.clone(); _v.register_hook(lambda g: g * 2); _v.retain_grad(); "
    "_v.sum().backward(retain_graph=True); _g = (_v.grad,)",
    "{a}.register_post_accumulate_grad_hook(lambda p: setattr(p, 'grad', None)); "
    "({a} * 3).sum().backward(retain_graph=True)",
    "{a}.register_hook(lambda g: g.mul_(2)); _v = {a} * 1; "
    "(_v + {a}).sum().backward(retain_graph=True)",
]

TWICE = [
    "_v = ({a} * {b}).sum(); _v.backward(retain_graph=True); _v.backward()",
    "_v = ({a}.exp() * {b}).sum(); _v.backward(); _v.backward()",
    "_v = ({a} ** 2).sum(); _v.backward(inputs=[{a}], retain_graph=True)",
    "_v = ({a} * {b}).sum(); T.autograd.backward([_v], inputs=({b},), retain_graph=True)",
    "_v = {a} * {b}; T.autograd.backward(_v, grad_tensors=T.full_like(_v, 2.0), retain_graph=True)",
    "({a} ** 2).sum().backward(create_graph=True); _v = {a}.grad * 1; "
    "{a}.grad.sum().backward(retain_graph=True)",
    "_g = T.autograd.grad({a} * 2, {a}, grad_outputs=T.ones_like({a}) * 3, retain_graph=True)",
    "_g = T.autograd.grad(({a} * 2).sum(), [{a}, {b}], allow_unused=True, materialize_grads=True)",
    "_g = T.autograd.grad(({a} * 2).sum(), [{a}, {b}])",
    "_g = T.autograd.grad({a} * 2, {a})",
    "_g = T.autograd.grad(({a} * 1).sum(), {a}.detach())",
]

SAVED = [
    "with T.autograd.graph.saved_tensors_hooks(lambda x: x.clone(), lambda x: x): "
    "_v = ({a} * {b}).sin()",
    "with T.autograd.graph.saved_tensors_hooks(lambda x: x.clone(), lambda x: x): "
    "_v = {a}.exp() * {b}; {b}.detach().mul_(2); _v.sum().backward(retain_graph=True)",
    "with T.autograd.graph.saved_tensors_hooks(lambda x: (x.dtype, x.clone()), lambda p: p[1]): "
    "_v = ({a}.tanh() * {a}).sum(); _v.backward(retain_graph=True)",
    "with T.autograd.graph.saved_tensors_hooks(lambda x: x.double(), lambda x: x.float()): "
    "_v = ({a}.sigmoid() * {b}).sum(); _v.backward(retain_graph=True)",
    "_v = {a} * 1; _w = _v.sin(); _v.mul_(2); _w.sum().backward(retain_graph=True)",
    "with T.autograd.graph.save_on_cpu(): _v = ({a}.exp() * {b}).sum(); "
    "_v.backward(retain_graph=True)",
]

MODES = [
    "_v = T.set_grad_enabled(False)(lambda: {a}.exp()); _w = _v()",
    "_v = T.no_grad()(lambda: {a} * 2)(); _w = T.enable_grad()(lambda: _v * {a})()",
    "with T.set_grad_enabled(False): _v = {a} * 2; _w = T.enable_grad()(lambda: _v * {a})()",
    "_v = T.inference_mode()(lambda: {a} * 2)(); _w = {a} * _v",
    "_v = T.inference_mode()(lambda: {a} * 2)(); _w = {a} + _v",
    "_v = T.inference_mode()(lambda: {a} * 1)(); _v.add_(1)",
    "_v = T.inference_mode()(lambda: T.inference_mode(False)(lambda: {a} * 2)())()",
    "_v = T.inference_mode()(lambda: {a} * 2)(); _w = _v.clone(); _w.requires_grad_()",
    "with T.inference_mode(): _v = {a}.view(-1); _v.mul_(2)",
    "with T.set_grad_enabled(True): _v = T.set_grad_enabled(False)(lambda: {a} * 3)() + {a}",
    "_v = {a} * 1; _w = T.no_grad()(lambda: _v[0])(); _w.mul_(2)",
    "_v = {a} * 1; _w = T.no_grad()(lambda: _v[0])(); _v.sum().backward(retain_graph=True)",
    "with T.no_grad(): _v = {a}.view(-1); _w = _v.requires_grad",
]

VIEWS = [
    "_v = {a} * 1; _w = _v.t()[0]; _x = _w.unsqueeze(0)[:, :1]; _x.mul_({b}.reshape(-1)[0]); "
    "_v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _w = _v[0]; _w.add_(1); _x = _v[:, 0]; _x.mul_({b}.reshape(-1)[0]); "
    "_g = T.autograd.grad(_v.sum(), ({a}, {b}), retain_graph=True, allow_unused=True)",
    "_v = {a} * 1; _w = _v.view(-1)[::2]; _v.exp_(); _x = _w * 1",
    "_v = {a} * 1; _w = _v.unbind(0)[0]; _w.mul_(2)",
    "_v = {a} * 1; _w = _v.chunk(2)[0]; _w.add_(1)",
    "_v = {a} * 1; _w = _v.split(1)[0].view(-1); _w.add_(1)",
    "_v = {a} * 1; _w = _v.detach()[0]; _w.mul_(2); _v.sum().backward(retain_graph=True)",
    "_v = {a} + 0; _w = _v.view(-1); _x = _w[1:]; _x.mul_(2); _y = _w.sum(); "
    "_y.backward(retain_graph=True)",
    "_v = {a}.clone(); _w = _v.diagonal(); _w.copy_({b}.reshape(-1)[:_w.numel()]); "
    "_v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _w = _v.mT.mT; _w[..., :1].sigmoid_(); _x = _v.mT; "
    "(_x * {b}.mT).sum().backward(retain_graph=True)",
    "_v = {a} * 1; _w = _v[None][0]; _w.mul_(2); _w.add_(_v.detach()); "
    "_g = T.autograd.grad(_w.sum(), {a}, retain_graph=True)",
    "_v = {a}.detach().clone(); _w = _v[0]; _w.requires_grad_()",
    "_v = {a}.detach().clone().requires_grad_(); _v[0].mul_(2)",
    "_v = {a} * 1; _w = _v.real; _w.mul_(2); _v.sum().backward(retain_graph=True)",
]

MIXED = [
    "_v = {a} * ({a} > 0.5)", "_v = T.where({a} > 0.5, {a}, T.tensor(0))",
    "_v = ({a} > 0.5) + ({b} < 0.2)", "_v = ({a} > 0.5).sum() * {a}",
    "_v = {a} ** T.tensor(2)", "_v = T.tensor(2) ** {a}", "_v = {a}.long().requires_grad_()",
    "_v = {a}.masked_fill({b} > 0.5, T.tensor(3))",
    "_v = {a}.index_put(({a} > 0.5,), T.tensor(1.5))", "_v = {a} * T.tensor(True)",
    "_v = {a} * 1; _v[_v > 0.5] = 0; _v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _v.masked_fill_({a} > 0.5, 2); (_v * {b}).sum().backward(retain_graph=True)",
    "_v = {a} + {a}.long(); _v.sum().backward(retain_graph=True)",
    "_v = {a}.float() * {b}.int(); _v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _v.add_({b}.long()); _v.sum().backward(retain_graph=True)",
    "_v = {a} * 1; _v.mul_(({b} > 0.5)); _v.sum().backward(retain_graph=True)",
    "_v = {a}.double() * 1; _v.copy_({b}.bool()); _v.sum().backward(retain_graph=True)",
    "_v = {a}.to(T.int32).to({a}.dtype)",
    "_v = {a}.argmax() + {a}.sum()", "_v = ({a} * 2).round().long().float()",
]

OTHER = DOUBLE[::2] + HOOKED + TWICE + SAVED + MODES + VIEWS + MIXED
