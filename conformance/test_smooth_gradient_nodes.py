"""The gradients of gelu, logsigmoid, glu, soft_margin_loss and binary_cross_entropy.

torch computes each of these gradients with one kernel and records one node for it
under create_graph=True (GeluBackwardBackward0 and its kin), which keeps the incoming
gradient and the input; differentiated again, the node runs torch's formula for the
second derivative, whose own graph a third derivative walks. These tests check the
nodes, what they keep, their edges, the second and third derivatives (as torch's
values, to 1e-10), the tangents through the gradient, the layouts and versions of
what they give, and, where torch's loop uses no transcendental function of its own,
the kernels' float64 values to the last bit. rrelu's gradient is laid out as torch's.
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import preorder_names, unique_preorder

D = torch.float64


def values(*shape):
    """Fixed float64 values of ``shape``, no two equal."""
    n = 1
    for s in shape:
        n *= s
    k = torch.arange(n, dtype=D).reshape(shape)
    return k * 0.37 % 1.0 + 0.01 * k / n


def leaf():
    """A transposed float64 leaf of shape (4, 3), values in [-0.8, 1.2)."""
    return (values(3, 4) * 2 - 0.8).t().requires_grad_()


def signs():
    return torch.tensor([[1.0, -1, 1], [-1, 1, 1], [1, 1, -1], [-1, -1, 1]], dtype=D)


CASES = {
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "logsigmoid": F.logsigmoid,
    "glu": lambda x: F.glu(x, 0),
    "soft_margin": lambda x: F.soft_margin_loss(x, signs()),
    "soft_margin_none": lambda x: F.soft_margin_loss(x, signs(), reduction="none"),
    "bce": lambda x: F.binary_cross_entropy(x * 0.3 + 0.5, values(4, 3)),
    "bce_weighted_sum": lambda x: F.binary_cross_entropy(
        x * 0.3 + 0.5, values(4, 3), values(4, 3) + 1, reduction="sum"),
    "multilabel": lambda x: F.multilabel_soft_margin_loss(x, (values(4, 3) > 0.5).to(D)),
    "rrelu": lambda x: F.rrelu(x, training=False),
}

# torch's: the second derivative's sum and its sum weighted by values(), the third
# derivative's weighted sum, and the sum of the first gradient's tangent.
NUMBERS = {
    "gelu": (5.052290985101, 4.153041795881, 4.58186577205, -1.54193096415),
    "gelu_tanh": (5.050574353032, 4.15152483874, 4.582293024274, -1.542215882948),
    "logsigmoid": (1.532008549597, 1.554667214392, -1.540130808376, -0.708789969231),
    "glu": (1.989129307994, 1.563263280029, 1.224577632659, -1.220280432497),
    "soft_margin": (0.02409868495, 0.027935321834, -0.00323600077, None),
    "soft_margin_none": (2.674441315622, 2.584259181272, 0.191965013065, None),
    "bce": (0.049953275826, 0.051178880424, 0.044727131594, -0.011176353864),
    "bce_weighted_sum": (21.190022910996, 19.524270717537, 13.137341246458, -8.136703432956),
    "multilabel": (0.013445753532, 0.030198230524, -0.012015298843, -0.000642605484),
    "rrelu": (4.489259575738, 3.684678565948, 0.0, -1.181450903622),
}

# The gradient's node, its saved attributes, the layout of the gradient, and the
# layout and version of a transposed leaf's .grad after a plain backward.
NODES = {
    "gelu": ("GeluBackwardBackward0", ["approximate", "grad_output", "self"], (3, 1), 0),
    "gelu_tanh": ("GeluBackwardBackward0", ["approximate", "grad_output", "self"], (3, 1), 0),
    "logsigmoid": ("LogSigmoidBackwardBackward0", ["buffer", "grad_output", "self"], (3, 1), 1),
    "glu": ("GluBackwardBackward0", ["dim", "grad_output", "self"], (3, 1), 1),
    "soft_margin": ("SoftMarginLossBackwardBackward0",
                    ["grad_output", "reduction", "self", "target"], (3, 1), 1),
    "soft_margin_none": ("SoftMarginLossBackwardBackward0",
                         ["grad_output", "reduction", "self", "target"], (3, 1), 1),
    "bce": ("BinaryCrossEntropyBackwardBackward0",
            ["grad_output", "reduction", "self", "target", "weight"], (1, 4), 0),
    "bce_weighted_sum": ("BinaryCrossEntropyBackwardBackward0",
                         ["grad_output", "reduction", "self", "target", "weight"], (1, 4), 0),
    "multilabel": ("LogSigmoidBackwardBackward0", ["buffer", "grad_output", "self"], (3, 1), 1),
    "rrelu": ("RreluWithNoiseBackwardBackward0",
              ["lower", "noise", "self", "training", "upper"], (1, 4), 0),
}


def first_gradient(name, x):
    """The gradient of sum(w * f(x)**2), taken with create_graph."""
    y = CASES[name](x)
    w = values(*y.shape) + 0.5
    (g,) = torch.autograd.grad((w * y * y).sum(), x, create_graph=True)
    return g


def _gradient_node(g):
    """The node of the gradient row, under the chain rule's MulBackward0 where there is one."""
    found, stack = [], [g.grad_fn]
    while stack and not found:
        node = stack.pop()
        if node is None:
            continue
        if type(node).__name__.endswith("BackwardBackward0"):
            found.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions))
    return found[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_gradient_is_one_node_that_keeps_torchs_attributes(name):
    x = leaf()
    g = first_gradient(name, x)
    node = _gradient_node(g)
    kind, saved, strides, _ = NODES[name]
    assert type(node).__name__ == kind and g.stride() == strides
    assert sorted(a[len("_saved_"):] for a in dir(node) if a.startswith("_saved_")) == saved
    (g * (values(4, 3) - 0.3)).sum().backward()
    total, weighted = NUMBERS[name][:2]
    assert x.grad.sum().item() == pytest.approx(total, abs=1e-10)
    assert (x.grad * values(4, 3)).sum().item() == pytest.approx(weighted, abs=1e-10)


@pytest.mark.parametrize("name", sorted(CASES))
def test_third_derivatives(name):
    x = leaf()
    (gg,) = torch.autograd.grad((first_gradient(name, x) * (values(4, 3) - 0.3)).sum(), x,
                                create_graph=True)
    (third,) = torch.autograd.grad((gg * values(4, 3)).sum(), x)
    assert third.sum().item() == pytest.approx(NUMBERS[name][2], abs=1e-10)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_transposed_leafs_grad(name):
    x = leaf()
    CASES[name](x).sum().backward()
    assert (x.grad.stride(), x.grad._version) == ((1, 4), NODES[name][3])


@pytest.mark.parametrize("name", sorted(CASES))
def test_tangents_through_the_gradient(name):
    with fwAD.dual_level():
        dual = fwAD.make_dual(leaf(), values(4, 3).flip(-1) - 0.5)
        if NUMBERS[name][3] is None:  # torch has no forward formula for this gradient
            with pytest.raises(NotImplementedError, match="^Trying to use forward AD with "
                               "soft_margin_loss_backward that does not support it"):
                first_gradient(name, dual)
            return
        tangent = fwAD.unpack_dual(first_gradient(name, dual)).tangent
        assert tangent.sum().item() == pytest.approx(NUMBERS[name][3], abs=1e-10)


def test_the_nodes_edges_and_what_they_keep():
    x = leaf()
    target = values(4, 3).requires_grad_()
    y = F.binary_cross_entropy(x * 0.3 + 0.5, target, reduction="sum")
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    node = g.grad_fn.next_functions[0][0]
    # edges to the incoming gradient (a constant here), the input and the target
    assert preorder_names(node, 1) == (
        "BinaryCrossEntropyBackwardBackward0 .None .AddBackward0 .AccumulateGrad")
    assert node.next_functions[0] == (None, 0) and node._saved_weight is None
    assert node._saved_reduction == 2 and node._saved_grad_output.shape == ()
    x = leaf()
    (g,) = torch.autograd.grad(F.soft_margin_loss(x, signs()), x, create_graph=True)
    assert [type(n).__name__ if n else None for n, _ in g.grad_fn.next_functions] == [
        None, "AccumulateGrad"]  # no edge for the target, which torch keeps
    assert g.grad_fn._saved_target.tolist() == signs().tolist()
    x = leaf()
    (g,) = torch.autograd.grad(F.logsigmoid(x).sum(), x, create_graph=True)
    buffer = g.grad_fn._saved_buffer
    expected = torch.exp(-x.detach().abs()).flatten().tolist()
    assert buffer.flatten().tolist() == pytest.approx(expected, rel=1e-15)
    assert buffer.stride() == (3, 1) and not buffer.requires_grad
    (g,) = torch.autograd.grad(F.glu(x, 0).sum(), x, create_graph=True)
    assert g.grad_fn._saved_dim == 0 and g.grad_fn._saved_grad_output.shape == (2, 3)


def _third_graph(name):
    """The preorder of a third derivative's graph, as the sweep of the gradients takes it."""
    x = (torch.arange(6, dtype=D).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()
    y = SWEPT[name](x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x, create_graph=True)
    return _graph(gg.grad_fn), gg.stride()


def _graph(root):
    """Each node below ``root`` once, in preorder, by name."""
    return " ".join(unique_preorder(root))


SWEPT = {
    "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "logsigmoid": F.logsigmoid, "glu": lambda x: F.glu(x, 0),
    "soft_margin": lambda x: F.soft_margin_loss(x, torch.ones(2, 3, dtype=D)),
    "bce": lambda x: F.binary_cross_entropy(
        x * 0.5 + 0.1, (torch.arange(6, dtype=D).reshape(2, 3) * 0.3 + 0.2) * 0.1),
}
# torch's graphs, node names in preorder (children in next_functions order)
THIRD = {
    "gelu": ((1, 2), (
        "AddBackward0 MulBackward0 MulBackward0 AddBackward0 MulBackward0 GeluBackward0  "
        "AccumulateGrad MulBackward0 SubBackward0 MulBackward1 MulBackward1 ExpBackward0  "
        "MulBackward1 MulBackward0 MulBackward0 GeluBackwardBackward0 AddBackward0  "
        "MulBackward0 GeluBackwardBackward0 MulBackward0")),
    "gelu_tanh": ((1, 2), (
        "AddBackward0 MulBackward0 MulBackward0 AddBackward0 MulBackward0 GeluBackward0  "
        "AccumulateGrad MulBackward0 AddBackward0 AddBackward0 MulBackward1 MulBackward0  "
        "MulBackward1 SubBackward0 MulBackward0 TanhBackward0 MulBackward1 AddBackward0  "
        "MulBackward1 PowBackward0 MulBackward1 AddBackward1 MulBackward0 MulBackward1  "
        "MulBackward0 MulBackward0 MulBackward1 MulBackward0 MulBackward0 MulBackward1  "
        "DivBackward0 CoshBackward0 MulBackward0 NegBackward0 MulBackward0 MulBackward0  "
        "MulBackward1 MulBackward1 GeluBackwardBackward0 AddBackward0 MulBackward0  "
        "GeluBackwardBackward0 MulBackward0")),
    "logsigmoid": ((3, 1), (
        "AddBackward0 MulBackward0 MulBackward0 MulBackward0 AddBackward0 MulBackward0  "
        "LogSigmoidBackward0 AccumulateGrad MulBackward0 SubBackward1 SigmoidBackward0  "
        "LogSigmoidBackwardBackward0 AddBackward0 MulBackward0 LogSigmoidBackwardBackward0  "
        "MulBackward0")),
    "glu": ((3, 1), (
        "AddBackward0 CatBackward0 MulBackward0 MulBackward0 AddBackward0 MulBackward0  "
        "GluBackward0 AccumulateGrad MulBackward0 MulBackward0 SigmoidBackward0  "
        "SliceBackward0 SubBackward0 AddBackward0 MulBackward0 MulBackward0 MulBackward0  "
        "SliceBackward0 SubBackward0 MulBackward0 MulBackward0 MulBackward0 MulBackward0  "
        "GluBackwardBackward0 AddBackward0 MulBackward0 AddBackward0 SliceBackward0  "
        "MulBackward0 GluBackwardBackward0 SliceBackward0 MulBackward0")),
    "soft_margin": ((3, 1), (
        "AddBackward0 DivBackward1 DivBackward0 MulBackward0 MulBackward0 MulBackward0  "
        "AddBackward0 MulBackward0 SoftMarginLossBackward0 AccumulateGrad MulBackward0  "
        "ExpBackward0 MulBackward0 MulBackward0 AddBackward1 SoftMarginLossBackwardBackward0  "
        "AddBackward0 MulBackward0 SumBackward0 MulBackward0 SoftMarginLossBackwardBackward0  "
        "MulBackward0")),
    "bce": ((1, 2), (
        "MulBackward0 AddBackward0 DivBackward1 MulBackward0 DivBackward0 AddBackward0  "
        "SubBackward0 MulBackward0 AddBackward0 MulBackward0 AccumulateGrad MulBackward0  "
        "MulBackward1 MulBackward0 PowBackward0 AddBackward1 PowBackward0 AddBackward1  "
        "SubBackward0 MulBackward0 AddBackward0 MulBackward0 BinaryCrossEntropyBackward0  "
        "MulBackward0 BinaryCrossEntropyBackwardBackward0 AddBackward0 MulBackward0  "
        "SumBackward0 DivBackward1 MulBackward0 DivBackward0 SubBackward0 MulBackward0  "
        "AddBackward1 AddBackward1 SubBackward0 MulBackward0")),
}


@pytest.mark.parametrize("name", sorted(SWEPT))
def test_a_third_derivative_records_torchs_nodes(name):
    graph, strides = _third_graph(name)
    assert (graph.split(), strides) == (THIRD[name][1].split(), THIRD[name][0])


def _exact_inputs():
    def t(rows):
        return torch.tensor(rows, dtype=D).t()  # transposed, (3, 2)

    x = t([[-1.7, -0.2, 0.05], [0.6, 1.3, 2.9]])
    p = t([[0.02, 0.3, 0.55], [0.7, 0.9, 0.999]])
    target = t([[0.0, 0.25, 1.0], [0.5, 0.75, 1.0]])
    s = t([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])
    w = t([[0.5, 1.5, 2.0], [1.0, 0.25, 3.0]])
    g = t([[0.3, -1.1, 2.0], [0.7, 1.9, -0.4]])
    return x, p, target, s, w, g


def _exact_call(name, dtype):
    x, p, target, s, w, g = (v.to(dtype) for v in _exact_inputs())
    calls = {
        "soft_margin_none": (x, lambda a: F.soft_margin_loss(a, s, reduction="none")),
        "soft_margin_mean": (x, lambda a: F.soft_margin_loss(a, s)),
        "bce_none": (p, lambda a: F.binary_cross_entropy(a, target, w, reduction="none")),
        "bce_mean": (p, lambda a: F.binary_cross_entropy(a, target)),
        "glu": (x, lambda a: F.glu(a, 1)),
    }
    a, f = calls[name]
    a = a.requires_grad_()
    y = f(a)
    upstream = g[:, :y.shape[1]] if y.dim() else torch.tensor(1.7, dtype=dtype)
    return torch.autograd.grad(y, a, upstream)[0]


# torch's kernels, to the last bit: these loops call no exp or tanh of their own (the soft
# margin's exp is torch's exp, which NumPy's agrees with in float64), so refgrad's steps,
# taken in torch's order, give the same numbers.
EXACT = {
    ('soft_margin_none', 'float64'): [
        '-0x1.03bf8ea8eafb5p-2', '0x1.cece72df260f0p-2', '-0x1.fb1125f4fb3d6p-2',
        '0x1.7e3aea2d380d9p+0', '-0x1.f333e1eb42bc4p-1', '0x1.55cb28c777894p-6',
    ],
    ('soft_margin_mean', 'float64'): [
        '-0x1.eaa2b8229f68ep-3', '0x1.76a72009fa3cfp-3', '0x1.053761211c93fp-3',
        '0x1.c7fe6cb3b3269p-3', '-0x1.1ae1aaaffb266p-3', '-0x1.e435246fe957dp-7',
    ],
    ('bce_none', 'float64'): [
        '0x1.397829cbc14e6p-3', '0x1.5555555555553p-1', '-0x1.9249249249248p-2',
        '0x1.9555555555557p-1', '-0x1.d1745d1745d17p+2', '0x1.3381ec0313382p+0',
    ],
    ('bce_mean', 'float64'): [
        '0x1.280dee95c4ca1p-2', '0x1.145145145144fp-2', '0x1.1451451451450p-4',
        '0x1.e38e38e38e390p-2', '-0x1.07c1f07c1f07bp-1', '-0x1.226c7b583cd17p-2',
    ],
    ('glu', 'float64'): [
        '0x1.8cb0f4bf45317p-3', '-0x1.ddebcef9b5665p-4', '-0x1.ba950f26e2968p-1',
        '0x1.2f5064f9ef8ecp-5', '0x1.e54c20d06aa95p+0', '0x1.43f7c430d4a00p-8',
    ],
    ('bce_none', 'float32'): [
        '0x1.39782a0000000p-3', '0x1.5555520000000p-1', '-0x1.92492c0000000p-2',
        '0x1.95554a0000000p-1', '-0x1.d1745c0000000p+2', '0x1.3381ee0000000p+0',
    ],
    ('bce_mean', 'float32'): [
        '0x1.280df00000000p-2', '0x1.1451440000000p-2', '0x1.14514a0000000p-4',
        '0x1.e38e2e0000000p-2', '-0x1.07c1f00000000p-1', '-0x1.226c7c0000000p-2',
    ],
}


@pytest.mark.parametrize(("name", "dtype"), sorted(EXACT))
def test_the_kernels_values_to_the_last_bit(name, dtype):
    got = _exact_call(name, getattr(torch, dtype))
    assert [float(v).hex() for v in got.flatten().tolist()] == EXACT[name, dtype]


def test_rrelus_gradient_is_laid_out_by_its_kernels_first_operand():
    for training, expected in ((False, (1, 2)), (True, (3, 1))):
        x = (torch.arange(6, dtype=D).reshape(3, 2).t() * 0.17 - 0.4).requires_grad_()
        y = F.rrelu(x, training=training)
        assert y.grad_fn._saved_noise.stride() == (3, 1)
        for upstream in (y * 2, torch.ones(3, 2, dtype=D).t()):
            (g,) = torch.autograd.grad(y, x, upstream, create_graph=True)
            assert g.stride() == expected
