"""parametrizations.weight_norm and spectral_norm: a weight computed from its originals."""

import torch
import torch.nn.functional as F
from torch.nn.utils import parametrizations as PZ

from conformance._support import raises


def linear(n_in, n_out, seed=0):
    torch.manual_seed(seed)
    return torch.nn.Linear(n_in, n_out)


def test_weight_norm_splits_the_weight_into_norms_and_direction():
    m = linear(4, 3)
    w = m.weight.detach().clone()
    assert PZ.weight_norm(m) is m
    names = ["bias", "parametrizations.weight.original0", "parametrizations.weight.original1"]
    assert [n for n, _ in m.named_parameters()] == names and list(m.state_dict()) == names
    g, v = m.parametrizations.weight.original0, m.parametrizations.weight.original1
    assert g.shape == (3, 1) and torch.allclose(g, w.norm(dim=1, keepdim=True))
    assert torch.equal(v, w) and torch.allclose(m.weight, w)
    assert m.weight.grad_fn.name() == "WeightNormInterfaceBackward0"
    edges = [f.name() for f, _ in m.weight.grad_fn.next_functions]
    assert edges == ["torch::autograd::AccumulateGrad"] * 2
    assert type(m.parametrizations.weight[0]).__name__ == "_WeightNorm"


def test_weight_norm_gradients_reach_both_originals():
    m = PZ.weight_norm(linear(4, 3))
    g = m.parametrizations.weight.original0.detach().clone().requires_grad_()
    v = m.parametrizations.weight.original1.detach().clone().requires_grad_()
    x = torch.linspace(-1, 1, 8).reshape(2, 4)
    (m(x) ** 2).sum().backward()
    (F.linear(x, v * (g / v.norm(dim=1, keepdim=True)), m.bias) ** 2).sum().backward()
    assert torch.allclose(m.parametrizations.weight.original0.grad, g.grad, atol=1e-6)
    assert torch.allclose(m.parametrizations.weight.original1.grad, v.grad, atol=1e-6)


def test_weight_norm_over_other_dimensions_is_plain_arithmetic():
    for dim, shape, node in ((0, (3, 1, 1, 1), "WeightNormInterfaceBackward0"),
                             (3, (1, 1, 1, 2), "WeightNormInterfaceBackward0"),
                             (1, (1, 2, 1, 1), "MulBackward0"),
                             (None, (), "MulBackward0")):
        torch.manual_seed(1)
        c = torch.nn.Conv2d(2, 3, 2)
        w = c.weight.detach().clone()
        PZ.weight_norm(c, dim=dim)
        assert c.parametrizations.weight.original0.shape == shape
        assert c.weight.grad_fn.name() == node and torch.allclose(c.weight, w, atol=1e-6)


def test_the_weight_norm_op_returns_the_weight_and_the_norms():
    v = torch.tensor([[3.0, 4.0], [0.0, 2.0]], requires_grad=True)
    g = torch.tensor([[10.0], [1.0]], requires_grad=True)
    w, norms = torch._weight_norm_interface(v, g, 0)
    assert norms.tolist() == [[5.0], [2.0]] and norms.grad_fn is None
    assert w.tolist() == [[6.0, 8.0], [0.0, 1.0]]
    assert torch._weight_norm(v, g, 0).tolist() == w.tolist()
    assert torch._weight_norm(v, g.view(1, 2).detach(), -1).grad_fn.name() == "MulBackward0"


def test_weight_norm_loads_a_checkpoint_of_the_older_names():
    m = PZ.weight_norm(linear(4, 3))
    old = {"weight_g": torch.full((3, 1), 2.0), "weight_v": torch.ones(3, 4),
           "bias": torch.zeros(3)}
    assert str(m.load_state_dict(old)) == "<All keys matched successfully>"
    assert m.weight.tolist() == [[1.0] * 4] * 3


def test_spectral_norm_divides_by_the_power_iterated_singular_value():
    m = linear(5, 3)
    w = m.weight.detach().clone()
    PZ.spectral_norm(m)
    sn = m.parametrizations.weight[0]
    assert [n for n, _ in m.named_parameters()] == ["bias", "parametrizations.weight.original"]
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original",
                                    "parametrizations.weight.0._u",
                                    "parametrizations.weight.0._v"]
    assert (sn.dim, sn.eps, sn.n_power_iterations) == (0, 1e-12, 1)
    # the start vectors: drawn after the layer, u first, normalized, then 15 steps, then 1
    torch.manual_seed(0)
    torch.nn.Linear(5, 3)
    u, v = F.normalize(torch.randn(3), dim=0), F.normalize(torch.randn(5), dim=0)
    for _ in range(16):
        u = F.normalize(torch.mv(w, v), dim=0)
        v = F.normalize(torch.mv(w.T, u), dim=0)
    weight = m.weight
    assert torch.allclose(sn._u, u, atol=1e-6) and torch.allclose(sn._v, v, atol=1e-6)
    assert torch.allclose(weight, w / torch.dot(u, torch.mv(w, v)), atol=1e-6)
    assert weight.grad_fn.name() == "DivBackward0"
    assert abs(torch.linalg.matrix_norm(weight.detach(), 2).item() - 1) < 1e-4


def test_spectral_norm_refines_only_in_training_and_gradients_reach_the_original():
    m = PZ.spectral_norm(linear(5, 3))
    sn = m.parametrizations.weight[0]
    u = sn._u
    m.weight.sum().backward()
    assert sn._u is u and m.parametrizations.weight.original.grad.shape == (3, 5)
    m.eval()
    kept = sn._u.clone()
    m.weight
    assert torch.equal(kept, sn._u)


def test_spectral_norm_dims_and_refusals():
    ct = PZ.spectral_norm(torch.nn.ConvTranspose2d(2, 3, 2))
    assert ct.parametrizations.weight[0].dim == 1 and ct.parametrizations.weight[0]._u.shape == (3,)
    c = PZ.spectral_norm(torch.nn.Conv1d(2, 4, 3), dim=-1)
    assert c.parametrizations.weight[0].dim == 2 and c.parametrizations.weight[0]._v.shape == (8,)
    b = PZ.spectral_norm(torch.nn.Linear(3, 3), "bias")
    assert torch.allclose(b.bias.norm(), torch.tensor(1.0)) and not list(b.buffers())
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1] but "
                "got 2)"):
        PZ.spectral_norm(torch.nn.Linear(2, 2), dim=2)
    with raises(ValueError, "Expected n_power_iterations to be positive, but got "
                "n_power_iterations=0"):
        PZ.spectral_norm(torch.nn.Linear(2, 2), n_power_iterations=0)
    with raises(ValueError, "Module 'Linear(in_features=2, out_features=2, bias=True)' has no "
                "parameter or buffer with name 'foo'"):
        PZ.spectral_norm(torch.nn.Linear(2, 2), "foo")


def test_the_weight_norm_op_opens_its_own_profiler_event():
    v, g = torch.ones(3, 4), torch.ones(3, 1)
    with torch.profiler.profile(record_shapes=True) as prof:
        torch._weight_norm(v, g, 0)
    events = [(e.name, e.input_shapes) for e in prof.events()]
    assert events[:2] == [("aten::_weight_norm", [[3, 4], [3, 1], []]),
                      ("aten::_weight_norm_interface", [[3, 4], [3, 1], []])]


def test_the_weight_norm_op_wants_one_floating_dtype_and_widens_half():
    with raises(RuntimeError, "expected scalar type Double but found Float"):
        torch._weight_norm(torch.ones(3, 4, dtype=torch.float64), torch.ones(3, 1), 0)
    with raises(NotImplementedError, "\"weight_norm_kernel\" not implemented for 'Long'"):
        torch._weight_norm(torch.ones(3, 4, dtype=torch.int64),
                           torch.ones(3, 1, dtype=torch.int64), 0)
    v = torch.tensor([[3.0, 4.0]], dtype=torch.float16, requires_grad=True)
    g = torch.tensor([[2.0]], dtype=torch.float16, requires_grad=True)
    w, norms = torch._weight_norm_interface(v, g, 0)
    assert w.dtype == torch.float16 and norms.dtype == torch.float32
    half = torch.float16  # each value rounded once, from float
    assert torch.equal(w, torch.tensor([[2 * 3 / 5, 2 * 4 / 5]], dtype=half))
    assert norms.tolist() == [[5.0]]
    w.sum().backward()
    assert v.grad.dtype == half and torch.equal(g.grad, torch.tensor([[7 / 5]], dtype=half))


def test_the_weight_norm_gradient_is_one_kernel_unless_a_graph_is_built():
    v = torch.randn(3, 4, requires_grad=True)
    g = torch.rand(3, 1, requires_grad=True)
    w = torch._weight_norm(v, g, 0)
    with torch.profiler.profile() as prof:
        w.sum().backward()
    names = [e.name for e in prof.events()]
    start = names.index("WeightNormInterfaceBackward0")
    assert "aten::_weight_norm_interface_backward" in names[start:]
    assert "aten::mul" not in names[start:] and "aten::div" not in names[start:]
    first = (v.grad.clone(), g.grad.clone())
    grad_v, grad_g = torch.autograd.grad(torch._weight_norm(v, g, 0).sum(), (v, g),
                                         create_graph=True)
    assert grad_v.grad_fn.name() == "MulBackward0" and grad_g.grad_fn is not None
    assert torch.allclose(grad_v, first[0], atol=1e-6)
    assert torch.allclose(grad_g, first[1], atol=1e-6)
