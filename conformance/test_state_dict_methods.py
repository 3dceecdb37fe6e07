"""The methods a module's state goes through: _save_to_state_dict and _load_from_state_dict,
called for each module with torch's arguments and in torch's order; class versions in the
metadata; old batch-norm checkpoints; _apply seen by every conversion; the private state
hooks; _named_members; Sequential's arithmetic. The same assertions run on torch."""

import pickle
import warnings

import pytest
import torch
import torch.nn as nn

from conformance._support import raises


class Logged(nn.Linear):
    _version = 3
    log: list = []

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        self.log.append(("save", prefix, keep_vars, list(destination)))
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "extra"] = torch.ones(1)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        self.log.append(("load", prefix, dict(local_metadata), strict, sorted(state_dict)))
        state_dict.pop(prefix + "extra", None)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)


def _net():
    Logged.log = []
    return nn.Sequential(Logged(2, 2), nn.Sequential(nn.ReLU(), Logged(2, 1)))


def test_save_is_called_for_each_module_in_order_with_what_is_saved_so_far():
    net = _net()
    saved = net.state_dict(keep_vars=True)
    assert Logged.log == [("save", "0.", True, []),
                          ("save", "1.1.", True, ["0.weight", "0.bias", "0.extra"])]
    assert list(saved) == ["0.weight", "0.bias", "0.extra", "1.1.weight", "1.1.bias",
                           "1.1.extra"]
    assert saved["0.weight"] is net[0].weight
    assert dict(saved._metadata) == {"": {"version": 1}, "0": {"version": 3},
                                     "1": {"version": 1}, "1.0": {"version": 1},
                                     "1.1": {"version": 3}}
    assert nn.Module._version == 1 and nn.BatchNorm1d._version == 2


def test_load_gets_its_own_keys_metadata_and_strict_and_may_drop_keys():
    net = _net()
    saved = net.state_dict()
    Logged.log = []
    assert str(net.load_state_dict(saved, strict=False)) == "<All keys matched successfully>"
    assert Logged.log == [
        ("load", "0.", {"version": 3}, True, ["0.bias", "0.extra", "0.weight"]),
        ("load", "1.1.", {"version": 3}, True, ["1.1.bias", "1.1.extra", "1.1.weight"])]
    assert "0.extra" in saved  # the walk works on a copy
    Logged.log = []
    net.load_state_dict(dict(saved), assign=True)
    assert Logged.log[0][2] == {"assign_to_params_buffers": True}


def test_a_child_sees_only_what_its_parent_left():
    class Renaming(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = nn.Linear(1, 1)

        def _load_from_state_dict(self, state_dict, prefix, *args):
            for name in ("weight", "bias"):
                old = prefix + "old_" + name
                if old in state_dict:
                    state_dict[prefix + "inner." + name] = state_dict.pop(old)
            super()._load_from_state_dict(state_dict, prefix, *args)

    m = Renaming()
    result = m.load_state_dict({"old_weight": torch.tensor([[2.0]]),
                                "old_bias": torch.tensor([3.0])})
    assert str(result) == "<All keys matched successfully>"
    assert m.inner.weight.item() == 2.0 and m.inner.bias.item() == 3.0


def test_errors_from_the_base_load_are_joined_in_torchs_words():
    message = ('Error(s) in loading state_dict for Sequential:\n\t'
               'Missing key(s) in state_dict: "1.bias". \n\t'
               'Unexpected key(s) in state_dict: "x.y", "1.weight.z". \n\t'
               'size mismatch for 0.weight: copying a param with shape torch.Size([3]) from '
               'checkpoint, the shape in current model is torch.Size([2, 2]).\n\t'
               'While copying the parameter named "0.bias", expected torch.Tensor or '
               "Tensor-like object from checkpoint but received <class 'int'>")
    net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    with raises(RuntimeError, message):
        net.load_state_dict({"0.weight": torch.zeros(3), "0.bias": 5,
                             "1.weight": torch.zeros(1, 2), "1.weight.z": torch.zeros(1),
                             "x.y": torch.zeros(1)})


def test_a_scalar_saved_as_a_vector_of_one_loads_and_a_copy_is_in_place():
    m = nn.Module()
    m.register_buffer("s", torch.tensor(1.0))
    kept = m.s
    m.load_state_dict({"s": torch.tensor([4.0])})
    assert m.s is kept and m.s.item() == 4.0 and m.s._version == 1


def test_old_batch_norm_checkpoints_keep_the_count():
    bn = nn.BatchNorm1d(2)
    bn.num_batches_tracked.fill_(7)
    saved = bn.state_dict()
    del saved["num_batches_tracked"]
    for version in (None, 1):
        if version is None:
            del saved._metadata[""]
        else:
            saved._metadata[""] = {"version": version}
        assert str(bn.load_state_dict(saved)) == "<All keys matched successfully>"
        assert bn.num_batches_tracked.item() == 7
    saved._metadata[""] = {"version": 2}
    result = bn.load_state_dict(saved, strict=False)
    assert result.missing_keys == ["num_batches_tracked"]
    with raises(RuntimeError, "Error(s) in loading state_dict for BatchNorm1d:\n\t"
                              'Missing key(s) in state_dict: "num_batches_tracked". '):
        bn.load_state_dict(saved)
    plain = {k: v for k, v in saved.items()}
    assert str(nn.BatchNorm1d(2).load_state_dict(plain)) == "<All keys matched successfully>"


class Seen(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1)
        self.calls = []

    def _apply(self, fn, recurse=True):
        self.calls.append(recurse)
        return super()._apply(fn, recurse)


@pytest.mark.parametrize("convert", [lambda m: m.to(torch.float64), lambda m: m.double(),
                                     lambda m: m.float(), lambda m: m.half(), lambda m: m.cpu(),
                                     lambda m: m.type(torch.float64),
                                     lambda m: m.to_empty(device="cpu"),
                                     lambda m: m.share_memory()])
def test_an_apply_override_sees_every_conversion_of_a_module_above_it(convert):
    inner = Seen()
    outer = nn.Sequential(inner)
    assert convert(outer) is outer
    assert inner.calls == [True]


def test_apply_walks_children_before_their_parent():
    order = []

    class Noting(nn.Linear):
        def _apply(self, fn, recurse=True):
            order.append(self.out_features)
            return super()._apply(fn, recurse)

    net = nn.Sequential(Noting(1, 1), nn.Sequential(Noting(1, 2)), Noting(1, 3))
    net.double()
    assert order == [1, 2, 3] and net[1][0].weight.dtype == torch.float64
    assert net._apply(lambda t: t.float(), recurse=False) is net
    assert net[0].weight.dtype == torch.float64


def test_the_private_state_dict_hook_may_replace_the_result_at_the_root():
    m = nn.Linear(1, 1)
    m._register_state_dict_hook(lambda mod, d, prefix, meta: {"replaced": prefix})
    assert m.state_dict() == {"replaced": ""}

    def public(mod, d, prefix, meta):
        return None

    m.register_state_dict_post_hook(public)
    assert public._from_public_api is True
    with raises(RuntimeError, "Cannot register the same function as the state dict post hook "
                              "that was previously registered via register_state_dict_post_hook"):
        m._register_state_dict_hook(public)


def test_the_private_load_pre_hook_gets_no_module_unless_asked():
    seen = []
    m = nn.Linear(1, 1)
    m._register_load_state_dict_pre_hook(lambda *args: seen.append(("plain", args[1:4])))
    m._register_load_state_dict_pre_hook(lambda mod, *args: seen.append((mod is m, args[1])),
                                         with_module=True)
    handle = m.register_load_state_dict_pre_hook(lambda mod, *args: seen.append(mod is m))
    m.load_state_dict(nn.Linear(1, 1).state_dict())
    assert seen == [("plain", ("", {"version": 1}, True)), (True, ""), True]
    handle.remove()
    assert len(m._load_state_dict_pre_hooks) == 2


def test_a_load_pre_hook_with_its_module_pickles_with_it():
    m = nn.Linear(1, 1)
    m.register_load_state_dict_pre_hook(_note_load)
    copied = pickle.loads(pickle.dumps(m))
    _NOTED.clear()
    copied.load_state_dict(m.state_dict())
    assert _NOTED == [copied]


_NOTED: list = []


def _note_load(module, *args):
    _NOTED.append(module)


def test_positional_arguments_of_state_dict_warn():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        saved = nn.Linear(1, 1).state_dict(None, "p.")
    assert list(saved) == ["p.weight", "p.bias"]
    assert [w.category for w in caught] == [FutureWarning]
    assert str(caught[0].message) == (
        "Positional args are being deprecated, use kwargs instead. Refer to "
        "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
        "#torch.nn.Module.state_dict for details.")


def test_named_members_and_the_backward_hook_getters():
    shared = nn.Linear(1, 1)
    net = nn.Sequential(shared, shared)
    names = [n for n, _ in net._named_members(lambda m: m._parameters.items(), prefix="x")]
    assert names == ["x.0.weight", "x.0.bias"]
    every = net._named_members(lambda m: m._parameters.items(), remove_duplicate=False)
    assert [n for n, _ in every] == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert list(net._named_members(lambda m: m._parameters.items(), recurse=False)) == []
    m = nn.Linear(1, 1)
    assert m._get_backward_hooks() == ([], []) and m._get_backward_pre_hooks() == []

    def full(mod, gi, go):
        return None

    def pre(mod, go):
        return None

    m.register_full_backward_hook(full)
    m.register_full_backward_pre_hook(pre)
    assert m._get_backward_hooks() == ([full], []) and m._get_backward_pre_hooks() == [pre]
    old = nn.Linear(1, 1)
    old.register_backward_hook(full)
    assert old._get_backward_hooks() == ([], [full])
    assert old._slow_forward(torch.ones(1)).shape == (1,)


def test_sequential_arithmetic_shares_its_children():
    relu, tanh = nn.ReLU(), nn.Tanh()
    s = nn.Sequential(relu, tanh)
    doubled = s * 2
    assert type(doubled) is nn.Sequential and list(doubled) == [relu, tanh, relu, tanh]
    assert list(doubled._modules) == ["0", "1", "2", "3"]
    assert list(3 * s) == [relu, tanh] * 3 and len(s) == 2
    assert list(s + nn.Sequential(relu)) == [relu, tanh, relu]
    same = s
    s += nn.Sequential(nn.Sigmoid())
    assert s is same and len(s) == 3 and list(s._modules) == ["0", "1", "2"]
    s *= 2
    assert s is same and len(s) == 6 and s[3] is relu and s[5] is s[2]


@pytest.mark.parametrize("factor", ["a", 2.0, None])
def test_sequential_refuses_a_factor_that_is_not_an_int(factor):
    s = nn.Sequential(nn.ReLU())
    message = f"unsupported operand type(s) for *: {type(s)} and {type(factor)}"
    with raises(TypeError, message):
        s * factor
    with raises(TypeError, message):
        s *= factor


@pytest.mark.parametrize("factor", [0, -2])
def test_sequential_refuses_a_factor_that_is_not_positive(factor):
    s = nn.Sequential(nn.ReLU())
    with raises(ValueError, f"Non-positive multiplication factor {factor} for {type(s)}"):
        factor * s
    with raises(ValueError, f"Non-positive multiplication factor {factor} for {type(s)}"):
        s *= factor


def test_sequential_adds_only_sequentials():
    s = nn.Sequential(nn.ReLU())
    message = "add operator supports only objects of Sequential class, but <class 'list'> is given."
    with raises(ValueError, message):
        s + [nn.ReLU()]
    with raises(ValueError, message):
        s += [nn.ReLU()]


def test_extra_state_goes_through_the_base_save_and_load():
    class Counted(nn.Module):
        def __init__(self):
            super().__init__()
            self.count = 0

        def get_extra_state(self):
            return {"count": self.count}

        def set_extra_state(self, state):
            self.count = state["count"]

    m = Counted()
    m.count = 5
    destination = {}
    m._save_to_state_dict(destination, "p.", False)
    assert destination == {"p._extra_state": {"count": 5}}
    other = Counted()
    missing, unexpected, errors = [], [], []
    other._load_from_state_dict(destination, "p.", {}, True, missing, unexpected, errors)
    assert other.count == 5 and (missing, unexpected, errors) == ([], [], [])
    other._load_from_state_dict({}, "p.", {}, True, missing, unexpected, errors)
    assert missing == ["p._extra_state"]
    plain = nn.Module()
    plain._load_from_state_dict(destination, "p.", {}, True, missing, unexpected, errors)
    assert unexpected == ["p._extra_state"]
    message = ("Reached a code path in Module.get_extra_state() that should never be called. "
               "Please file an issue at https://github.com/pytorch/pytorch/issues/new?"
               "template=bug-report.yml to report this bug.")
    with raises(RuntimeError, message):
        plain.get_extra_state()


def test_an_unversioned_instance_norm_checkpoint_with_running_stats_is_refused_in_one_error():
    norm = nn.InstanceNorm1d(2)
    stale = {"running_mean": torch.zeros(2), "running_var": torch.ones(2)}
    kind = "InstanceNorm1d"
    message = (f"Error(s) in loading state_dict for {kind}:\n\t"
               'Unexpected running stats buffer(s) "running_mean" and "running_var" for '
               f"{kind} with track_running_stats=False. If state_dict is a checkpoint saved "
               f"before 0.4.0, this may be expected because {kind} does not track running "
               "stats by default since 0.4.0. Please remove these keys from state_dict. If "
               f"the running stats are actually needed, instead set track_running_stats=True "
               f"in {kind} to enable them. See the documentation of {kind} for details.")
    with raises(RuntimeError, message):
        norm.load_state_dict(stale)
    assert list(stale) == ["running_mean", "running_var"]  # the caller's dictionary is kept
    versioned = norm.state_dict()
    versioned.update(stale)
    with raises(RuntimeError, f"Error(s) in loading state_dict for {kind}:\n\t"
                              'Unexpected key(s) in state_dict: "running_mean", "running_var". '):
        norm.load_state_dict(versioned)
