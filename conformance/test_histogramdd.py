"""torch.histogramdd: counts of points in a grid of boxes, its edges, weights, densities and
refusals, against torch."""

import numpy as np
import pytest
import torch

from conformance._support import raises

RNG = np.random.default_rng(11)
POINTS = RNG.uniform(-1.0, 2.0, (7, 3)).round(2)


def test_counts_and_edges():
    x = torch.tensor(POINTS, dtype=torch.float32)
    result = torch.histogramdd(x, [2, 3, 2])
    assert type(result).__name__ == "histogramdd" and isinstance(result.bin_edges, tuple)
    assert repr(result).startswith("torch.return_types.histogramdd(\nhist=tensor(")
    assert result.hist.stride() == (6, 2, 1) and result.hist.dtype == torch.float32
    low, high = x[:, 1].min().item(), x[:, 1].max().item()
    assert torch.equal(result.bin_edges[1], torch.linspace(low, high, 4))
    counts = np.histogramdd(POINTS, bins=[2, 3, 2])[0]
    assert result.hist.numpy().tolist() == counts.tolist()


def test_range_weight_density():
    x = torch.tensor(POINTS, dtype=torch.float32)
    result = torch.histogramdd(x, [2, 2, 2], range=[0.0, 1.0, -1.0, 1.0, 0.0, 2.0],
                               density=True)
    expected = np.histogramdd(POINTS, bins=2, range=[(0, 1), (-1, 1), (0, 2)], density=True)[0]
    np.testing.assert_allclose(result.hist.numpy(), expected, rtol=1e-6)
    edges = [torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([-1.0, 2.0]),
             torch.tensor([0.0, 0.5, 1.0])]
    result = torch.histogramdd(x, edges, weight=torch.arange(7.0))
    expected = np.histogramdd(POINTS.astype(np.float32), bins=[e.numpy() for e in edges],
                              weights=np.arange(7.0))[0]
    assert result.hist.tolist() == expected.tolist()
    assert all(torch.equal(e, g) for e, g in zip(result.bin_edges, edges))
    y = torch.tensor(RNG.standard_normal((50, 2)))
    given = [torch.tensor([-1.0, 0.0, 0.3, 2.0], dtype=torch.float64),
             torch.tensor([-3.0, 3.0], dtype=torch.float64)]
    hist = torch.histogramdd(y, given, weight=torch.arange(50.0).double(), density=True).hist
    expected = np.histogramdd(y.numpy(), bins=[g.numpy() for g in given],
                              weights=np.arange(50.0), density=True)[0]
    np.testing.assert_allclose(hist.numpy(), expected, rtol=1e-12)


def test_shapes():
    assert torch.histogramdd(torch.ones(7, 1, 3), 2).hist.shape == (2, 2, 2)
    empty = torch.histogramdd(torch.empty(0, 3), [1, 2, 3])
    assert empty.hist.shape == (1, 2, 3) and not empty.hist.any()
    assert torch.equal(empty.bin_edges[2], torch.linspace(0.0, 1.0, 4))
    one = torch.histogramdd(torch.ones(4, 2), 2)
    assert one.bin_edges[0].tolist() == [0.5, 1.0, 1.5] and one.hist.sum().item() == 4


def test_no_derivative():
    x = torch.tensor(POINTS, dtype=torch.float32, requires_grad=True)
    result = torch.histogramdd(x, 2)
    assert result.hist.requires_grad and result.bin_edges[0].requires_grad
    assert result.hist.grad_fn.name().endswith("NotImplemented")
    assert not [n for n in dir(result.hist.grad_fn) if n.startswith("_saved_")]
    with raises(RuntimeError, "derivative for aten::_histogramdd_from_bin_cts is not "
                              "implemented"):
        result.hist.sum().backward()
    edges = [torch.tensor([-1.0, 2.0])] * 3
    with raises(RuntimeError, "derivative for aten::_histogramdd_from_bin_tensors is not "
                              "implemented"):
        torch.histogramdd(x, edges).hist.sum().backward()


_X = [[1.0, 1.0]] * 4
REFUSED = [
    ("histogramdd(x.long(), [2, 2, 2])", NotImplementedError,
     "\"histogramdd\" not implemented for 'Long'"),
    ("histogramdd(torch.ones(3).long(), 2)", RuntimeError,
     "torch.histogramdd: input tensor should have at least 2 dimensions"),
    ("histogramdd(x, [0, 2], range=[0., 1.])", RuntimeError,
     "torch.histogramdd: for a 2-dimensional histogram range should have 4 elements, but got 2"),
    ("histogramdd(x, 2, weight=torch.ones(3))", RuntimeError,
     "torch.histogramdd: if weight tensor is provided it should have the same shape as the input "
     "tensor excluding its innermost dimension, but got input with shape [4, 2] and weight with "
     "shape [3]"),
    ("histogramdd(x, 2, weight=torch.ones(4, dtype=torch.float64))", RuntimeError,
     "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have "
     "the same dtype, but got input(float), and weight(double)"),
    ("histogramdd(x, 2, range=[1., 0., 0., 1.])", RuntimeError,
     "torch.histogramdd: min should not exceed max, but got min 1 max 0 for dimension 0"),
    ("histogramdd(x, 2, range=[0., float('inf'), 0., 1.])", RuntimeError,
     "torch.histogramdd: dimension 0's range [0, inf] is not finite"),
    ("histogramdd(x, [torch.tensor([0., 1.]), torch.tensor([[0., 1.]])])", RuntimeError,
     "torch.histogramdd: bins tensor should have one dimension, but got 2 dimensions in the bins "
     "tensor for dimension 1"),
    ("histogramdd(x, [torch.tensor([0., 1.]), torch.tensor([1.])])", RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 1"),
    ("histogramdd(x, [torch.tensor([0., 1.])])", RuntimeError,
     "torch.histogramdd: expected 2 sequences of bin edges for a 2-dimensional histogram but got "
     "1"),
    ("histogramdd(x, [2, 2, 2])", RuntimeError,
     "histogramdd: The size of bins must be equal to the innermost dimension of the input."),
    ("histogramdd(x)", TypeError,
     "histogramdd() received an invalid combination of arguments - got (Tensor), but expected "
     "one of:\n * (Tensor input, int bins, tuple of floats range = None, Tensor weight = None, "
     "bool density = False)\n * (Tensor input, tuple of ints bins, tuple of floats range = None, "
     "Tensor weight = None, bool density = False)\n * (Tensor input, tuple of Tensors bins, "
     "tuple of floats range = None, Tensor weight = None, bool density = False)\n"),
]


@pytest.mark.parametrize("call, kind, message", REFUSED)
def test_refusals(call, kind, message):
    with raises(kind, message):
        eval("torch." + call, {"torch": torch, "x": torch.tensor(_X)})
