"""Bilinear (torch's seeded initialisation, print, values and gradients), the deprecated
Container, and CrossMapLRN2d with its own autograd Function. The same assertions run on
torch."""

import warnings

import pytest
import torch
import torch.nn as nn

from conformance._support import raises

CONTAINER_WARNING = ("`nn.Container` is deprecated. All of its functionality is now implemented "
                     "in `nn.Module`. Subclass that instead.")


def _bilinear_by_hand(a, b, weight, bias):
    out = torch.einsum("...i,kij,...j->...k", a, weight, b)
    return out if bias is None else out + bias


@pytest.mark.parametrize("bias", [True, False])
def test_bilinear_draws_weight_then_bias_within_one_over_root_in1(bias):
    torch.manual_seed(0)
    layer = nn.Bilinear(3, 4, 5, bias=bias)
    torch.manual_seed(0)
    bound = 1 / 3 ** 0.5
    weight = torch.empty(5, 3, 4).uniform_(-bound, bound)
    assert torch.equal(layer.weight, weight)
    if bias:
        assert torch.equal(layer.bias, torch.empty(5).uniform_(-bound, bound))
    else:
        assert layer.bias is None
    assert list(layer.state_dict()) == (["weight", "bias"] if bias else ["weight"])
    assert repr(layer) == f"Bilinear(in1_features=3, in2_features=4, out_features=5, bias={bias})"


def test_bilinear_computes_x1_a_x2_plus_b_and_its_gradients():
    torch.manual_seed(1)
    layer = nn.Bilinear(3, 4, 2, dtype=torch.float64)
    a = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    out = layer(a, b)
    want = _bilinear_by_hand(a, b, layer.weight, layer.bias)
    assert out.shape == (6, 2) and out.dtype == torch.float64
    torch.testing.assert_close(out, want)
    got = torch.autograd.grad(out.sum(), (a, b, layer.weight, layer.bias))
    expected = torch.autograd.grad(want.sum(), (a, b, layer.weight, layer.bias))
    for g, e in zip(got, expected):
        torch.testing.assert_close(g, e)


def test_bilinear_lives_in_the_linear_module_and_refuses_no_first_input():
    assert nn.Bilinear is torch.nn.modules.linear.Bilinear is torch.nn.modules.Bilinear
    assert nn.Bilinear.__module__ == f"{torch.__name__}.nn.modules.linear"
    assert nn.Bilinear.__constants__ == ["in1_features", "in2_features", "out_features"]
    with raises(ValueError, "in1_features must be > 0, but got (in1_features=0)"):
        nn.Bilinear(0, 2, 3)
    assert nn.Bilinear(3, 0, 2).weight.shape == (2, 3, 0)


def test_container_holds_its_keyword_children_and_warns(warn_always):
    with pytest.warns(FutureWarning) as caught:
        old = nn.Container(first=nn.ReLU(), second=nn.Linear(2, 2))
    assert [str(w.message) for w in caught] == [CONTAINER_WARNING]
    assert caught[0].filename == __file__
    assert list(dict(old.named_children())) == ["first", "second"]
    assert repr(old).startswith("Container(\n  (first): ReLU()\n")
    assert nn.Container.__deprecated__ == CONTAINER_WARNING
    assert nn.Container is torch.nn.modules.container.Container
    with raises(TypeError, "Container.__init__() takes 1 positional argument but 2 were given"):
        with pytest.warns(FutureWarning):
            nn.Container(nn.ReLU())


def test_a_container_subclass_warns_when_defined(warn_always):
    with pytest.warns(FutureWarning) as caught:
        class Mine(nn.Container):
            pass
    assert [str(w.message) for w in caught] == [CONTAINER_WARNING]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(dict(Mine(q=nn.Tanh()).named_children())) == ["q"]


def _window_norm_by_hand(x, size, alpha, beta, k):
    """Each channel over k + alpha/size * its window's squares, channel 0's square kept."""
    channels = x.shape[1]
    pre_pad = (size - 1) // 2 + 1
    sq = x * x
    scales = []
    for c in range(channels):
        top = min(c + pre_pad - 1, channels - 1)
        total = sq[:, : top + 1].sum(1)
        if c > pre_pad:
            total = total - sq[:, 1: c - pre_pad + 1].sum(1)
        scales.append(total)
    scale = torch.stack(scales, 1) * (alpha / size) + k
    return x * scale.pow(-beta)


@pytest.mark.parametrize("size, channels", [(3, 5), (5, 3), (2, 4), (4, 7), (6, 2)])
def test_cross_map_norm_values_and_its_own_backward(size, channels):
    torch.manual_seed(0)
    norm = nn.CrossMapLRN2d(size, alpha=0.3, beta=0.6, k=1.5)
    x = torch.randn(2, channels, 3, 2, dtype=torch.float64, requires_grad=True)
    out = norm(x)
    assert out.grad_fn.name() == "CrossMapLRN2dBackward" and out.dtype == torch.float64
    torch.testing.assert_close(out, _window_norm_by_hand(x, size, 0.3, 0.6, 1.5))
    grad = torch.randn_like(out)
    got, = torch.autograd.grad(out, x, grad)
    assert got.shape == x.shape
    # the hand-written backward, by its own formula
    scale = (x / out).pow(1 / 0.6).detach()
    ratio = grad * out / scale
    lead = int(size - (size - 1) / 2)
    padded = torch.nn.functional.pad(ratio, (0, 0, 0, 0, lead, size - 1 - lead))
    window = torch.stack([padded[:, c: c + size].sum(1) for c in range(channels)], 1)
    want = scale.pow(-0.6) * grad - 2 * 0.3 * 0.6 / size * x * window
    torch.testing.assert_close(got, want.detach())


def test_cross_map_norm_prints_its_numbers_and_refuses():
    norm = nn.CrossMapLRN2d(3, alpha=0.1, beta=0.5, k=2)
    assert repr(norm) == "CrossMapLRN2d(3, alpha=0.1, beta=0.5, k=2)"
    assert repr(nn.CrossMapLRN2d(5)) == "CrossMapLRN2d(5, alpha=0.0001, beta=0.75, k=1)"
    assert nn.CrossMapLRN2d is torch.nn.modules.normalization.CrossMapLRN2d
    assert list(norm.state_dict()) == []
    with raises(ValueError, "CrossMapLRN2d: Expected input to be 4D, got 3D instead."):
        norm(torch.randn(5, 2, 3))
    with torch.no_grad():
        assert norm(torch.randn(1, 3, 2, 2)).grad_fn is None
    x = torch.randn(2, 5, 2, 3, requires_grad=True)
    with raises(RuntimeError, "start (1) + length (5) exceeds dimension size (5)."):
        nn.CrossMapLRN2d(1)(x).sum().backward()


def test_cross_map_norm_backward_cannot_itself_be_differentiated():
    x = torch.randn(1, 3, 2, 2, requires_grad=True)
    out = nn.CrossMapLRN2d(3)(x)
    with raises(RuntimeError, "mul(): functions with out=... arguments don't support automatic "
                              "differentiation, but one of the arguments requires grad."):
        torch.autograd.grad(out.sum(), x, create_graph=True)
    g, = torch.autograd.grad(out.sum(), x)
    assert g.shape == x.shape and g.grad_fn is None
