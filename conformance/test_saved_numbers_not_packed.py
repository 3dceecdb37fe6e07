"""A node that keeps a Python number: saved_tensors_hooks pack only its tensors, and its
_saved_* attribute gives the number as a number (int or float), or, for the number that
mul and div take as a tensor, a 0-d tensor. The same assertions run on torch."""

import pytest
import torch
import torch.nn.functional as F

CASES = [  # call, tensors packed, {attribute: type of what it gives}
    (lambda x: x * 2.5, 0, {"_saved_other": torch.Tensor}),
    (lambda x: x / 3, 0, {"_saved_other": torch.Tensor}),
    (lambda x: x.pow(2), 1, {"_saved_exponent": int, "_saved_self": torch.Tensor}),
    (lambda x: x.pow(2.5), 1, {"_saved_exponent": float}),
    (lambda x: x.clamp(min=0.5), 1, {"_saved_min": float, "_saved_max": type(None)}),
    (lambda x: x.clamp(-1, 1), 1, {"_saved_min": int, "_saved_max": int}),
    (lambda x: torch.add(x, x, alpha=2), 0, {"_saved_alpha": int}),
    (lambda x: F.leaky_relu(x, 0.2), 1, {"_saved_negative_slope": float}),
    (lambda x: F.threshold(x, 0.1, 20), 1, {"_saved_threshold": float}),
    (lambda x: F.softplus(x, beta=2), 1, {"_saved_beta": int}),
    (lambda x: torch.addcmul(x, x, x, value=0.5), 2, {"_saved_value": float}),
]


@pytest.mark.parametrize(("call", "packed", "kinds"), CASES)
def test_only_tensors_are_packed(call, packed, kinds):
    x = torch.tensor([1., -2., 3.], requires_grad=True)
    log = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append(type(t)) or t,
                                                  lambda t: t):
        y = call(x)
    assert log == [torch.Tensor] * packed
    for name, kind in kinds.items():
        assert type(getattr(y.grad_fn, name)) is kind
    y.sum().backward()
    assert x.grad is not None


def test_the_numbers_themselves():
    x = torch.tensor([1., -2., 3.], requires_grad=True)
    assert x.pow(2).grad_fn._saved_exponent == 2
    assert x.clamp(min=0.5).grad_fn._saved_min == 0.5
    other = (x * 2.5).grad_fn._saved_other
    assert other.dtype == torch.float64 and other.shape == () and other.item() == 2.5
    other = (x / 3).grad_fn._saved_other
    assert other.dtype == torch.int64 and other.item() == 3
