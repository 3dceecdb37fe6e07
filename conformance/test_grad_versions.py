"""``.grad._version`` after backward tells how the gradient got there: a gradient taken over
keeps its own count (1 if a second one was added into it in place), one copied into the
leaf's layout is written once (1), and a later backward adds into it in place (+1).
The same assertions run on torch."""

import pytest
import torch

CASES = {
    "z * 2": (lambda z: (z * 2).sum(), 0),
    "exp": (lambda z: z.exp().sum(), 0),
    "z + z": (lambda z: (z + z).sum(), 0),
    "mean": (lambda z: z.mean(), 0),
    "index": (lambda z: z[0], 0),
    "expand": (lambda z: z.expand(3, 2).sum(), 0),
    "cat": (lambda z: torch.cat([z, z]).sum(), 0),
    "z * z": (lambda z: (z * z).sum(), 1),
    "z @ z": (lambda z: z @ z, 1),
    "dot": (lambda z: torch.dot(z, z), 1),
    "z * z + z": (lambda z: (z * z + z).sum(), 1),
    "sum": (lambda z: z.sum(), 1),
    "clone": (lambda z: z.clone().sum(), 1),
    "view": (lambda z: z.view(2, 1).sum(), 1),
    "z * z * z": (lambda z: (z * z * z).sum(), 2),
    "z + z + z + z": (lambda z: (z + z + z + z).sum(), 2),
    "z * z + z * z": (lambda z: (z * z + z * z).sum(), 3),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_first_gradient_version(name):
    f, version = CASES[name]
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    f(z).backward()
    assert z.grad._version == version
    f(z).backward()  # added into .grad in place
    assert z.grad._version == version + 1


def test_a_gradient_someone_else_holds_is_copied():
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    g = torch.tensor([3.0, 4.0])
    z.backward(g)
    assert z.grad._version == 1 and g._version == 0 and z.grad.tolist() == [3.0, 4.0]


def test_a_gradient_passed_on_as_is_to_two_inputs_is_not_written():
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, g):
            return g * 2, g

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    y = a * 1
    (Twice.apply(y, b) + y).sum().backward()
    assert a.grad.tolist() == [3.0, 3.0] and b.grad.tolist() == [1.0, 1.0]


TRANSPOSED = {
    "z * z": (lambda z: (z * z).sum(), 1),
    "exp + sin": (lambda z: (z.exp() + z.sin()).sum(), 1),
    "z * z * z": (lambda z: (z * z * z).sum(), 2),
    "z * z + z * z": (lambda z: (z * z + z * z).sum(), 3),
    "exp": (lambda z: z.exp().sum(), 0),
    "sum": (lambda z: z.sum(), 1),
}


@pytest.mark.parametrize("name", sorted(TRANSPOSED))
def test_gradients_summed_for_a_transposed_leaf_are_added_in_place(name):
    f, version = TRANSPOSED[name]
    z = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).t().requires_grad_()
    f(z).backward()
    assert z.grad._version == version
    assert z.grad.stride() == (1, 3)  # the leaf's own layout, however it got there
