"""What the optimizer kernels refuse on the CPU, the base class's step, and the repr of groups."""

import pytest
import torch

from conformance._support import raises

ON_DEVICES = ("If capturable=True, params and state_steps must be on supported devices: "
              "['cuda', 'xpu', 'hpu', 'privateuseone'{}].")


@pytest.mark.parametrize("cls", [torch.optim.Adam, torch.optim.AdamW])
@pytest.mark.parametrize("foreach, listed", [(None, ", 'xla'"), (False, ", 'xla'"), (True, "")])
def test_capturable_is_refused_for_a_cpu_parameter_at_the_first_step(cls, foreach, listed):
    a = torch.ones(2, requires_grad=True)
    opt = cls([a], capturable=True, foreach=foreach)
    opt.step()  # no gradient yet: nothing to refuse
    assert len(opt.state) == 0
    a.grad = torch.ones(2)
    with raises(AssertionError, ON_DEVICES.format(listed)):
        opt.step()
    assert a.tolist() == [1.0, 1.0]
    assert opt.state[a]["step"].item() == 0.0  # the state was made, the step not taken


def test_capturable_with_differentiable_is_refused_the_same_way():
    a = torch.ones(2, requires_grad=True) * 1.0
    a.grad = torch.ones(2)
    opt = torch.optim.Adam([a], capturable=True, differentiable=True)
    with raises(AssertionError, ON_DEVICES.format(", 'xla'")):
        opt.step()


def test_the_fused_kernel_takes_capturable_on_the_cpu():
    plain, fused = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    for p, options in ((plain, {}), (fused, {"fused": True, "capturable": True})):
        p.grad = torch.tensor([1.0, -2.0])
        torch.optim.Adam([p], lr=0.1, **options).step()
    assert torch.allclose(plain, fused)


def test_the_list_kernel_refuses_differentiable():
    a = torch.ones(2, requires_grad=True) * 1.0
    a.grad = torch.ones(2)
    opt = torch.optim.Adam([a], differentiable=True, foreach=True)
    with raises(AssertionError, "_foreach ops don't support autograd"):
        opt.step()


def test_the_base_class_step_raises_not_implemented_after_its_pre_hooks():
    opt, calls = torch.optim.Optimizer([torch.ones(2, requires_grad=True)], {"lr": 0.1}), []
    opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    with pytest.raises(NotImplementedError) as caught:
        opt.step()
    assert str(caught.value) == "" and calls == ["pre"]


@pytest.mark.parametrize("cls", [torch.optim.SGD, torch.optim.Adam])
def test_the_repr_puts_an_empty_line_between_parameter_groups(cls):
    opt = cls([{"params": [torch.ones(2, requires_grad=True)]},
               {"params": [torch.ones(1, requires_grad=True)], "lr": 0.5}], lr=0.1)
    text = repr(opt)
    assert text.startswith(f"{cls.__name__} (\nParameter Group 0\n    ")
    assert "\n\nParameter Group 1\n    " in text
    assert text.endswith("\n)") and "\n\n)" not in text
    single = repr(cls([torch.ones(2, requires_grad=True)], lr=0.1))
    assert "\n\n" not in single and single.count("\n    ") == len(opt.param_groups[0]) - 1


@pytest.mark.parametrize("cls", [torch.optim.Adam, torch.optim.AdamW])
def test_three_betas_are_refused_at_each_step_before_any_state_is_made(cls):
    a = torch.ones(2, requires_grad=True)
    opt = cls([a], betas=(0.9, 0.99, 0.1))  # accepted: only the first two are checked
    for grad in (None, torch.ones(2)):
        a.grad = grad
        with pytest.raises(ValueError, match="too many values to unpack"):
            opt.step()
    assert len(opt.state) == 0 and a.tolist() == [1.0, 1.0]
