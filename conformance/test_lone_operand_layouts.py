"""Strides of one-input ops, and of their input's gradient, for inputs with size-one dimensions.

``row``: a (1, 4) tensor with strides (1, 1); ``column``: a (4, 1) one with strides (1, 4);
``unsqueezed``: a transposed (3, 2) with a size-one dimension in front; ``gapped``: a dense
(2, 1, 3) view whose size-one dimension has the stride 5; ``empty``: a transposed (0, 3).
"""

import pytest
import torch
import torch.nn.functional as F


def _values(*shape):
    n = 1
    for size in shape:
        n *= size
    return torch.arange(float(n)).reshape(*shape) * 0.37 % 1.9 - 0.6


LAYOUTS = {
    "row": lambda: _values(4, 1).t(),
    "column": lambda: _values(1, 4).t(),
    "unsqueezed": lambda: _values(2, 3).t().unsqueeze(0),
    "gapped": lambda: _values(12).as_strided((2, 1, 3), (1, 5, 2)),
    "empty": lambda: _values(0, 3).t(),
}

# (op, layout, the result's strides, the gradient's strides)
CASES = [
    ("elu", lambda x: F.elu(x), "row", (4, 1), (1, 1)),
    ("elu", lambda x: F.elu(x), "column", (1, 1), (1, 4)),
    ("celu", lambda x: F.celu(x), "column", (1, 1), (1, 4)),
    ("gelu", lambda x: F.gelu(x), "row", (4, 1), (1, 1)),
    ("silu", lambda x: F.silu(x), "column", (1, 1), (1, 4)),
    ("mish", lambda x: F.mish(x), "row", (4, 1), (1, 1)),
    ("hardsigmoid", lambda x: F.hardsigmoid(x), "column", (1, 1), (1, 4)),
    ("hardshrink", lambda x: F.hardshrink(x), "row", (4, 1), (1, 1)),
    ("softshrink", lambda x: F.softshrink(x), "column", (1, 1), (1, 4)),
    ("hardtanh", lambda x: F.hardtanh(x), "row", (1, 1), (1, 1)),
    ("relu6", lambda x: F.relu6(x), "column", (1, 4), (1, 4)),
    ("logit", lambda x: x.logit(0.1), "column", (1, 1), (1, 4)),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.25])), "row", (1, 1), (1, 1)),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.25])), "column", (1, 4), (1, 4)),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.25])), "unsqueezed", (3, 1, 3), (3, 1, 3)),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.25])), "gapped", (1, 5, 2), (1, 6, 2)),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.25])), "empty", (1, 3), (1, 3)),
    ("clamp", lambda x: x.clamp(-0.1, 0.2), "column", (1, 1), (1, 4)),
    ("clamp", lambda x: x.clamp(-0.1, 0.2), "unsqueezed", (3, 1, 3), (3, 1, 3)),
    ("clamp", lambda x: x.clamp(-0.1, 0.2), "gapped", (1, 5, 2), (1, 6, 2)),
    ("clamp", lambda x: x.clamp(-0.1, 0.2), "empty", (1, 1), (1, 3)),
    ("clamp_min", lambda x: x.clamp_min(0.1), "row", (4, 1), (1, 1)),
    ("clamp_min", lambda x: x.clamp_min(0.1), "gapped", (1, 5, 2), (1, 6, 2)),
    ("clamp_max", lambda x: x.clamp_max(0.1), "unsqueezed", (3, 1, 3), (3, 1, 3)),
]


@pytest.mark.parametrize("op, layout, strides, grad_strides", [c[1:] for c in CASES],
                         ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_result_and_gradient_strides(op, layout, strides, grad_strides):
    x = LAYOUTS[layout]()
    assert op(x).stride() == strides
    leaf = LAYOUTS[layout]().requires_grad_()
    op(leaf).sum().backward()
    assert (leaf.grad.stride(), leaf.grad._version) == (grad_strides, 0)
    expected = op(x.detach().contiguous()).contiguous()
    assert torch.equal(op(x).contiguous(), expected)


# isinf and isfinite compare abs() with infinity: laid out as abs, then as a comparison
# with a number, where isnan keeps a dense input's strides
TESTS = [
    ("isinf", "row", (4, 1)), ("isinf", "column", (1, 1)), ("isinf", "empty", (1, 1)),
    ("isinf", "gapped", (1, 6, 2)), ("isfinite", "gapped", (1, 6, 2)),
    ("isfinite", "column", (1, 1)), ("isnan", "gapped", (1, 5, 2)),
    ("isnan", "column", (1, 1)), ("isreal", "row", (1, 1)), ("isreal", "column", (1, 4)),
    ("isreal", "gapped", (1, 5, 2)), ("isreal", "empty", (1, 3)),
    ("isreal", "unsqueezed", (3, 1, 3)),
]


@pytest.mark.parametrize("name, layout, strides", TESTS)
def test_tests_of_values(name, layout, strides):
    x = LAYOUTS[layout]()
    result = getattr(x, name)()
    assert result.stride() == strides
    assert torch.equal(result.contiguous(), getattr(x.contiguous(), name)())


def test_prelu_by_channel_of_a_channels_last_input():
    x = _values(2, 3, 1, 2).contiguous(memory_format=torch.channels_last).requires_grad_()
    weight = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
    out = F.prelu(x, weight)
    assert out.stride() == (6, 1, 6, 3)
    out.sum().backward()
    assert x.grad.stride() == (6, 1, 6, 3)
    assert weight.grad.stride() == (1,)


GLU = [
    ("permuted", lambda: _values(3, 1, 4).transpose(0, 2), 0, (1, 2, 2)),
    ("gapped", lambda: _values(12).as_strided((2, 1, 3), (1, 5, 2)), 0, (1, 3, 1)),
    ("channels_last", lambda: _values(2, 3, 1, 2).contiguous(memory_format=torch.channels_last),
     0, (6, 1, 6, 3)),
    ("transposed", lambda: _values(4, 6).t(), 1, (1, 6)),
    ("transposed_first", lambda: _values(4, 6).t(), 0, (1, 3)),
]


@pytest.mark.parametrize("make, dim, strides", [c[1:] for c in GLU], ids=[c[0] for c in GLU])
def test_glu_is_laid_out_by_its_halves(make, dim, strides):
    # torch iterates over the two halves, views with the input's strides
    x = make()
    out = F.glu(x, dim)
    assert out.stride() == strides
    assert torch.allclose(out, F.glu(x.contiguous(), dim))


@pytest.mark.parametrize("activation", [F.elu, F.hardtanh, F.leaky_relu, F.hardshrink,
                                        F.softshrink, F.relu6, F.selu, F.celu, F.softplus,
                                        F.hardswish, F.hardsigmoid, F.rrelu])
@pytest.mark.parametrize("create_graph", [False, True])
def test_activation_gradients_recorded_or_not_are_laid_out_alike(activation, create_graph):
    for leaf, strides in ((torch.rand(2, 3).t(), (1, 3)), (torch.rand(1, 4).t(), (1, 4)),
                          (torch.rand(3, 1, 4).transpose(0, 2), (1, 4, 4))):
        leaf.requires_grad_()
        (g,) = torch.autograd.grad(activation(leaf).sum(), leaf, create_graph=create_graph)
        assert g.stride() == strides and g._version == 0
