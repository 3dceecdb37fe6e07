"""The optimizers' functional forms (torch.optim.adam.adam and its kin), and torch.optim's names."""

import importlib
import inspect
import sys

import numpy as np
import pytest
import torch

P, KW = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
EMPTY = inspect.Parameter.empty
# each function: its lists, its switches with their defaults, its keyword-only settings (torch's)
SIGNATURES = {
    "sgd": (["params", "d_p_list", "momentum_buffer_list"],
            [("has_sparse_grad", False), ("foreach", None), ("fused", None), ("grad_scale", None),
             ("found_inf", None)],
            ["weight_decay", "momentum", "lr", "dampening", "nesterov", "maximize"]),
    "adam": (["params", "grads", "exp_avgs", "exp_avg_sqs", "max_exp_avg_sqs", "state_steps"],
             [("foreach", None), ("capturable", False), ("differentiable", False), ("fused", None),
              ("grad_scale", None), ("found_inf", None), ("has_complex", False),
              ("decoupled_weight_decay", False)],
             ["amsgrad", "beta1", "beta2", "lr", "weight_decay", "eps", "maximize"]),
    "adamw": (["params", "grads", "exp_avgs", "exp_avg_sqs", "max_exp_avg_sqs", "state_steps"],
              [("foreach", None), ("capturable", False), ("differentiable", False),
               ("fused", None), ("grad_scale", None), ("found_inf", None), ("has_complex", False)],
              ["amsgrad", "beta1", "beta2", "lr", "weight_decay", "eps", "maximize"]),
    "adagrad": (["params", "grads", "state_sums", "state_steps"],
                [("fused", None), ("grad_scale", None), ("found_inf", None),
                 ("has_sparse_grad", False), ("foreach", None), ("differentiable", False),
                 ("has_complex", False)],
                ["lr", "weight_decay", "lr_decay", "eps", "maximize"]),
    "adadelta": (["params", "grads", "square_avgs", "acc_deltas", "state_steps"],
                 [("capturable", False), ("foreach", None), ("differentiable", False),
                  ("has_complex", False)],
                 ["lr", "rho", "eps", "weight_decay", "maximize"]),
    "adamax": (["params", "grads", "exp_avgs", "exp_infs", "state_steps"],
               [("foreach", None), ("maximize", False), ("differentiable", False),
                ("capturable", False), ("has_complex", False)],
               ["eps", "beta1", "beta2", "lr", "weight_decay"]),
    "asgd": (["params", "grads", "axs", "mus", "etas", "state_steps"],
             [("foreach", None), ("maximize", False), ("differentiable", False),
              ("capturable", False), ("has_complex", False)],
             ["lambd", "lr", "t0", "alpha", "weight_decay"]),
    "nadam": (["params", "grads", "exp_avgs", "exp_avg_sqs", "mu_products", "state_steps"],
              [("decoupled_weight_decay", False), ("foreach", None), ("capturable", False),
               ("differentiable", False), ("has_complex", False), ("maximize", False)],
              ["beta1", "beta2", "lr", "weight_decay", "momentum_decay", "eps"]),
    "radam": (["params", "grads", "exp_avgs", "exp_avg_sqs", "state_steps"],
              [("decoupled_weight_decay", False), ("foreach", None), ("differentiable", False),
               ("capturable", False), ("has_complex", False), ("maximize", False)],
              ["beta1", "beta2", "lr", "weight_decay", "eps"]),
    "rmsprop": (["params", "grads", "square_avgs", "grad_avgs", "momentum_buffer_list",
                 "state_steps"],
                [("foreach", None), ("maximize", False), ("differentiable", False),
                 ("capturable", False), ("has_complex", False)],
                ["lr", "alpha", "eps", "weight_decay", "momentum", "centered"]),
    "rprop": (["params", "grads", "prevs", "step_sizes", "state_steps"],
              [("foreach", None), ("capturable", False), ("maximize", False),
               ("differentiable", False), ("has_complex", False)],
              ["step_size_min", "step_size_max", "etaminus", "etaplus"]),
}
ADAM = dict(amsgrad=False, beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.1, eps=1e-8,
            maximize=False)


def module(name):
    return importlib.import_module(f"torch.optim.{name}")


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_each_function_takes_torchs_signature(name):
    lists, switches, settings = SIGNATURES[name]
    function = getattr(module(name), name)
    expected = ([(n, P, EMPTY) for n in lists] + [(n, P, d) for n, d in switches]
                + [(n, KW, EMPTY) for n in settings])
    got = [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]
    assert got == expected
    assert getattr(importlib.import_module("torch.optim._functional"), name) is function
    assert name in module(name).__all__


def test_the_package_keeps_no_module_names_but_they_still_import():
    assert not hasattr(torch.optim, "adam") and not hasattr(torch.optim, "sgd")
    adam = importlib.import_module("torch.optim.adam")  # the module, by its full name
    assert sys.modules["torch.optim.adam"] is adam and not hasattr(torch.optim, "adam")
    names = [n for n in dir(torch.optim) if not n.startswith("__")]
    assert names == ["ASGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax",
                     "LBFGS", "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD",
                     "SparseAdam", "_adafactor", "_functional", "_muon", "_stateless",
                     "lr_scheduler", "swa_utils", "swap_in_optimizer_params_and_state"]


def _lists(n, rng):
    return [torch.tensor(rng.standard_normal(n).astype(np.float32)) for _ in range(2)]


def test_a_step_through_adam_is_the_classs_step_to_the_bit():
    rng = np.random.default_rng(3)
    p, g = _lists(5, rng)
    q = torch.nn.Parameter(p.clone())
    opt = torch.optim.Adam([q], lr=0.1, betas=(0.9, 0.99), weight_decay=0.1, amsgrad=True)
    m, v, vmax, step = torch.zeros(5), torch.zeros(5), torch.zeros(5), torch.tensor(0.0)
    for _ in range(3):
        q.grad = g.clone()
        opt.step()
        module("adam").adam([p], [g.clone()], [m], [v], [vmax], [step], **{**ADAM, "amsgrad": True})
    state = opt.state[q]
    for ours, theirs in ((p, q.detach()), (m, state["exp_avg"]), (v, state["exp_avg_sq"]),
                         (vmax, state["max_exp_avg_sq"]), (step, state["step"])):
        assert ours.numpy().tobytes() == theirs.numpy().tobytes()


def test_sgd_puts_a_new_momentum_buffer_into_the_list():
    buffers = [None]
    module("sgd").sgd([torch.ones(2)], [torch.tensor([3.0, 1.0])], buffers, weight_decay=0.0,
                      momentum=0.9, lr=0.1, dampening=0.0, nesterov=False, maximize=False)
    assert buffers[0].tolist() == [3.0, 1.0]


STEPS = "API has changed, `state_steps` argument must contain a list of singleton tensors"
REFUSALS = [
    ({"state_steps": [0]}, RuntimeError, STEPS),
    ({"fused": True, "differentiable": True}, RuntimeError,
     "Adam with fused=True does not support differentiable=True"),
    ({"foreach": True, "differentiable": True}, AssertionError,
     "_foreach ops don't support autograd"),
    ({"grad_scale": "scale"}, AssertionError, "Expected grad_scale and found_inf to be None"),
    ({"foreach": True, "lr": "tensor"}, RuntimeError,
     "lr as a Tensor is not supported for capturable=False and foreach=True"),
    ({"capturable": True}, AssertionError, "If capturable=True, params and state_steps must be on "
     "supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']."),
    ({"fused": True, "max_exp_avg_sqs": "one"}, RuntimeError,
     "Expected max_exp_avg_sqs.empty() to be true, but got false."),
]


@pytest.mark.parametrize(("given", "kind", "message"), REFUSALS)
def test_adam_refuses_in_torchs_words(given, kind, message):
    given = dict(given)
    steps = given.pop("state_steps", [torch.tensor(0.0)])
    maxima = [torch.zeros(2)] if given.pop("max_exp_avg_sqs", None) else []
    if given.get("grad_scale"):
        given["grad_scale"] = torch.tensor(2.0)
    if given.get("lr"):
        given["lr"] = torch.tensor(0.1)
    settings = {**ADAM, **{k: given.pop(k) for k in list(given) if k in ADAM}}
    with pytest.raises(kind) as info:
        module("adam").adam([torch.ones(2)], [torch.ones(2)], [torch.zeros(2)], [torch.zeros(2)],
                            maxima, steps, **given, **settings)
    assert str(info.value).startswith(message)


def test_empty_lists_take_no_step_and_refuse_nothing_the_kernel_would_not():
    module("adam").adam([], [], [], [], [], [], fused=True, differentiable=True, **ADAM)
    module("adam").adam([], [], [], [], [], [], capturable=True, **ADAM)
    with pytest.raises(AssertionError, match="_foreach ops don't support autograd"):
        module("adagrad").adagrad([], [], [], [], foreach=True, differentiable=True, lr=0.1,
                                  weight_decay=0.0, lr_decay=0.0, eps=1e-10, maximize=False)


@pytest.mark.parametrize("overflow", [None, 0.0, 1.0])
def test_a_fused_step_unscales_the_gradients_or_skips(overflow):
    found = None if overflow is None else torch.tensor(overflow)
    p, g, m, v, step = torch.ones(2), torch.tensor([2.0, 4.0]), torch.zeros(2), torch.zeros(2), \
        torch.tensor(0.0)
    module("adam").adam([p], [g], [m], [v], [], [step], fused=True, grad_scale=torch.tensor(2.0),
                        found_inf=found, **{**ADAM, "weight_decay": 0.0})
    skipped = overflow == 1.0
    assert g.tolist() == ([2.0, 4.0] if skipped else [1.0, 2.0])
    assert step.item() == (0.0 if skipped else 1.0)
    assert (p.tolist() == [1.0, 1.0]) == skipped


def test_sparse_adam_refuses_a_dense_gradient():
    F = importlib.import_module("torch.optim._functional")
    with pytest.raises(RuntimeError, match="coalesce expected sparse coordinate tensor layout"):
        F.sparse_adam([torch.ones(2)], [torch.ones(2)], [torch.zeros(2)], [torch.zeros(2)], [0],
                      eps=1e-8, beta1=0.9, beta2=0.99, lr=0.1, maximize=False)
    F.sparse_adam([], [], [], [], [], eps=1e-8, beta1=0.9, beta2=0.99, lr=0.1, maximize=False)


def test_asgd_takes_step_counts_that_are_numbers():
    steps, p = [0.0], torch.ones(2)
    module("asgd").asgd([p], [torch.ones(2)], [torch.zeros(2)], [torch.tensor(1.0)],
                        [torch.tensor(0.1)], steps, lambd=1e-4, lr=0.1, t0=1e6, alpha=0.75,
                        weight_decay=0.0)
    assert steps == [0.0] and p.tolist() != [1.0, 1.0]


# each class, its settings, its state's keys in the function's order, and the group's settings
# the function takes by keyword (renamed where the class's name differs)
CLASSES = {
    "sgd": ("SGD", dict(lr=0.1, momentum=0.9, weight_decay=0.1, nesterov=True),
            ["momentum_buffer"], ["weight_decay", "momentum", "lr", "dampening", "nesterov",
                                  "maximize"]),
    "adagrad": ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1), ["sum", "step"],
                ["lr", "weight_decay", "lr_decay", "eps", "maximize"]),
    "adadelta": ("Adadelta", dict(lr=0.5, weight_decay=0.1),
                 ["square_avg", "acc_delta", "step"], ["lr", "rho", "eps", "weight_decay",
                                                       "maximize"]),
    "adamax": ("Adamax", dict(lr=0.1, weight_decay=0.1), ["exp_avg", "exp_inf", "step"],
               ["eps", "betas", "lr", "weight_decay", "maximize"]),
    "nadam": ("NAdam", dict(lr=0.1, weight_decay=0.1, foreach=True),
              ["exp_avg", "exp_avg_sq", "mu_product", "step"],
              ["betas", "lr", "weight_decay", "momentum_decay", "eps", "maximize", "foreach"]),
    "radam": ("RAdam", dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True),
              ["exp_avg", "exp_avg_sq", "step"],
              ["betas", "lr", "weight_decay", "eps", "decoupled_weight_decay", "maximize"]),
    "rmsprop": ("RMSprop", dict(lr=0.1, momentum=0.9, centered=True, weight_decay=0.1),
                ["square_avg", "grad_avg", "momentum_buffer", "step"],
                ["lr", "alpha", "eps", "weight_decay", "momentum", "centered", "maximize"]),
    "rprop": ("Rprop", dict(lr=0.1), ["prev", "step_size", "step"],
              ["step_sizes", "etas", "maximize"]),
    "asgd": ("ASGD", dict(lr=0.1, t0=1.0, weight_decay=0.1, foreach=True),
             ["ax", "mu", "eta", "step"],
             ["lambd", "lr", "t0", "alpha", "weight_decay", "maximize", "foreach"]),
}
SPLIT = {"betas": ("beta1", "beta2"), "etas": ("etaminus", "etaplus"),
         "step_sizes": ("step_size_min", "step_size_max")}


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_functional_step_is_the_classs_step_to_the_bit(name):
    cls, options, keys, settings = CLASSES[name]
    rng = np.random.default_rng(7)
    w = torch.nn.Parameter(torch.tensor(rng.standard_normal(4).astype(np.float32)))
    opt = getattr(torch.optim, cls)([w], **options)
    for _ in range(2):  # the first makes the state; the second is compared
        w.grad = torch.tensor(rng.standard_normal(4).astype(np.float32))
        p, g = w.detach().clone(), w.grad.clone()
        lists = [[opt.state[w][key].clone()] if key in opt.state[w] else [] for key in keys]
        opt.step()
    group, kwargs = opt.param_groups[0], {}
    for key in settings:
        names = SPLIT.get(key, (key,))
        values = group[key] if key in SPLIT else (group[key],)
        kwargs.update(zip(names, values))
    getattr(module(name), name)([p], [g], *lists, **kwargs)
    assert p.numpy().tobytes() == w.detach().numpy().tobytes()
    for key, ours in zip(keys, lists):
        assert ours[0].numpy().tobytes() == opt.state[w][key].numpy().tobytes(), key
