"""Shape functions at the edges: promotion when stacking, empty lists, impossible shapes."""

import torch

from conformance._support import raises


def test_stack_promotes_as_torch_does():
    ints, floats = torch.zeros(2, 3, dtype=torch.int64), torch.ones(2, 3)
    assert torch.stack([ints, floats]).dtype == torch.float32
    mixed = torch.stack([torch.tensor([True]), torch.tensor([2], dtype=torch.uint8)])
    assert mixed.dtype == torch.uint8 and mixed.tolist() == [[1], [2]]


def test_stack_gives_each_input_a_gradient_of_its_own_dtype():
    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2, dtype=torch.float64, requires_grad=True)
    z = torch.stack([x, y])
    assert z.dtype == torch.float64
    (z * torch.arange(4.0).reshape(2, 2)).sum().backward()
    assert x.grad.dtype == torch.float32 and x.grad.tolist() == [0.0, 1.0]
    assert y.grad.tolist() == [2.0, 3.0]


def test_stack_of_nothing_is_refused():
    with raises(RuntimeError, "stack expects a non-empty TensorList"):
        torch.stack([])
