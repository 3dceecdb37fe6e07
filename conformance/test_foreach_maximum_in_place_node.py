"""torch._foreach_maximum_ and _foreach_minimum_ with a tensor list record each tensor's
MaximumBackward0 (MinimumBackward0), whose gradient is the plain maximum's."""

import pytest
import torch


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_in_place_with_a_tensor_list_records_the_plain_ops_node(name):
    x = torch.tensor([1.0, 2.0, 5.0], requires_grad=True)
    y = torch.tensor([0.0, 2.0, 7.0], requires_grad=True)
    written = [x * 1]
    getattr(torch, f"_foreach_{name}_")(written, [y])
    expected = getattr(torch, name)(x * 1, y)
    assert written[0].grad_fn.name() == expected.grad_fn.name()
    assert torch.equal(written[0], expected)
    written[0].sum().backward()
    gx, gy = torch.autograd.grad(expected.sum(), [x, y])
    assert torch.equal(x.grad, gx) and torch.equal(y.grad, gy)
