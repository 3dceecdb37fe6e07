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

from conformance._support import preorder_names

DEPTH = 3
ANY = [[0.5, -1.25, 2.0], [1.5, 0.75, -0.5]]
POS = [[0.5, 1.25, 2.0], [1.5, 0.75, 0.3]]
INSIDE = [[0.2, -0.3, 0.6], [-0.7, 0.1, 0.4]]
ABOVE_ONE = [[1.5, 2.25, 3.0], [1.1, 1.75, 2.5]]
TALL = [[0.5, 1.25], [2.0, 1.5], [0.75, 0.3]]
UNIT = [[0.2, 0.3, 0.6], [0.7, 0.1, 0.4]]

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
    "prelu": (torch.prelu, [ANY, [0.25]]),
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
    "prod": (torch.prod, [ANY]),
    "prod_of_one": (lambda a: a[0, 0].prod(), [ANY]),
    "cumsum": (lambda a: a.cumsum(1), [ANY]),
    "cumsum_of_one": (lambda a: a[:, :1].cumsum(1), [ANY]),
    "cumprod": (lambda a: a.cumprod(1), [POS]),
    "erf": (torch.erf, [ANY]), "erfc": (torch.erfc, [ANY]), "erfinv": (torch.erfinv, [INSIDE]),
    "atanh": (torch.atanh, [INSIDE]),
    "logaddexp": (torch.logaddexp, [ANY, POS]), "logaddexp2": (torch.logaddexp2, [ANY, POS]),
    "logit": (torch.logit, [UNIT]), "logit_eps": (lambda a: torch.logit(a, 0.25), [UNIT]),
    "xlogy_number": (lambda a: torch.xlogy(1.5, a), [POS]),
    "lerp_tensor": (torch.lerp, [ANY, POS, INSIDE]),
    "norm_1": (lambda a: torch.linalg.vector_norm(a, 1), [ANY]),
    "norm_3": (lambda a: torch.linalg.vector_norm(a, 3), [ANY]),
    "norm_2": (lambda a: a.norm(), [ANY]),
    "norm_2_dim": (lambda a: torch.linalg.vector_norm(a, 2, dim=1), [ANY]),
    "std_dim": (lambda a: a.std(0), [ANY]),
    "div_mode": (lambda a, b: torch.div(a, b, rounding_mode=None), [ANY, POS]),
    "zero_": (lambda a: a.clone().zero_(), [ANY]),
    "fill_": (lambda a: a.clone().fill_(2.0), [ANY]),
    "gather": (lambda a: a.gather(1, torch.tensor([[0, 0], [2, 1]])), [ANY]),
    "index_select": (lambda a: a.index_select(1, torch.tensor([2, 0, 2])), [ANY]),
    "sort": (lambda a: a.sort(1).values, [ANY]),
    "topk": (lambda a: a.topk(2, 1).values, [ANY]),
    "cummax": (lambda a: a.cummax(1).values, [ANY]),
    "max": (torch.max, [ANY]), "min": (torch.min, [ANY]),
    "max_dim": (lambda a: a.max(1).values, [ANY]),
    "trace": (torch.trace, [ANY]),
    "mm_column_major": (lambda a, b: a.t().mm(b.t()), [TALL, ANY]),
    "addmm": (lambda a, b, c: torch.addmm(a, b, c, beta=0.5, alpha=2), [TALL[0], ANY, TALL]),
    "addmv": (lambda a, b, c: torch.addmv(a[:, 0], b, c[0]), [ANY, ANY, POS]),
    "baddbmm": (lambda a, b, c: torch.baddbmm(a, b, c, beta=2, alpha=-0.5),
                [[TALL[0]], [ANY], [TALL]]),
    "index_add": (lambda a, b: a.index_add(0, torch.tensor([1]), b[:1], alpha=2), [ANY, POS]),
    "index_copy": (lambda a, b: a.index_copy(1, torch.tensor([2]), b[:, :1]), [ANY, POS]),
    "masked_fill_value": (lambda a, b: a.masked_fill(a > 0, b[0, 0]), [ANY, POS]),
    "pow_tensor": (torch.pow, [POS, ANY]),
    "softmax": (lambda a: a.softmax(1), [ANY]),
    "softmax_negative_dim": (lambda a: torch.softmax(a, -2), [ANY]),
    "softmax_of_0d": (lambda a: a[1, 2].softmax(0), [ANY]),
    "log_softmax": (lambda a: a.log_softmax(1), [ANY]),
    "log_softmax_of_0d": (lambda a: torch.log_softmax(a[0, 1], -1), [ANY]),
    "amax": (lambda a: a.amax(1), [ANY]),
    "amin_dims": (lambda a: torch.amin(a, (0, -1)), [ANY]),
    "amax_keepdim": (lambda a: a.amax(-1, keepdim=True), [ANY]),
    "amax_of_0d": (torch.amax, [0.75]),
    "amin_of_0d_along_0": (lambda a: a.amin(0), [-1.25]),
    "amax_of_0d_along_minus_1": (lambda a: a.amax(-1), [2.0]),
    "aminmax": (lambda a: sum(torch.aminmax(a, dim=1)), [ANY]),
    "logcumsumexp": (lambda a: a.logcumsumexp(1), [ANY]),
    "logcumsumexp_along_0": (lambda a: torch.logcumsumexp(a, -2), [ANY]),
    "take": (lambda a: a.take(torch.tensor([[0, 4], [4, -1]])), [ANY]),
    "cumprod_with_a_zero": (lambda a: a.cumprod(1), [[[0.5, 0.0, 2.0], [1.5, 0.75, -0.5]]]),
    "cumprod_with_zeros_along_0": (lambda a: a.cumprod(-2), [[[0.0, 1.0], [2.0, 0.0]]]),
    "prod_with_a_zero": (torch.prod, [[[0.5, 0.0, 2.0], [1.5, 0.75, -0.5]]]),
    "prod_dim_with_a_zero": (lambda a: a.prod(1), [[[0.5, 0.0, 2.0], [1.5, 0.75, -0.5]]]),
    "prod_of_one_zero": (lambda a: a.prod(0, keepdim=True), [[[0.0, 1.5]]]),
    "masked_select": (lambda a: a.masked_select(a > 0), [ANY]),
    "masked_select_broadcast": (lambda a: a[0].masked_select(torch.tensor([[True], [False]])),
                                [ANY]),
    "masked_scatter": (lambda a, b: a.masked_scatter(a > 0, b), [ANY, POS]),
    "masked_scatter_broadcast": (
        lambda a, b: a.masked_scatter(torch.tensor([True, False, False]), b[0]), [ANY, POS]),
    "fmax": (torch.fmax, [ANY, POS]),
    "fmin": (torch.fmin, [ANY, POS]),
    "copysign": (torch.copysign, [ANY, POS]),
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
    'prelu': [
        'PreluKernelBackwardBackward0 .AccumulateGrad .AccumulateGrad .ViewBackward0 '
        '..AccumulateGrad',
        'ViewBackward0 .SumBackward1 ..PreluKernelBackwardBackward0 ...AccumulateGrad '
        '...AccumulateGrad ...ViewBackward0',
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
    'prod': [
        'MulBackward0 .AccumulateGrad .DivBackward0 ..ProdBackward0 ...AccumulateGrad '
        '..AccumulateGrad',
    ],
    'prod_of_one': [
        'SelectBackwardBackward0 .SelectBackwardBackward0 ..AccumulateGrad',
    ],
    'cumsum': [
        'FlipBackward0 .CumsumBackward0 ..FlipBackward0 ...AccumulateGrad',
    ],
    'cumsum_of_one': [
        'SliceBackwardBackward0 .AccumulateGrad',
    ],
    'cumprod': [
        'DivBackward0 .FlipBackward0 ..CumsumBackward0 ...FlipBackward0 .AccumulateGrad',
    ],
    'erf': [
        'MulBackward0 .MulBackward1 ..ExpBackward0 ...NegBackward0 .AccumulateGrad',
    ],
    'erfc': [
        'MulBackward0 .MulBackward1 ..ExpBackward0 ...NegBackward0 .AccumulateGrad',
    ],
    'erfinv': [
        'MulBackward0 .MulBackward1 ..ExpBackward0 ...PowBackward0 .AccumulateGrad',
    ],
    'atanh': [
        'DivBackward0 .MulBackward1 ..AccumulateGrad .SubBackward0 ..None ..PowBackward0 '
        '...AccumulateGrad',
    ],
    'logaddexp': [
        'DivBackward0 .AccumulateGrad .AddBackward1 ..ExpBackward0 ...SubBackward0',
        'DivBackward0 .AccumulateGrad .AddBackward1 ..ExpBackward0 ...SubBackward0',
    ],
    'logaddexp2': [
        'DivBackward0 .AccumulateGrad .AddBackward1 ..PowBackward2 ...SubBackward0',
        'DivBackward0 .AccumulateGrad .AddBackward1 ..PowBackward2 ...SubBackward0',
    ],
    'logit': [
        'WhereBackward0 .DivBackward0 ..AccumulateGrad ..MulBackward0 ...AccumulateGrad '
        '...SubBackward0 .None',
    ],
    'logit_eps': [
        'WhereBackward0 .DivBackward0 ..AccumulateGrad ..MulBackward0 ...AccumulateGrad '
        '...SubBackward0 .None',
    ],
    'xlogy_number': [
        'DivBackward0 .MulBackward1 ..AccumulateGrad .AccumulateGrad',
    ],
    'lerp_tensor': [
        'MulBackward0 .AccumulateGrad .SubBackward0 ..None ..AccumulateGrad',
        'MulBackward0 .AccumulateGrad .AccumulateGrad',
        'MulBackward0 .AccumulateGrad .SubBackward0 ..AccumulateGrad ..AccumulateGrad',
    ],
    'norm_1': [
        'MulBackward0 .SgnBackward0 ..AccumulateGrad .AccumulateGrad',
    ],
    'norm_2': [
        'MulBackward0 .AccumulateGrad .MaskedFillBackward0 ..DivBackward0 ...AccumulateGrad '
        '...LinalgVectorNormBackward0',
    ],
    'norm_2_dim': [
        'MulBackward0 .UnsqueezeBackward0 ..AccumulateGrad .MaskedFillBackward0 ..DivBackward0 '
        '...AccumulateGrad ...UnsqueezeBackward0',
    ],
    'norm_3': [
        'MulBackward0 .MulBackward0 ..AccumulateGrad ..PowBackward0 ...AbsBackward0 '
        '.MaskedFillBackward0 ..DivBackward0 ...AccumulateGrad ...PowBackward0',
    ],
    'std_dim': [
        'MulBackward0 .MulBackward1 ..UnsqueezeBackward0 ...MaskedFillBackward0 .SubBackward0 '
        '..AccumulateGrad ..MeanBackward1 ...AccumulateGrad',
    ],
    'div_mode': [
        'DivBackward0 .AccumulateGrad .AccumulateGrad',
        'MulBackward0 .NegBackward0 ..AccumulateGrad .DivBackward0 ..DivBackward0 '
        '...AccumulateGrad ...AccumulateGrad ..AccumulateGrad',
    ],
    'zero_': [
        '-',
    ],
    'fill_': [
        '-',
    ],
    'gather': [
        'ScatterAddBackward0 .None .AccumulateGrad',
    ],
    'index_select': [
        'IndexAddBackward0 .None .AccumulateGrad',
    ],
    'sort': [
        'ScatterBackward0 .None .AccumulateGrad',
    ],
    'topk': [
        'ScatterBackward0 .None .AccumulateGrad',
    ],
    'cummax': [
        'ScatterAddBackward0 .None .AccumulateGrad',
    ],
    'max': [
        'MaskedFillBackward1 .None .DivBackward0 ..AccumulateGrad ..None',
    ],
    'min': [
        'MaskedFillBackward1 .None .DivBackward0 ..AccumulateGrad ..None',
    ],
    'max_dim': [
        'ScatterBackward0 .None .UnsqueezeBackward0 ..AccumulateGrad',
    ],
    'trace': [
        'ViewBackward0 .IndexFillBackward1 ..None ..AccumulateGrad',
    ],
    'mm_column_major': [
        'TBackward0 .TBackward0 ..MmBackward0 ...TBackward0 ...TBackward0',
        'TBackward0 .TBackward0 ..MmBackward0 ...TBackward0 ...TBackward0',
    ],
    'addmm': [
        'ViewBackward0 .SumBackward1 ..MulBackward1 ...AccumulateGrad',
        'MulBackward1 .MmBackward0 ..AccumulateGrad ..TBackward0 ...AccumulateGrad',
        'MulBackward1 .MmBackward0 ..TBackward0 ...AccumulateGrad ..AccumulateGrad',
    ],
    'addmv': [
        'SelectBackwardBackward0 .AccumulateGrad',
        'MulBackward0 .ViewBackward0 ..AccumulateGrad .SelectBackward0 ..AccumulateGrad',
        'SelectBackwardBackward0 .MvBackward0 ..TBackward0 ...AccumulateGrad ..AccumulateGrad',
    ],
    'baddbmm': [
        'ViewBackward0 .SumBackward1 ..MulBackward1 ...AccumulateGrad',
        'MulBackward1 .BmmBackward0 ..AccumulateGrad ..TransposeBackward0 ...AccumulateGrad',
        'MulBackward1 .BmmBackward0 ..TransposeBackward0 ...AccumulateGrad ..AccumulateGrad',
    ],
    'index_add': [
        '-',
        'SliceBackwardBackward0 .MulBackward1 ..ExpandBackward0 ...IndexSelectBackward0',
    ],
    'index_copy': [
        'IndexFillBackward0 .AccumulateGrad',
        'SliceBackwardBackward0 .ExpandBackward0 ..IndexSelectBackward0 ...AccumulateGrad',
    ],
    'masked_fill_value': [
        'MaskedFillBackward0 .AccumulateGrad',
        'SelectBackwardBackward0 .SelectBackwardBackward0 ..SumBackward0 '
        '...MaskedSelectBackward0',
    ],
    'pow_tensor': [
        'WhereBackward0 .None .MulBackward0 ..AccumulateGrad ..MulBackward0 ...AccumulateGrad '
        '...PowBackward1',
        'MulBackward0 .AccumulateGrad .WhereBackward0 ..None ..MulBackward0 ...PowBackward1 '
        '...LogBackward0',
    ],
    'softmax': [
        'SoftmaxBackwardDataBackward0 .AccumulateGrad .SoftmaxBackward0 ..AccumulateGrad',
    ],
    'softmax_negative_dim': [
        'SoftmaxBackwardDataBackward0 .AccumulateGrad .SoftmaxBackward0 ..AccumulateGrad',
    ],
    'softmax_of_0d': [
        'SelectBackwardBackward0 .SelectBackwardBackward0 ..SoftmaxBackwardDataBackward0 '
        '...AccumulateGrad ...SoftmaxBackward0',
    ],
    'log_softmax': [
        'LogSoftmaxBackwardDataBackward0 .AccumulateGrad .LogSoftmaxBackward0 ..AccumulateGrad',
    ],
    'log_softmax_of_0d': [
        'SelectBackwardBackward0 .SelectBackwardBackward0 ..LogSoftmaxBackwardDataBackward0 '
        '...AccumulateGrad ...LogSoftmaxBackward0',
    ],
    'amax': [
        'MulBackward0 .DivBackward0 ..ViewBackward0 ...AccumulateGrad ..None .None',
    ],
    'amin_dims': [
        'MulBackward0 .DivBackward0 ..ViewBackward0 ...AccumulateGrad ..None .None',
    ],
    'amax_keepdim': [
        'MulBackward0 .DivBackward0 ..AccumulateGrad ..None .None',
    ],
    'amax_of_0d': [
        'MulBackward0 .DivBackward0 ..ViewBackward0 ...AccumulateGrad ..None .None',
    ],
    'amin_of_0d_along_0': [
        'SumBackward0 .MulBackward0 ..DivBackward0 ...ViewBackward0 ...None ..None',
    ],
    'amax_of_0d_along_minus_1': [
        'SumBackward0 .MulBackward0 ..DivBackward0 ...ViewBackward0 ...None ..None',
    ],
    'aminmax': [
        'AddBackward0 .MulBackward0 ..DivBackward0 ...ViewBackward0 ...None ..None .MulBackward0 '
        '..DivBackward0 ...ViewBackward0 ...None ..None',
    ],
    'logcumsumexp': [
        'SubBackward0 .ExpBackward0 ..AddBackward0 ...FlipBackward0 ...AccumulateGrad '
        '.ExpBackward0 ..AddBackward0 ...FlipBackward0 ...AccumulateGrad',
    ],
    'logcumsumexp_along_0': [
        'SubBackward0 .ExpBackward0 ..AddBackward0 ...FlipBackward0 ...AccumulateGrad '
        '.ExpBackward0 ..AddBackward0 ...FlipBackward0 ...AccumulateGrad',
    ],
    'masked_select': [
        'MaskedScatterBackward0 .None .AccumulateGrad',
    ],
    'masked_select_broadcast': [
        'SelectBackwardBackward0 .ViewBackward0 ..SumBackward1 ...MaskedScatterBackward0',
    ],
    'masked_scatter': [
        'MaskedFillBackward0 .AccumulateGrad',
        'MaskedScatterBackwardBackward0 .AccumulateGrad',
    ],
    'masked_scatter_broadcast': [
        'MaskedFillBackward0 .AccumulateGrad',
        'SelectBackwardBackward0 .MaskedScatterBackwardBackward0 ..AccumulateGrad',
    ],
    'take': [
        'PutBackward0 .None .AccumulateGrad',
    ],
    'cumprod_with_a_zero': [
        'CopySlices .CopySlices ..CopySlices ...None ...SumBackward1 ..SumBackward1 '
        '...MulBackward0 .SumBackward1 ..MulBackward0 ...SliceBackward0 ...ProdBackward1',
    ],
    'cumprod_with_zeros_along_0': [
        'CopySlices .CopySlices ..None ..SumBackward1 ...MulBackward0 .SumBackward1 '
        '..MulBackward0 ...SliceBackward0 ...ProdBackward1',
    ],
    'prod_with_a_zero': [
        'ViewBackward0 .MulBackward0 ..AccumulateGrad ..MulBackward0 ...CumprodBackward0 '
        '...FlipBackward0',
    ],
    'prod_dim_with_a_zero': [
        'MulBackward0 .UnsqueezeBackward0 ..AccumulateGrad .MulBackward0 ..CumprodBackward0 '
        '...CatBackward0 ..FlipBackward0 ...CumprodBackward0',
    ],
    'prod_of_one_zero': [
        '-',
    ],
    'fmax': [
        'MaskedFillBackward0 .AccumulateGrad',
        'MaskedFillBackward0 .AccumulateGrad',
    ],
    'fmin': [
        'MaskedFillBackward0 .AccumulateGrad',
        'MaskedFillBackward0 .AccumulateGrad',
    ],
    'copysign': [
        'MulBackward0 .AccumulateGrad .MaskedFillBackward0 ..DivBackward0 ...CopysignBackward0 '
        '...AccumulateGrad',
        '-',
    ],
}


def names(node, depth=DEPTH):
    """``node`` and the nodes below it, to ``depth`` edges, in preorder."""
    return preorder_names(node, depth)


def gradient_graphs(fn, data):
    leaves = [torch.tensor(d, dtype=torch.float64, requires_grad=True) for d in data]
    out = fn(*leaves)
    incoming = torch.ones_like(out).requires_grad_()
    grads = torch.autograd.grad(out, leaves, incoming, create_graph=True, allow_unused=True)
    return ["-" if g is None or g.grad_fn is None else names(g.grad_fn) for g in grads]


def test_every_case_has_its_expected_graphs():
    assert set(CASES) == set(EXPECTED)


def test_names_walks_in_preorder_to_the_depth_asked():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    node = (x.sin() * 2).grad_fn
    assert names(node, 0) == "MulBackward0"
    assert names(node, 1) == "MulBackward0 .SinBackward0 .None"
    assert names(node, 2) == "MulBackward0 .SinBackward0 ..AccumulateGrad .None"


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_graph_names_match(name):
    fn, data = CASES[name]
    assert gradient_graphs(fn, data) == EXPECTED[name]


@pytest.mark.parametrize(("call", "shown"), [
    (lambda a: a[1], ["_saved_dim", "_saved_index"]),
    (lambda a: a[:, 1:3], ["_saved_dim", "_saved_end", "_saved_start", "_saved_step"]),
    (lambda a: a.diagonal(1), ["_saved_dim1", "_saved_dim2", "_saved_offset"]),
    (lambda a: a.unfold(1, 2, 1), ["_saved_dim", "_saved_size", "_saved_step"]),
])
def test_backward_rows_show_only_what_their_own_gradient_keeps(call, shown):
    x = torch.tensor(ANY, dtype=torch.float64, requires_grad=True)
    out = call(x)
    (g,) = torch.autograd.grad(out, x, torch.ones_like(out, requires_grad=True),
                               create_graph=True)
    assert sorted(n for n in dir(g.grad_fn) if n.startswith("_saved")) == shown


def test_a_slice_left_open_inside_a_formula_is_closed_for_its_gradient():
    # cumprod's gradient at a zero slices the input from each place on, its end unsaid
    x = torch.tensor([0.0, 2.0], dtype=torch.float64, requires_grad=True)
    incoming = torch.tensor([1.0, 0.5], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(x.cumprod(0), x, incoming, create_graph=True)
    h = torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True)
    (second,) = torch.autograd.grad(g, x, h, create_graph=True)
    opened = second.grad_fn.next_functions[1][0]
    closed = opened.next_functions[0][0]
    assert (opened.name(), closed.name()) == ("SliceBackwardBackward0", "SliceBackward0")
    assert (opened._saved_start, opened._saved_end) == (1, 2**63 - 1)
    assert (closed._saved_start, closed._saved_end) == (1, 2)
