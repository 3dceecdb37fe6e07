"""What RMSprop, Adagrad, Adamax, NAdam, RAdam and Adadelta keep: their settings and their
order, their per-parameter state, their repr, and their saved state, older forms included."""

import copy
import pickle

import pytest
import torch

NAMES = ["RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta"]
SETTINGS = {
    "RMSprop": ["lr", "momentum", "alpha", "eps", "centered", "weight_decay", "capturable",
                "foreach", "maximize", "differentiable"],
    "Adagrad": ["lr", "lr_decay", "eps", "weight_decay", "initial_accumulator_value", "foreach",
                "maximize", "differentiable", "fused"],
    "Adamax": ["lr", "betas", "eps", "weight_decay", "foreach", "maximize", "differentiable",
               "capturable"],
    "NAdam": ["lr", "betas", "eps", "weight_decay", "momentum_decay", "decoupled_weight_decay",
              "maximize", "foreach", "capturable", "differentiable"],
    "RAdam": ["lr", "betas", "eps", "weight_decay", "maximize", "foreach", "capturable",
              "decoupled_weight_decay", "differentiable"],
    "Adadelta": ["lr", "rho", "eps", "weight_decay", "maximize", "capturable", "foreach",
                 "differentiable"],
}
STATE = {"RMSprop": ["step", "square_avg"], "Adagrad": ["step", "sum"],
         "Adamax": ["step", "exp_avg", "exp_inf"],
         "NAdam": ["step", "mu_product", "exp_avg", "exp_avg_sq"],
         "RAdam": ["step", "exp_avg", "exp_avg_sq"],
         "Adadelta": ["step", "square_avg", "acc_delta"]}


def _param(*shape):
    return torch.nn.Parameter(torch.arange(1.0, 1.0 + torch.Size(shape).numel()).reshape(shape))


def _stepped(name, steps=3, **options):
    params = [_param(2, 3), _param(4)]
    opt = getattr(torch.optim, name)(params, **options)
    for i in range(steps):
        for p in params:
            p.grad = torch.sin(p.detach() * (i + 1))
        opt.step()
    return opt, params


@pytest.mark.parametrize("name", NAMES)
def test_settings_are_kept_in_torch_order(name):
    opt = getattr(torch.optim, name)([_param(2)])
    assert list(opt.defaults) == SETTINGS[name]
    assert list(opt.param_groups[0]) == ["params"] + SETTINGS[name]


@pytest.mark.parametrize("name", NAMES)
def test_repr_lists_each_groups_settings_sorted(name):
    opt = getattr(torch.optim, name)([{"params": [_param(2)]}, {"params": [_param(1)], "lr": 0.5}])
    lines = repr(opt).split("\n")
    assert lines[0] == f"{name} (" and lines[1] == "Parameter Group 0" and lines[-1] == ")"
    settings = lines[2:2 + len(SETTINGS[name])]
    assert settings == [f"    {k}: {opt.defaults[k]}" for k in sorted(SETTINGS[name])]
    assert "    lr: 0.5" in lines[lines.index("Parameter Group 1"):]


@pytest.mark.parametrize("name", NAMES)
def test_state_holds_torch_keys_dtypes_and_shapes(name):
    opt, (p, q) = _stepped(name)
    assert list(opt.state[p]) == STATE[name]
    step = opt.state[p]["step"]
    assert step.dtype == torch.float32 and step.shape == () and step.item() == 3.0
    for key in STATE[name][1:]:
        value = opt.state[q][key]
        if key == "mu_product":
            assert value.dtype == torch.float32 and value.shape == ()
        else:
            assert value.dtype == q.dtype and value.shape == q.shape


@pytest.mark.parametrize("name, options, extra", [
    ("RMSprop", dict(momentum=0.9), ["momentum_buffer"]),
    ("RMSprop", dict(centered=True), ["grad_avg"]),
    ("RMSprop", dict(momentum=0.5, centered=True), ["momentum_buffer", "grad_avg"]),
])
def test_rmsprop_keeps_a_buffer_and_an_average_only_when_asked(name, options, extra):
    opt, (p, _) = _stepped(name, **options)
    assert list(opt.state[p]) == STATE[name] + extra


@pytest.mark.parametrize("name", NAMES)
def test_step_counts_follow_a_float64_default_dtype(name):
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        opt, (p, _) = _stepped(name)
    finally:
        torch.set_default_dtype(before)
    assert opt.state[p]["step"].dtype == torch.float64
    assert opt.state[p][STATE[name][-1]].dtype == torch.float64


def test_adagrad_makes_its_state_when_built():
    p = _param(3)
    opt = torch.optim.Adagrad([p], initial_accumulator_value=0.25)
    assert list(opt.state[p]) == ["step", "sum"]
    assert opt.state[p]["step"].item() == 0.0 and opt.state[p]["sum"].tolist() == [0.25] * 3
    q = _param(2)  # a group added later starts from the optimizer's value, not its own
    opt.add_param_group({"params": [q], "initial_accumulator_value": 2.0})
    assert q not in opt.state
    q.grad = torch.zeros(2)
    opt.step()
    assert opt.state[q]["sum"].tolist() == [0.25, 0.25]


def test_fused_adagrad_counts_in_float32_whatever_the_default():
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        p = _param(3)
        opt = torch.optim.Adagrad([p], fused=True)
    finally:
        torch.set_default_dtype(before)
    assert opt.state[p]["step"].dtype == torch.float32


@pytest.mark.parametrize("name", NAMES)
def test_a_loaded_state_continues_as_the_original_would(name):
    opt, params = _stepped(name)
    copies = [torch.nn.Parameter(p.detach().clone()) for p in params]
    other = getattr(torch.optim, name)(copies, lr=0.5)
    other.load_state_dict(copy.deepcopy(opt.state_dict()))  # a loaded state shares tensors
    assert other.param_groups[0]["lr"] == opt.param_groups[0]["lr"]
    for pair in (params, copies):
        for p in pair:
            p.grad = torch.cos(p.detach())
    opt.step()
    other.step()
    for p, c in zip(params, copies):
        assert torch.equal(p, c)
        for key in STATE[name]:
            assert torch.equal(opt.state[p][key], other.state[c][key])


@pytest.mark.parametrize("name", NAMES)
def test_an_older_state_gets_default_settings_and_tensor_counts(name):
    opt, params = _stepped(name)
    saved = opt.state_dict()
    kept = {"params", "lr", "eps", "weight_decay", "betas", "alpha", "rho", "lr_decay",
            "initial_accumulator_value", "momentum_decay"}
    older = {"state": {i: {k: v.item() if k in ("step", "mu_product") else v
                           for k, v in s.items()} for i, s in saved["state"].items()},
             "param_groups": [{k: v for k, v in g.items() if k in kept}
                              for g in saved["param_groups"]]}
    other = getattr(torch.optim, name)([_param(2, 3), _param(4)])
    other.load_state_dict(older)
    group = other.param_groups[0]
    for key in SETTINGS[name]:
        assert group[key] == opt.param_groups[0][key], key
    for p in group["params"]:
        for key in ("step", "mu_product"):
            if key in other.state[p]:
                value = other.state[p][key]
                assert isinstance(value, torch.Tensor) and value.dtype == torch.float32
                assert value.item() == opt.state[params[0]][key].item()


@pytest.mark.parametrize("name", NAMES)
def test_a_pickled_optimizer_keeps_its_state(name):
    opt, (p, _) = _stepped(name)
    again = pickle.loads(pickle.dumps(opt))
    assert type(again) is type(opt) and list(again.state_dict()["state"][0]) == STATE[name]
    assert again.state_dict()["state"][0]["step"].item() == 3.0


@pytest.mark.parametrize("fused, default, kind", [
    (None, torch.float32, torch.float32), (None, torch.float64, torch.float64),
    (True, torch.float32, torch.float32), (True, torch.float64, torch.float32)])
def test_adagrad_makes_every_saved_count_a_tensor_of_its_kind(fused, default, kind):
    before = torch.get_default_dtype()
    torch.set_default_dtype(default)
    try:
        p = torch.nn.Parameter(torch.ones(2, dtype=torch.float32))
        opt = torch.optim.Adagrad([p], fused=fused)
        group = opt.state_dict()["param_groups"][0]
        # a count saved as a number, and a state at a position no parameter has, first
        older = {"state": {7: {"step": 4, "sum": torch.ones(2)},
                           0: {"step": 3.0, "sum": torch.ones(2)}},
                 "param_groups": [{k: v for k, v in group.items() if k != "foreach"}]}
        opt.load_state_dict(older)
    finally:
        torch.set_default_dtype(before)
    assert opt.param_groups[0]["foreach"] is None
    counts = {k if isinstance(k, int) else "p": v["step"] for k, v in opt.state.items()}
    assert {k: (v.item(), v.dtype) for k, v in counts.items()} == {7: (4.0, kind), "p": (3.0, kind)}
