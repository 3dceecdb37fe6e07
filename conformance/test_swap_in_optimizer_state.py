"""torch.optim.swap_in_optimizer_params_and_state: a step on other tensors and state."""

import copy

import pytest
import torch

NAME = "swap_in_optimizer_params_and_state"


def _stepped(lr=0.1):
    weight = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    bias = torch.nn.Parameter(torch.tensor([0.5]))
    adam = torch.optim.Adam([weight, bias], lr=lr)
    weight.grad, bias.grad = torch.tensor([0.5, 0.5]), torch.tensor([1.0])
    adam.step()
    return adam, weight, bias


def _copies(weight, bias):
    copies = {"w": weight.detach().clone().requires_grad_(), "b": bias.detach().clone()}
    copies["b"].requires_grad_()
    copies["w"].grad, copies["b"].grad = torch.tensor([1.0, -1.0]), torch.tensor([-1.0])
    return copies


def test_a_step_inside_moves_the_copies_and_the_given_state():
    adam, weight, bias = _stepped()
    live_weight, live_average = weight.detach().clone(), adam.state[weight]["exp_avg"].clone()
    params_list, group = adam.param_groups[0]["params"], adam.param_groups[0]
    copies, saved = _copies(weight, bias), copy.deepcopy(adam.state_dict())
    saved["param_groups"][0]["lr"] = 1.0
    given_average = saved["state"][0]["exp_avg"]
    before = copies["w"].detach().clone()
    with torch.optim.swap_in_optimizer_params_and_state(adam, copies, saved):
        assert adam.param_groups[0]["params"] == [copies["w"], copies["b"]]
        assert adam.param_groups[0]["lr"] == 1.0
        assert set(adam.state) == {copies["w"], copies["b"]}
        adam.step()
    assert torch.equal(weight.detach(), live_weight)
    assert torch.equal(adam.state[weight]["exp_avg"], live_average)
    assert not torch.equal(copies["w"].detach(), before)
    assert given_average is saved["state"][0]["exp_avg"] and not torch.equal(
        given_average, live_average)  # written in place by the step
    assert adam.param_groups[0] is group and group["params"] is params_list
    assert group["lr"] == 0.1 and set(adam.state) == {weight, bias}


def test_the_optimizer_is_restored_when_the_body_raises():
    adam, weight, bias = _stepped()
    with pytest.raises(KeyError):
        with torch.optim.swap_in_optimizer_params_and_state(
                adam, _copies(weight, bias), copy.deepcopy(adam.state_dict())):
            raise KeyError("inside")
    assert adam.param_groups[0]["params"] == [weight, bias] and set(adam.state) == {weight, bias}


def _refusal(adam, parameters, state_dict):
    with pytest.raises(RuntimeError) as caught:
        with torch.optim.swap_in_optimizer_params_and_state(adam, parameters, state_dict):
            pass
    return str(caught.value)


def test_an_optimizer_without_state_is_refused():
    weight = torch.nn.Parameter(torch.ones(2))
    adam = torch.optim.Adam([weight])
    assert _refusal(adam, {"w": weight}, adam.state_dict()) == (
        f"{NAME} requires initialized optimizer state.")


@pytest.mark.parametrize(("change", "message"), [
    (lambda sd: "no", f"{NAME} requires a DCP-style optimizer state_dict."),
    (lambda sd: {**sd, "state": []}, f"{NAME} requires swapin_optim_state['state'] to be a dict "
     "mapping packed parameter ids to per-param state dicts, got list."),
    (lambda sd: {**sd, "state": {torch.ones(1): {}}},
     f"{NAME} requires optimizer.state_dict()-style state keyed by packed parameter ids."),
    (lambda sd: {**sd, "state": {0: 3}},
     f"{NAME} requires per-parameter optimizer state entries to be dictionaries."),
    (lambda sd: {**sd, "param_groups": ()}, f"{NAME} requires swapin_optim_state['param_groups']"
     " to be a list of param-group dicts, got tuple."),
    (lambda sd: {**sd, "param_groups": []}, "swapin_optim_state has a different number of "
     "parameter groups than the live optimizer."),
    (lambda sd: {**sd, "param_groups": [3]},
     f"{NAME} requires each optimizer param group to be a dictionary."),
    (lambda sd: {**sd, "param_groups": [{**sd["param_groups"][0], "params": [0.0, 1]}]},
     f"{NAME} requires optimizer.state_dict()-style param_groups[*]['params'] entries keyed by "
     "packed parameter ids."),
    (lambda sd: {**sd, "param_groups": [{**sd["param_groups"][0], "params": [0]}]},
     "swapin_optim_state param group 0 has a different number of params than the live "
     "optimizer param group."),
    (lambda sd: {**sd, "param_groups": [{**sd["param_groups"][0], "extra": 1}]},
     f"{NAME} requires optimizer.state_dict()-style param group keys to exactly match the live "
     "optimizer group keys for group 0. Keys only in swap-in: ['extra']. Keys only in live: []."),
    (lambda sd: {**sd, "state": {**sd["state"], 7: {}}}, f"{NAME} requires "
     "swapin_optim_state['state'] to be keyed only by packed parameter ids from "
     "param_groups[*]['params']; got extra keys [7]."),
])
def test_malformed_state_dicts_are_refused_in_torchs_words(change, message):
    adam, weight, bias = _stepped()
    state_dict = change(copy.deepcopy(adam.state_dict()))
    assert _refusal(adam, _copies(weight, bias), state_dict) == message
    assert adam.param_groups[0]["params"] == [weight, bias]


def test_too_few_tensors_are_refused():
    adam, weight, bias = _stepped()
    assert _refusal(adam, {"w": weight}, copy.deepcopy(adam.state_dict())) == (
        f"{NAME} requires the explicit parameter state to match optimizer.param_groups "
        "ordering.")


def test_it_is_named_in_torch_optim():
    assert torch.optim.swap_in_optimizer_params_and_state.__module__ == "torch.optim".replace(
        "torch", torch.__name__)
    assert "swap_in_optimizer_params_and_state" in torch.optim.__all__
