"""The helpers of torch.optim.Optimizer that subclasses use: hook aliases, step wrapping,
graph-capture checks, the loaded-state cast policy, and tensor-list grouping."""

import pytest
import torch

Optimizer = torch.optim.Optimizer
NAMES = ["OptimizerPostHook", "OptimizerPreHook", "_accelerator_graph_capture_health_check",
         "_cuda_graph_capture_health_check", "_group_tensors_by_device_and_dtype",
         "_optimizer_step_code", "_patch_step_function",
         "_process_value_according_to_param_policy", "add_param_group", "load_state_dict",
         "profile_hook_step", "register_load_state_dict_post_hook",
         "register_load_state_dict_pre_hook", "register_state_dict_post_hook",
         "register_state_dict_pre_hook", "register_step_post_hook", "register_step_pre_hook",
         "state_dict", "step", "zero_grad"]
ARGS = "typing.Self, tuple[typing.Any, ...], dict[str, typing.Any]"


def test_optimizer_has_torchs_names():
    assert [n for n in dir(Optimizer) if not n.startswith("__")] == NAMES


def test_the_step_hook_aliases_are_torchs_types():
    assert repr(Optimizer.OptimizerPreHook) == (
        f"collections.abc.Callable[[{ARGS}], tuple[tuple[typing.Any, ...], "
        "dict[str, typing.Any]] | None]")
    assert repr(Optimizer.OptimizerPostHook) == f"collections.abc.Callable[[{ARGS}], None]"


def _sgd():
    return torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1)


def test_profile_hook_step_wraps_a_function_with_the_step_hooks():
    def bare(self, closure=None):
        calls.append("step")
        return 5

    calls = []
    opt = _sgd()
    opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
    wrapped = Optimizer.profile_hook_step(bare)
    assert wrapped.__wrapped__ is bare and wrapped.__name__ == "bare"
    assert wrapped(opt) == 5 and calls == ["pre", "step", "post"]


def test_patch_step_function_marks_the_step_hooked_and_names_the_profile():
    class Mine(Optimizer):
        def step(self, closure=None):
            calls.append("step")

    calls = []
    opt = Mine([torch.nn.Parameter(torch.ones(2))], {})
    opt._patch_step_function()
    assert Mine.step.hooked is True and Mine.step.__wrapped__.__qualname__.endswith("Mine.step")
    assert opt._zero_grad_profile_name == "Optimizer.zero_grad#Mine.zero_grad"
    opt._patch_step_function()
    opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.step()
    assert calls == ["pre", "step"]  # wrapped once


def test_graph_capture_checks_have_nothing_to_check_on_the_cpu():
    opt = _sgd()
    assert opt._accelerator_graph_capture_health_check() is None
    assert opt._optimizer_step_code() is None
    with pytest.warns(DeprecationWarning, match="Use _accelerator_graph_capture_health_check"):
        assert opt._cuda_graph_capture_health_check() is None


POLICY = [  # key, the group of parameter 0, the dtype the float64 value gets, whether unchanged
    ("step", {"params": [0], "fused": True}, torch.float32, False),
    ("step", {"params": [0]}, torch.float64, True),
    ("step", {"params": [1], "capturable": True}, torch.float64, True),
    ("step", {"params": [0], "capturable": True}, torch.float32, False),
    ("exp_avg", {"params": [0], "fused": True}, torch.float32, False),
    ("exp_avg", {"params": [0]}, torch.float32, False),
    (None, {"params": [1]}, torch.float32, False),
]


@pytest.mark.parametrize(("key", "group", "dtype", "same"), POLICY)
def test_a_loaded_value_is_cast_by_the_param_policy(key, group, dtype, same):
    value = torch.ones(2, dtype=torch.float64)
    cast = Optimizer._process_value_according_to_param_policy(torch.ones(2), value, 0, [group],
                                                              key)
    assert cast.dtype == dtype and (cast is value) == same


def test_a_value_for_an_integer_parameter_keeps_its_dtype():
    value = torch.ones(2, dtype=torch.float64)
    param = torch.ones(2, dtype=torch.int64)
    assert Optimizer._process_value_according_to_param_policy(
        param, value, 0, [{"params": [0]}], "exp_avg") is value
    with pytest.raises(AssertionError, match="Expected param_groups to be set"):
        Optimizer._process_value_according_to_param_policy(param, value, 0, None)


def test_tensor_lists_are_grouped_by_the_first_lists_device_and_dtype():
    a, b = torch.ones(2), torch.ones(3, dtype=torch.float64)
    groups = Optimizer._group_tensors_by_device_and_dtype([[a, b, a], [b, None, b], []], True)
    cpu = torch.device("cpu")
    assert sorted(groups, key=str) == [(cpu, torch.float32), (cpu, torch.float64)]
    lists, indices = groups[(cpu, torch.float32)]
    assert [[t is a for t in listed] for listed in lists[:1]] == [[True, True]]
    assert [t is b for t in lists[1]] == [True, True] and lists[2] == [] and indices == [0, 2]
    assert groups[(cpu, torch.float64)] == ([[b], [None], []], [1])
    assert Optimizer._group_tensors_by_device_and_dtype([[a]])[(cpu, torch.float32)][1] == []


@pytest.mark.parametrize(("lists", "message"), [
    ([], "Expected !nested_tensorlist.empty() to be true, but got false."),
    ([[]], "Expected !nested_tensorlist[0].empty() to be true, but got false."),
    ([[torch.ones(1)], [torch.ones(1)] * 2], "Expected std::all_of( nested_tensorlist.cbegin()"),
    ([[torch.ones(1), None]], "Tensors of the first list of nested Tensor lists are supposed "
     "to be defined but the 1-th Tensor is not."),
])
def test_tensor_list_grouping_refuses_in_torchs_words(lists, message):
    with pytest.raises(RuntimeError) as info:
        Optimizer._group_tensors_by_device_and_dtype(lists)
    assert str(info.value).startswith(message)
