"""torch.gradient: NumPy's values, and torch's graph of slices, differences and a cat."""

import numpy as np
import pytest
import torch

from conformance._support import node_names

preorder = node_names


def samples():
    return (torch.arange(12.0, dtype=torch.float64).reshape(3, 4) ** 2 * 0.1 + 0.3
            ).requires_grad_()


ROWS = torch.tensor([0.0, 1.0, 3.0], dtype=torch.float64)
COLUMNS = torch.tensor([0.0, 1.0, 2.0, 4.0], dtype=torch.float64)
CASES = {
    "default": {},
    "step_edge2": {"spacing": 2.0, "dim": 1, "edge_order": 2},
    "int_step": {"spacing": 2, "dim": 0},
    "steps": {"spacing": [2, 3.0]},
    "coordinates": {"spacing": [ROWS, COLUMNS]},
    "coordinates_edge2": {"spacing": [ROWS], "dim": 0, "edge_order": 2},
}


def _numpy(kw):
    x = samples().detach().numpy()
    spacing = kw.get("spacing", 1.0)
    spacing = [s.numpy() if isinstance(s, torch.Tensor) else s
               for s in (spacing if isinstance(spacing, list) else [spacing])]
    dim = kw.get("dim")
    found = np.gradient(x, *spacing, axis=dim, edge_order=kw.get("edge_order", 1))
    return found if isinstance(found, list | tuple) else [found]


@pytest.mark.parametrize("name", CASES)
def test_values_are_numpys(name):
    found = torch.gradient(samples(), **CASES[name])
    assert type(found) is tuple
    for t, expected in zip(found, _numpy(CASES[name]), strict=True):
        np.testing.assert_allclose(t.detach().numpy(), expected, rtol=1e-12, atol=1e-12)


def test_a_step_records_divisions_by_numbers():
    x = samples()
    (g,) = torch.gradient(x, dim=0)
    assert preorder(g.grad_fn)[:3] == ["CatBackward0", "DivBackward1", "SubBackward0"]
    assert g.grad_fn.next_functions[1][0].name() == "DivBackward1"  # the centre, halved
    assert g.grad_fn.next_functions[1][0]._saved_other == 2
    assert g.grad_fn.next_functions[0][0]._saved_other == 1.0
    (g,) = torch.gradient(x, spacing=2.0, dim=1, edge_order=2)
    assert preorder(g.grad_fn)[:5] == ["CatBackward0", "DivBackward1", "SubBackward0",
                                       "AddBackward0", "MulBackward1"]
    assert g.stride() == (4, 1)


def test_coordinates_record_tensor_divisions():
    (g,) = torch.gradient(samples(), spacing=[ROWS], dim=0)
    assert preorder(g.grad_fn)[:2] == ["CatBackward0", "DivBackward0"]
    assert g.grad_fn.next_functions[1][0].name() == "AddBackward0"


@pytest.mark.parametrize("name", CASES)
def test_second_derivatives_agree_with_a_linear_map(name):
    """The gradient is linear in the samples: the second derivative of |g|^2 is 2 J^T J 1."""
    x = samples()
    found = torch.gradient(x, **CASES[name])
    (first,) = torch.autograd.grad(sum((t * t).sum() for t in found), x, create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), x)
    jac = []
    for k in range(12):
        e = torch.zeros(12, dtype=torch.float64)
        e[k] = 1
        jac.append(torch.cat([t.reshape(-1) for t in torch.gradient(e.reshape(3, 4),
                                                                     **CASES[name])]))
    j = torch.stack(jac, 1)
    expected = 2 * j.t() @ j @ torch.ones(12, dtype=torch.float64)
    np.testing.assert_allclose(second.reshape(-1).numpy(), expected.numpy(), atol=1e-10)


def test_whole_numbers_give_floats():
    (g,) = torch.gradient(torch.arange(5) ** 2)
    assert g.dtype == torch.float32 and g.tolist() == [1.0, 2.0, 4.0, 6.0, 7.0]


@pytest.mark.parametrize("kw, error, message", [
    ({"edge_order": 3}, RuntimeError, "torch.gradient only supports edge_order=1 and "
     "edge_order=2."),
    ({"spacing": [1.0]}, RuntimeError, "torch.gradient expected spacing to be unspecified, a "
     "scalar, or a list of length equal to 'self.dim\\(\\) = 2', since dim argument was not "
     "given, but got a list of length 1"),
    ({"dim": 5}, IndexError, "Dimension out of range \\(expected to be in range of \\[-2, 1\\], "
     "but got 5\\)"),
    ({"spacing": (1.0, 2.0), "dim": 1}, RuntimeError, "torch.gradient expected spacing to be "
     "unspecified, a scalar or it's spacing and dim arguments to have the same length, but got "
     "a spacing argument of length 2 and a dim argument of length 1."),
    ({"spacing": [torch.tensor([[0.0, 1.0, 2.0]])], "dim": 0}, RuntimeError, "torch.gradient "
     "expected each element of spacing to have one dimension, but got an element with 2 "
     "dimensions!"),
    ({"dim": [0, 0]}, RuntimeError, "dim 0 appears multiple times in the list of dims"),
])
def test_refusals(kw, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        torch.gradient(samples(), **kw)
    with pytest.raises(RuntimeError, match="^torch.gradient expected each dimension size to be "
                       "at least edge_order\\+1$"):
        torch.gradient(samples()[:1])
