"""Black-box tests: F.rrelu and F.rrelu_ (slopes drawn from the generator, bit for bit, the
nodes and what they keep, gradients, refusals) and F.feature_alpha_dropout.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import first_edges, matrix_leaf, raises, saved_names

X = [-1.0, 0.5, -2.0, 0.0, 3.0, -0.5]
# torch 2.13's slopes for X after manual_seed(0), bounds 1/8 and 1/3, float32
SLOPES = [0.3270943760871887, 1.0, 0.27246248722076416, 0.22070477902889252, 1.0,
          0.31682243943214417]


def test_rrelu_in_training_draws_torchs_slopes():
    torch.manual_seed(0)
    x = torch.tensor(X, requires_grad=True)
    y = F.rrelu(x, training=True)
    node = y.grad_fn
    assert type(node).__name__ == "RreluWithNoiseBackward0"
    assert saved_names(node) == ["_saved_lower", "_saved_noise", "_saved_self",
                                 "_saved_training", "_saved_upper"]
    assert (node._saved_lower, node._saved_upper, node._saved_training) == (0.125, 1 / 3, True)
    assert node._saved_noise.tolist() == SLOPES and node._saved_self is x
    assert y.tolist() == [v * s for v, s in zip(X, SLOPES)]
    y.backward(torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    assert x.grad.tolist() == pytest.approx([w * s for w, s in zip([1, 2, 3, 4, 5, 6], SLOPES)])


def test_rrelu_draws_only_for_elements_not_above_zero():
    torch.manual_seed(7)
    x = torch.linspace(-2, 1, 10)
    assert F.rrelu(x, 0.1, 0.9, training=True).tolist() == [
        -0.6470086574554443, -0.5315915942192078, -1.0528990030288696, -0.6253507137298584,
        -0.5586822628974915, -0.2572121322154999, -1.0006716344435063e-08, 0.3333333134651184,
        0.6666666269302368, 1.0]
    assert torch.rand(2).tolist() == [0.4450901746749878, 0.35928595066070557]
    torch.manual_seed(7)
    x = torch.linspace(-2, 1, 10, dtype=torch.float64)
    assert F.rrelu(x, -0.3, 0.4, training=True).tolist() == [
        0.2088673981310344, 0.18069066740627343, -0.40462009732311705, -0.15968190141174093,
        -0.23051370481139402, -0.09589392101122352, 5.551115123125783e-17, 0.33333333333333337,
        0.6666666666666667, 1.0]
    g = torch.Generator().manual_seed(5)
    assert torch.rrelu(-torch.ones(3), 0.125, 0.25, True, g).tolist() == [
        -0.20525187253952026, -0.1574697345495224, -0.17010344564914703]
    torch.manual_seed(0)
    F.rrelu(torch.tensor([1.0, 2.0]), training=True)
    after = torch.rand(2).tolist()
    torch.manual_seed(0)
    assert torch.rand(2).tolist() == after


def test_rrelu_out_of_training_is_a_leaky_relu_with_the_mean_slope():
    x = matrix_leaf(X)
    y = F.rrelu(x, 0.1, 0.3)
    assert type(y.grad_fn).__name__ == "RreluWithNoiseBackward0"
    assert y.grad_fn._saved_training is False
    assert y.tolist() == pytest.approx([v if v > 0 else 0.2 * v for v in X], rel=1e-15)
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([1.0 if v > 0 else 0.2 for v in X], rel=1e-15)
    half = F.rrelu(torch.tensor([1.0, -2.0], dtype=torch.float16))
    assert half.dtype is torch.float16 and half.tolist() == [1.0, -0.458251953125]


def test_rrelu_in_place():
    x = torch.tensor(X, requires_grad=True)
    y = x * 1
    torch.manual_seed(0)
    out = F.rrelu_(y, training=True)
    assert out is y and y._version == 1
    assert first_edges(y) == ["RreluWithNoiseBackward1", "MulBackward0"]
    assert saved_names(y.grad_fn) == ["_saved_lower", "_saved_noise", "_saved_result",
                                      "_saved_training", "_saved_upper"]
    y.sum().backward()
    assert x.grad.tolist() == SLOPES
    z = x * 1
    assert F.rrelu(z, training=False, inplace=True) is z
    assert type(z.grad_fn).__name__ == "RreluWithNoiseBackward1"
    with raises(RuntimeError,
                "a leaf Variable that requires grad is being used in an in-place operation."):
        F.rrelu(x, inplace=True)


@pytest.mark.parametrize("training", [False, True])
def test_rrelu_refusals(training):
    with raises(RuntimeError, "Lower bound should be less than or equal to the upper bound"):
        F.rrelu(torch.tensor(X), 0.3, 0.1, training)
    kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
    with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Long'"):
        F.rrelu(torch.tensor([1, -2]), training=training)
    for name in ("rrelu", "rrelu_"):
        with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, "
                    "not list"):
            getattr(F, name)([1.0], training=training)
    if training:
        with raises(NotImplementedError,
                    "\"rrelu_with_noise_out_cpu\" not implemented for 'Half'"):
            F.rrelu(torch.tensor([1.0], dtype=torch.float16), training=True)


def test_feature_alpha_dropout_drops_whole_channels():
    torch.manual_seed(1)
    x = torch.arange(-6.0, 6.0, dtype=torch.float64).reshape(2, 3, 2).requires_grad_()
    y = F.feature_alpha_dropout(x, 0.5, True)
    assert first_edges(y) == ["AddBackward0", "MulBackward0"] and y._version == 1
    y.sum().backward()
    # a channel's gradient is its scale: a dropped channel gets 0, a kept one a > 0
    for channel in x.grad.reshape(6, 2).tolist():
        assert channel[0] == channel[1] and channel[0] in (0.0, pytest.approx(0.8864, abs=1e-4))
    dropped = y.detach().reshape(6, 2).tolist()
    assert any(c[0] == c[1] for c in dropped)
    assert F.feature_alpha_dropout(x, 0.5, False) is x
    assert F.feature_alpha_dropout(x, 0.0, True) is x
    assert first_edges(F.feature_alpha_dropout(x, 1.0, True)) == ["MulBackward0"]
    z = x * 1
    assert F.feature_alpha_dropout(z, 0.5, True, True) is z and z._version == 2


def test_feature_alpha_dropout_refusals():
    with raises(RuntimeError, "Feature dropout requires at least 2 dimensions in the input"):
        F.feature_alpha_dropout(torch.ones(3), 0.5, True)
    with raises(ValueError, "dropout probability has to be between 0 and 1, but got 1.5"):
        F.feature_alpha_dropout(torch.ones(2, 3), 1.5, True)
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        F.feature_alpha_dropout(torch.ones(2, 3, dtype=torch.int64), 0.5, True)
    with raises(TypeError, "feature_alpha_dropout(): argument 'input' (position 1) must be "
                "Tensor, not list"):
        F.feature_alpha_dropout([1.0], 0.5, True)
