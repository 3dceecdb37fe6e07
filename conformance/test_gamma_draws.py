"""torch._standard_gamma and _standard_gamma_grad: their nodes, refusals and arguments,
and the Gamma and Chi2 distributions drawn with them. The same assertions run on torch;
conformance/oracle/test_gamma_family_oracle.py compares the numbers themselves."""

import pytest
import torch
from torch.autograd import forward_ad as fwAD

NO_FORMULA = ("^Trying to use forward AD with {} that does not support it because it has not "
              "been implemented yet")


def test_a_draw_records_its_node_and_differentiates_through_the_implicit_gradient():
    alpha = torch.tensor([0.5, 2.5, 9.0], requires_grad=True)
    torch.manual_seed(0)
    drawn = torch._standard_gamma(alpha)
    node = drawn.grad_fn
    assert node.name() == "StandardGammaBackward0"
    assert torch.equal(node._saved_self, alpha) and torch.equal(node._saved_result, drawn)
    (gradient,) = torch.autograd.grad(drawn.sum(), alpha, create_graph=True)
    assert torch.equal(gradient, torch._standard_gamma_grad(alpha.detach(), drawn.detach()))
    assert gradient.grad_fn.name() == "MulBackward0"
    with pytest.raises(NotImplementedError, match="^the derivative for '_standard_gamma_grad' "
                                                  r"is not implemented\.$"):
        gradient.sum().backward()


def test_the_gradient_is_a_node_whose_own_derivative_is_refused():
    alpha = torch.tensor([1.5, 3.0], requires_grad=True)
    out = torch._standard_gamma_grad(alpha, torch.tensor([0.5, 4.0]))
    assert out.grad_fn.name() == "StandardGammaGradBackward0"
    assert len(out.grad_fn.next_functions) == 1
    with pytest.raises(NotImplementedError, match="^the derivative for '_standard_gamma_grad'"):
        out.sum().backward()


@pytest.mark.parametrize("call, name", [
    (lambda d: torch._standard_gamma(d), "_standard_gamma"),
    (lambda d: torch._standard_gamma_grad(d, d), "_standard_gamma_grad"),
])
def test_forward_mode_is_refused(call, name):
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([1.5, 2.0]), torch.ones(2))
        with pytest.raises(NotImplementedError, match=NO_FORMULA.format(name)):
            call(dual)


def test_draws_are_row_major_into_a_new_contiguous_tensor():
    torch.manual_seed(0)
    flat = torch._standard_gamma(torch.ones(6))
    torch.manual_seed(0)
    drawn = torch._standard_gamma(torch.ones(2, 3).t())
    assert drawn.stride() == (2, 1) and torch.equal(drawn.reshape(-1), flat)
    torch.manual_seed(0)
    expanded = torch._standard_gamma(torch.ones(3, dtype=torch.float64).expand(2, 3))
    assert expanded.stride() == (3, 1) and expanded.dtype == torch.float64
    seeded = torch._standard_gamma(torch.ones(2), generator=torch.Generator().manual_seed(0))
    assert torch.equal(seeded, flat[:2])
    assert torch._standard_gamma(torch.tensor(2.0)).shape == ()
    assert torch._standard_gamma(torch.ones(0)).shape == (0,)


def test_a_zero_concentration_gives_the_smallest_normal_number():
    drawn = torch._standard_gamma(torch.zeros(2))
    assert drawn.tolist() == [torch.finfo(torch.float32).tiny] * 2
    assert torch._standard_gamma(torch.zeros(1, dtype=torch.float64)).item() == (
        torch.finfo(torch.float64).tiny)


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch._standard_gamma(torch.tensor([1, 2])), NotImplementedError,
     "\"gamma_cpu\" not implemented for 'Long'"),
    (lambda: torch._standard_gamma(torch.ones(2, dtype=torch.half)), NotImplementedError,
     "\"gamma_cpu\" not implemented for 'Half'"),
    (lambda: torch._standard_gamma(torch.ones(2), 3), TypeError,
     "_standard_gamma(): argument 'generator' (position 2) must be torch.Generator, not int"),
    (lambda: torch._standard_gamma(torch.ones(2), out=torch.ones(2)), TypeError,
     "_standard_gamma() got an unexpected keyword argument 'out'"),
    (lambda: torch._standard_gamma_grad(torch.ones(1), torch.ones(1, dtype=torch.float64)),
     RuntimeError, "Found dtype Double but expected Float"),
    (lambda: torch._standard_gamma_grad(torch.ones(1, dtype=torch.long),
                                        torch.ones(1, dtype=torch.long)),
     NotImplementedError, "\"_standard_gamma_grad_cpu\" not implemented for 'Long'"),
])
def test_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message
    assert not hasattr(torch.ones(1), "_standard_gamma")


def test_a_nan_or_negative_concentration_draws_the_smallest_normal_number():
    tiny = torch.finfo(torch.float32).tiny
    drawn = torch._standard_gamma(torch.tensor([float("nan"), -3.0, float("inf")]))
    assert drawn.tolist() == [tiny, tiny, float("inf")]
