"""Autograd met inside inference mode, or by the tensors it made: a backward run inside the
mode, gradient edges and in-place writes of inference leaves. The same assertions run on
torch.
"""

import torch

from conformance._support import leaf


def _counts_versions(t) -> bool:
    try:
        t._version
    except RuntimeError:
        return False
    return True


def test_a_backward_inside_inference_mode_leaves_an_inference_grad():
    a = torch.tensor(0.75, requires_grad=True)
    with torch.inference_mode():
        a.backward()
        a.backward()  # added into that inference .grad, in the mode
    assert a.grad.item() == 2.0 and a.grad.is_inference() and not _counts_versions(a.grad)
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_a_gradient_given_to_a_backward_inside_inference_mode_is_copied():
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g = torch.ones(2, 2).t()
    with torch.inference_mode():
        m.backward(g)
    assert m.grad is not g and m.grad.is_inference() and m.grad.stride() == (2, 1)


def test_a_normal_grad_is_added_into_inside_inference_mode():
    a = leaf(1.0, 2.0)
    (a * 3).sum().backward()
    assert a.grad._version == 0
    y = (a * a).sum()  # recorded outside the mode
    with torch.inference_mode():
        y.backward()
    assert a.grad.tolist() == [5.0, 7.0] and a.grad._version == 1 and not a.grad.is_inference()
