"""Recurrent layers read their weights afresh when they were swapped in behind their back:
by torch.func.functional_call, or by a parametrization."""

import pytest
import torch
from torch.nn.utils import parametrize

INPUT = torch.linspace(-1.0, 1.0, 30, dtype=torch.float64).reshape(5, 2, 3)


def _layer(cls):
    torch.manual_seed(0)
    return cls(3, 4, num_layers=2).double()


@pytest.mark.parametrize("cls", [torch.nn.RNN, torch.nn.GRU, torch.nn.LSTM])
def test_functional_call_runs_on_the_tensors_given_and_they_get_gradients(cls):
    module = _layer(cls)
    given = {k: (v.detach() * 0.5).requires_grad_(True) for k, v in module.named_parameters()}
    out = torch.func.functional_call(module, given, (INPUT,))[0]
    out.sum().backward()
    twin = _layer(cls)
    with torch.no_grad():
        for name, p in twin.named_parameters():
            p.copy_(given[name])
    expected = twin(INPUT)[0]
    expected.sum().backward()
    assert torch.equal(out, expected)
    for name, p in twin.named_parameters():
        assert torch.equal(given[name].grad, p.grad), name
    assert all(p.grad is None for p in module.parameters())  # its own weights untouched


@pytest.mark.parametrize("cls", [torch.nn.GRU, torch.nn.LSTM])
def test_the_module_runs_on_its_own_weights_again_afterwards(cls):
    module = _layer(cls)
    before = module(INPUT)[0]
    given = {k: torch.zeros_like(v) for k, v in module.named_parameters()}
    zeroed = torch.func.functional_call(module, given, (INPUT,))[0]  # every gate at rest
    assert torch.equal(zeroed, torch.zeros_like(before)) and before.abs().sum() > 0
    assert torch.equal(module(INPUT)[0], before)


class _Doubled(torch.nn.Module):
    def forward(self, weight):
        return weight * 2


def test_a_parametrized_weight_is_read_at_every_forward():
    module = _layer(torch.nn.LSTM)
    plain = _layer(torch.nn.LSTM)
    with torch.no_grad():
        plain.weight_hh_l0.mul_(2)
    parametrize.register_parametrization(module, "weight_hh_l0", _Doubled())
    assert torch.equal(module(INPUT)[0], plain(INPUT)[0])
    with torch.no_grad():
        module.parametrizations.weight_hh_l0.original.mul_(0.0)
        plain.weight_hh_l0.mul_(0.0)
    assert torch.equal(module(INPUT)[0], plain(INPUT)[0])
