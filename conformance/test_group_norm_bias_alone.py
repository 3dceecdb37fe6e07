"""Black-box tests: group_norm with a bias and no weight has no gradient for the bias, as in
torch: a pass that reaches the bias fails, the kernel's in words about a device, the formula's
of a create_graph pass on a reshape to [0]; the input's gradient alone, and a tangent, work.
The same assertions run on torch."""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import raises

NO_DEVICE = "tensor does not have a device"


def _inputs(shape=(2, 4, 3), dtype=torch.float32):
    torch.manual_seed(0)
    x = torch.randn(*shape, dtype=dtype, requires_grad=True)
    return x, torch.randn(4, dtype=dtype, requires_grad=True)


@pytest.mark.parametrize(("shape", "dtype"), [((2, 4, 3), torch.float32),
                                              ((2, 4, 3), torch.float64), ((2, 4), torch.float32),
                                              ((0, 4, 3), torch.float32)])
def test_the_bias_gradient_fails_without_a_weight(shape, dtype):
    x, b = _inputs(shape, dtype)
    y = F.group_norm(x, 2, None, b)
    with raises(RuntimeError, NO_DEVICE):
        torch.autograd.grad(y.sum(), [b])
    y = F.group_norm(x, 2, None, b)
    with raises(RuntimeError, NO_DEVICE):
        y.sum().backward()
    assert x.grad is None and b.grad is None


def test_the_input_gradient_alone_works():
    x, b = _inputs()
    (gx,) = torch.autograd.grad(F.group_norm(x, 2, None, b).sum(), [x])
    assert gx.shape == x.shape
    y = F.group_norm(x.detach(), 2, None, b)  # only the bias requires grad
    with raises(RuntimeError, NO_DEVICE):
        y.sum().backward()


def test_a_graph_of_the_gradient_fails_on_the_reshape():
    x, b = _inputs()
    y = F.group_norm(x, 2, None, b)
    with raises(RuntimeError, "shape '[0]' is invalid for input of size 4"):
        torch.autograd.grad((y * y).sum(), [x, b], create_graph=True)


def test_with_a_weight_or_in_forward_mode_the_bias_has_its_gradient():
    x, b = _inputs()
    w = torch.ones(4, requires_grad=True)
    (gb,) = torch.autograd.grad(F.group_norm(x, 2, w, b).sum(), [b])
    assert gb.tolist() == [6.0] * 4
    with fwAD.dual_level():
        dual = fwAD.make_dual(b.detach(), torch.ones(4))
        tangent = fwAD.unpack_dual(F.group_norm(x.detach(), 2, None, dual)).tangent
    assert tangent.tolist() == torch.ones(2, 4, 3).tolist()
