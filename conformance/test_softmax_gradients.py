"""The softmaxes' gradients are operations of their own, with derivatives of their own.

torch's softmax and log_softmax compute their gradients with ``_softmax_backward_data``
and ``_log_softmax_backward_data``; a gradient computed with ``create_graph=True``
records them, and their own formulas record ordinary nodes one order further.
"""

import numpy as np
import pytest
import torch

NODES = {"softmax": "SoftmaxBackwardDataBackward0",
         "log_softmax": "LogSoftmaxBackwardDataBackward0"}
X = [[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 3.0], [-2.0, 0.75, 1.25, -0.25]]
G = [[1.0, 2.0, 3.0, -0.5], [0.5, 0.25, -1.0, 2.0], [-1.5, 1.0, 0.0, 0.75]]
H = [[0.3, -0.7, 1.1, 0.2], [-0.4, 0.9, 0.6, -1.2], [0.8, 0.1, -0.6, 0.5]]


def _leaf(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def _first(name, y, incoming, dim=1):
    (g,) = torch.autograd.grad(getattr(y, name)(dim), y, incoming, create_graph=True)
    return g


def graph(node):
    """Every node below ``node``, in preorder, one dot per level; ``None`` for no edge."""
    found, stack = [], [(0, node)]
    while stack:
        level, here = stack.pop()
        found.append("." * level + ("None" if here is None else type(here).__name__))
        if here is not None:
            stack.extend((level + 1, child) for child, _ in reversed(here.next_functions))
    return " ".join(found)


@pytest.mark.parametrize("name", sorted(NODES))
def test_the_gradient_is_recorded_as_the_backward_operation(name):
    y, gi = _leaf(X), _leaf(G)
    out = getattr(y, name)(1)
    (g,) = torch.autograd.grad(out, y, gi, create_graph=True)
    node = g.grad_fn
    assert node.name() == NODES[name]
    (to_incoming, _), (to_result, _) = node.next_functions
    assert to_incoming.variable is gi and to_result is out.grad_fn
    assert node._saved_grad_output is gi
    assert torch.equal(node._saved_output, out) and node._saved_output.grad_fn is out.grad_fn
    assert node._saved_dim == 1
    assert sorted(n for n in dir(node) if n.startswith("_saved")) == [
        "_saved_dim", "_saved_grad_output", "_saved_output"]
    with pytest.raises(AttributeError):
        node._saved_input_dtype  # the dtype it is called with is not shown


@pytest.mark.parametrize("name", sorted(NODES))
def test_a_negative_dim_is_kept_as_given(name):
    g = _first(name, _leaf(X), _leaf(G), dim=-1)
    assert g.grad_fn._saved_dim == 2**64 - 1  # shown unsigned, as every kept dim


@pytest.mark.parametrize("name", sorted(NODES))
def test_both_tensors_are_saved_incoming_gradient_first_whichever_requires_grad(name):
    y, incoming = _leaf(X), torch.tensor(G, dtype=torch.float64)
    out = getattr(y, name)(1)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        (g,) = torch.autograd.grad(out, y, incoming, create_graph=True)
    assert g.grad_fn.name() == NODES[name]
    assert g.grad_fn.next_functions[0] == (None, 0)
    assert len(packed) == 2 and packed[0] is incoming and torch.equal(packed[1], out)


# The graph of the second derivative, whole, as torch 2.13 records it. The incoming
# gradient of the first backward is a leaf, as is the one of the second.
SECOND = {
    ("softmax", "input"):
        "SoftmaxBackwardDataBackward0 .SubBackward0 ..SubBackward0 ...MulBackward0 "
        "....AccumulateGrad ....AccumulateGrad ...MulBackward0 ....SumBackward1 .....MulBackward0 "
        "......SoftmaxBackward0 .......AccumulateGrad ......AccumulateGrad ....AccumulateGrad "
        "..MulBackward0 ...AccumulateGrad ...SumBackward1 ....MulBackward0 .....SoftmaxBackward0 "
        "......AccumulateGrad .....AccumulateGrad .SoftmaxBackward0 ..AccumulateGrad",
    ("softmax", "incoming"):
        "SoftmaxBackwardDataBackward0 .AccumulateGrad .SoftmaxBackward0 ..AccumulateGrad",
    ("log_softmax", "input"):
        "LogSoftmaxBackwardDataBackward0 .MulBackward0 ..MulBackward0 ...NegBackward0 "
        "....SumBackward1 .....AccumulateGrad ...ExpBackward0 ....LogSoftmaxBackward0 "
        ".....AccumulateGrad ..AccumulateGrad .LogSoftmaxBackward0 ..AccumulateGrad",
    ("log_softmax", "incoming"):
        "SubBackward0 .AccumulateGrad .SumBackward1 ..MulBackward0 ...AccumulateGrad "
        "...ExpBackward0 ....LogSoftmaxBackward0 .....AccumulateGrad",
}


@pytest.mark.parametrize("name", sorted(NODES))
def test_the_second_derivatives_graphs_are_torchs(name):
    y, gi, h = _leaf(X), _leaf(G), _leaf(H)
    wrt_input, wrt_incoming = torch.autograd.grad(_first(name, y, gi), (y, gi), h,
                                                  create_graph=True)
    assert graph(wrt_input.grad_fn) == SECOND[name, "input"]
    assert graph(wrt_incoming.grad_fn) == SECOND[name, "incoming"]


def _second_by_hand(name, x, g, h):
    """The second derivatives written out in NumPy: for the input, and for g."""
    x, g, h = (np.array(v, dtype=np.float64) for v in (x, g, h))
    p = np.exp(x - x.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    if name == "softmax":
        # the first gradient is p * (g - <g, p>); v = p * (h - <h, p>) is the
        # softmax's Jacobian applied to h, which the first gradient's derivative in p meets
        v = p * (h - (h * p).sum(1, keepdims=True))
        d_p = g * h - (p * g).sum(1, keepdims=True) * h - g * (p * h).sum(1, keepdims=True)
        wrt_input = p * (d_p - (d_p * p).sum(1, keepdims=True))
        return wrt_input, v
    # log_softmax: the first gradient is g - p * sum(g)
    d_logp = -g.sum(1, keepdims=True) * p * h
    wrt_input = d_logp - p * d_logp.sum(1, keepdims=True)
    return wrt_input, h - (h * p).sum(1, keepdims=True)


@pytest.mark.parametrize("name", sorted(NODES))
def test_second_derivative_values(name):
    y, gi, h = _leaf(X), _leaf(G), torch.tensor(H, dtype=torch.float64)
    found = torch.autograd.grad(_first(name, y, gi), (y, gi), h)
    for got, want in zip(found, _second_by_hand(name, X, G, H)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(NODES))
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gradcheck_to_the_third_order(name, dim):
    y, gi = _leaf(X), _leaf(G)
    first = lambda y, gi: _first(name, y, gi, dim)  # noqa: E731 - differentiable in both
    assert torch.autograd.gradcheck(lambda y: getattr(y, name)(dim), (y,))
    assert torch.autograd.gradcheck(first, (y, gi))
    assert torch.autograd.gradgradcheck(first, (y, gi))


@pytest.mark.parametrize("name", sorted(NODES))
def test_a_0d_softmax_has_zero_derivatives_of_every_order(name):
    y, gi, h = _leaf(0.75), _leaf(2.0), _leaf(-1.5)
    for dim in (0, -1):
        g = _first(name, y, gi, dim)
        assert g.shape == () and g.grad_fn.name() == NODES[name] and g.item() == 0
        second = torch.autograd.grad(g, (y, gi), h, create_graph=True)
        assert [s.item() for s in second] == [0.0, 0.0]
        third = torch.autograd.grad(second[0], (y, gi, h), allow_unused=True)
        assert [t.item() for t in third] == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", sorted(NODES))
@pytest.mark.parametrize(("shape", "dim"), [((0, 3), 1), ((2, 0), -1), ((0,), 0)])
def test_empty_tensors(name, shape, dim):
    y = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    gi = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    g = _first(name, y, gi, dim)
    assert g.shape == shape and g.grad_fn.name() == NODES[name]
    second = torch.autograd.grad(g, (y, gi), torch.ones(shape, dtype=torch.float64))
    assert [tuple(s.shape) for s in second] == [shape, shape]


@pytest.mark.parametrize("name", sorted(NODES))
@pytest.mark.parametrize(("dtype", "rtol"), [("float16", 4e-3), ("float32", 1e-5),
                                             ("float64", 1e-12)])
def test_every_order_keeps_the_dtype(name, dtype, rtol):
    dtype = getattr(torch, dtype)
    y, gi, h = _leaf(X, dtype), _leaf(G, dtype), torch.tensor(H, dtype=dtype)
    g = _first(name, y, gi)
    wrt_input, wrt_incoming = torch.autograd.grad(g, (y, gi), h)
    assert g.dtype == wrt_input.dtype == wrt_incoming.dtype == dtype
    exact = _first(name, _leaf(X), _leaf(G)).detach().numpy()
    np.testing.assert_allclose(g.detach().double().numpy(), exact, rtol=rtol, atol=rtol)
    for got, want in zip((wrt_input, wrt_incoming), _second_by_hand(name, X, G, H)):
        np.testing.assert_allclose(got.double().numpy(), want, rtol=4 * rtol, atol=4 * rtol)


@pytest.mark.parametrize("name", sorted(NODES))
def test_a_float16_gradient_is_computed_wider_and_rounded_once(name):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((8, 64)) * 2).astype(np.float16)
    incoming = rng.standard_normal((8, 64)).astype(np.float16)
    y = torch.tensor(x, requires_grad=True)
    (g,) = torch.autograd.grad(getattr(y, name)(1), y, torch.tensor(incoming))
    # the same gradient from float64, from the float16 result the kernel was given
    p = getattr(torch.tensor(x), name)(1).double().numpy()
    wide = incoming.astype(np.float64)
    if name == "softmax":
        want = p * (wide - (wide * p).sum(1, keepdims=True))
    else:
        want = wide - np.exp(p) * wide.sum(1, keepdims=True)
    # within one float16 step of it, where each step rounded to float16 would stray further
    step = np.spacing(np.abs(want).astype(np.float16)).astype(np.float64)
    assert np.all(np.abs(g.double().numpy() - want) <= step)
