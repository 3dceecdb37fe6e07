"""Tensor learning rates, betas and weight decays: kept as tensors, and reached by gradients."""

import warnings

import pytest
import torch

GRADS = ([0.5, -1.25, 3.0], [1.0, 0.25, -2.0], [-0.5, 2.0, 1.0])
START = [1.0, -2.0, 0.5]


def _final(make, hyper: dict, differentiable: bool, steps: int = 3):
    """The parameter after ``steps`` steps from START; a computed one when differentiable."""
    w = torch.tensor(START, dtype=torch.float64, requires_grad=True)
    a = w * 1.0 if differentiable else torch.tensor(START, dtype=torch.float64,
                                                    requires_grad=True)
    opt = make([a], hyper, differentiable)
    for g in GRADS[:steps]:
        a.grad = torch.tensor(g, dtype=torch.float64)  # fresh: a weight decay may add into it
        opt.step()
    return w, a


def _sgd(params, hyper, differentiable):
    return torch.optim.SGD(params, lr=hyper["lr"], weight_decay=hyper["weight_decay"],
                           differentiable=differentiable)


def _adam(params, hyper, differentiable, cls=torch.optim.Adam):
    return cls(params, lr=hyper["lr"], betas=(hyper["beta1"], hyper["beta2"]),
               weight_decay=hyper["weight_decay"], differentiable=differentiable)


def _adamw(params, hyper, differentiable):
    return _adam(params, hyper, differentiable, torch.optim.AdamW)


def _numeric(make, hyper: dict, name: str, steps: int, h: float = 1e-6) -> float:
    """d(sum of the final parameter)/d(hyper[name]) by central differences, on plain numbers."""
    up, down = dict(hyper, **{name: hyper[name] + h}), dict(hyper, **{name: hyper[name] - h})
    return ((_final(make, up, False, steps)[1].sum() - _final(make, down, False, steps)[1].sum())
            / (2 * h)).item()


@pytest.mark.parametrize("make, hyper, steps", [
    (_sgd, {"lr": 0.1, "weight_decay": 0.2}, 1),
    (_sgd, {"lr": 0.1, "weight_decay": 0.2}, 3),
    (_adam, {"lr": 0.01, "beta1": 0.8, "beta2": 0.95, "weight_decay": 0.1}, 1),
    (_adam, {"lr": 0.01, "beta1": 0.8, "beta2": 0.95, "weight_decay": 0.1}, 3),
    (_adamw, {"lr": 0.01, "beta1": 0.8, "beta2": 0.95, "weight_decay": 0.1}, 3),
])
def test_a_gradient_reaches_every_tensor_hyperparameter(make, hyper, steps):
    tensors = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True)
               for k, v in hyper.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is read as a number
        w, a = _final(make, tensors, True, steps)
        a.sum().backward()
    for name, value in tensors.items():
        assert value.grad is not None, name
        assert value.grad.item() == pytest.approx(_numeric(make, hyper, name, steps),
                                                  rel=1e-5, abs=1e-9), name
    expected = _final(make, hyper, False, steps)[1]
    assert torch.allclose(a.detach(), expected.detach(), rtol=1e-12, atol=0)


def test_sgd_with_a_learning_rate_that_requires_grad_multiplies_by_it():
    w = torch.ones(2, requires_grad=True)
    a = w * 1.0
    a.grad = torch.tensor([1.0, 2.0])
    lr = torch.tensor(0.1, requires_grad=True)
    torch.optim.SGD([a], lr=lr, differentiable=True).step()
    assert type(a.grad_fn).__name__ == "AddcmulBackward0"
    a.sum().backward()
    assert lr.grad.item() == -3.0
    assert w.grad.tolist() == [1.0, 1.0]


def test_an_sgd_weight_decay_that_requires_grad_adds_into_the_gradient_itself():
    a = torch.ones(2, requires_grad=True) * 1.0
    grad = torch.tensor([1.0, 2.0])
    a.grad = grad
    decay = torch.tensor(0.5, requires_grad=True)
    torch.optim.SGD([a], lr=0.1, weight_decay=decay, differentiable=True).step()
    assert a.grad is grad and grad._version == 1
    assert grad.tolist() == [1.5, 2.5]


def test_a_momentum_buffer_saved_for_a_learning_rate_is_then_changed_in_place():
    w = torch.ones(2, requires_grad=True)
    a = w * 1.0
    a.grad = torch.tensor([1.0, 2.0])
    lr = torch.tensor(0.1, requires_grad=True)
    opt = torch.optim.SGD([a], lr=lr, momentum=0.5, weight_decay=0.1, differentiable=True)
    opt.step()
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        a.sum().backward()


@pytest.mark.parametrize("cls", [torch.optim.Adam, torch.optim.AdamW])
def test_adam_differentiable_backward_runs_through_two_steps(cls):
    w = torch.ones(2, requires_grad=True)
    a = w * 1.0
    a.grad = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = cls([a], lr=0.1, differentiable=True)
    opt.step()
    opt.step()
    assert type(a.grad_fn).__name__ == "AddcdivBackward0"
    a.sum().backward()
    plain = torch.ones(2, requires_grad=True)
    other = cls([plain], lr=0.1)
    for _ in range(2):
        plain.grad = torch.tensor([1.0, 2.0])
        other.step()
    assert torch.allclose(a.detach(), plain.detach(), rtol=1e-5, atol=0)
    shrink = (1 - 0.1 * 0.01) ** 2 if cls is torch.optim.AdamW else 1.0  # AdamW's decay
    assert torch.allclose(w.grad, torch.full((2,), shrink))


def test_adam_amsgrad_differentiable_saves_a_moment_the_next_step_changes():
    a = torch.ones(2, requires_grad=True) * 1.0
    a.grad = torch.tensor([1.0, 2.0])  # the decay makes the moments depend on a
    opt = torch.optim.Adam([a], lr=0.1, amsgrad=True, weight_decay=0.1, differentiable=True)
    opt.step()
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        a.sum().backward()


def test_adam_refuses_a_step_count_that_requires_grad_when_differentiable():
    a = torch.ones(2, requires_grad=True) * 1.0
    a.grad = torch.ones(2)
    opt = torch.optim.Adam([a], differentiable=True)
    opt.step()
    opt.state[a]["step"].requires_grad_()
    with pytest.raises(RuntimeError) as caught:
        opt.step()
    assert str(caught.value) == "`requires_grad` is not supported for `step` in differentiable mode"


@pytest.mark.parametrize("betas", [(torch.tensor(0.9), torch.tensor(0.999)),
                                   (torch.tensor([0.9]), torch.tensor([[0.999]]))])
def test_tensor_betas_stay_tensors_squeezed_to_no_dimensions(betas):
    opt = torch.optim.Adam([torch.ones(2, requires_grad=True)], betas=betas)
    kept = opt.param_groups[0]["betas"]
    assert all(isinstance(b, torch.Tensor) and b.dim() == 0 for b in kept)
    assert [b.item() for b in kept] == [b.item() for b in betas]
    assert opt.state_dict()["param_groups"][0]["betas"] is kept
    assert f"    betas: {kept}\n" in repr(opt)


def test_tensor_betas_step_as_the_same_numbers_do():
    steps = []
    for betas in ((torch.tensor(0.5), torch.tensor(0.75)), (0.5, 0.75)):
        p = torch.ones(2, requires_grad=True)
        opt = torch.optim.Adam([p], lr=0.5, betas=betas)
        for g in ([1.0, 2.0], [4.0, -1.0]):
            p.grad = torch.tensor(g)
            opt.step()
        steps.append(p.detach())
    assert torch.allclose(steps[0], steps[1], rtol=1e-6, atol=0)


@pytest.mark.parametrize("options, expected", [
    ({"lr": 1}, [0, 0]),
    ({"lr": 1, "momentum": 1, "weight_decay": 2}, [-2, -2]),
    ({"lr": 2, "maximize": True}, [3, 3]),
])
def test_an_integer_learning_rate_steps_integer_parameters(options, expected):
    a = torch.ones(2, dtype=torch.long)
    a.grad = torch.ones(2, dtype=torch.long)
    torch.optim.SGD([a], **options).step()
    assert a.dtype == torch.long and a.tolist() == expected


def test_a_float_learning_rate_still_refuses_integer_parameters():
    a = torch.ones(2, dtype=torch.long)
    a.grad = torch.ones(2, dtype=torch.long)
    with pytest.raises(RuntimeError) as caught:
        torch.optim.SGD([a], lr=0.5).step()
    assert str(caught.value) == ("For integral input tensors, argument alpha must not be a "
                                 "floating point number.")
