"""Black-box tests: Module.cpu, cuda, to(device), type and to_empty go through one walk that
keeps each Parameter and its .grad and replaces buffers. The same assertions run on torch.
"""

import pytest
import torch
from torch import nn

from conformance._support import raises


def _model():
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    model[2].register_buffer("steps", torch.tensor([4]))
    model[0].weight.grad = torch.ones(3, 2)
    return model


def test_moves_to_the_cpu_keep_every_tensor():
    model = _model()
    before = [*model.parameters(), *model.buffers(), model[0].weight.grad]
    for move in (lambda m: m.cpu(), lambda m: m.to("cpu"), lambda m: m.to(torch.device("cpu")),
                 lambda m: m.to("cpu", torch.float32)):
        assert move(model) is model
        assert all(a is b for a, b in zip(before, [*model.parameters(), *model.buffers(),
                                                     model[0].weight.grad], strict=True))


def test_cuda_refusals_change_nothing():
    model = _model()
    weight = model[0].weight
    with raises(RuntimeError, "Invalid device, must be cuda device"):
        model.cuda("cpu")
    if torch.cuda.is_available():
        return
    for move in (lambda: model.cuda(), lambda: model.to("cuda"),
                 lambda: model.to_empty(device="cuda")):
        with pytest.raises(AssertionError):
            move()
    with raises(RuntimeError, "Cannot access accelerator device when none is available."):
        model.cuda(0)  # a bare index means the accelerator
    assert model[0].weight is weight and weight.device.type == "cpu"
    assert nn.Tanh().cuda().training  # nothing to move: no device needed


def test_type_converts_every_tensor_integer_buffers_too():
    model = _model()
    weight, grad, steps = model[0].weight, model[0].weight.grad, model[2].steps
    assert model.type(torch.float64) is model
    assert model[0].weight is weight and weight.dtype == torch.float64
    assert model[0].weight.grad is grad and grad.dtype == torch.float64
    assert model[2].steps is not steps and model[2].steps.dtype == torch.float64
    assert steps.dtype == torch.int64
    model.type("torch.FloatTensor")
    assert weight.dtype == torch.float32 and model[2].steps.dtype == torch.float32


def test_type_refusals_change_nothing():
    model = _model()
    with raises(RuntimeError, "data set to a tensor that requires gradients must be floating "
                "point or complex dtype"):
        model.type(torch.int64)
    with raises(ValueError, "invalid type: 'foo'"):
        model.type("foo")
    assert [p.dtype for p in model.parameters()] == [torch.float32] * 4
    with raises(TypeError, "Module.type() missing 1 required positional argument: 'dst_type'"):
        model.type()


def test_to_empty_gives_new_memory_of_the_same_shapes():
    model = _model()
    weight, grad, steps = model[0].weight, model[0].weight.grad, model[2].steps
    assert model.to_empty(device="cpu") is model
    assert model[0].weight is weight and weight.shape == (3, 2) and weight.requires_grad
    assert model[0].weight.grad is grad and grad.shape == (3, 2)
    assert model[2].steps is not steps and model[2].steps.dtype == torch.int64
    assert steps.tolist() == [4]
    inner = model[2].weight
    model.to_empty(device=None, recurse=False)  # the Sequential has no tensors of its own
    assert model[2].weight is inner


def test_argument_errors_name_the_module_method():
    model = _model()
    with raises(TypeError, "Module.to_empty() missing 1 required keyword-only argument: "
                "'device'"):
        model.to_empty()
    with raises(TypeError, "Module.to_empty() takes 1 positional argument but 2 were given"):
        model.to_empty("cpu")
    with raises(TypeError, "Module.cpu() takes 1 positional argument but 2 were given"):
        model.cpu(0)
