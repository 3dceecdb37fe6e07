"""torch.optim: parameter groups, zero_grad, step hooks, state dicts, and the updates."""

import itertools
import pickle
import re
import warnings

import numpy as np
import pytest
import torch
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)

from conformance._support import raises


def _param(values=(1.0, -2.0, 0.5)):
    return torch.nn.Parameter(torch.tensor(values, dtype=torch.float64))


# Checks made when an optimizer is built, in torch's words.
@pytest.mark.parametrize("make, kind, message", [
    (lambda p: torch.optim.SGD([p], lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda p: torch.optim.SGD([p], momentum=-0.5), ValueError, "Invalid momentum value: -0.5"),
    (lambda p: torch.optim.SGD([p], weight_decay=-1), ValueError,
     "Invalid weight_decay value: -1"),
    (lambda p: torch.optim.SGD([p], nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda p: torch.optim.SGD([p], momentum=0.9, dampening=0.1, nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda p: torch.optim.SGD([p], fused=True, foreach=True), RuntimeError,
     "`fused` and `foreach` cannot be `True` together."),
    (lambda p: torch.optim.Adam([p], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda p: torch.optim.Adam([p], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
    (lambda p: torch.optim.Adam([p], betas=(1.0, 0.9)), ValueError,
     "Invalid beta parameter at index 0: 1.0"),
    (lambda p: torch.optim.Adam([p], betas=(0.9, 1.5)), ValueError,
     "Invalid beta parameter at index 1: 1.5"),
    (lambda p: torch.optim.Adam([p], betas=(0, 0.99)), ValueError,
     "betas must be either both floats or both Tensors"),
    (lambda p: torch.optim.AdamW([p], weight_decay=-1), ValueError,
     "Invalid weight_decay value: -1"),
    (lambda p: torch.optim.Adam([p], lr=torch.tensor(0.1), foreach=True), ValueError,
     "lr as a Tensor is not supported for capturable=False and foreach=True"),
    (lambda p: torch.optim.SGD(p), TypeError, "params argument given to the optimizer should be "
     "an iterable of Tensors or dicts, but got torch.DoubleTensor"),
    (lambda p: torch.optim.SGD([]), ValueError, "optimizer got an empty parameter list"),
    (lambda p: torch.optim.SGD([{"params": {p}}]), TypeError,
     "optimizer parameters need to be organized in ordered collections, but the ordering of "
     "tensors in sets will change between runs. Please use a list instead."),
    (lambda p: torch.optim.SGD([p, 3]), TypeError,
     "optimizer can only optimize Tensors, but one of the params is int"),
    (lambda p: torch.optim.SGD([p * 2]), ValueError, "can't optimize a non-leaf Tensor"),
    (lambda p: torch.optim.SGD([{"params": [p]}, {"params": p}]), ValueError,
     "some parameters appear in more than one parameter group"),
    (lambda p: torch.optim.SGD([("w", p), _param()]), ValueError,
     "all optimizer params should be with/without names. Some param names are missing"),
    (lambda p: torch.optim.SGD([{"params": [("w", p)]}, {"params": [_param()]}]), ValueError,
     "all optimizer param groups should be with/without names. cannot add param group "
     "without names to the optimizer"),
])
def test_settings_and_parameters_are_checked(make, kind, message):
    with raises(kind, message):
        make(_param())


def test_a_parameter_group_must_be_a_dict():
    opt = torch.optim.SGD([_param()])
    with raises(TypeError, "param_group must be a dict, but got <class 'list'>"):
        opt.add_param_group([_param()])


def test_a_repeated_parameter_warns():
    p = _param()
    with pytest.warns(UserWarning, match="duplicate parameters"):
        torch.optim.SGD([p, p], lr=0.1)


def test_groups_take_the_defaults_they_do_not_set():
    a, b = _param(), _param()
    opt = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["params"][0] is b
    assert all(g["momentum"] == 0.9 and g["nesterov"] is False for g in opt.param_groups)
    assert opt.defaults["lr"] == 0.1 and opt.defaults["fused"] is None


def test_named_parameters_keep_their_names():
    w = _param()
    opt = torch.optim.Adam([("layer.weight", w)])
    assert opt.param_groups[0]["param_names"] == ["layer.weight"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["layer.weight"]


def test_the_repr_lists_each_group_in_sorted_order():
    opt = torch.optim.SGD([_param()], lr=0.1)
    assert repr(opt) == ("SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
                         "    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
                         "    momentum: 0\n    nesterov: False\n    weight_decay: 0\n)")
    assert "    decoupled_weight_decay: True\n" in repr(torch.optim.AdamW([_param()]))
    assert "    betas: (0.9, 0.999)\n" in repr(torch.optim.Adam([_param()]))


# What a step does to the parameters and to autograd's state.
def test_a_step_writes_in_place_without_recording():
    w = _param()
    opt = torch.optim.SGD([w], lr=0.1)
    (w * w).sum().backward()
    before = w._version
    opt.step()
    assert w._version == before + 1
    assert w.grad_fn is None and w.is_leaf and w.requires_grad
    assert w.tolist() == [1.0 - 0.1 * 2.0, -2.0 - 0.1 * -4.0, 0.5 - 0.1 * 1.0]


def test_a_step_refuses_a_graph_that_saved_the_old_value():
    w = _param()
    opt = torch.optim.SGD([w], lr=0.1)
    (w * w).sum().backward(retain_graph=True)
    loss = (w * w).sum()
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_the_step_runs_without_grad_and_the_closure_with_it():
    w = _param()
    seen = []

    def closure():
        seen.append(torch.is_grad_enabled())
        loss = (w * w).sum()
        loss.backward()
        return loss

    opt = torch.optim.SGD([w], lr=0.1)
    opt.register_step_pre_hook(lambda *_: seen.append(torch.is_grad_enabled()))
    with torch.no_grad():
        loss = opt.step(closure)
    assert seen == [False, True]
    assert loss.item() == 1.0 + 4.0 + 0.25 and torch.is_grad_enabled()


def test_a_parameter_without_a_gradient_is_left_alone():
    a, b = _param(), _param()
    opt = torch.optim.Adam([a, b], lr=0.1)
    (a * 3).sum().backward()
    opt.step()
    assert b.tolist() == [1.0, -2.0, 0.5] and b not in opt.state
    assert sorted(opt.state[a]) == ["exp_avg", "exp_avg_sq", "step"]
    assert opt.state[a]["step"].dtype == torch.float32 and opt.state[a]["step"].item() == 1.0


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad_drops_or_zeroes(set_to_none):
    w = _param()
    opt = torch.optim.SGD([w], lr=0.1)
    grad = w.grad = torch.autograd.grad((w * w).sum(), w, create_graph=True)[0]
    assert grad.grad_fn is not None
    opt.zero_grad(set_to_none=set_to_none)
    if set_to_none:
        assert w.grad is None
    else:
        assert w.grad is grad and grad.grad_fn is None and not grad.requires_grad
        assert grad.tolist() == [0.0, 0.0, 0.0]


def test_step_hooks_run_in_order_and_can_replace_the_arguments():
    w = _param()
    opt = torch.optim.SGD([w], lr=0.1)
    calls = []
    handles = [
        register_optimizer_step_pre_hook(
            lambda o, a, k: calls.append(("global pre", a[1:], k))),
        opt.register_step_pre_hook(lambda o, a, k: ((o,), {"closure": lambda: 7.0})),
        opt.register_step_pre_hook(lambda o, a, k: calls.append(("pre", a[1:], k))),
        opt.register_step_post_hook(lambda o, a, k: calls.append(("post", a[1:], k))),
        register_optimizer_step_post_hook(
            lambda o, a, k: calls.append(("global post",))),
    ]
    try:
        assert opt.step(None) == 7.0
    finally:
        for handle in handles:
            handle.remove()
    names = [c[0] for c in calls]
    assert names == ["global pre", "pre", "post", "global post"]
    assert calls[0][1:] == ((None,), {}) and list(calls[1][2]) == ["closure"]
    calls.clear()
    opt.step()
    assert calls == []


def test_a_pre_hook_must_return_none_or_a_pair():
    opt = torch.optim.SGD([_param()], lr=0.1)
    opt.register_step_pre_hook(lambda o, a, k: 3)
    pattern = r"<function SGD\.step at 0x[0-9a-f]+> must return None or a tuple of " \
              r"\(new_args, new_kwargs\), but got 3\.\Z"
    with pytest.raises(RuntimeError, match=pattern):
        opt.step()
    assert torch.is_grad_enabled()


def test_a_custom_optimizer_gets_the_hooks():
    class Halve(torch.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {"lr": 0.5})

        @torch.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    p.mul_(group["lr"])

    w = _param()
    opt = Halve([w])
    seen = []
    opt.register_step_post_hook(lambda o, a, k: seen.append(o is opt))
    opt.step()
    assert seen == [True] and w.tolist() == [0.5, -1.0, 0.25]


def _train(opt, params, steps=4, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        for p in params:
            p.grad = torch.tensor(rng.standard_normal(tuple(p.shape)))
        opt.step()


def test_state_dict_names_parameters_by_position_and_loads_back():
    a, b, c = _param(), _param(), _param()
    opt = torch.optim.SGD([{"params": [a, b]}, {"params": [c], "lr": 0.5}], lr=0.1,
                          momentum=0.9)
    _train(opt, [a, b, c])
    saved = opt.state_dict()
    assert [g["params"] for g in saved["param_groups"]] == [[0, 1], [2]]
    assert sorted(saved["state"]) == [0, 1, 2]
    assert saved["state"][2]["momentum_buffer"] is opt.state[c]["momentum_buffer"]
    x, y, z = _param(), _param(), _param()
    other = torch.optim.SGD([{"params": [x, y]}, {"params": [z]}], lr=0.01, momentum=0.1)
    other.load_state_dict(pickle.loads(pickle.dumps(saved)))
    assert [g["lr"] for g in other.param_groups] == [0.1, 0.5]
    assert other.param_groups[1]["params"][0] is z
    assert other.state[z]["momentum_buffer"].tolist() == opt.state[c]["momentum_buffer"].tolist()
    _train(other, [x, y, z], seed=5)
    _train(opt, [a, b, c], seed=5)
    assert [t.tolist() for t in (x, y, z)] != [t.tolist() for t in (a, b, c)]  # started apart
    assert other.state[z]["momentum_buffer"].tolist() == opt.state[c]["momentum_buffer"].tolist()


@pytest.mark.parametrize("groups, message", [
    ([[0]], "loaded state dict has a different number of parameter groups"),
    ([[0, 1], [2, 3]], "loaded state dict contains a parameter group that doesn't match the "
                       "size of optimizer's group"),
])
def test_a_state_dict_that_does_not_fit_is_refused(groups, message):
    opt = torch.optim.SGD([{"params": [_param()]}, {"params": [_param()]}], lr=0.1)
    saved = {"state": {}, "param_groups": [{"lr": 0.1, "params": g} for g in groups]}
    with raises(ValueError, message):
        opt.load_state_dict(saved)


def test_loaded_state_takes_the_parameter_dtype_but_a_step_count_keeps_its_own():
    w = torch.nn.Parameter(torch.ones(3))
    saved = {"state": {0: {"step": torch.tensor(3.0, dtype=torch.float64),
                           "exp_avg": torch.ones(3, dtype=torch.float64),
                           "exp_avg_sq": torch.ones(3, dtype=torch.float64)}},
             "param_groups": [{"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8,
                               "weight_decay": 0, "amsgrad": False, "params": [0]}]}
    opt = torch.optim.AdamW([w])
    opt.load_state_dict(saved)
    state = opt.state[w]
    assert state["exp_avg"].dtype == torch.float32 and state["step"].dtype == torch.float64
    assert opt.param_groups[0]["decoupled_weight_decay"] is True
    assert opt.param_groups[0]["maximize"] is False and opt.param_groups[0]["fused"] is None


# The updates, against the formulas written out in NumPy (float64).
def _sgd_reference(p, grads, lr, momentum, dampening, weight_decay, nesterov, maximize):
    buffer = None
    for g in grads:
        g = -g if maximize else g
        if weight_decay:
            g = g + weight_decay * p
        if momentum:
            buffer = g.copy() if buffer is None else momentum * buffer + (1 - dampening) * g
            g = g + momentum * buffer if nesterov else buffer
        p = p - lr * g
    return p


def _adam_reference(p, grads, lr, betas, eps, weight_decay, amsgrad, maximize, decoupled):
    m, v, v_max = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p)
    for t, g in enumerate(grads, 1):
        g = -g if maximize else g
        if weight_decay and decoupled:
            p = p * (1 - lr * weight_decay)
        elif weight_decay:
            g = g + weight_decay * p
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        v_max = np.maximum(v_max, v)
        denominator = np.sqrt(v_max if amsgrad else v) / np.sqrt(1 - betas[1] ** t) + eps
        p = p - lr / (1 - betas[0] ** t) * m / denominator
    return p


def _steps(opt, w, count=6):
    rng = np.random.default_rng(3)
    grads = [rng.standard_normal(4) for _ in range(count)]
    for g in grads:
        w.grad = torch.tensor(g)
        opt.step()
    return grads


SGD_OPTIONS = [dict(momentum=m, dampening=d, nesterov=n, weight_decay=wd, maximize=mx)
               for m, d, n, wd, mx in itertools.product([0, 0.9], [0, 0.3], [False, True],
                                                        [0, 0.05], [False, True])
               if not (n and (m == 0 or d != 0))]


@pytest.mark.parametrize("options", SGD_OPTIONS, ids=lambda o: "-".join(
    f"{k}={v}" for k, v in o.items() if v))
def test_sgd_follows_its_formula(options):
    start = np.array([0.5, -1.0, 2.0, 0.0])
    w = torch.nn.Parameter(torch.tensor(start))
    grads = _steps(torch.optim.SGD([w], lr=0.1, **options), w)
    expected = _sgd_reference(start, grads, 0.1, **{"dampening": 0, **options})
    np.testing.assert_allclose(w.detach().numpy(), expected, rtol=1e-13, atol=1e-15)


ADAM_OPTIONS = [dict(amsgrad=a, weight_decay=wd, maximize=mx)
                for a, wd, mx in itertools.product([False, True], [0, 0.1], [False, True])]


@pytest.mark.parametrize("kind", ["Adam", "AdamW"])
@pytest.mark.parametrize("options", ADAM_OPTIONS, ids=lambda o: "-".join(
    f"{k}={v}" for k, v in o.items() if v))
def test_adam_follows_its_formula(kind, options):
    start = np.array([0.5, -1.0, 2.0, 0.0])
    w = torch.nn.Parameter(torch.tensor(start))
    opt = getattr(torch.optim, kind)([w], lr=0.01, betas=(0.8, 0.99), eps=1e-6, **options)
    grads = _steps(opt, w)
    expected = _adam_reference(start, grads, 0.01, (0.8, 0.99), 1e-6, options["weight_decay"],
                               options["amsgrad"], options["maximize"], kind == "AdamW")
    np.testing.assert_allclose(w.detach().numpy(), expected, rtol=1e-12, atol=1e-14)
    assert opt.state[w]["step"].item() == 6.0


def test_a_differentiable_step_records_its_update():
    w0 = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    w = w0 * 1  # a parameter that is not a leaf, allowed with differentiable=True
    opt = torch.optim.SGD([w], lr=0.5, differentiable=True)
    w.grad = torch.tensor([1.0, 1.0], dtype=torch.float64)
    opt.step()
    assert w.grad_fn is not None and re.search("Add", w.grad_fn.name())
    w.sum().backward()
    assert w0.grad.tolist() == [1.0, 1.0]


def test_warnings_are_not_raised_by_a_plain_step():
    w = _param()
    opt = torch.optim.Adam([w], lr=0.1)
    w.grad = torch.ones(3, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
