"""The graphs and dtypes of tangents: torch builds them from its forward formulas.

Written against torch's API; they pass on real torch 2.13 and on refgrad. The
preorder walks of the tangents' grad_fn and the dtypes were recorded from torch.
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD

CASES = {
    "mul": (2, lambda a, b: a * b),
    "mul_sin": (1, lambda a: a.sin() * a),
    "div": (2, lambda a, b: a / b),
    "add": (2, lambda a, b: a + b),
    "sub_alpha": (2, lambda a, b: torch.sub(a, b, alpha=2)),
    "neg": (1, lambda a: -a),
    "sin": (1, lambda a: a.sin()),
    "cos": (1, lambda a: a.cos()),
    "tan": (1, lambda a: a.tan()),
    "exp": (1, lambda a: a.exp()),
    "log": (1, lambda a: a.log()),
    "sqrt": (1, lambda a: a.sqrt()),
    "rsqrt": (1, lambda a: a.rsqrt()),
    "pow_number": (1, lambda a: a ** 2.5),
    "pow_zero": (1, lambda a: a ** 0),
    "pow_tensor": (2, lambda a, b: a ** b),
    "tanh": (1, lambda a: a.tanh()),
    "sigmoid": (1, lambda a: a.sigmoid()),
    "relu": (1, lambda a: (a - 1).relu()),
    "abs": (1, lambda a: a.abs()),
    "sum": (1, lambda a: a.sum()),
    "sum_dim": (1, lambda a: a.sum(1, keepdim=True)),
    "mean": (1, lambda a: a.mean()),
    "mean_dim": (1, lambda a: a.mean(0)),
    "matmul": (2, lambda a, b: a @ b.T),
    "mv": (2, lambda a, b: a @ b[0]),
    "dot": (2, lambda a, b: a[1] @ b[0]),
    "bmm": (2, lambda a, b: a.view(1, 2, 3).bmm(b.view(1, 3, 2))),
    "softmax": (1, lambda a: a.softmax(1)),
    "log_softmax": (1, lambda a: a.log_softmax(0)),
    "where": (2, lambda a, b: torch.where(a > 1, a, b)),
    "maximum": (2, lambda a, b: torch.maximum(a, b)),
    "minimum": (2, lambda a, b: torch.minimum(a, b)),
    "clamp": (1, lambda a: a.clamp(0.7, 1.2)),
    "clamp_min": (1, lambda a: a.clamp(min=0.9)),
    "reciprocal": (1, lambda a: a.reciprocal()),
    "atan2": (2, lambda a, b: torch.atan2(a, b)),
    "lerp": (2, lambda a, b: torch.lerp(a, b, 0.3)),
    "addcmul": (2, lambda a, b: torch.addcmul(a, b, a, value=2)),
    "addcmul_1": (2, lambda a, b: torch.addcmul(a, b, a)),
    "mul_number": (1, lambda a: a * 2),
    "add_number": (1, lambda a: a + 2.5),
    "sub_number": (1, lambda a: a - 1),
    "div_number": (1, lambda a: a / 2),
    "view": (1, lambda a: a.view(6)),
    "t": (1, lambda a: a.t()),
}


def _preorder(node):
    names, stack = [], [node]
    while stack:
        n = stack.pop()
        if n is None:
            names.append(None)
            continue
        names.append(n.name().replace("torch::autograd::", ""))
        stack.extend(reversed([f for f, _ in n.next_functions]))
    return names


def _tangent_graph(name, wanted):
    """The preorder of the tangent's graph, with primals or tangents requiring grad."""
    count, function = CASES[name]
    g = torch.Generator().manual_seed(0)
    primals = [(torch.rand(2, 3, dtype=torch.float64, generator=g) + 0.5)
               .requires_grad_(wanted == "primal") for _ in range(count)]
    tangents = [torch.rand(2, 3, dtype=torch.float64, generator=g)
                .requires_grad_(wanted == "tangent") for _ in range(count)]
    with fwAD.dual_level():
        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]
        tangent = fwAD.unpack_dual(function(*duals)).tangent
    return None if tangent.grad_fn is None else _preorder(tangent.grad_fn)


# None: the tangent has no grad_fn.
PRIMAL_GRAPHS = {'mul': ['AddBackward0', 'MulBackward0', None, 'Identity', 'ViewBackward0',
         'AccumulateGrad', 'MulBackward0', None, 'Identity', 'ViewBackward0',
         'AccumulateGrad'],
 'mul_sin': ['AddBackward0', 'MulBackward0', None, 'Identity', 'SinBackward0',
             'ViewBackward0', 'AccumulateGrad', 'MulBackward0', 'MulBackward0',
             None, 'CosBackward0', 'Identity', 'ViewBackward0',
             'AccumulateGrad', 'Identity', 'ViewBackward0', 'AccumulateGrad'],
 'div': ['DivBackward0', 'SubBackward0', None, 'MulBackward0', None,
         'DivBackward0', 'ViewBackward0', 'AccumulateGrad', 'ViewBackward0',
         'AccumulateGrad', 'Identity', 'ViewBackward0', 'AccumulateGrad'],
 'add': None,
 'sub_alpha': None,
 'neg': None,
 'sin': ['MulBackward0', None, 'CosBackward0', 'Identity', 'ViewBackward0',
         'AccumulateGrad'],
 'cos': ['MulBackward0', None, 'NegBackward0', 'SinBackward0', 'Identity',
         'ViewBackward0', 'AccumulateGrad'],
 'tan': ['MulBackward0', None, 'AddBackward1', 'PowBackward0', 'TanBackward0',
         'ViewBackward0', 'AccumulateGrad'],
 'exp': ['MulBackward0', None, 'ExpBackward0', 'ViewBackward0',
         'AccumulateGrad'],
 'log': ['DivBackward0', None, 'Identity', 'ViewBackward0', 'AccumulateGrad'],
 'sqrt': ['DivBackward0', None, 'MulBackward1', 'SqrtBackward0',
          'ViewBackward0', 'AccumulateGrad'],
 'rsqrt': ['MulBackward0', None, 'PowBackward0', 'RsqrtBackward0',
           'ViewBackward0', 'AccumulateGrad'],
 'pow_number': ['MulBackward0', None, 'MulBackward1', 'PowBackward0',
                'Identity', 'ViewBackward0', 'AccumulateGrad'],
 'pow_zero': None,
 'pow_tensor': ['AddBackward0', 'WhereBackward0', None, 'MulBackward0', None,
                'MulBackward0', 'Identity', 'ViewBackward0', 'AccumulateGrad',
                'PowBackward1', 'Identity', 'ViewBackward0', 'AccumulateGrad',
                'SubBackward1', 'Identity', 'ViewBackward0', 'AccumulateGrad',
                'MulBackward0', None, 'WhereBackward0', None, 'MulBackward0',
                'PowBackward1', 'ViewBackward0', 'AccumulateGrad',
                'ViewBackward0', 'AccumulateGrad', 'LogBackward0', 'Identity',
                'ViewBackward0', 'AccumulateGrad'],
 'tanh': ['TanhBackwardBackward0', None, 'TanhBackward0', 'ViewBackward0',
          'AccumulateGrad'],
 'sigmoid': ['SigmoidBackwardBackward0', None, 'SigmoidBackward0',
             'ViewBackward0', 'AccumulateGrad'],
 'relu': ['ThresholdBackwardBackward0', None, 'ReluBackward0', 'SubBackward0',
          'ViewBackward0', 'AccumulateGrad', None],
 'abs': ['MulBackward0', None, 'SgnBackward0', 'Identity', 'ViewBackward0',
         'AccumulateGrad'],
 'sum': None,
 'sum_dim': None,
 'mean': None,
 'mean_dim': None,
 'matmul': ['AddBackward0', 'MmBackward0', None, 'Identity', 'PermuteBackward0',
            'ViewBackward0', 'AccumulateGrad', 'MmBackward0', 'Identity',
            'ViewBackward0', 'AccumulateGrad', None],
 'mv': ['AddBackward0', 'MvBackward0', None, 'Identity', 'SelectBackward0',
        'ViewBackward0', 'AccumulateGrad', 'MvBackward0', 'Identity',
        'ViewBackward0', 'AccumulateGrad', None],
 'dot': ['AddBackward0', 'DotBackward0', None, 'Identity', 'SelectBackward0',
         'ViewBackward0', 'AccumulateGrad', 'DotBackward0', 'Identity',
         'SelectBackward0', 'ViewBackward0', 'AccumulateGrad', None],
 'bmm': ['AddBackward0', 'BmmBackward0', None, 'Identity', 'ViewBackward0',
         'ViewBackward0', 'AccumulateGrad', 'BmmBackward0', 'Identity',
         'ViewBackward0', 'ViewBackward0', 'AccumulateGrad', None],
 'softmax': ['MulBackward0', 'SoftmaxBackward0', 'ViewBackward0',
             'AccumulateGrad', 'SubBackward0', None, 'DivBackward0',
             'SumBackward1', 'MulBackward0', 'ExpBackward0', 'SubBackward0',
             'Identity', 'ViewBackward0', 'AccumulateGrad', 'AmaxBackward0',
             'Identity', 'ViewBackward0', 'AccumulateGrad', None,
             'SumBackward1', 'ExpBackward0', 'SubBackward0', 'Identity',
             'ViewBackward0', 'AccumulateGrad', 'AmaxBackward0', 'Identity',
             'ViewBackward0', 'AccumulateGrad'],
 'log_softmax': ['SubBackward0', None, 'DivBackward0', 'SumBackward1',
                 'MulBackward0', 'ExpBackward0', 'SubBackward0', 'Identity',
                 'ViewBackward0', 'AccumulateGrad', 'AmaxBackward0', 'Identity',
                 'ViewBackward0', 'AccumulateGrad', None, 'SumBackward1',
                 'ExpBackward0', 'SubBackward0', 'Identity', 'ViewBackward0',
                 'AccumulateGrad', 'AmaxBackward0', 'Identity', 'ViewBackward0',
                 'AccumulateGrad'],
 'where': None,
 'maximum': None,
 'minimum': None,
 'clamp': None,
 'clamp_min': None,
 'reciprocal': ['MulBackward0', None, 'MulBackward0', 'ReciprocalBackward0',
                'ViewBackward0', 'AccumulateGrad', 'ReciprocalBackward0',
                'ViewBackward0', 'AccumulateGrad'],
 'atan2': ['DivBackward0', 'AddBackward0', 'MulBackward0', 'NegBackward0',
           'Identity', 'ViewBackward0', 'AccumulateGrad', None, 'MulBackward0',
           'Identity', 'ViewBackward0', 'AccumulateGrad', None, 'AddBackward0',
           'PowBackward0', 'Identity', 'ViewBackward0', 'AccumulateGrad',
           'PowBackward0', 'Identity', 'ViewBackward0', 'AccumulateGrad'],
 'lerp': None,
 'addcmul': ['AddBackward0', 'AddBackward0', None, 'MulBackward1',
             'MulBackward0', None, 'Identity', 'ViewBackward0',
             'AccumulateGrad', 'MulBackward1', 'MulBackward0', None, 'Identity',
             'ViewBackward0', 'AccumulateGrad'],
 'addcmul_1': ['AddBackward0', 'AddBackward0', None, 'MulBackward0', None,
               'Identity', 'ViewBackward0', 'AccumulateGrad', 'MulBackward0',
               None, 'Identity', 'ViewBackward0', 'AccumulateGrad'],
 'mul_number': ['AddBackward0', 'MulBackward0', None, 'Identity',
                'ViewBackward0', 'AccumulateGrad', None],
 'add_number': None,
 'sub_number': None,
 'div_number': ['DivBackward0', 'SubBackward0', None, 'MulBackward0', None,
                'DivBackward0', 'ViewBackward0', 'AccumulateGrad', None, None],
 'view': None,
 't': None}

TANGENT_GRAPHS = {'mul': ['AddBackward0', 'MulBackward0', 'AccumulateGrad', None, 'MulBackward0',
         'AccumulateGrad', None],
 'mul_sin': ['AddBackward0', 'MulBackward0', 'AccumulateGrad', None,
             'MulBackward0', 'MulBackward0', 'AccumulateGrad', None, None],
 'div': ['DivBackward0', 'SubBackward0', 'AccumulateGrad', 'MulBackward0',
         'AccumulateGrad', None, None],
 'add': ['AddBackward0', 'AccumulateGrad', 'AccumulateGrad'],
 'sub_alpha': ['SubBackward0', 'AccumulateGrad', 'MulBackward1',
               'AccumulateGrad'],
 'neg': ['NegBackward0', 'AccumulateGrad'],
 'sin': ['MulBackward0', 'AccumulateGrad', None],
 'cos': ['MulBackward0', 'AccumulateGrad', None],
 'tan': ['MulBackward0', 'AccumulateGrad', None],
 'exp': ['MulBackward0', 'AccumulateGrad', None],
 'log': ['DivBackward0', 'AccumulateGrad', None],
 'sqrt': ['DivBackward0', 'AccumulateGrad', None],
 'rsqrt': ['MulBackward0', 'MulBackward1', 'AccumulateGrad', None],
 'pow_number': ['MulBackward0', 'AccumulateGrad', None],
 'pow_zero': None,
 'pow_tensor': ['AddBackward0', 'WhereBackward0', None, 'MulBackward0',
                'AccumulateGrad', None, 'MulBackward0', 'AccumulateGrad',
                None],
 'tanh': ['TanhBackwardBackward0', 'AccumulateGrad', None],
 'sigmoid': ['SigmoidBackwardBackward0', 'AccumulateGrad', None],
 'relu': ['ThresholdBackwardBackward0', 'SubBackward0', 'AccumulateGrad', None,
          None],
 'abs': ['MulBackward0', 'AccumulateGrad', None],
 'sum': ['SumBackward0', 'AccumulateGrad'],
 'sum_dim': ['SumBackward1', 'AccumulateGrad'],
 'mean': ['MeanBackward0', 'AccumulateGrad'],
 'mean_dim': ['MeanBackward1', 'AccumulateGrad'],
 'matmul': ['AddBackward0', 'MmBackward0', 'AccumulateGrad', None,
            'MmBackward0', None, 'PermuteBackward0', 'AccumulateGrad'],
 'mv': ['AddBackward0', 'MvBackward0', 'AccumulateGrad', None, 'MvBackward0',
        None, 'SelectBackward0', 'AccumulateGrad'],
 'dot': ['AddBackward0', 'DotBackward0', 'SelectBackward0', 'AccumulateGrad',
         None, 'DotBackward0', None, 'SelectBackward0', 'AccumulateGrad'],
 'bmm': ['AddBackward0', 'BmmBackward0', 'ViewBackward0', 'AccumulateGrad',
         None, 'BmmBackward0', None, 'ViewBackward0', 'AccumulateGrad'],
 'softmax': ['MulBackward0', None, 'SubBackward0', 'AccumulateGrad',
             'DivBackward0', 'SumBackward1', 'MulBackward0', None,
             'AccumulateGrad', None],
 'log_softmax': ['SubBackward0', 'AccumulateGrad', 'DivBackward0',
                 'SumBackward1', 'MulBackward0', None, 'AccumulateGrad', None],
 'where': ['WhereBackward0', 'AccumulateGrad', 'AccumulateGrad'],
 'maximum': ['AddBackward0', 'AccumulateGrad', 'MulBackward0', None,
             'SubBackward0', 'AccumulateGrad', 'AccumulateGrad'],
 'minimum': ['AddBackward0', 'AccumulateGrad', 'MulBackward0', None,
             'SubBackward0', 'AccumulateGrad', 'AccumulateGrad'],
 'clamp': ['WhereBackward0', 'AccumulateGrad', None],
 'clamp_min': ['WhereBackward0', 'AccumulateGrad', None],
 'reciprocal': ['MulBackward0', 'NegBackward0', 'AccumulateGrad', None],
 'atan2': ['DivBackward0', 'AddBackward0', 'MulBackward0', None,
           'AccumulateGrad', 'MulBackward0', None, 'AccumulateGrad', None],
 'lerp': ['LerpBackward0', 'AccumulateGrad', 'AccumulateGrad'],
 'addcmul': ['AddBackward0', 'AddBackward0', 'AccumulateGrad', 'MulBackward1',
             'MulBackward0', 'AccumulateGrad', None, 'MulBackward1',
             'MulBackward0', 'AccumulateGrad', None],
 'addcmul_1': ['AddBackward0', 'AddBackward0', 'AccumulateGrad', 'MulBackward0',
               'AccumulateGrad', None, 'MulBackward0', 'AccumulateGrad', None],
 'mul_number': ['AddBackward0', None, 'MulBackward0', 'AccumulateGrad', None],
 'add_number': ['AddBackward0', 'AccumulateGrad', None],
 'sub_number': ['SubBackward0', 'AccumulateGrad', None],
 'div_number': ['DivBackward0', 'SubBackward0', 'AccumulateGrad', None, None],
 'view': ['ViewBackward0', 'AccumulateGrad'],
 't': ['TBackward0', 'AccumulateGrad']}

# float64 primals, float32 tangents.
MIXED_DTYPES = {'mul': 'float64',
 'relu': 'float64',
 'mul_sin': 'float64',
 'div': 'float64',
 'add': 'float32',
 'sub_alpha': 'float32',
 'neg': 'float32',
 'sin': 'float64',
 'cos': 'float64',
 'tan': 'float64',
 'exp': 'float64',
 'log': 'float64',
 'sqrt': 'float64',
 'rsqrt': 'float64',
 'pow_number': 'float64',
 'pow_zero': 'float64',
 'pow_tensor': 'float64',
 'tanh': 'float64',
 'sigmoid': 'float64',
 'abs': 'float64',
 'sum': 'float32',
 'sum_dim': 'float32',
 'mean': 'float32',
 'mean_dim': 'float32',
 'softmax': 'float64',
 'log_softmax': 'float64',
 'where': 'float32',
 'maximum': 'float64',
 'minimum': 'float64',
 'clamp': 'float32',
 'clamp_min': 'float32',
 'reciprocal': 'float64',
 'atan2': 'float64',
 'lerp': 'float32',
 'addcmul': 'float64',
 'addcmul_1': 'float64',
 'mul_number': 'float64',
 'add_number': 'float32',
 'sub_number': 'float32',
 'div_number': 'float64',
 'view': 'float32',
 't': 'float32'}


@pytest.mark.parametrize("name", list(CASES))
def test_tangent_graph_of_a_primal_that_requires_grad(name):
    assert _tangent_graph(name, "primal") == PRIMAL_GRAPHS[name]


@pytest.mark.parametrize("name", list(CASES))
def test_tangent_graph_of_a_tangent_that_requires_grad(name):
    assert _tangent_graph(name, "tangent") == TANGENT_GRAPHS[name]


@pytest.mark.parametrize("name", list(MIXED_DTYPES))
def test_tangent_dtype_follows_the_formula(name):  # products of matrices refuse the mix
    count, function = CASES[name]
    with fwAD.dual_level():
        duals = [fwAD.make_dual(torch.rand(2, 3, dtype=torch.float64) + 0.5, torch.rand(2, 3))
                 for _ in range(count)]
        tangent = fwAD.unpack_dual(function(*duals)).tangent
    assert tangent.dtype == getattr(torch, MIXED_DTYPES[name])


def test_a_plain_operand_is_read_through_its_primal_alias():
    v = torch.rand(2, 3, requires_grad=True)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(fwAD.make_dual(v, torch.ones(2, 3)).sin() * v).tangent
    assert _preorder(tangent.grad_fn) == [
        "AddBackward0", "MulBackward0", None, "Identity", "SinBackward0", "ViewBackward0",
        "AccumulateGrad", "MulBackward0", "MulBackward0", None, "CosBackward0", "Identity",
        "ViewBackward0", "AccumulateGrad", "Identity", "AccumulateGrad"]


def test_no_grad_tangents_have_no_graph():
    t = torch.ones(2, 3, requires_grad=True)
    with fwAD.dual_level(), torch.no_grad():
        tangent = fwAD.unpack_dual(fwAD.make_dual(torch.rand(2, 3), t).sin() * 2).tangent
    assert tangent.grad_fn is None and not tangent.requires_grad


def test_maximum_and_minimum_split_ties_and_follow_nan():
    with fwAD.dual_level():
        a = fwAD.make_dual(torch.tensor([float("nan"), 1.0, 2.0, 1.0]), torch.ones(4))
        b = fwAD.make_dual(torch.tensor([1.0, float("nan"), 2.0, 0.0]), torch.full((4,), 3.0))
        high = fwAD.unpack_dual(torch.maximum(a, b)).tangent
        low = fwAD.unpack_dual(torch.minimum(a, b)).tangent
    assert high.tolist() == [3.0, 3.0, 2.0, 1.0]
    assert low.tolist() == [3.0, 3.0, 2.0, 3.0]


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_tangent_multiplies_its_exponentials_in_place(name):
    v = torch.rand(2, 3, dtype=torch.float64, requires_grad=True)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(getattr(fwAD.make_dual(v, torch.ones_like(v)), name)(1)).tangent
    with pytest.raises(RuntimeError, match=r"^one of the variables needed for gradient "
                       r"computation has been modified by an inplace operation: "
                       r"\[torch.DoubleTensor \[2, 3\]\], which is output 0 of Exp, "
                       r"is at version 1; expected version 0 instead\."):
        tangent.sum().backward()


def test_a_missing_tangent_is_a_zero_that_products_and_sums_keep():
    inf = float("inf")
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([inf, 1.0]), torch.ones(2))
        small = fwAD.make_dual(torch.tensor([0.5, 2.0]), torch.tensor([-1.0, 1.0]))
        plain = torch.tensor([1.0, 2.0])
        products = [fwAD.unpack_dual(f).tangent.tolist() for f in (
            d * plain, torch.atan2(d, plain), torch.addcmul(plain, d, plain), d @ plain)]
        signed = fwAD.unpack_dual(torch.maximum(small * 0, torch.ones(2))).tangent
        zero_times = fwAD.unpack_dual(plain.mul(0) * small).tangent
    assert products == [[1.0, 2.0], [0.0, 0.4000000059604645], [1.0, 2.0], 3.0]
    assert [str(v) for v in signed.tolist()] == ["-0.0", "0.0"]
    assert [str(v) for v in zero_times.tolist()] == ["-0.0", "0.0"]


def test_a_missing_tangent_keeps_the_layout_of_a_transposed_primal():
    v = torch.rand(2, 3).t().requires_grad_(True)
    with fwAD.dual_level():
        d = fwAD.make_dual(v, torch.ones_like(v))
        tangents = [fwAD.unpack_dual(f).tangent for f in (d.sin() * v, d * v, v * d)]
    assert [(t.grad_fn.name(), t.stride(), t._version) for t in tangents] == [
        ("AddBackward0", (1, 3), 0)] * 3


def test_mixed_dtypes_in_a_matrix_product_meet_the_second_products_error():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 3))
        e = fwAD.make_dual(torch.ones(3, 2, dtype=torch.float64), torch.ones(3, 2))
        with pytest.raises(RuntimeError, match=r"^expected m1 and m2 to have the same dtype, "
                           r"but got: double != float$"):
            d.mm(e)
