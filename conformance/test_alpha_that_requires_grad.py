"""An alpha given as a tensor that requires grad is refused by the argument parser: read as a
number, its gradient would be lost. A 0-d tensor that does not require grad is a number."""

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("call, name", [
    (lambda x, a: x.add_(x, alpha=a), "add_"),
    (lambda x, a: x.add(x, alpha=a), "add"),
    (lambda x, a: torch.add(x, x, alpha=a), "add"),
    (lambda x, a: x.sub(x, alpha=a), "sub"),
    (lambda x, a: x.sub_(x, alpha=a), "sub_"),
])
def test_an_alpha_that_requires_grad_is_refused(call, name):
    x = torch.ones(2)
    with raises(TypeError, f"{name}(): argument 'alpha' must be Number, not Tensor"):
        call(x, torch.tensor(0.5, requires_grad=True))
    with torch.no_grad(), raises(TypeError, f"{name}(): argument 'alpha' must be Number, "
                                            "not Tensor"):
        call(x, torch.tensor(0.5, requires_grad=True))
    assert x.tolist() == [1.0, 1.0]


def test_an_alpha_tensor_without_grad_is_read_as_a_number():
    x = torch.ones(2)
    x.add_(x, alpha=torch.tensor(0.5))
    assert x.tolist() == [1.5, 1.5]
    assert x.sub(x, alpha=torch.tensor(2.0)).tolist() == [-1.5, -1.5]
