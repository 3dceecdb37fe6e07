"""torch._sample_dirichlet and _dirichlet_grad, and the Dirichlet and Beta distributions
built on them: nodes, refusals, shapes, validation, expand, reprs and divergences. The same
assertions run on torch; the oracle compares the numbers themselves."""

import math

import pytest
import torch
from torch import distributions as D
from torch.autograd import forward_ad as fwAD


def test_dirichlet_draws_lie_inside_the_simplex():
    torch.manual_seed(0)
    drawn = torch._sample_dirichlet(torch.tensor([[1e-4, 1e-4, 1e-4], [1.0, 2.0, 3.0]]))
    assert bool((drawn > 0).all()) and bool((drawn < 1).all())
    torch.testing.assert_close(drawn[1].sum(), torch.tensor(1.0))
    below_one = torch.nextafter(torch.tensor(1.0), torch.tensor(0.0))
    assert torch.equal(torch._sample_dirichlet(torch.tensor(2.0)), below_one)  # never 1
    assert torch._sample_dirichlet(torch.ones(2, 0)).shape == (2, 0)


def test_both_rows_record_nodes_without_a_derivative():
    concentration = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    drawn = torch._sample_dirichlet(concentration)
    assert drawn.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="^derivative for aten::_sample_dirichlet is not "
                                           "implemented$"):
        drawn.sum().backward()
    x, total = torch.tensor([0.2, 0.8], requires_grad=True), torch.tensor([3.0, 3.0])
    gradient = torch._dirichlet_grad(x, torch.tensor([1.0, 2.0]), total)
    assert len(gradient.grad_fn.next_functions) == 1
    with pytest.raises(RuntimeError, match="^derivative for aten::_dirichlet_grad is not "
                                           "implemented$"):
        gradient.sum().backward()
    assert torch._dirichlet_grad(torch.tensor([0.2, 0.3]), torch.tensor([1.0]),
                                 torch.tensor([2.0])).shape == (2,)


@pytest.mark.parametrize("call, error, message", [
    (lambda d: torch._sample_dirichlet(d), NotImplementedError,
     "Trying to use forward AD with aten::_sample_dirichlet that does not support it."),
    (lambda d: torch._dirichlet_grad(d, d, d), NotImplementedError,
     "Trying to use forward AD with aten::_dirichlet_grad that does not support it."),
])
def test_forward_mode_is_refused(call, error, message):
    with fwAD.dual_level():
        with pytest.raises(error) as caught:
            call(fwAD.make_dual(torch.tensor([0.5, 0.5]), torch.ones(2)))
    assert str(caught.value) == message


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch._sample_dirichlet(torch.tensor([1, 2])), NotImplementedError,
     "\"dirichlet\" not implemented for 'Long'"),
    (lambda: torch._sample_dirichlet(torch.ones(2, dtype=torch.half)), NotImplementedError,
     "\"dirichlet\" not implemented for 'Half'"),
    (lambda: torch._sample_dirichlet(torch.ones(2), 3), TypeError, "_sample_dirichlet(): "
     "argument 'generator' (position 2) must be torch.Generator, not int"),
    (lambda: torch._dirichlet_grad(torch.tensor([0.2]), torch.tensor([1.0], dtype=torch.double),
                                   torch.tensor([2.0])),
     RuntimeError, "Found dtype Double but expected Float"),
    (lambda: torch._dirichlet_grad(torch.tensor([1]), torch.tensor([1]), torch.tensor([2])),
     NotImplementedError, "\"_dirichlet_grad_cpu\" not implemented for 'Long'"),
])
def test_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message


def test_dirichlet_distribution():
    concentration = torch.tensor([[0.5, 2.0, 7.5], [0.3, 0.2, 0.9]], requires_grad=True)
    dirichlet = D.Dirichlet(concentration)
    assert (dirichlet.batch_shape, dirichlet.event_shape) == ((2,), (3,))
    assert repr(dirichlet) == "Dirichlet(concentration: torch.Size([2, 3]))"
    torch.manual_seed(0)
    drawn = dirichlet.rsample((4,))
    assert drawn.shape == (4, 2, 3) and drawn.grad_fn.name() == "_DirichletBackward"
    torch.manual_seed(0)
    assert torch.equal(drawn, torch._sample_dirichlet(concentration.detach().expand(4, 2, 3)))
    (gradient,) = torch.autograd.grad(drawn[..., 0].sum(), concentration)
    assert bool((gradient[:, 0] > 0).all())  # more of the first, more often drawn first
    # all below one: a corner, that of the largest of 0 / 0, the first
    assert dirichlet.mode[1].tolist() == [1.0, 0.0, 0.0]
    torch.testing.assert_close(dirichlet.mean.sum(-1), torch.ones(2))
    assert dirichlet.entropy().shape == (2,)
    with pytest.raises(NotImplementedError):  # no carrier measure, so no generic entropy
        D.ExponentialFamily.entropy(dirichlet)
    wide = dirichlet.expand((5, 2))
    assert wide.batch_shape == (5, 2) and wide.sample().shape == (5, 2, 3)
    assert repr(D.Dirichlet.arg_constraints["concentration"]) == (
        "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)")


def test_beta_is_the_first_coordinate_of_a_dirichlet():
    beta = D.Beta(torch.tensor([0.5, 2.0], requires_grad=True), torch.tensor([1.5, 0.5]))
    assert repr(beta) == "Beta()" and beta.concentration1.tolist() == [0.5, 2.0]
    assert beta._dirichlet.concentration.tolist() == [[0.5, 1.5], [2.0, 0.5]]
    torch.manual_seed(1)
    drawn = beta.rsample((3,))
    torch.manual_seed(1)
    assert torch.equal(drawn, beta._dirichlet.rsample((3,))[..., 0])
    assert drawn.grad_fn.name() == "SelectBackward0"
    assert beta.mean.tolist() == pytest.approx([0.25, 0.8]) and not beta.sample().requires_grad
    scalar = D.Beta(2.0, 3.0)
    assert scalar.batch_shape == () and scalar._dirichlet.concentration.dtype == torch.float32
    assert scalar.log_prob(torch.tensor(0.5)).item() == pytest.approx(math.log(1.5))
    assert D.Beta(torch.tensor([0.5]), torch.tensor([3.0])).mode.tolist() == [0.0]
    assert beta.expand((4, 2)).sample().shape == (4, 2)


@pytest.mark.parametrize("make, message", [
    (lambda: D.Dirichlet(torch.tensor(1.0)),
     "^`concentration` parameter must be at least one-dimensional.$"),
    (lambda: D.Dirichlet(torch.tensor([1.0, -1.0])), r"^Expected parameter concentration "
     r"\(Tensor of shape \(2,\)\) of distribution Dirichlet\(concentration: torch.Size\(\[2\]\)\)"
     r" to satisfy the constraint IndependentConstraint\(GreaterThan\(lower_bound=0.0\), 1\)"),
    (lambda: D.Beta(1.0, -1.0), r"^Expected parameter concentration \(Tensor of shape \(2,\)\) "
     r"of distribution Dirichlet"),
    (lambda: D.Beta(torch.tensor([1.0]), 2.0).log_prob(torch.tensor([1.5])),
     r"^Expected value argument \(Tensor of shape \(1,\)\) to be within the support "
     r"\(Interval\(lower_bound=0.0, upper_bound=1.0\)\) of the distribution Beta\(\)"),
    (lambda: D.Dirichlet(torch.ones(2)).log_prob(torch.tensor([0.3, 0.3])),
     r"to be within the support \(Simplex\(\)\)"),
])
def test_validation(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_divergences():
    beta = D.Beta(torch.tensor([0.5, 2.0]), torch.tensor([1.5, 3.0]))
    assert D.kl_divergence(beta, beta).abs().max().item() < 1e-5
    as_dirichlet = D.kl_divergence(beta._dirichlet, D.Beta(1.0, 2.0)._dirichlet)
    torch.testing.assert_close(D.kl_divergence(beta, D.Beta(1.0, 2.0)), as_dirichlet)
    for q in (D.Exponential(torch.ones(2)), D.Gamma(torch.ones(2), 2.0),
              D.Normal(torch.zeros(2), 1.0)):
        assert D.kl_divergence(q, beta).tolist() == [math.inf] * 2
        assert bool(D.kl_divergence(beta, q).isfinite().all())
    inside = D.Uniform(torch.tensor([0.1, -0.5]), torch.tensor([0.9, 0.5]))
    assert D.kl_divergence(inside, beta)[1].item() == math.inf
    assert D.kl_divergence(beta, inside).tolist() == [math.inf] * 2
    whole = D.Uniform(torch.tensor([0.0]), torch.tensor([1.0]))
    assert math.isfinite(D.kl_divergence(whole, D.Beta(2.0, 2.0)).item())
