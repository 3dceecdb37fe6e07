"""The settings RMSprop, Adagrad, Adamax, NAdam, RAdam and Adadelta refuse, in torch's words
and order, and what their kernels refuse on the CPU at a step."""

import pytest
import torch

from conformance._support import raises

NAMES = ["RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta"]
ON_DEVICES = ("If capturable=True, {} must be on supported devices: "
              "['cuda', 'xpu', 'hpu', 'privateuseone'{}].")


def _param():
    return torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("options, message", [
    (dict(lr=-1.0), "Invalid learning rate: -1.0"),
    (dict(lr=-2.0, eps=-1.0, weight_decay=-1.0), "Invalid learning rate: -2.0"),
    (dict(lr=torch.tensor([0.1, 0.2])), "Tensor lr must be 1-element"),
    (dict(weight_decay=-0.5), "Invalid weight_decay value: -0.5"),
    (dict(eps=-1.0), "Invalid epsilon value: -1.0"),
])
def test_settings_every_one_checks(name, options, message):
    with raises(ValueError, message):
        getattr(torch.optim, name)([_param()], **options)


# Each optimizer's own settings, and the first of two bad ones that torch reports.
@pytest.mark.parametrize("name, options, message", [
    ("RMSprop", dict(momentum=-1, alpha=-1), "Invalid momentum value: -1"),
    ("RMSprop", dict(weight_decay=-1, alpha=-2), "Invalid weight_decay value: -1"),
    ("RMSprop", dict(alpha=-0.5), "Invalid alpha value: -0.5"),
    ("Adagrad", dict(lr_decay=-1, weight_decay=-1), "Invalid lr_decay value: -1"),
    ("Adagrad", dict(weight_decay=-2, eps=-1), "Invalid weight_decay value: -2"),
    ("Adagrad", dict(initial_accumulator_value=-1, eps=-1),
     "Invalid initial_accumulator_value value: -1"),
    ("Adamax", dict(betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
    ("Adamax", dict(betas=(0.9, -0.1), weight_decay=-1), "Invalid beta parameter at index 1: -0.1"),
    ("Adamax", dict(eps=-1, betas=(2, 2)), "Invalid epsilon value: -1"),
    ("NAdam", dict(momentum_decay=-1), "Invalid momentum_decay value: -1"),
    ("NAdam", dict(betas=(0.5, 1.0), momentum_decay=-1), "Invalid beta parameter at index 1: 1.0"),
    ("RAdam", dict(betas=(-0.1, 0.9)), "Invalid beta parameter at index 0: -0.1"),
    ("RAdam", dict(betas=(0.9, 1)), "Invalid beta parameter at index 1: 1"),
    ("Adadelta", dict(rho=1.5, eps=-1), "Invalid rho value: 1.5"),
    ("Adadelta", dict(rho=-0.1), "Invalid rho value: -0.1"),
    ("Adadelta", dict(lr=-1, rho=2), "Invalid learning rate: -1"),
])
def test_settings_each_one_checks_in_order(name, options, message):
    with raises(ValueError, message):
        getattr(torch.optim, name)([_param()], **options)


def test_a_rho_of_one_is_allowed():
    assert torch.optim.Adadelta([_param()], rho=1.0).defaults["rho"] == 1.0


@pytest.mark.parametrize("name", ["RMSprop", "Adamax", "NAdam", "RAdam", "Adadelta"])
def test_only_adagrad_takes_fused(name):
    with raises(TypeError, f"{name}.__init__() got an unexpected keyword argument 'fused'"):
        getattr(torch.optim, name)([_param()], fused=True)


@pytest.mark.parametrize("options, message", [
    (dict(fused=True, differentiable=True), "`fused` does not support `differentiable`"),
    (dict(fused=True, foreach=True), "`fused` and `foreach` cannot be `True` together."),
])
def test_fused_adagrad_refuses_other_kernels(options, message):
    with raises(RuntimeError, message):
        torch.optim.Adagrad([_param()], **options)


@pytest.mark.parametrize("name, foreach, listed", [
    ("RMSprop", False, ("params and state_steps", ", 'xla'")),
    ("RMSprop", True, ("params and state_steps", ", 'xla'")),
    ("Adamax", False, ("params and state_steps", ", 'xla'")),
    ("Adamax", True, ("params and state_steps", "")),
    ("NAdam", False, ("params, mu_products and state_steps", ", 'xla'")),
    ("NAdam", True, ("params, mu_products, and state_steps", "")),
    ("RAdam", False, ("params and state_steps", ", 'xla'")),
    ("RAdam", True, ("params and state_steps", "")),
    ("Adadelta", False, ("params and state_steps", "")),
    ("Adadelta", True, ("params and state_steps", "")),
])
def test_capturable_is_refused_for_a_cpu_parameter_at_the_first_step(name, foreach, listed):
    p = _param()
    opt = getattr(torch.optim, name)([p], capturable=True, foreach=foreach)
    opt.step()  # no gradient yet: nothing to refuse
    p.grad = torch.ones(3)
    with raises(AssertionError, ON_DEVICES.format(*listed)):
        opt.step()
    assert p.tolist() == [1.0, -2.0, 0.5]
    assert opt.state[p]["step"].item() == 0.0  # the state was made, the step not taken


# The list-at-once kernel refuses autograd; some refuse before they look for gradients.
@pytest.mark.parametrize("name, refused_without_gradients", [
    ("RMSprop", False), ("Adagrad", True), ("Adamax", True), ("NAdam", False),
    ("RAdam", False), ("Adadelta", True)])
def test_foreach_refuses_differentiable(name, refused_without_gradients):
    p = _param()
    opt = getattr(torch.optim, name)([p], foreach=True, differentiable=True)
    if refused_without_gradients:
        with raises(AssertionError, "_foreach ops don't support autograd"):
            opt.step()
    else:
        opt.step()
    p.grad = torch.ones(3)
    with raises(AssertionError, "_foreach ops don't support autograd"):
        opt.step()


# A learning rate that requires grad reaches an in-place update's number argument.
@pytest.mark.parametrize("name, options, message", [
    ("RMSprop", {}, "addcdiv_(): argument 'value' must be Number, not Tensor"),
    ("RMSprop", dict(momentum=0.9), "add_(): argument 'alpha' must be Number, not Tensor"),
    ("Adagrad", {}, "addcdiv_(): argument 'value' must be Number, not Tensor"),
    ("Adamax", {}, "addcdiv_(): argument 'value' must be Number, not Tensor"),
    ("Adadelta", {}, "add_(): argument 'alpha' must be Number, not Tensor"),
])
def test_a_learning_rate_that_requires_grad_is_refused_where_it_becomes_a_number(
        name, options, message):
    a = torch.tensor([1.0, -2.0], requires_grad=True) * 1.0
    a.grad = torch.tensor([0.5, 0.25])
    lr = torch.tensor(0.01, requires_grad=True)
    opt = getattr(torch.optim, name)([a], lr=lr, differentiable=True, **options)
    with raises(TypeError, message):
        opt.step()



def test_fused_adagrad_refuses_a_parameter_that_is_not_floating_point_at_its_first_step():
    p = torch.ones(2, dtype=torch.long)
    opt = torch.optim.Adagrad([p], fused=True)  # the state is made, the check waits
    assert opt.state[p]["sum"].dtype == torch.long
    p.grad = torch.ones(2, dtype=torch.long)
    with raises(RuntimeError, "`fused=True` requires all the params to be floating point Tensors "
                              "of supported devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', "
                              "'privateuseone'] but torch.int64 and cpu"):
        opt.step()
