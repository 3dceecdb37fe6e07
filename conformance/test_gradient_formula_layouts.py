"""Gradients written by formulas: their layout, their version once taken over, their graph.

A formula's last step decides how its gradient is laid out: a product with the
incoming gradient keeps the input's layout, an out-of-place ``masked_fill``
writes a fresh row-major tensor, and a kernel of torch's writes row-major.
A leaf takes a gradient laid out as itself over as it comes (``.grad._version``
0) and copies any other one (version 1).
"""

import math

import pytest
import torch
import torch.nn.functional as F

from conformance._support import unique_preorder


def _transposed():
    """A (2, 3) leaf with strides (1, 2)."""
    values = torch.tensor([[0.3, -1.2], [0.0, 0.7], [2.1, -0.4]], dtype=torch.float64)
    return values.t().requires_grad_()


# (name, function, strides of the gradient the leaf receives, .grad._version)
CASES = [
    ("copysign", lambda x: torch.copysign(x, torch.ones(3, dtype=torch.float64)), (1, 2), 0),
    ("copysign_number", lambda x: torch.copysign(x, -1.0), (1, 2), 0),
    ("i1", torch.special.i1, (1, 2), 0),
    ("i1e", torch.special.i1e, (1, 2), 0),
    ("norm", lambda x: x.norm(), (1, 2), 0),
    ("norm_dim", lambda x: x.norm(dim=1), (1, 2), 0),
    ("vector_norm", lambda x: torch.linalg.vector_norm(x), (1, 2), 0),
    ("renorm", lambda x: x[None].renorm(2, 0, 0.5), (1, 2), 0),
    ("dist", lambda x: torch.dist(x, torch.ones(2, 3, dtype=torch.float64)), (1, 2), 0),
    ("mvlgamma", lambda x: torch.mvlgamma(x + 2, 2), (3, 1), 1),
    ("cdist", lambda x: torch.cdist(x[None], x[None].detach() + 1), (3, 1), 1),
    ("cdist_p1", lambda x: torch.cdist(x[None], x[None].detach() + 1, p=1), (3, 1), 1),
    ("pdist", F.pdist, (3, 1), 1),
    ("clamp_tensors", lambda x: x.clamp(torch.full((3,), 0.1, dtype=torch.float64),
                                        torch.full((3,), 0.8, dtype=torch.float64)), (1, 2), 0),
    ("clamp_min_tensor", lambda x: x.clamp_min(torch.zeros(3, dtype=torch.float64)), (1, 2), 0),
    # value / tensor2 is a tensor filled like tensor2, divided in place: tensor2's layout
    ("addcdiv", lambda x: torch.addcdiv(x, x, x.detach() * 0.3 + 0.2, value=0.5), (1, 2), 0),
]


@pytest.mark.parametrize("fn, strides, version", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_gradient_layout_and_version(fn, strides, version):
    x = _transposed()
    seen = []
    x.register_hook(lambda g: seen.append(g.stride()))
    fn(x).sum().backward()
    assert seen == [strides]
    assert x.grad.stride() == (1, 2)
    assert x.grad._version == version


def _graph(t) -> list:
    """The names of the nodes of ``t``'s graph, in preorder, each once."""
    return unique_preorder(t.grad_fn)


GRAPHS = [
    ("i1", torch.special.i1,
     ["MulBackward0", "WhereBackward0", "SubBackward0", "I0Backward0", "WhereBackward0",
      "AccumulateGrad", "MulBackward0", "SpecialI1Backward0", "ReciprocalBackward0"]),
    ("i1e", torch.special.i1e,
     ["MulBackward0", "WhereBackward0", "SubBackward0", "SpecialI0EBackward0", "WhereBackward0",
      "AccumulateGrad", "MulBackward0", "SpecialI1EBackward0", "AddBackward0", "SgnBackward0",
      "ReciprocalBackward0"]),
    ("renorm", lambda x: x[None].renorm(2, 0, 0.5),
     ["SqueezeBackward1", "WhereBackward0", "MulBackward0", "MulBackward1",
      "ReciprocalBackward0", "AddBackward1", "LinalgVectorNormBackward0", "UnsqueezeBackward0",
      "AccumulateGrad", "SubBackward0", "MulBackward0", "MulBackward0", "SumBackward1",
      "MulBackward0", "MaskedFillBackward0", "DivBackward0"]),
    ("mvlgamma", lambda x: torch.mvlgamma(x, 2),
     ["MulBackward0", "SumBackward1", "DigammaBackward0", "AddBackward0", "UnsqueezeBackward0",
      "AccumulateGrad"]),
]


@pytest.mark.parametrize("fn, names", [c[1:] for c in GRAPHS], ids=[c[0] for c in GRAPHS])
def test_the_gradient_graph_under_create_graph(fn, names):
    x = (torch.rand(2, 3, dtype=torch.float64) + 1.5).requires_grad_()
    (g,) = torch.autograd.grad(fn(x).sum(), x, create_graph=True)
    assert _graph(g) == names


def test_i1_and_i1e_gradients_are_one_half_at_zero():
    x = torch.tensor([0.0, -0.0, 1e-17, 0.5], requires_grad=True)
    for fn in (torch.special.i1, torch.special.i1e):
        (g,) = torch.autograd.grad(fn(x).sum(), x)
        assert g[:3].tolist() == [0.5, 0.5, 0.5]
        assert g[3].item() != 0.5 and math.isfinite(g[3].item())  # the formula, not the limit


def test_mvlgamma_gradient_sums_the_shifted_digammas():
    x = torch.tensor([2.5, 3.25], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(torch.mvlgamma(x, 3).sum(), x)
    shifted = [x.detach() - 1.0, x.detach() - 0.5, x.detach()]
    expected = (shifted[0].digamma() + shifted[1].digamma()) + shifted[2].digamma()
    assert g.tolist() == expected.tolist()


@pytest.mark.parametrize("fn", [
    lambda x: torch.copysign(x, -1.0), torch.special.i1, torch.special.i1e,
    lambda x: x.norm(), lambda x: torch.mvlgamma(x, 3), lambda x: x.renorm(2, 0, 0.5),
], ids=["copysign", "i1", "i1e", "norm", "mvlgamma", "renorm"])
def test_second_derivatives_check_out(fn):
    x = (torch.rand(2, 3, dtype=torch.float64) + 1.5).t().requires_grad_()
    assert torch.autograd.gradgradcheck(fn, (x,))


def test_copysign_and_norm_gradients_at_zero():
    x = torch.zeros(3, requires_grad=True)
    (g,) = torch.autograd.grad(torch.copysign(x, -1.0).sum(), x)
    assert g.tolist() == [0.0, 0.0, 0.0]
    (g,) = torch.autograd.grad(x.norm(), x)
    assert g.tolist() == [0.0, 0.0, 0.0] and not any(math.isnan(v) for v in g.tolist())


# Graphs of the gradient of (y * y).sum(), y = fn(x), for a transposed (2, 3) x:
# torch's C++ formulas take numbers as numbers (AddBackward1, MulBackward1,
# DivBackward1, and pow for a square), and compute their operands in its order.
SQUARED_GRAPHS = [
    ("special_entr", torch.special.entr,
     ["MulBackward0", "AddBackward0", "MulBackward0", "SpecialEntrBackward0", "AccumulateGrad",
      "MulBackward0", "NegBackward0", "AddBackward1", "LogBackward0"]),
    ("erfcx", torch.special.erfcx,
     ["MulBackward0", "SubBackward1", "MulBackward0", "MulBackward1", "AccumulateGrad",
      "SpecialErfcxBackward0", "AddBackward0", "MulBackward0", "MulBackward0"]),
    ("ndtr", torch.special.ndtr,
     ["MulBackward1", "MulBackward0", "MulBackward1", "ExpBackward0", "NegBackward0",
      "PowBackward0", "MulBackward1", "AccumulateGrad", "MulBackward1", "AddBackward0",
      "MulBackward0", "MulBackward1", "AddBackward1", "ErfBackward0", "MulBackward0"]),
    ("ndtri", lambda x: torch.special.ndtri(x * 0.5 + 0.1),
     ["MulBackward0", "MulBackward0", "MulBackward1", "AddBackward0", "MulBackward0",
      "SpecialNdtriBackward0", "AddBackward0", "MulBackward0", "AccumulateGrad", "MulBackward0",
      "ExpBackward0", "DivBackward1", "PowBackward0"]),
    ("log_ndtr", torch.special.log_ndtr,
     ["MulBackward0", "DivBackward1", "AddBackward0", "MulBackward0",
      "SpecialLogNdtrBackward0", "AccumulateGrad", "MulBackward0", "ExpBackward0",
      "NegBackward0", "AddBackward0", "DivBackward1", "PowBackward0"]),
    ("i0e", torch.special.i0e,
     ["MulBackward0", "AddBackward0", "MulBackward0", "SpecialI0EBackward0", "AccumulateGrad",
      "MulBackward0", "SubBackward0", "SpecialI1EBackward0", "MulBackward0", "SgnBackward0"]),
    ("norm_inf", lambda x: x.norm(float("inf")),
     ["MulBackward0", "SgnBackward0", "AccumulateGrad", "MulBackward0", "DivBackward0",
      "AddBackward0", "MulBackward0", "LinalgVectorNormBackward0", "MulBackward0"]),
    ("diff", torch.diff,
     ["AddBackward0", "SliceBackwardBackward0", "AddBackward0", "MulBackward0", "SubBackward0",
      "SliceBackward0", "AccumulateGrad", "SliceBackward0", "MulBackward0",
      "SliceBackwardBackward0", "NegBackward0"]),
    ("std_mean", lambda x: torch.std_mean(x)[0],
     ["MulBackward0", "MulBackward1", "MaskedFillBackward0", "DivBackward0", "AddBackward0",
      "MulBackward0", "StdMeanBackward0", "AccumulateGrad", "MulBackward0", "MulBackward1",
      "SubBackward0", "MeanBackward0"]),
    ("var_mean", lambda x: torch.var_mean(x, 1)[0],
     ["MulBackward0", "MulBackward1", "UnsqueezeBackward0", "AddBackward0", "MulBackward0",
      "VarMeanBackward0", "AccumulateGrad", "MulBackward0", "SubBackward0", "MeanBackward1"]),
]


@pytest.mark.parametrize("fn, names", [c[1:] for c in SQUARED_GRAPHS],
                         ids=[c[0] for c in SQUARED_GRAPHS])
def test_the_graph_of_a_squared_result_s_gradient(fn, names):
    x = (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()
    y = fn(x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert _graph(g) == names


def test_the_mean_of_var_mean_alone_has_only_the_mean_s_gradient():
    x = torch.tensor([[1.0, 2.0, 4.0], [0.5, 0.0, 3.0]], requires_grad=True)
    (g,) = torch.autograd.grad(torch.var_mean(x, 1)[1].sum(), x, create_graph=True)
    assert g.tolist() == torch.full((2, 3), 1 / 3).tolist()
    assert not g.requires_grad  # the mean's slope is a constant


def test_sgn_s_gradient_is_a_row_major_zero_under_create_graph():
    x = _transposed()
    y = x.sgn()
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert g.stride() == (3, 1)  # torch's zero tensor holds no values to read back
    assert not g.requires_grad


def test_clamp_s_gradient_refuses_bounds_larger_than_the_input():
    # torch's formula writes one mask into the other in place: a mask of the
    # input's shape cannot take in one that the larger bound broadcast
    x = torch.rand(1, requires_grad=True)
    y = torch.clamp(x, torch.zeros(1), torch.ones(1, 1))
    with pytest.raises(RuntimeError, match=r"output with shape \[1\] doesn't match the "
                                           r"broadcast shape \[1, 1\]"):
        y.sum().backward()


def test_two_gradients_of_another_dtype_are_added_in_place_before_the_leaf_takes_them():
    leaf = torch.rand(2, 1).t().requires_grad_()  # (1, 2) with strides (1, 1)
    (leaf.double() * leaf).sum().backward()
    assert leaf.grad.stride() == (1, 1)
    assert leaf.grad._version == 1  # the second gradient was added into the first


@pytest.mark.parametrize("fn", [F.relu, F.leaky_relu, lambda x: F.threshold(x, 0.1, 0.0)],
                         ids=["relu", "leaky_relu", "threshold"])
def test_a_kernel_that_reads_its_input_first_keeps_the_inputs_layout(fn):
    # A row-major incoming gradient meets a transposed input: the input, read
    # first by torch's kernel, settles the layout, with and without a graph.
    incoming = torch.ones(2, 3, dtype=torch.float64)
    for create_graph in (False, True):
        x = _transposed()
        (g,) = torch.autograd.grad(fn(x), x, incoming, create_graph=create_graph)
        assert g.stride() == (1, 2)
