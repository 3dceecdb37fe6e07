"""Adafactor: its settings and their checks, its factored state, its steps, its saved state."""

import copy
import math
import pickle

import pytest
import torch

from conformance._support import raises

SETTINGS = ["lr", "beta2_decay", "eps", "d", "weight_decay", "foreach", "maximize"]


def _param(*shape, dtype=torch.float32):
    n = torch.Size(shape).numel()
    return torch.nn.Parameter(torch.arange(1.0, 1.0 + n, dtype=dtype).reshape(shape) / n)


@pytest.mark.parametrize("options, message", [
    (dict(lr=-1.0), "Learning rate should be >= 0 but is: -1.0"),
    (dict(beta2_decay=0.5), "beta2_decay should be <= 0 but is: 0.5"),
    (dict(eps=(-1e-3, 1e-3)), "epsilon1 should be >= 0 but is: -0.001"),
    (dict(eps=(None, -2)), "epsilon2 should be >= 0 but is: -2"),
    (dict(d=0.5), "Clipping threshold d should be >= 1 but is: 0.5"),
    (dict(weight_decay=-0.1), "weight_decay should be >= 0 but is: -0.1"),
    (dict(lr=-1.0, d=0.0), "Learning rate should be >= 0 but is: -1.0"),  # the first, alone
    (dict(d=0.5, weight_decay=-1), "Clipping threshold d should be >= 1 but is: 0.5"),
])
def test_each_setting_is_checked_in_order(options, message):
    with raises(ValueError, message):
        torch.optim.Adafactor([_param(2)], **options)


def test_a_tensor_lr_must_have_one_element():
    with raises(ValueError, "Tensor lr must be 1-element"):
        torch.optim.Adafactor([_param(2)], lr=torch.tensor([0.1, 0.2]))
    opt = torch.optim.Adafactor([_param(2)], lr=torch.tensor([0.1]))
    assert opt.param_groups[0]["lr"].shape == (1,)


def test_later_settings_are_not_compared_once_one_fails():
    with raises(ValueError, "Learning rate should be >= 0 but is: -1"):
        torch.optim.Adafactor([_param(2)], lr=-1, eps=(None, "not a number"))


def test_foreach_and_maximize_are_keyword_only():
    with pytest.raises(TypeError):
        torch.optim.Adafactor([_param(2)], 0.1, -0.8, (None, 1e-3), 1.0, 0.0, None)


def test_the_settings_their_order_and_defaults():
    opt = torch.optim.Adafactor([_param(2)])
    assert list(opt.defaults) == SETTINGS
    assert opt.defaults == dict(lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                                weight_decay=0.0, foreach=None, maximize=False)


def test_repr_lists_the_settings_sorted():
    opt = torch.optim.Adafactor([_param(2)], lr=0.5, foreach=True)
    assert repr(opt) == ("Adafactor (\nParameter Group 0\n    beta2_decay: -0.8\n    d: 1.0\n"
                         "    eps: (None, 0.001)\n    foreach: True\n    lr: 0.5\n"
                         "    maximize: False\n    weight_decay: 0.0\n)")


def test_where_the_names_live():
    import torch.optim._adafactor as module
    from torch.optim._adafactor import Adafactor, adafactor

    assert Adafactor is torch.optim.Adafactor and callable(adafactor)
    assert module.__all__ == ["Adafactor", "adafactor"]
    assert Adafactor.__module__ == torch.optim.__name__
    assert "Adafactor" in torch.optim.__all__


@pytest.mark.parametrize("shape, kept", [
    ((3, 4), {"row_var": (3, 1), "col_var": (1, 4)}),
    ((2, 3, 4), {"row_var": (2, 3, 1), "col_var": (2, 1, 4)}),
    ((5,), {"variance": (5,)}),
    ((), {"variance": ()}),
])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_a_matrix_keeps_rows_and_columns_a_vector_keeps_all(shape, kept, dtype):
    p = _param(*shape, dtype=dtype)
    p.grad = torch.ones(shape, dtype=dtype)
    opt = torch.optim.Adafactor([p])
    opt.step()
    state = opt.state[p]
    assert list(state) == ["step", *kept]
    assert state["step"].dtype == torch.float32 and state["step"].shape == ()
    assert {k: tuple(state[k].shape) for k in kept} == kept
    assert all(state[k].dtype == dtype for k in kept)
    # the first step's weight is 1: the averages are the means of g * g, here about one
    # (a squared norm over a length, which need not round to one exactly)
    assert all(torch.allclose(state[k], torch.ones_like(state[k])) for k in kept)


def test_the_step_count_follows_the_default_dtype():
    torch.set_default_dtype(torch.float64)
    try:
        p = _param(2, 2)
        p.grad = torch.ones(2, 2, dtype=torch.float32)
        opt = torch.optim.Adafactor([p])
        opt.step()
        opt.step()
    finally:
        torch.set_default_dtype(torch.float32)
    assert opt.state[p]["step"].dtype == torch.float64 and opt.state[p]["step"].item() == 2
    assert opt.state[p]["row_var"].dtype == torch.float32


def _first_step(g, w, lr=1e-2, eps2=1e-3, d=1.0, weight_decay=0.0):
    """Adafactor's first step for a vector, written out: the variance is g * g."""
    n = len(w)
    rms = math.sqrt(sum(x * x for x in w) / n)
    alpha = max(eps2, rms) * min(lr, 1.0)
    update = [x / math.sqrt(max(x * x, 2.0 ** -104)) for x in g]  # eps1: float64's epsilon
    scale = max(1.0, math.sqrt(sum(u * u for u in update) / n) / d)
    return [x * (1 - lr * weight_decay) - alpha * u / scale for x, u in zip(w, update)]


@pytest.mark.parametrize("options", [{}, dict(lr=0.5, weight_decay=0.1), dict(d=2.0)])
def test_the_first_step_follows_the_algorithm(options):
    w, g = [1.0, -2.0, 0.5, 3.0], [0.5, -0.25, 2.0, 0.0]
    p = torch.nn.Parameter(torch.tensor(w, dtype=torch.float64))
    p.grad = torch.tensor(g, dtype=torch.float64)
    torch.optim.Adafactor([p], **options).step()
    assert p.tolist() == pytest.approx(_first_step(g, w, **options), rel=1e-12)


def test_maximize_steps_along_the_gradient():
    up, down = _param(3, 2), _param(3, 2)
    up.grad = torch.tensor([[0.5, -1.0], [2.0, 0.1], [0.0, 3.0]])
    down.grad = -up.grad
    torch.optim.Adafactor([up], maximize=True).step()
    torch.optim.Adafactor([down]).step()
    assert torch.equal(up, down)


def test_a_closure_runs_with_grad_and_the_step_without():
    p = _param(2, 2)
    opt = torch.optim.Adafactor([p])
    seen = []

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        seen.append(torch.is_grad_enabled())
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert seen == [True] and loss.grad_fn is not None and not p.grad.requires_grad
    assert opt.step() is None


def test_a_parameter_without_a_gradient_gets_no_state():
    a, b = _param(2, 2), _param(3)
    a.grad = torch.ones(2, 2)
    opt = torch.optim.Adafactor([a, b])
    opt.step()
    assert b not in opt.state and opt.state[a]["step"].item() == 1


def test_the_functional_form_refuses_counts_that_are_not_tensors_and_grad_scaling():
    from torch.optim._adafactor import adafactor

    p = _param(2)
    kw = dict(d=1.0, lr=0.1, beta2_decay=-0.8, weight_decay=0.0, eps1=None, eps2=1e-3,
              maximize=False)
    with raises(RuntimeError, "`state_steps` argument must contain a list of singleton tensors"):
        adafactor([p], [torch.ones(2)], [None], [None], [torch.zeros(2)], [1.0], **kw)
    with raises(AssertionError, "Grad scaling should occur outside of optimizer.step()"):
        adafactor([p], [torch.ones(2)], [None], [None], [torch.zeros(2)], [torch.tensor(0.0)],
                  grad_scale=torch.tensor(1.0), **kw)
    # the list kernel returns before that check when it has nothing to step
    adafactor([], [], [], [], [], [], foreach=True, grad_scale=torch.tensor(1.0), **kw)


def _stepped(**options):
    params = [_param(2, 3), _param(4)]
    opt = torch.optim.Adafactor(params, **options)
    for i in range(3):
        for p in params:
            p.grad = torch.full(p.shape, 0.5 * (i + 1))
        opt.step()
    return params, opt


def test_state_dict_round_trips_into_a_new_optimizer():
    params, opt = _stepped(lr=0.1)
    saved = opt.state_dict()
    assert list(saved["state"][0]) == ["step", "row_var", "col_var"]
    assert list(saved["state"][1]) == ["step", "variance"]
    assert saved["param_groups"][0]["params"] == [0, 1]
    fresh = torch.optim.Adafactor(params, lr=0.9)
    fresh.load_state_dict(copy.deepcopy(saved))
    assert fresh.param_groups[0]["lr"] == 0.1
    for p in params:
        for key, value in opt.state[p].items():
            assert torch.equal(fresh.state[p][key], value) and fresh.state[p][key] is not value


def test_an_older_state_gets_tensor_counts_and_foreach():
    params, opt = _stepped()
    state = opt.__getstate__()
    for p in params:
        state["state"][p]["step"] = 3
    del state["param_groups"][0]["foreach"]
    opt.__setstate__(state)
    assert opt.param_groups[0]["foreach"] is None
    assert all(torch.is_tensor(opt.state[p]["step"]) for p in params)
    assert opt.state[params[0]]["step"].dtype == torch.float32


def test_it_pickles():
    params, opt = _stepped()
    again = pickle.loads(pickle.dumps(opt))
    assert repr(again) == repr(opt) and len(again.state) == 2


@pytest.mark.parametrize("shape", [(0,), (0, 3)])
def test_an_empty_parameter_divides_by_its_size(shape):
    # the scale of the step is a norm over the root of the size, a float division by zero
    p = torch.nn.Parameter(torch.zeros(shape))
    p.grad = torch.zeros(shape)
    with raises(ZeroDivisionError, "float division by zero"):
        torch.optim.Adafactor([p]).step()
