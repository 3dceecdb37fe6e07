"""Rprop, ASGD and LBFGS: their settings, refusals, reprs, state and saved state."""

import copy
import warnings

import pytest
import torch

from conformance._support import raises

DEVICES = "['cuda', 'xpu', 'hpu', 'privateuseone'{}]"
RPROP_DEVICES = "If capturable=True, params and state_steps must be on supported devices: {}."
ASGD_DEVICES = ("If capturable=True, params, mus, etas, and state_steps must be on supported "
                "devices: {}.")


@pytest.mark.parametrize("make, kind, message", [
    (lambda p: torch.optim.Rprop(p, lr=-0.1, etas=(2, 1)), ValueError,
     "Invalid learning rate: -0.1"),
    (lambda p: torch.optim.Rprop(p, lr=torch.ones(2)), ValueError, "Tensor lr must be 1-element"),
    (lambda p: torch.optim.Rprop(p, etas=(0.0, 1.2)), ValueError, "Invalid eta values: 0.0, 1.2"),
    (lambda p: torch.optim.Rprop(p, etas=(0.5, 1)), ValueError, "Invalid eta values: 0.5, 1"),
    (lambda p: torch.optim.ASGD(p, lr=-1, weight_decay=-1), ValueError,
     "Invalid learning rate: -1"),
    (lambda p: torch.optim.ASGD(p, weight_decay=-0.5), ValueError,
     "Invalid weight_decay value: -0.5"),
    (lambda p: torch.optim.LBFGS(p, lr=-2.0), ValueError, "Invalid learning rate: -2.0"),
    (lambda p: torch.optim.LBFGS([{"params": p}, {"params": [torch.ones(1, requires_grad=True)]}]),
     ValueError, "LBFGS doesn't support per-parameter options (parameter groups)"),
])
def test_settings_are_refused_in_torchs_order_and_words(make, kind, message):
    with raises(kind, message):
        make([torch.ones(2, requires_grad=True)])


def test_the_defaults_keep_torchs_keys_in_torchs_order():
    p = [torch.ones(2, requires_grad=True)]
    assert list(torch.optim.Rprop(p).defaults.items()) == [
        ("lr", 0.01), ("etas", (0.5, 1.2)), ("step_sizes", (1e-06, 50)), ("foreach", None),
        ("maximize", False), ("differentiable", False), ("capturable", False)]
    assert list(torch.optim.ASGD(p, 0.1, 0.2, 0.5, 3.0, 0.1, True, True).defaults.items()) == [
        ("lr", 0.1), ("lambd", 0.2), ("alpha", 0.5), ("t0", 3.0), ("weight_decay", 0.1),
        ("foreach", True), ("maximize", True), ("differentiable", False), ("capturable", False)]
    assert list(torch.optim.LBFGS(p, max_iter=7).defaults.items()) == [
        ("lr", 1), ("max_iter", 7), ("max_eval", 8), ("tolerance_grad", 1e-07),
        ("tolerance_change", 1e-09), ("history_size", 100), ("line_search_fn", None)]


def test_the_repr_lists_each_setting():
    p = [torch.ones(2, requires_grad=True)]
    assert repr(torch.optim.Rprop(p)) == (
        "Rprop (\nParameter Group 0\n    capturable: False\n    differentiable: False\n"
        "    etas: (0.5, 1.2)\n    foreach: None\n    lr: 0.01\n    maximize: False\n"
        "    step_sizes: (1e-06, 50)\n)")
    assert repr(torch.optim.LBFGS(p)) == (
        "LBFGS (\nParameter Group 0\n    history_size: 100\n    line_search_fn: None\n"
        "    lr: 1\n    max_eval: 25\n    max_iter: 20\n    tolerance_change: 1e-09\n"
        "    tolerance_grad: 1e-07\n)")
    assert "    t0: 1000000.0\n    weight_decay: 0\n)" in repr(torch.optim.ASGD(p))


@pytest.mark.parametrize("cls, message", [(torch.optim.Rprop, RPROP_DEVICES),
                                          (torch.optim.ASGD, ASGD_DEVICES)])
@pytest.mark.parametrize("foreach", [None, False, True])
def test_capturable_is_refused_at_the_first_step_with_a_gradient(cls, message, foreach):
    a = torch.ones(2, requires_grad=True)
    opt = cls([a], capturable=True, foreach=foreach)
    opt.step()  # no gradient: nothing to refuse
    a.grad = torch.ones(2)
    xla = "" if (cls is torch.optim.ASGD and foreach) else ", 'xla'"
    with raises(AssertionError, message.format(DEVICES.format(xla))):
        opt.step()
    assert a.tolist() == [1.0, 1.0] and opt.state[a]["step"].item() == 0.0


@pytest.mark.parametrize("cls", [torch.optim.Rprop, torch.optim.ASGD])
def test_the_list_kernel_refuses_differentiable(cls):
    a = torch.ones(2, requires_grad=True) * 1.0
    a.grad = torch.ones(2)
    with raises(AssertionError, "_foreach ops don't support autograd"):
        cls([a], differentiable=True, foreach=True, capturable=True).step()


def test_the_state_has_torchs_keys_and_dtypes():
    a = torch.ones(2, dtype=torch.float64, requires_grad=True)
    a.grad = torch.tensor([1.0, -2.0], dtype=torch.float64)
    rprop, asgd = torch.optim.Rprop([a]), torch.optim.ASGD([a])
    rprop.step()
    asgd.step()
    assert [(k, v.dtype, tuple(v.shape)) for k, v in rprop.state[a].items()] == [
        ("step", torch.float32, ()), ("prev", torch.float64, (2,)),
        ("step_size", torch.float64, (2,))]
    assert [(k, v.dtype, tuple(v.shape)) for k, v in asgd.state[a].items()] == [
        ("step", torch.float32, ()), ("eta", torch.float32, ()), ("mu", torch.float32, ()),
        ("ax", torch.float64, (2,))]


def _asgd_run(params, opt, steps):
    for i in range(steps):
        for p in params:
            p.grad = torch.full_like(p, 0.3 - 0.1 * i)
        opt.step()


def test_a_loaded_state_continues_as_the_saved_one_would():
    a = torch.ones(3, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.ASGD([a], lr=0.1, t0=1)
    _asgd_run([a], opt, 3)
    saved = copy.deepcopy(opt.state_dict())
    b = a.detach().clone().requires_grad_()
    other = torch.optim.ASGD([b], lr=0.5)
    other.load_state_dict(saved)
    assert other.param_groups[0]["lr"] == 0.1
    state = other.state[b]  # moved to the parameter's dtype, all but the step count
    assert (state["step"].dtype, state["eta"].dtype, state["mu"].dtype) == (
        torch.float32, torch.float64, torch.float64)
    _asgd_run([a], opt, 2)
    _asgd_run([b], other, 2)
    assert torch.allclose(a, b, rtol=1e-12, atol=0)


def test_an_older_state_with_numbers_for_counts_is_loaded_as_tensors():
    a = torch.ones(2, requires_grad=True)
    opt = torch.optim.ASGD([a])
    _asgd_run([a], opt, 1)
    saved = opt.state_dict()
    saved["state"][0].update(step=1, eta=0.01, mu=1.0)
    for group in saved["param_groups"]:
        del group["foreach"], group["capturable"]
    opt.load_state_dict(saved)
    state = opt.state[a]
    assert [type(state[k]).__name__ for k in ("step", "eta", "mu")] == ["Tensor"] * 3
    assert state["step"].dtype == torch.float32 and opt.param_groups[0]["capturable"] is False


def _closure(opt, w):
    def closure():
        opt.zero_grad()
        loss = ((w - torch.tensor([1.0, -2.0, 0.5])) ** 2 * torch.tensor([1.0, 4.0, 9.0])).sum()
        loss.backward()
        return loss

    return closure


def test_lbfgs_needs_a_closure():
    w = torch.zeros(3, requires_grad=True)
    opt = torch.optim.LBFGS([w])
    with raises(TypeError, "LBFGS.step() missing 1 required positional argument: 'closure'"):
        opt.step()


def test_lbfgs_refuses_an_unknown_line_search_once_it_searches():
    w = torch.zeros(3, requires_grad=True)
    opt = torch.optim.LBFGS([w], line_search_fn="backtracking")
    with raises(RuntimeError, "only 'strong_wolfe' is supported"):
        opt.step(_closure(opt, w))
    assert opt.state[w]["func_evals"] == 1 and opt.state[w]["n_iter"] == 1


def test_lbfgs_keeps_its_state_on_the_first_parameter_under_torchs_keys():
    w, v = torch.zeros(3, requires_grad=True), torch.zeros(1, requires_grad=True)
    opt = torch.optim.LBFGS([w, v], max_iter=3)  # so max_eval=3
    loss = opt.step(_closure(opt, w))
    assert loss.item() == 1 + 16 + 2.25 and list(opt.state) == [w]
    assert list(opt.state[w]) == ["func_evals", "n_iter", "al", "d", "t", "old_dirs",
                                  "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss"]
    assert (opt.state[w]["func_evals"], opt.state[w]["n_iter"]) == (3, 2)  # max_eval 3 spent
    assert tuple(opt.state[w]["d"].shape) == (4,) and len(opt.state[w]["al"]) == 100


def test_lbfgs_reads_its_loss_without_the_warning_of_a_number_leaving_the_graph(warn_always):
    w = torch.zeros(3, requires_grad=True)
    opt = torch.optim.LBFGS([w], line_search_fn="strong_wolfe")
    total = w.sum()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opt.step(_closure(opt, w))
        with torch.no_grad():  # float() warns only in grad mode
            float(total)
        assert caught == []
        float(total)
    assert [str(w.message)[:40] for w in caught] == ["Converting a tensor with requires_grad=T"]
    assert torch.allclose(w, torch.tensor([1.0, -2.0, 0.5]))


@pytest.mark.parametrize("options, message", [
    ({"lr": 0}, "Invalid learning rate: 0"),
    ({"lr": 0.1, "eps": 0.0}, "Invalid epsilon value: 0.0"),
    ({"betas": (1.0, 0.5), "eps": 0}, "Invalid epsilon value: 0"),
    ({"betas": (1.0, -1)}, "Invalid beta parameter at index 0: 1.0"),
    ({"betas": (0.5, -1)}, "Invalid beta parameter at index 1: -1"),
])
def test_sparse_adam_checks_its_settings(options, message):
    with raises(ValueError, message):
        torch.optim.SparseAdam([torch.ones(2, requires_grad=True)], **options)


def test_sparse_adam_refuses_a_dense_gradient_before_changing_anything():
    w = torch.ones(2, requires_grad=True)
    opt = torch.optim.SparseAdam([w], lr=0.1)
    assert repr(opt) == ("SparseAdam (\nParameter Group 0\n    betas: (0.9, 0.999)\n"
                         "    eps: 1e-08\n    lr: 0.1\n    maximize: False\n)")
    assert opt.step(lambda: 3) == 3  # no gradient: nothing to do
    w.grad = torch.ones(2)
    with raises(RuntimeError, "SparseAdam does not support dense gradients, please consider "
                              "Adam instead"):
        opt.step()
    assert len(opt.state) == 0 and w.tolist() == [1.0, 1.0]


def test_rprop_cannot_start_from_a_learning_rate_that_requires_grad():
    a = torch.ones(2, requires_grad=True) * 1.0
    a.grad = torch.ones(2)
    opt = torch.optim.Rprop([a], lr=torch.tensor(0.1, requires_grad=True), differentiable=True)
    with raises(TypeError, "full_like(): argument 'fill_value' (position 2) must be Number, "
                           "not Tensor"):
        opt.step()
    assert list(opt.state[a]) == ["step", "prev"]  # made up to the step sizes
