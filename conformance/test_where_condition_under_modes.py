"""What a dispatch mode sees of where: the condition as given (a uint8 one stays uint8, and
the node saves it so), numbers as scalar_tensor calls, and in the backward the gradient for
`other` computed before the one for `self`. The same assertions run on torch."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class Record(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        shown = [(a.dtype, a.tolist()) if isinstance(a, torch.Tensor) else a for a in args]
        self.calls.append((str(func), shown, sorted(kwargs)))
        return func(*args, **kwargs)


@pytest.fixture(params=[torch.bool, torch.uint8])
def condition(request):
    return torch.tensor([1, 0, 2]).to(request.param)


def truth(condition):
    return (condition.dtype, condition.tolist())


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the uint8 deprecation warning
        yield


def test_tensors(condition):
    a, b = torch.tensor([1., 2., 3.]), torch.tensor([4., 5., 6.])
    with Record() as mode:
        out = torch.where(condition, a, b)
    assert mode.calls == [("aten.where.self", [truth(condition), (a.dtype, a.tolist()),
                                               (b.dtype, b.tolist())], [])]
    assert out.tolist() == [1., 5., 3.]


def test_numbers(condition):
    with Record() as mode:
        out = torch.where(condition, 1., 0.)
    names = [name for name, _, _ in mode.calls]
    assert names == ["aten.scalar_tensor.default"] * 2 + ["aten.where.self"]
    assert mode.calls[-1][1] == [truth(condition), (torch.float32, 1.), (torch.float32, 0.)]
    assert out.tolist() == [1., 0., 1.]


def test_out(condition):
    out, ones, zeros = torch.zeros(3), torch.ones(3), torch.zeros(3)
    with Record() as mode:
        torch.where(condition, ones, zeros, out=out)
    assert mode.calls[0][0] == "aten.where.self_out"
    assert mode.calls[0][1][0] == truth(condition)
    assert mode.calls[0][2] == ["out"]
    assert out.tolist() == [1., 0., 1.]


def test_backward(condition):
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = torch.tensor([4., 5., 6.], requires_grad=True)
    out = torch.where(condition, x, y)
    assert truth(out.grad_fn._saved_condition) == truth(condition)
    with Record() as mode:
        out.backward(torch.tensor([10., 20., 30.]))
    wheres = [args for name, args, _ in mode.calls if name == "aten.where.self"]
    grads = (torch.float32, [10., 20., 30.])
    assert wheres == [[truth(condition), (torch.float32, 0.), grads],
                      [truth(condition), grads, (torch.float32, 0.)]]
    assert x.grad.tolist() == [10., 0., 30.] and y.grad.tolist() == [0., 20., 0.]


def test_backward_to_one_input(condition):
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    out = torch.where(condition, 0., x)
    with Record() as mode:
        out.sum().backward()
    wheres = [args for name, args, _ in mode.calls if name == "aten.where.self"]
    assert wheres == [[truth(condition), (torch.float32, 0.), (torch.float32, [1.] * 3)]]
    assert x.grad.tolist() == [0., 1., 0.]
