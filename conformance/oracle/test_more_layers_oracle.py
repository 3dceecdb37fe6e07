"""Oracle test: seeded the same, Bilinear, AdaptiveLogSoftmaxWithLoss and LinearCrossEntropyLoss
draw torch's parameters bit for bit, and CrossMapLRN2d and the new losses give torch's values.

The layers are made in torch's order with torch's draws, so refgrad's generator, which matches
torch's, gives the same numbers. Outputs are computed each library its own way, through matrix
products for the layers, and are compared to rounding.
"""

import numpy as np
import pytest
import torch

import refgrad

LAYERS = {
    "Bilinear": ((3, 4, 5), {}),
    "Bilinear ": ((2, 6, 3), {"bias": False}),
    "AdaptiveLogSoftmaxWithLoss": ((8, 10, [3, 6]), {"div_value": 2.0}),
    "AdaptiveLogSoftmaxWithLoss ": ((5, 7, [2, 4, 6]), {"div_value": 1.5, "head_bias": True}),
    "LinearCrossEntropyLoss": ((4, 3), {"out_features": (2,), "bias": True}),
}


@pytest.mark.parametrize("case", sorted(LAYERS))
def test_the_layers_draw_what_torch_draws(case):
    args, kwargs = LAYERS[case]

    def run(lib):
        lib.manual_seed(0)
        module = getattr(lib.nn, case.strip())(*args, **kwargs)
        state = {k: v.numpy() for k, v in module.state_dict().items()}
        return repr(module), state, lib.rand(1).item()

    ours, theirs = run(refgrad), run(torch)
    assert ours[0] == theirs[0] and ours[2] == theirs[2]  # the stream left at the same place
    assert list(ours[1]) == list(theirs[1])
    for key in ours[1]:
        assert np.array_equal(ours[1][key], theirs[1][key]), key


def test_bilinear_and_the_adaptive_softmax_compute_torchs_values():
    def run(lib):
        lib.manual_seed(0)
        bilinear = lib.nn.Bilinear(3, 4, 2)
        asm = lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0)
        a, b, x = lib.randn(5, 3), lib.randn(5, 4), lib.randn(6, 8)
        result = asm(x, lib.tensor([0, 4, 9, 2, 7, 5]))
        return [t.detach().numpy() for t in (bilinear(a, b), result.output, result.loss,
                                               asm.log_prob(x), asm.predict(x))]

    for ours, theirs in zip(run(refgrad), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("size, channels", [(3, 5), (5, 3), (2, 4), (4, 7)])
def test_cross_map_norm_and_its_backward_are_torchs(size, channels):
    rng = np.random.default_rng(size * 10 + channels)
    x, g = rng.standard_normal((2, 2, channels, 3, 2))

    def run(lib):
        inp = lib.tensor(x, requires_grad=True)
        out = lib.nn.CrossMapLRN2d(size, alpha=0.3, beta=0.6, k=1.5)(inp)
        out.backward(lib.tensor(g))
        return out.grad_fn.name(), out.detach().numpy(), inp.grad.numpy()

    ours, theirs = run(refgrad), run(torch)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-12, atol=1e-15)
