"""The graph a gradient carries under ``create_graph=True``, named node by node.

A gradient computed with ``create_graph=True`` has a graph of its own, made of the
operations its backward formula used. These tests compute the first gradients of
one call per operation, with an incoming gradient that itself requires grad, and
compare the node names of each gradient's graph, three edges deep, with the names
torch gives. Each graph is written in preorder, one dot per level below its root;
``None`` is an edge that leads nowhere, and ``-`` a gradient with no node.
"""

import pytest
import torch

DEPTH = 3
ANY = [[0.5, -1.25, 2.0], [1.5, 0.75, -0.5]]
POS = [[0.5, 1.25, 2.0], [1.5, 0.75, 0.3]]
INSIDE = [[0.2, -0.3, 0.6], [-0.7, 0.1, 0.4]]
ABOVE_ONE = [[1.5, 2.25, 3.0], [1.1, 1.75, 2.5]]
TALL = [[0.5, 1.25], [2.0, 1.5], [0.75, 0.3]]

CASES = {
    "add": (lambda a, b: torch.add(a, b, alpha=2.5), [ANY, POS]),
    "sub": (lambda a, b: torch.sub(a, b, alpha=-0.5), [ANY, POS]),
    "rsub": (lambda a: torch.rsub(a, 2.0, alpha=3), [ANY]),
    "rsub_tensor": (lambda a, b: torch.rsub(a, b, alpha=2), [ANY, POS]),
    "mul": (torch.mul, [ANY, POS]),
    "div": (torch.div, [ANY, POS]),
    "reciprocal": (torch.reciprocal, [POS]),
    "pow": (lambda a: a ** 3, [POS]),
    "pow_zero": (lambda a: a ** 0, [POS]),
    "pow_scalar": (lambda a: 2.0 ** a, [ANY]),
    "exp": (torch.exp, [ANY]), "log": (torch.log, [POS]), "sin": (torch.sin, [ANY]),
    "cos": (torch.cos, [ANY]), "tan": (torch.tan, [INSIDE]), "tanh": (torch.tanh, [ANY]),
    "sigmoid": (torch.sigmoid, [ANY]), "sqrt": (torch.sqrt, [POS]),
    "rsqrt": (torch.rsqrt, [POS]), "relu": (torch.relu, [ANY]), "abs": (torch.abs, [ANY]),
    "sign": (torch.sign, [ANY]), "sgn": (torch.sgn, [ANY]),
    "clamp": (lambda a: torch.clamp(a, -1.0, 1.0), [ANY]),
    "clamp_min": (lambda a: torch.clamp_min(a, 0.6), [ANY]),
    "clamp_max": (lambda a: torch.clamp_max(a, 0.6), [ANY]),
    "clamp_tensor": (torch.clamp, [ANY, INSIDE, POS]),
    "maximum": (torch.maximum, [ANY, INSIDE]), "minimum": (torch.minimum, [ANY, INSIDE]),
    "sum": (torch.sum, [ANY]), "sum_dim": (lambda a: a.sum(1), [ANY]),
    "mean": (torch.mean, [ANY]), "mean_dim": (lambda a: a.mean(0), [ANY]),
    "var": (lambda a: a.var(1), [ANY]), "std": (lambda a: a.std(), [ANY]),
    "log1p": (torch.log1p, [POS]), "log2": (torch.log2, [POS]), "log10": (torch.log10, [POS]),
    "expm1": (torch.expm1, [ANY]), "exp2": (torch.exp2, [ANY]),
    "asin": (torch.asin, [INSIDE]), "acos": (torch.acos, [INSIDE]),
    "atan": (torch.atan, [ANY]), "asinh": (torch.asinh, [ANY]),
    "acosh": (torch.acosh, [ABOVE_ONE]),
    "deg2rad": (torch.deg2rad, [ANY]), "rad2deg": (torch.rad2deg, [ANY]),
    "lerp": (lambda a, b: torch.lerp(a, b, 0.25), [ANY, POS]),
    "addcmul": (lambda a, b, c: torch.addcmul(a, b, c, value=0.5), [ANY, POS, INSIDE]),
    "squeeze": (lambda a: a[:1].squeeze(), [ANY]),
    "squeeze_dim": (lambda a: a[:1].squeeze(0), [ANY]),
    "squeeze_dims": (lambda a: a[:1].squeeze((0, 1)), [ANY]),
    "stack": (lambda a, b: torch.stack([a, b], 1), [ANY, POS]),
    "cat": (lambda a, b: torch.cat([a, b], 0), [ANY, POS]),
    "mv": (lambda a, b: torch.mv(a, b[0]), [ANY, POS]),
    "mm": (torch.mm, [ANY, TALL]),
    "where": (lambda a, b: torch.where(a > 0, a, b), [ANY, POS]),
    "select": (lambda a: a[1], [ANY]),
    "transpose": (lambda a: a.transpose(0, 1), [ANY]),
    "view": (lambda a: a.view(3, 2), [ANY]),
    "expand": (lambda a: a[:1].expand(4, 3), [ANY]),
    "unsqueeze": (lambda a: a.unsqueeze(1), [ANY]),
    "logsumexp": (lambda a: a.logsumexp(1), [ANY]),
    "prod_dim": (lambda a: a.prod(1), [ANY]),
}

EXPECTED = {
    'add': [
        '-',
        'MulBackward1 .AccumulateGrad',
    ],
    'sub': [
        '-',
        'MulBackward1 .NegBackward0 ..AccumulateGrad',
    ],
    'rsub': [
        'MulBackward1 .NegBackward0 ..AccumulateGrad',
    ],
    'rsub_tensor': [
        'MulBackward1 .NegBackward0 ..AccumulateGrad',
        '-',
    ],
    'mul': [
        'MulBackward0 .AccumulateGrad .AccumulateGrad',
        'MulBackward0 .AccumulateGrad .AccumulateGrad',
    ],
    'div': [
        'DivBackward0 .AccumulateGrad .AccumulateGrad',
        'MulBackward0 .NegBackward0 ..AccumulateGrad .DivBackward0 ..DivBackward0 '
        '...AccumulateGrad ...AccumulateGrad ..AccumulateGrad',
    ],
    'reciprocal': [
        'MulBackward0 .NegBackward0 ..AccumulateGrad .MulBackward0 ..ReciprocalBackward0 '
        '...AccumulateGrad ..ReciprocalBackward0 ...AccumulateGrad',
    ],
    'pow': [
        'MulBackward0 .AccumulateGrad .MulBackward1 ..PowBackward0 ...AccumulateGrad',
    ],
    'pow_zero': [
        '-',
    ],
    'pow_scalar': [
        'MulBackward0 .AccumulateGrad .MulBackward1 ..PowBackward2 ...AccumulateGrad',
    ],
    'exp': [
        'MulBackward0 .AccumulateGrad .ExpBackward0 ..AccumulateGrad',
    ],
    'log': [
        'DivBackward0 .AccumulateGrad .AccumulateGrad',
    ],
    'sin': [
        'MulBackward0 .AccumulateGrad .CosBackward0 ..AccumulateGrad',
    ],
    'cos': [
        'MulBackward0 .AccumulateGrad .NegBackward0 ..SinBackward0 ...AccumulateGrad',
    ],
    'tan': [
        'MulBackward0 .AccumulateGrad .AddBackward1 ..PowBackward0 ...TanBackward0',
    ],
    'tanh': [
        'TanhBackwardBackward0 .AccumulateGrad .TanhBackward0 ..AccumulateGrad',
    ],
    'sigmoid': [
        'SigmoidBackwardBackward0 .AccumulateGrad .SigmoidBackward0 ..AccumulateGrad',
    ],
    'sqrt': [
        'DivBackward0 .AccumulateGrad .MulBackward1 ..SqrtBackward0 ...AccumulateGrad',
    ],
    'rsqrt': [
        'MulBackward0 .MulBackward1 ..AccumulateGrad .PowBackward0 ..RsqrtBackward0 '
        '...AccumulateGrad',
    ],
    'relu': [
        'ThresholdBackwardBackward0 .AccumulateGrad .ReluBackward0 ..AccumulateGrad',
    ],
    'abs': [
        'MulBackward0 .AccumulateGrad .SgnBackward0 ..AccumulateGrad',
    ],
    'sign': [
        '-',
    ],
    'sgn': [
        '-',
    ],
    'clamp': [
        'WhereBackward0 .AccumulateGrad .None',
    ],
    'clamp_min': [
        'WhereBackward0 .AccumulateGrad .None',
    ],
    'clamp_max': [
        'WhereBackward0 .AccumulateGrad .None',
    ],
    'clamp_tensor': [
        'WhereBackward0 .AccumulateGrad .None',
        'WhereBackward0 .AccumulateGrad .None',
        'WhereBackward0 .AccumulateGrad .None',
    ],
    'maximum': [
        'MaskedFillBackward0 .WhereBackward0 ..DivBackward1 ...AccumulateGrad ..AccumulateGrad',
        'MaskedFillBackward0 .WhereBackward0 ..DivBackward1 ...AccumulateGrad ..AccumulateGrad',
    ],
    'minimum': [
        'MaskedFillBackward0 .WhereBackward0 ..DivBackward1 ...AccumulateGrad ..AccumulateGrad',
        'MaskedFillBackward0 .WhereBackward0 ..DivBackward1 ...AccumulateGrad ..AccumulateGrad',
    ],
    'sum': [
        'ExpandBackward0 .AccumulateGrad',
    ],
    'sum_dim': [
        'ExpandBackward0 .UnsqueezeBackward0 ..AccumulateGrad',
    ],
    'mean': [
        'DivBackward1 .ExpandBackward0 ..AccumulateGrad',
    ],
    'mean_dim': [
        'DivBackward1 .ExpandBackward0 ..UnsqueezeBackward0 ...AccumulateGrad',
    ],
    'var': [
        'MulBackward0 .MulBackward1 ..UnsqueezeBackward0 ...AccumulateGrad .SubBackward0 '
        '..AccumulateGrad ..MeanBackward1 ...AccumulateGrad',
    ],
    'std': [
        'MulBackward0 .MulBackward1 ..MaskedFillBackward0 ...DivBackward0 .SubBackward0 '
        '..AccumulateGrad ..MeanBackward0 ...AccumulateGrad',
    ],
    'log1p': [
        'DivBackward0 .AccumulateGrad .AddBackward1 ..AccumulateGrad',
    ],
    'log2': [
        'DivBackward0 .AccumulateGrad .MulBackward1 ..AccumulateGrad',
    ],
    'log10': [
        'DivBackward0 .AccumulateGrad .MulBackward1 ..AccumulateGrad',
    ],
    'expm1': [
        'MulBackward0 .AccumulateGrad .AddBackward1 ..Expm1Backward0 ...AccumulateGrad',
    ],
    'exp2': [
        'MulBackward1 .MulBackward0 ..AccumulateGrad ..Exp2Backward0 ...AccumulateGrad',
    ],
    'asin': [
        'MulBackward0 .AccumulateGrad .RsqrtBackward0 ..AddBackward1 ...MulBackward0',
    ],
    'acos': [
        'MulBackward0 .AccumulateGrad .NegBackward0 ..RsqrtBackward0 ...AddBackward1',
    ],
    'atan': [
        'DivBackward0 .AccumulateGrad .AddBackward1 ..MulBackward0 ...AccumulateGrad '
        '...AccumulateGrad',
    ],
    'asinh': [
        'MulBackward0 .AccumulateGrad .RsqrtBackward0 ..AddBackward1 ...PowBackward0',
    ],
    'acosh': [
        'MulBackward0 .AccumulateGrad .RsqrtBackward0 ..SubBackward1 ...MulBackward0',
    ],
    'deg2rad': [
        'MulBackward1 .AccumulateGrad',
    ],
    'rad2deg': [
        'MulBackward1 .AccumulateGrad',
    ],
    'lerp': [
        'MulBackward1 .AccumulateGrad',
        'MulBackward1 .AccumulateGrad',
    ],
    'addcmul': [
        '-',
        'MulBackward0 .AccumulateGrad .MulBackward1 ..AccumulateGrad',
        'MulBackward0 .AccumulateGrad .MulBackward1 ..AccumulateGrad',
    ],
    'squeeze': [
        'SliceBackwardBackward0 .UnsqueezeBackward0 ..AccumulateGrad',
    ],
    'squeeze_dim': [
        'SliceBackwardBackward0 .UnsqueezeBackward0 ..AccumulateGrad',
    ],
    'squeeze_dims': [
        'SliceBackwardBackward0 .UnsqueezeBackward0 ..AccumulateGrad',
    ],
    'stack': [
        'SelectBackward0 .AccumulateGrad',
        'SelectBackward0 .AccumulateGrad',
    ],
    'cat': [
        'SliceBackward0 .AccumulateGrad',
        'SliceBackward0 .AccumulateGrad',
    ],
    'mv': [
        'MulBackward0 .ViewBackward0 ..AccumulateGrad .SelectBackward0 ..AccumulateGrad',
        'SelectBackwardBackward0 .MvBackward0 ..TBackward0 ...AccumulateGrad ..AccumulateGrad',
    ],
    'mm': [
        'MmBackward0 .AccumulateGrad .TBackward0 ..AccumulateGrad',
        'MmBackward0 .TBackward0 ..AccumulateGrad .AccumulateGrad',
    ],
    'where': [
        'WhereBackward0 .AccumulateGrad .None',
        'WhereBackward0 .None .AccumulateGrad',
    ],
    'select': [
        'SelectBackwardBackward0 .AccumulateGrad',
    ],
    'transpose': [
        'TransposeBackward0 .AccumulateGrad',
    ],
    'view': [
        'ViewBackward0 .AccumulateGrad',
    ],
    'expand': [
        'SliceBackwardBackward0 .SumBackward1 ..AccumulateGrad',
    ],
    'unsqueeze': [
        'SqueezeBackward1 .AccumulateGrad',
    ],
    'logsumexp': [
        'MulBackward0 .UnsqueezeBackward0 ..AccumulateGrad .ExpBackward0 ..SubBackward0 '
        '...AccumulateGrad ...UnsqueezeBackward0',
    ],
    'prod_dim': [
        'MulBackward0 .UnsqueezeBackward0 ..AccumulateGrad .DivBackward0 ..UnsqueezeBackward0 '
        '...ProdBackward1 ..AccumulateGrad',
    ],
}


def names(node, depth=DEPTH):
    """``node`` and the nodes below it, to ``depth`` edges, in preorder."""
    found, stack = [], [(0, node)]
    while stack:
        level, here = stack.pop()
        found.append("." * level + ("None" if here is None else type(here).__name__))
        if here is not None and level < depth:
            stack.extend((level + 1, child) for child, _ in reversed(here.next_functions))
    return " ".join(found)


def gradient_graphs(fn, data):
    leaves = [torch.tensor(d, dtype=torch.float64, requires_grad=True) for d in data]
    out = fn(*leaves)
    incoming = torch.ones_like(out).requires_grad_()
    grads = torch.autograd.grad(out, leaves, incoming, create_graph=True, allow_unused=True)
    return ["-" if g is None or g.grad_fn is None else names(g.grad_fn) for g in grads]


def test_every_case_has_its_expected_graphs():
    assert set(CASES) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_graph_names_match(name):
    fn, data = CASES[name]
    assert gradient_graphs(fn, data) == EXPECTED[name]

