"""The hooks around state_dict and load_state_dict: pre-hooks before a module's own state,
post-hooks once its subtree is done, in torch's order and with torch's arguments; handles that
remove them; post-hooks that must return None; and share_memory. The same assertions run on
torch."""

import pytest
import torch
import torch.nn as nn

from conformance._support import raises


def _net():
    return nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1)))


def test_the_state_dict_hooks_run_around_each_subtree():
    net, log = _net(), []
    for name, m in net.named_modules():
        m.register_state_dict_pre_hook(
            lambda mod, prefix, keep, name=name: log.append(("pre", name, prefix, keep)))
        m.register_state_dict_post_hook(
            lambda mod, sd, prefix, meta, name=name: log.append(("post", name, len(sd), meta)))
    net.state_dict(keep_vars=True)
    assert log == [("pre", "", "", True), ("pre", "0", "0.", True),
                   ("post", "0", 2, {"version": 1}), ("pre", "1", "1.", True),
                   ("pre", "1.0", "1.0.", True), ("post", "1.0", 2, {"version": 1}),
                   ("pre", "1.1", "1.1.", True), ("post", "1.1", 4, {"version": 1}),
                   ("post", "1", 4, {"version": 1}), ("post", "", 4, {"version": 1})]


def test_the_load_hooks_see_the_keys_as_they_are_found():
    net, log, handles = _net(), [], []
    for name, m in net.named_modules():
        handles.append(m.register_load_state_dict_pre_hook(
            lambda mod, sd, prefix, meta, strict, missing, unexpected, errors, name=name:
            log.append(("pre", name, prefix, strict, list(missing), list(unexpected)))))
        handles.append(m.register_load_state_dict_post_hook(
            lambda mod, keys, name=name: log.append(
                ("post", name, list(keys.missing_keys), list(keys.unexpected_keys)))))
    state = dict(net.state_dict())
    del state["0.bias"]
    state["zzz"] = torch.ones(1)
    result = net.load_state_dict(state, strict=False)
    assert (result.missing_keys, result.unexpected_keys) == (["0.bias"], ["zzz"])
    assert log[:4] == [("pre", "", "", True, [], []), ("pre", "0", "0.", True, [], ["zzz"]),
                       ("post", "0", ["0.bias"], ["zzz"]),
                       ("pre", "1", "1.", True, ["0.bias"], ["zzz"])]
    assert log[-2:] == [("post", "1", ["0.bias"], ["zzz"]), ("post", "", ["0.bias"], ["zzz"])]
    for handle in handles:
        handle.remove()
    log.clear()
    net.load_state_dict(net.state_dict())
    assert log == []


def test_the_post_hooks_return_none():
    layer = nn.Linear(2, 2)
    layer.register_state_dict_post_hook(lambda *args: {})
    with raises(RuntimeError, "state_dict post-hook must return None"):
        layer.state_dict()
    layer = nn.Linear(2, 2)
    layer.register_load_state_dict_post_hook(lambda *args: 1)
    with pytest.raises(AssertionError, match="are not expected to return new values"):
        layer.load_state_dict(layer.state_dict())


def test_the_hooks_may_change_what_they_are_given():
    layer = nn.Linear(2, 2)
    layer.register_load_state_dict_post_hook(lambda mod, keys: keys.missing_keys.clear())
    assert repr(layer.load_state_dict({"weight": torch.ones(2, 2)})) == (
        "<All keys matched successfully>")
    layer.register_state_dict_post_hook(
        lambda mod, sd, prefix, meta: sd.__setitem__(prefix + "extra", 1))
    assert list(layer.state_dict()) == ["weight", "bias", "extra"]


def test_share_memory_keeps_the_same_tensors():
    layer = nn.Linear(2, 2)
    weight = layer.weight
    layer.weight.grad = torch.ones(2, 2)
    grad = layer.weight.grad
    assert layer.share_memory() is layer
    assert layer.weight is weight and layer.weight.grad is grad
    assert layer.weight.is_shared() and layer.bias.is_shared() and grad.is_shared()
