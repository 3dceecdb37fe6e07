"""The kernels of an optimizer's update, on either library: alpha's refusals in their
order, versions, grad_fn names and gradients through add, sub, addcmul, addcdiv and lerp."""

import pytest
import torch


def test_a_float_alpha_adds_and_counts_one_version():
    p, g = torch.tensor([1.0, 2.0, 4.0]), torch.tensor([8.0, 16.0, 32.0])
    with torch.no_grad():
        out = p.add_(g, alpha=-0.25)
    assert out is p and p._version == 1 and p.tolist() == [-1.0, -2.0, -4.0]


@pytest.mark.parametrize("alpha, message", [
    (True, "Boolean alpha only supported for Boolean results."),
    (1e39, "value cannot be converted to type float without overflow"),
    (2 + 1j, "For non-complex input tensors, argument alpha must not be a complex number."),
])
def test_alpha_refusals_for_float32(alpha, message):
    with pytest.raises(RuntimeError) as caught:
        torch.add(torch.ones(3), torch.ones(3), alpha=alpha)
    assert str(caught.value) == message


def test_a_float_alpha_for_integers_is_refused():
    with pytest.raises(RuntimeError, match="^For integral input tensors, argument alpha must "
                       "not be a floating point number.$"):
        torch.add(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), alpha=0.5)


def test_an_infinite_alpha_is_taken_for_floats():
    out = torch.add(torch.ones(2), torch.tensor([1.0, -1.0]), alpha=float("inf"))
    assert out.tolist() == [float("inf"), float("-inf")]


def test_a_float_alpha_promotes_with_a_float16_and_a_float32_tensor():
    out = torch.add(torch.ones(2, dtype=torch.float16), torch.ones(2), alpha=0.5)
    assert out.dtype == torch.float32 and out.tolist() == [1.5, 1.5]


def test_subtracting_booleans_is_refused_before_alpha():
    with pytest.raises(RuntimeError, match="^Subtraction, the `-` operator, with two bool"):
        torch.sub(torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool), alpha=0.5)


@pytest.mark.parametrize("write, node", [
    (lambda x, y: x.add_(y, alpha=0.5), "AddBackward0"),
    (lambda x, y: x.sub_(y, alpha=0.5), "SubBackward0"),
    (lambda x, y: x.addcmul_(y, y, value=0.5), "AddcmulBackward0"),
    (lambda x, y: x.addcdiv_(y, y + 2, value=0.5), "AddcdivBackward0"),
    (lambda x, y: x.lerp_(y, 0.25), "LerpBackward0"),
])
def test_writes_with_grad_record_their_nodes_and_gradients(write, node):
    leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([0.5, 0.25, 2.0], requires_grad=True)
    x = leaf * 1
    write(x, y)
    assert type(x.grad_fn).__name__ == node and x._version == 1
    x.sum().backward()
    assert leaf.grad.tolist() == ([0.75] * 3 if node == "LerpBackward0" else [1.0] * 3)


def test_add_with_alpha_gradient_scales_the_other():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    torch.add(a, b, alpha=0.5).sum().backward()
    assert a.grad.tolist() == [1.0, 1.0] and b.grad.tolist() == [0.5, 0.5]


def test_a_leaf_that_requires_grad_is_refused():
    p = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used "
                       "in an in-place operation.$"):
        p.add_(torch.ones(3), alpha=0.1)


def test_an_expanded_destination_is_refused():
    x = torch.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element of "
                       "the written-to tensor refers to a single memory location"):
        x.add_(torch.ones(3), alpha=0.5)
