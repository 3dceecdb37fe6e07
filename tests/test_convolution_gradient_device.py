"""The convolution's gradient row on a device, asked for some of its gradients only."""

import numpy as np
import pytest

import refgrad
import refgrad.nn.functional as F
from tests.devices import AVAILABLE, use


@pytest.mark.parametrize("where", AVAILABLE)
def test_the_input_gradient_alone_differentiates_on_the_device(where):
    x0 = refgrad.arange(150, dtype=refgrad.float64).reshape(2, 3, 5, 5) * 0.01
    w0 = refgrad.arange(108, dtype=refgrad.float64).reshape(4, 3, 3, 3) * 0.02 - 1

    def second(x, w):
        y = F.conv2d(x, w, padding=1)
        (gx,) = refgrad.autograd.grad((y * y).sum(), x, create_graph=True)
        assert type(gx.grad_fn).__name__ == "ConvolutionBackwardBackward0"
        return refgrad.autograd.grad((gx * gx).sum(), w)[0]

    on_host = second(x0.clone().requires_grad_(), w0.clone().requires_grad_())
    with pytest.MonkeyPatch.context() as patch:
        use(where, patch)
        got = second(x0.cuda().requires_grad_(), w0.cuda().requires_grad_())
        assert got.device == refgrad.device("cuda", 0)
        np.testing.assert_allclose(got.cpu().numpy(), on_host.numpy(), rtol=1e-12)
