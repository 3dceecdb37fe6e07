"""The statement templates of the differential fuzzer, and the programs drawn from them.

A program starts from a prelude that binds, in whichever library ``T`` is,
``F`` (``T.nn.functional``), ``fwAD`` (forward-mode AD) and ``Cube``, a custom
autograd Function; then it makes a few leaves and draws statements: methods,
binary ops, in-place writes, functional ops and losses, and the rest of the
autograd API (hooks of every kind, backward and grad, forward-mode AD, anomaly
mode, mutation of saved tensors), some inside a grad-mode block. Of the
statements of each kind, a quarter come from ``vocabulary_wider.py`` (out=
into resized, strided and other-dtype tensors, mixed dtypes, integer and
bool tensors, writes through views of views with hooks and retain_grad),
about a third of the rest from ``vocabulary_wide.py`` (awkward layouts and
rarer ops) and half of what remains from ``vocabulary.py``'s longer lists,
so that the short lists here keep their share. Before all of them, three
statements in ten come from ``vocabulary_autograd.py`` (hooks, second
backwards and derivatives, saved-tensor hooks, grad modes, CopySlices chains).
"""

import random
import re

import vocabulary
import vocabulary_autograd as autograd
import vocabulary_wide as wide
import vocabulary_wider as wider

PRELUDE = """
F = T.nn.functional
fwAD = T.autograd.forward_ad


class Cube(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2


class Twice(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.mul_(2)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


class Split(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        sign = x.sign()
        ctx.mark_non_differentiable(sign)
        return x * 2, sign

    @staticmethod
    def backward(ctx, grad, _):
        return None if grad is None else grad * 2


class Once(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    @T.autograd.function.once_differentiable
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x.exp()
"""

SHAPES = ["(3,)", "(2, 3)", "(3, 2)", "(2, 1)", "(3, 3)", "(2, 3).t()", "(2, 1).t()"]
UNARY = ["sin()", "exp()", "tanh()", "relu()", "neg()", "abs()", "sigmoid()", "clone()",
         "detach()", "t()", "sum()", "mean()", "amax(0)", "sum(-1)", "reshape(-1)",
         "unsqueeze(0)", "cumsum(0)", "pow(2)", "sqrt()", "prod()", "mul(1)",
         "softmax(-1)", "log_softmax(-1)", "norm()", "var()", "std()", "double()", "half()",
         "clamp(0.2, 0.8)", "index_select(0, T.tensor([0]))", "masked_fill({a} > 0.5, 0.0)",
         "gather(0, T.zeros_like({a}, dtype=T.int64))", "diagonal()", "t().unsqueeze(0)",
         "view(-1)[1:]", "t()[0]", "flip(0)", "sort(0)[0]", "topk(1, 0)[0]", "roll(1, 0)",
         "cummax(0)[0]", "sum(0, keepdim=True)", "mean(-1, keepdim=True)", "repeat(2, 1)",
         "index_fill(0, T.tensor([0]), 1.0)", "amax(-1, keepdim=True)", "logsumexp(0)"]
BINARY = ["{a} + {b}", "{a} * {b}", "{a} - {b}", "{a} / {b}", "T.maximum({a}, {b})",
          "T.where({b} > 0, {a}, {b})", "{a} * 2.5", "{a}.double() * {b}", "{a}[0]",
          "{a}[..., :1]", "{a}.expand(2, 3)", "T.cat([{a}, {b}])", "T.stack([{a}, {b}])",
          "T.lerp({a}, {b}, 0.3)", "{a} @ {b}", "T.mm({a}, {b})", "{a}.matmul({b}.t())",
          "T.addcmul({a}, {a}, {b}, value=0.5)", "T.maximum({a}, {b} * 2)",
          "{a}.half() + {b}"]
INPLACE = ["{a}.mul_(2)", "{a}.add_({b})", "{a}.zero_()", "{a}.sin_()", "{a}[0] = 7.0",
           "{a}.copy_({b})", "{a}.clamp_(min=0)", "{a}[0].mul_(2)", "{a}.t().add_(1)",
           "{a}.diagonal().zero_()", "{a}[:, 0].add_({b}.sum())", "{a}.view(-1)[1:].exp_()",
           "{a}.t()[0].mul_({b}[0])", "{a}.unsqueeze(0)[0].neg_()"]
HOOKS = ["lambda g: g * 2", "lambda g: None", "lambda g: g.clone().mul_(3)",
         "lambda g: g.add_(1)", "lambda g: g.double()"]
PACK = ["lambda x: x * 1, lambda x: x", "lambda x: x.detach(), lambda x: x",
        "lambda x: x.clone(), lambda x: x.add_(1)"]
OTHER = ["{a}.retain_grad()", "{a}.register_hook({hook})", "{a}.requires_grad_()",
         "{a}.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(2))",
         "{a}.sum().backward(retain_graph=True)", "{a}.sum().backward()",
         "{a}.retain_grad(); {a}.sum().backward(retain_graph=True); {a}.sum().backward()",
         "_g = T.autograd.grad({a}.sum(), [{b}], allow_unused=True, retain_graph=True)",
         "_g = T.autograd.grad({a}.sum(), [{b}], create_graph=True, allow_unused=True)",
         "_g = T.autograd.grad({a}, [{b}], grad_outputs=T.ones_like({a}), allow_unused=True)",
         "_g = T.autograd.grad({a}, {b}, T.rand_like({a}), create_graph=True, allow_unused=True)",
         "{a}.sum().backward(create_graph=True)",
         "with T.autograd.graph.saved_tensors_hooks({pack}): v = ({a}.sin() * {b}).sum()"]
FUNCTIONAL = ["F.hardtanh({a}, -0.5, 0.5)", "F.hardswish({a})", "F.hardshrink({a}, 0.3)",
              "F.softshrink({a}, 0.3)", "F.relu6({a})", "F.hardsigmoid({a})", "F.elu({a})",
              "F.selu({a})", "F.leaky_relu({a}, 0.1)", "F.gelu({a})", "F.silu({a})",
              "F.gelu({a}, approximate='tanh')", "F.mish({a})", "F.softplus({a})",
              "F.logsigmoid({a})", "F.mse_loss({a}, {b})", "F.l1_loss({a}, {b})",
              "F.smooth_l1_loss({a}, {b})", "F.huber_loss({a}, {b})",
              "F.binary_cross_entropy({a}.sigmoid(), {b}.detach().clamp(0, 1))",
              "F.kl_div({a}.log_softmax(-1), {b}.softmax(-1), reduction='batchmean')",
              "F.normalize({a}, dim=-1)", "F.cosine_similarity({a}, {b}, dim=-1)",
              "F.linear({a}, {b})", "F.pad({a}, (1, 1))", "Cube.apply({a})",
              "T.utils.checkpoint.checkpoint(lambda x: x.sin() * x, {a}, use_reentrant=False)",
              "fwAD.unpack_dual(fwAD.make_dual({a}, T.ones_like({a})).sin() * {b}).tangent",
              "fwAD.unpack_dual(fwAD.make_dual({a}.detach(), {b}.detach()).exp()).tangent"]
NODE = ["{a}.grad_fn.register_hook(lambda gi, go: None)",
        "{a}.grad_fn.register_prehook(lambda go: tuple(g * 2 for g in go))",
        "{a}.grad_fn.register_hook(lambda gi, go: tuple(None if g is None else g + 1 for g in gi))",
        "T.autograd.graph.register_multi_grad_hook(({a}, {b}), lambda gs: None)",
        "T.autograd.graph.register_multi_grad_hook(({a}, {b}), lambda g: None, mode='any')",
        "with T.autograd.detect_anomaly(check_nan=False): {a}.sum().backward(retain_graph=True)",
        "with T.autograd.graph.allow_mutation_on_saved_tensors(): v = {a}.sin(); {a}.mul_(2)",
        "with T.autograd.graph.disable_saved_tensors_hooks('no'): v = {a}.exp() * {b}"]
MODES = ["T.no_grad()", "T.enable_grad()", "T.inference_mode()", "T.no_grad(), T.enable_grad()",
         "T.set_grad_enabled(False)"]


def _pick(rng: random.Random, short: list, more: list, wide: list = (), wider: list = ()) -> str:
    if wider and rng.random() < 0.25:
        return rng.choice(wider)
    if wide and rng.random() < 0.3:
        return rng.choice(wide)
    return rng.choice(more if more and rng.random() < 0.5 else short)


def statement(rng: random.Random, a: str, b: str, new: str) -> str:
    """One statement over variables ``a`` and ``b``; a made tensor is named ``new``."""
    kind = rng.random()
    if rng.random() < 0.3:
        line = rng.choice(autograd.OTHER).format(a=a, b=b)
    elif kind < 0.2:
        line = f"{new} = {a}." + _pick(rng, UNARY, vocabulary.UNARY, wide.UNARY,
                                       wider.UNARY).format(a=a)
    elif kind < 0.4:
        line = f"{new} = " + _pick(rng, BINARY, vocabulary.BINARY, wide.BINARY,
                                   wider.BINARY).format(a=a, b=b)
    elif kind < 0.55:
        line = _pick(rng, INPLACE, vocabulary.INPLACE, wide.INPLACE, wider.INPLACE).format(a=a, b=b)
    elif kind < 0.7:
        line = f"{new} = " + _pick(rng, FUNCTIONAL, vocabulary.FUNCTIONAL,
                                wide.FUNCTIONAL, wider.FUNCTIONAL).format(a=a, b=b)
        if "fwAD" in line:
            line = f"with fwAD.dual_level(): {line}"
    elif kind < 0.8:
        line = rng.choice(NODE).format(a=a, b=b).replace(": v =", f": {new} =")
    else:
        line = _pick(rng, OTHER, vocabulary.OTHER, wide.OTHER, wider.OTHER).format(
            a=a, b=b, hook=rng.choice(HOOKS), pack=rng.choice(PACK))
        line = line.replace("): v =", f"): {new} =")
    if rng.random() < 0.15 and not line.startswith("with"):
        line = f"with {rng.choice(MODES)}: {line}"
    return line


def program(rng: random.Random) -> list:
    """A few statements over variables v0, v1, ..."""
    lines, names = [], []
    for _ in range(rng.randint(1, 3)):
        grad, kind = rng.random() < 0.8, rng.random()
        if kind < 0.4:
            leaf = f"T.rand{rng.choice(SHAPES)}.requires_grad_({grad})"
        elif kind < 0.65:
            leaf = f"{rng.choice(vocabulary.LEAVES)}.requires_grad_({grad})"
        elif kind < 0.85:
            leaf = f"{rng.choice(wide.LEAVES + wider.LEAVES)}.requires_grad_({grad})"
        else:
            leaf = rng.choice(vocabulary.PLAIN_LEAVES + wider.PLAIN_LEAVES)
        lines.append(f"v{len(names)} = {leaf}")
        names.append(f"v{len(names)}")
    for _ in range(rng.randint(2, 10)):
        new = f"v{len(names)}"
        line = statement(rng, rng.choice(names), rng.choice(names), new)
        lines.append(line)
        if re.search(rf"(^|: ){new} = ", line):
            names.append(new)
    return lines
