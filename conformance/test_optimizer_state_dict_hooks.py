"""Hooks around an optimizer's state_dict() and load_state_dict(), and older saved states."""

import copy
import pickle

import pytest
import torch


def _sgd(lr=0.1):
    return torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=lr)


def test_state_dict_pre_hooks_run_in_order_and_prepend_goes_first():
    opt, calls = _sgd(), []
    first = opt.register_state_dict_pre_hook(lambda o: calls.append(("a", o is opt)))
    opt.register_state_dict_pre_hook(lambda o: calls.append(("b", o is opt)), prepend=True)
    opt.state_dict()
    assert calls == [("b", True), ("a", True)]
    assert type(first).__name__ == "RemovableHandle"
    first.remove()
    opt.state_dict()
    assert calls[2:] == [("b", True)]


def test_a_state_dict_post_hook_changes_the_dictionary_or_replaces_it():
    opt = _sgd()
    opt.register_state_dict_post_hook(lambda o, sd: sd.update(extra=1))
    assert opt.state_dict()["extra"] == 1
    opt.register_state_dict_post_hook(lambda o, sd: {"wrapped": sd})
    opt.register_state_dict_post_hook(lambda o, sd: None)  # None keeps what there is
    saved = opt.state_dict()
    assert list(saved) == ["wrapped"]
    assert sorted(saved["wrapped"]) == ["extra", "param_groups", "state"]


def test_a_load_pre_hook_sees_a_shallow_copy_and_may_return_another_dictionary():
    opt = _sgd()
    saved, seen = opt.state_dict(), []

    def pre(o, sd):
        seen.append(sd is saved)
        sd["param_groups"] = [dict(g, lr=0.5) for g in sd["param_groups"]]

    opt.register_load_state_dict_pre_hook(pre)
    assert opt.load_state_dict(saved) is None
    assert seen == [False]
    assert opt.param_groups[0]["lr"] == 0.5 and saved["param_groups"][0]["lr"] == 0.1

    opt.register_load_state_dict_pre_hook(
        lambda o, sd: dict(sd, param_groups=[dict(g, lr=0.25) for g in sd["param_groups"]]))
    opt.load_state_dict(saved)
    assert opt.param_groups[0]["lr"] == 0.25


def test_load_post_hooks_run_after_loading_and_prepend_goes_first():
    opt, calls = _sgd(), []
    saved = _sgd(lr=0.75).state_dict()
    opt.register_load_state_dict_post_hook(lambda o: calls.append(("a", o.param_groups[0]["lr"])))
    handle = opt.register_load_state_dict_post_hook(lambda o: calls.append(("b",)), prepend=True)
    opt.load_state_dict(saved)
    assert calls == [("b",), ("a", 0.75)]
    handle.remove()
    opt.load_state_dict(saved)
    assert calls[2:] == [("a", 0.75)]


def test_an_unpickled_optimizer_has_empty_hook_dictionaries():
    opt = _sgd()
    opt.register_state_dict_pre_hook(len)
    again = pickle.loads(pickle.dumps(opt))
    names = sorted(k for k in vars(again) if k.endswith("hooks"))
    assert names == sorted(k for k in vars(opt) if k.endswith("hooks"))
    assert len(names) == 6
    assert all(len(getattr(again, n)) == 0 for n in names)
    again.state_dict()


@pytest.mark.parametrize("cls", [torch.optim.Adam, torch.optim.AdamW])
@pytest.mark.parametrize("saved_step", [1.0, 1])
def test_a_step_count_saved_as_a_number_is_loaded_as_a_tensor(cls, saved_step):
    a = torch.ones(2, requires_grad=True)
    a.grad = torch.ones(2)
    opt = cls([a], lr=0.1)
    opt.step()
    saved = copy.deepcopy(opt.state_dict())  # a loaded state shares its tensors
    saved["state"][0]["step"] = saved_step  # as versions before 1.12 wrote it

    b = torch.ones(2, requires_grad=True)
    fresh = cls([b], lr=0.1)
    fresh.load_state_dict(saved)
    step = fresh.state[b]["step"]
    assert isinstance(step, torch.Tensor) and step.dtype == torch.float32 and step.item() == 1
    b.grad = torch.ones(2)
    fresh.step()
    assert fresh.state[b]["step"].item() == 2

    c = torch.ones(2, requires_grad=True)
    reference = cls([c], lr=0.1)
    reference.load_state_dict(copy.deepcopy(opt.state_dict()))
    c.grad = torch.ones(2)
    reference.step()
    assert torch.equal(b, c)
