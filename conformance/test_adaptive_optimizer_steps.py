"""The steps RMSprop, Adagrad, Adamax, NAdam, RAdam and Adadelta take: each first step by its
formula, maximize, closures and hooks, and gradients through differentiable steps."""

import math

import pytest
import torch

from conformance._support import raises

NAMES = ["RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta"]
G = [0.5, -0.25, 2.0]


def _first_step(name, **options):
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64))
    p.grad = torch.tensor(G, dtype=torch.float64)
    getattr(torch.optim, name)([p], **options).step()
    return p.tolist()


# Each first step, written out from the algorithm with all state at its initial value.
FIRST = {
    "RMSprop": lambda g: -0.01 * g / (math.sqrt(0.01 * g * g) + 1e-8),
    "Adagrad": lambda g: -0.01 * g / (math.sqrt(g * g) + 1e-10),
    "Adamax": lambda g: -0.002 / 0.1 * (0.1 * g) / (abs(g) + 1e-8),
    "NAdam": lambda g: _nadam_first(g),
    "RAdam": lambda g: -0.001 * g,  # a plain momentum step: m / (1 - beta1) is g
    "Adadelta": lambda g: -math.sqrt(1e-6) / math.sqrt(0.1 * g * g + 1e-6) * g,
}


def _nadam_first(g):
    mu = 0.9 * (1 - 0.5 * 0.96 ** 0.004)
    mu_next = 0.9 * (1 - 0.5 * 0.96 ** 0.008)
    denom = math.sqrt(0.001 * g * g / 0.001) + 1e-8
    return (-0.002 * (1 - mu) / (1 - mu) * g / denom
            - 0.002 * mu_next / (1 - mu * mu_next) * (0.1 * g) / denom)


@pytest.mark.parametrize("name", NAMES)
def test_the_first_step_follows_the_algorithm(name):
    expected = [w + FIRST[name](g) for w, g in zip([1.0, -2.0, 0.5], G)]
    rel = 1e-6 if name == "NAdam" else 1e-12  # its product of factors is kept in float32
    assert _first_step(name) == pytest.approx(expected, rel=rel, abs=1e-15)


@pytest.mark.parametrize("name", NAMES)
def test_maximize_steps_along_the_gradient(name):
    up = _first_step(name, maximize=True)
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64))
    p.grad = -torch.tensor(G, dtype=torch.float64)
    getattr(torch.optim, name)([p]).step()
    assert up == p.tolist()


@pytest.mark.parametrize("name", NAMES)
def test_a_closure_runs_with_grad_and_its_loss_is_returned(name):
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = getattr(torch.optim, name)([p])
    seen = []

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        seen.append(torch.is_grad_enabled())
        return loss

    with torch.no_grad():
        loss = opt.step(closure)
    assert loss.item() == 5.0 and seen == [True] and p.tolist() != [1.0, -2.0]


@pytest.mark.parametrize("name", NAMES)
def test_step_hooks_run_around_every_step(name):
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.ones(2)
    opt = getattr(torch.optim, name)([p])
    calls = []
    opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", p.tolist())))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append(("post", p.tolist())))
    opt.step()
    assert calls[0] == ("pre", [1.0, 1.0]) and calls[1][0] == "post"
    assert calls[1][1] == p.tolist() != [1.0, 1.0]


def test_radam_takes_momentum_steps_until_the_second_moment_is_old_enough():
    p = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
    opt = torch.optim.RAdam([p], lr=0.1)
    moves = []
    for _ in range(7):
        before = p.item()
        p.grad = torch.ones(1, dtype=torch.float64)
        opt.step()
        moves.append(before - p.item())
    assert moves[:5] == pytest.approx([0.1] * 5, rel=1e-12)  # m / (1 - beta1^t) is 1 here
    assert moves[5] != pytest.approx(0.1, rel=1e-3)  # rho_t passed 5: the adaptive step


def test_a_learning_rate_learns_through_differentiable_radam():
    def after(lr_value):
        a = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True) * 1.0
        lr = torch.tensor(lr_value, dtype=torch.float64, requires_grad=True)
        opt = torch.optim.RAdam([a], lr=lr, differentiable=True)
        for i in range(7):
            a.grad = torch.tensor([0.3, -0.1], dtype=torch.float64) * (i + 1)
            opt.step()
        loss = (a * a).sum()
        loss.backward()
        return loss.item(), lr.grad.item()

    loss, grad = after(0.01)
    numeric = (after(0.01 + 1e-6)[0] - after(0.01 - 1e-6)[0]) / 2e-6
    assert grad == pytest.approx(numeric, rel=1e-6)


def test_differentiable_nadam_changes_its_product_after_the_graph_saved_it():
    a = torch.tensor([1.0, -2.0], requires_grad=True) * 1.0
    lr = torch.tensor(0.01, requires_grad=True)
    opt = torch.optim.NAdam([a], lr=lr, differentiable=True)
    for _ in range(2):
        a.grad = torch.tensor([0.3, -0.1])
        opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        a.sum().backward()


def test_foreach_steps_as_the_one_tensor_kernel_does():
    results = []
    for foreach in (False, True):
        p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
        opt = torch.optim.RMSprop([p], momentum=0.9, centered=True, foreach=foreach)
        for i in range(5):
            p.grad = torch.tensor(G) * (i + 1)
            opt.step()
        results.append(p.detach())
    assert torch.equal(*results)


def test_a_tensor_learning_rate_without_grad_is_read_as_a_number():
    steps = []
    for lr in (0.01, torch.tensor(0.01), torch.tensor([0.01])):
        p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        p.grad = torch.tensor([0.5, 0.25])
        torch.optim.Adadelta([p], lr=lr).step()
        steps.append(p.tolist())
    assert steps[0] == steps[1] == steps[2]
    with raises(ValueError, "Tensor lr must be 1-element"):
        torch.optim.Adadelta([p], lr=torch.tensor([0.01, 0.02]))
