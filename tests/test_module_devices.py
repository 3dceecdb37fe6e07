"""Module.cuda, to(device), cpu and to_empty on the simulated device (and real CuPy)."""

import pytest

import refgrad
from refgrad import nn
from tests.devices import AVAILABLE, use

CUDA = refgrad.device("cuda", 0)


@pytest.fixture(params=AVAILABLE)
def device(request, monkeypatch):
    counts = use(request.param, monkeypatch)
    yield counts
    refgrad.set_default_device(None)


def _model():
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    model[2].register_buffer("steps", refgrad.tensor([4]))
    model[0].weight.grad = refgrad.ones(3, 2)
    return model


def _tensors(model):
    return [*model.parameters(), *model.buffers(), model[0].weight.grad]


@pytest.mark.parametrize("move", ["cuda", "to", "to_device", "cuda_index"])
def test_a_move_keeps_parameters_and_grads_and_replaces_buffers(device, move):
    model = _model()
    before = _tensors(model)
    values = [t.tolist() for t in before]
    optimizer = refgrad.optim.SGD(model.parameters(), lr=0.5)
    moves = {"cuda": lambda m: m.cuda(), "to": lambda m: m.to("cuda"),
             "to_device": lambda m: m.to(CUDA, refgrad.float64),
             "cuda_index": lambda m: m.cuda(CUDA)}
    assert moves[move](model) is model
    after = _tensors(model)
    assert [t.device for t in after] == [CUDA] * len(after)
    assert [t.cpu().tolist() for t in after] == values
    assert all(a is b for a, b in zip(before[:4], after[:4], strict=True))  # parameters
    assert after[5] is before[5]  # the same .grad object
    assert after[4] is not before[4] and before[4].device.type == "cpu"  # the buffer
    assert model[2].steps.dtype == refgrad.int64
    assert optimizer.param_groups[0]["params"][0] is model[0].weight


def test_a_moved_model_trains_on_the_device_and_comes_back(device):
    model = _model().cuda()
    model.zero_grad()
    x = refgrad.ones(4, 2).cuda()
    model(x).sum().backward()
    grad = model[0].weight.grad
    assert grad.device == CUDA
    host_values = grad.cpu().tolist()
    assert model.cpu() is model
    assert all(t.device.type == "cpu" for t in _tensors(model))
    assert model[0].weight.grad is grad and grad.tolist() == host_values


def test_to_empty_and_type_reach_the_device(device):
    model = _model()
    weight = model[0].weight
    model.to_empty(device="cuda")
    assert model[0].weight is weight and weight.device == CUDA and weight.requires_grad
    assert model[2].steps.device == CUDA and model[2].steps.dtype == refgrad.int64
    model.type("torch.cuda.DoubleTensor")
    assert weight.device == CUDA and weight.dtype == refgrad.float64
    model.type("torch.FloatTensor")
    assert [t.device.type for t in _tensors(model)] == ["cpu"] * 6


def test_a_model_made_on_the_default_device_moves_back(device):
    refgrad.set_default_device("cuda")
    model = nn.Linear(2, 2)
    assert model.weight.device == CUDA
    refgrad.set_default_device(None)
    assert model.to("cpu").weight.device.type == "cpu" and model.bias.device.type == "cpu"
