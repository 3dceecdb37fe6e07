"""Muon: its settings and checks, its refusal of all but matrices, its orthogonalised steps."""

import copy
import math

import pytest
import torch

from conformance._support import raises

SETTINGS = ["lr", "weight_decay", "momentum", "nesterov", "ns_coefficients", "eps", "ns_steps",
            "adjust_lr_fn"]
ABC = (3.4445, -4.7750, 2.0315)


def _param(*shape, dtype=torch.float32):
    n = torch.Size(shape).numel()
    return torch.nn.Parameter(torch.arange(1.0, 1.0 + n, dtype=dtype).reshape(shape) / n)


@pytest.mark.parametrize("options, message", [
    (dict(lr=-1.0), "Learning rate should be >= 0 but is: -1.0"),
    (dict(momentum=-0.5), "momentum should be >= 0 but is: -0.5"),
    (dict(weight_decay=-1), "weight decay should be >= 0 but is: -1"),
    (dict(adjust_lr_fn="cosine"), "Adjust learning rate function cosine is not supported"),
    (dict(lr=torch.tensor([0.1, 0.2])), "Tensor lr must be 1-element"),
    (dict(momentum=-1, weight_decay=-1), "momentum should be >= 0 but is: -1"),
])
def test_each_setting_is_checked_in_order(options, message):
    with raises(ValueError, message):
        torch.optim.Muon([_param(2, 2)], **options)


@pytest.mark.parametrize("shape, size", [((3,), "[3]"), ((2, 2, 2), "[2, 2, 2]"), ((), "[]")])
def test_only_matrices_are_accepted(shape, size):
    with raises(ValueError, "Muon only supports 2D parameters whereas we found a parameter "
                            f"with size: torch.Size({size})"):
        torch.optim.Muon([_param(2, 2), _param(*shape)])


def test_the_settings_are_checked_before_the_parameters():
    with raises(ValueError, "Learning rate should be >= 0 but is: -1"):
        torch.optim.Muon([_param(3)], lr=-1)


def test_a_group_added_later_is_not_checked_but_its_step_is_refused():
    opt = torch.optim.Muon([_param(2, 2)])
    v = _param(3)
    opt.add_param_group({"params": [v]})
    v.grad = torch.ones(3)
    with raises(ValueError, "Param gradient must be a 2D matrix"):
        opt.step()


def test_the_settings_their_order_and_defaults_and_repr():
    opt = torch.optim.Muon([_param(2, 2)])
    assert list(opt.defaults) == SETTINGS
    assert opt.defaults == dict(lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                                ns_coefficients=ABC, eps=1e-7, ns_steps=5, adjust_lr_fn=None)
    assert repr(opt) == (
        "Muon (\nParameter Group 0\n    adjust_lr_fn: None\n    eps: 1e-07\n    lr: 0.001\n"
        "    momentum: 0.95\n    nesterov: True\n    ns_coefficients: (3.4445, -4.775, 2.0315)\n"
        "    ns_steps: 5\n    weight_decay: 0.1\n)")


def test_where_the_names_live():
    import torch.optim._muon as module

    assert module.Muon is torch.optim.Muon and module.__all__ == ["Muon"]
    assert torch.optim.Muon.__module__ == torch.optim.__name__ and "Muon" in torch.optim.__all__
    assert (module.EPS, module.DEFAULT_A, module.DEFAULT_B, module.DEFAULT_C,
            module.DEFAULT_NS_STEPS) == (1e-7, *ABC, 5)


@pytest.mark.parametrize("fn, shape, factor", [
    (None, (8, 2), 2.0), ("original", (2, 8), 1.0), ("original", (9, 1), 3.0),
    ("match_rms_adamw", (8, 2), 0.2 * math.sqrt(8)), ("match_rms_adamw", (3, 16), 0.8),
])
def test_the_learning_rate_is_adjusted_for_the_shape(fn, shape, factor):
    from torch.optim._muon import _adjust_lr

    assert _adjust_lr(0.1, fn, torch.Size(shape)) == pytest.approx(0.1 * factor, rel=1e-15)


@pytest.mark.parametrize("call, message", [
    (lambda z: z(torch.ones(2, 2), ABC, 100, 1e-7),
     "Number of steps must be less than 100 for computational efficiency"),
    (lambda z: z(torch.ones(2), ABC, 5, 1e-7), "Input tensor gradient must be a 2D matrix"),
    (lambda z: z(torch.ones(2, 2), (1.0, 2.0), 5, 1e-7),
     "Coefficients must be a tuple of exactly 3 values"),
])
def test_the_iteration_refuses(call, message):
    from torch.optim._muon import _zeropower_via_newtonschulz

    with raises(ValueError, message):
        call(_zeropower_via_newtonschulz)


@pytest.mark.parametrize("shape", [(4, 4), (3, 7), (7, 3), (16, 8)])
def test_the_iteration_nearly_orthogonalises(shape):
    from torch.optim._muon import _zeropower_via_newtonschulz

    torch.manual_seed(0)
    g = torch.randn(shape)
    o = _zeropower_via_newtonschulz(g, ABC, 5, 1e-7)
    assert o.shape == g.shape
    singular = torch.linalg.svdvals(o.float())
    assert bool((singular > 0.6).all()) and bool((singular < 1.3).all())
    # each value is a bfloat16 value: 8 significant bits
    mantissa, _ = torch.frexp(o.float().abs().clamp(min=1e-30))
    assert torch.equal(mantissa * 256, (mantissa * 256).round())


@pytest.mark.parametrize("options", [{}, dict(nesterov=False), dict(momentum=0.5)])
def test_the_momentum_buffer_is_an_average_of_gradients(options):
    p = _param(3, 4)
    opt = torch.optim.Muon([p], **options)
    grads = [torch.full((3, 4), 0.5), torch.arange(12.0).reshape(3, 4)]
    buf = torch.zeros(3, 4)
    momentum = options.get("momentum", 0.95)
    for g in grads:
        p.grad = g.clone()
        opt.step()
        buf = buf.lerp(g, 1 - momentum)
    assert list(opt.state[p]) == ["momentum_buffer"]
    assert torch.equal(opt.state[p]["momentum_buffer"], buf)


def test_weight_decay_scales_by_the_unadjusted_rate():
    # a zero gradient orthogonalises to zero: the step is the decay alone
    p = _param(8, 2, dtype=torch.float64)
    before = p.detach().clone()
    p.grad = torch.zeros(8, 2, dtype=torch.float64)
    torch.optim.Muon([p], lr=0.1, weight_decay=0.5).step()
    assert torch.equal(p.detach(), before * (1 - 0.1 * 0.5))


def test_a_step_moves_by_the_adjusted_rate():
    # a gradient with one nonzero entry has one singular value, one after scaling, which
    # each iteration maps by the polynomial a s + b s^3 + c s^5 (to a few percent: bfloat16)
    p = _param(4, 1, dtype=torch.float64)
    before = p.detach().clone()
    p.grad = torch.tensor([[0.0], [2.0], [0.0], [0.0]], dtype=torch.float64)
    torch.optim.Muon([p], lr=0.1, weight_decay=0.0, nesterov=False, momentum=0.0).step()
    moved = (before - p.detach()).flatten().tolist()
    assert moved[0] == moved[2] == moved[3] == 0.0
    s = 1.0
    for _ in range(5):
        s = ABC[0] * s + ABC[1] * s ** 3 + ABC[2] * s ** 5
    assert moved[1] == pytest.approx(0.1 * 2.0 * s, rel=0.03)  # sqrt(4 / 1) = 2


def test_foreach_and_complex_are_refused_by_the_functional_form():
    from torch.optim._muon import muon

    p = _param(2, 2)
    kw = dict(lr=0.1, weight_decay=0.0, momentum=0.9, nesterov=True, ns_coefficients=ABC,
              ns_steps=5, eps=1e-7, adjust_lr_fn=None)
    with raises(RuntimeError, "Foreach is not supported for Muon yet"):
        muon([p], [torch.ones(2, 2)], [torch.zeros(2, 2)], foreach=True, has_complex=False, **kw)
    with raises(ValueError, "Complex parameters are not supported"):
        muon([p], [torch.ones(2, 2)], [torch.zeros(2, 2)], has_complex=True, **kw)


def test_a_closure_runs_with_grad_and_the_state_round_trips():
    p = _param(2, 3)
    opt = torch.optim.Muon([p])
    seen = []

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        seen.append(torch.is_grad_enabled())
        loss.backward()
        return loss

    assert opt.step(closure).grad_fn is not None and seen == [True]
    saved = opt.state_dict()
    assert list(saved["state"][0]) == ["momentum_buffer"]
    fresh = torch.optim.Muon([p], lr=0.5)
    fresh.load_state_dict(copy.deepcopy(saved))
    assert fresh.param_groups[0]["lr"] == 1e-3
    assert torch.equal(fresh.state[p]["momentum_buffer"], opt.state[p]["momentum_buffer"])


def test_a_gradient_beyond_bfloat16s_range_makes_the_step_nan_without_a_warning():
    # bfloat16 holds float32's range: 1e300 becomes infinite, and infinity over its norm NaN
    p = _param(2, 2, dtype=torch.float64)
    p.grad = torch.full((2, 2), 1e300, dtype=torch.float64)
    torch.optim.Muon([p]).step()
    assert bool(p.isnan().all())


def test_a_gradient_whose_norm_is_below_eps_is_not_scaled_up():
    # the norm is clamped at eps (1e-7): a gradient of norm 1e-30 stays tiny, and so does its
    # step, which leaves float32 parameters as they were
    p = _param(2, 2)
    before = p.detach().clone()
    p.grad = torch.tensor([[1e-30, 0.0], [0.0, 1e-30]])
    torch.optim.Muon([p], lr=0.1, weight_decay=0.0).step()
    assert torch.equal(p.detach(), before)
    p.grad = torch.tensor([[1e-3, 0.0], [0.0, 1e-3]])  # above eps: scaled to a full step
    torch.optim.Muon([p], lr=0.1, weight_decay=0.0).step()
    assert bool(((before - p.detach()).diagonal() > 0.05).all())
