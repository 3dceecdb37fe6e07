"""Journeys through torch.autograd.functional with vectorize and forward mode, forward-mode
AD through custom Functions and layers, torch.distributions and their checks, and
torch.nn.utils: clipping, parameters as a vector, parametrizations. Each test asserts what
such a program observes: node names, whether a tangent records a graph, and messages."""

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
from torch import nn
from torch.autograd.functional import hessian, jacobian
from torch.distributions import Bernoulli, Categorical, MultivariateNormal, Normal
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parametrizations


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape))


def tangent_of(out):
    t = fwAD.unpack_dual(out).tangent
    return t, type(t.grad_fn).__name__ if t.grad_fn is not None else None


# A layer whose parameters require grad: the tangent of addmm adds the scaled tangent of the
# added term to the two products, so it records a graph ending in an add, even where only
# one of the three has a tangent (a missing one is zeros whose product still reads a primal).
@pytest.mark.parametrize("dual", ["bias", "weight", "input", "all"])
def test_linear_tangent_is_an_add_of_the_products(dual):
    x, w, b = numbers(4, 3, seed=1), numbers(2, 3, seed=2), numbers(2, seed=3)
    w.requires_grad_()
    b.requires_grad_()
    xt, wt, bt = numbers(4, 3, seed=4), numbers(2, 3, seed=5), numbers(2, seed=6)
    with fwAD.dual_level():
        xd = fwAD.make_dual(x, xt) if dual in ("input", "all") else x
        wd = fwAD.make_dual(w, wt) if dual in ("weight", "all") else w
        bd = fwAD.make_dual(b, bt) if dual in ("bias", "all") else b
        out = F.linear(xd, wd, bd)
        t, name = tangent_of(out)
        assert type(out.grad_fn).__name__ == "AddmmBackward0"
        assert (name, t.requires_grad, t.shape) == ("AddBackward0", True, (4, 2))
        want = torch.zeros(4, 2, dtype=torch.float64)
        if dual in ("input", "all"):
            want = want + xt @ w.detach().T
        if dual in ("weight", "all"):
            want = want + x @ wt.T
        if dual in ("bias", "all"):
            want = want + bt
        torch.testing.assert_close(t.detach(), want)


def test_addmm_tangent_scales_by_beta_and_alpha():
    b, m1, m2 = numbers(2, 2, seed=1), numbers(2, 3, seed=2), numbers(3, 2, seed=3)
    bt, m1t = numbers(2, 2, seed=4), numbers(2, 3, seed=5)
    with fwAD.dual_level():
        out = torch.addmm(fwAD.make_dual(b, bt), fwAD.make_dual(m1, m1t), m2, beta=2, alpha=3)
        t, name = tangent_of(out)
    assert (name, t.requires_grad) == (None, False)
    torch.testing.assert_close(t, bt * 2 + (m1t @ m2) * 3)


def test_mm_tangent_with_one_dual_records_an_add():
    w = numbers(2, 3, seed=2).requires_grad_()
    with fwAD.dual_level():
        wd = fwAD.make_dual(w, torch.ones(2, 3, dtype=torch.float64))
        assert tangent_of(torch.mm(numbers(4, 3), wd.t()))[1] == "AddBackward0"
        assert tangent_of(wd.sin())[1] == "MulBackward0"


class MySin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_forward(a)
        return a.sin()

    @staticmethod
    def backward(ctx, g):
        raise AssertionError("not called")

    @staticmethod
    def jvp(ctx, ta):
        a, = ctx.saved_tensors
        return ta * a.cos()


def test_custom_function_jvp_gives_the_tangent():
    x, t = numbers(4, 3), numbers(4, 3, seed=1)
    with fwAD.dual_level():
        out = MySin.apply(fwAD.make_dual(x, t))
        primal, tangent = fwAD.unpack_dual(out)
    assert torch.equal(primal, x.sin())
    assert torch.equal(tangent, t * x.cos())
    assert type(fwAD.unpack_dual(out)).__name__ == "UnpackedDualTensor"


@pytest.mark.parametrize(("call", "error", "text"), [
    (lambda f, x: jacobian(f, x, strategy="forward-mode"), NotImplementedError,
     "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented "
     "for `vectorize=True`."),
    (lambda f, x: jacobian(f, x, strict=True, vectorize=True), RuntimeError,
     "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
     "supported together. Please either set `strict=False` or `vectorize=False`."),
    (lambda f, x: jacobian(f, x, vectorize=True, strategy="forward-mode", create_graph=True),
     NotImplementedError,
     "torch.autograd.functional.jacobian: `create_graph=True` and `strategy=\"forward-mode\"` "
     "are not supported together (yet). Please either set `create_graph=False` or "
     "`strategy=\"reverse-mode\"`."),
    (lambda f, x: hessian(f, x), RuntimeError,
     "The Tensor returned by the function given to hessian should contain a single element"),
    (lambda f, x: jacobian(lambda a: torch.ones(3), x, strict=True), RuntimeError,
     "Output 0 of the user-provided function does not require gradients. The outputs must be "
     "computed in a differentiable manner from the input when running in strict mode."),
])
def test_functional_refusals(call, error, text):
    with pytest.raises(error) as info:
        call(lambda a: a.sin() * a.exp(), numbers(3))
    assert str(info.value) == text


def test_vectorized_and_forward_mode_jacobians_agree():
    x = numbers(3)

    def f(a):
        return a.sin() * a.exp()

    plain = jacobian(f, x)
    torch.testing.assert_close(jacobian(f, x, vectorize=True), plain)
    torch.testing.assert_close(jacobian(f, x, vectorize=True, strategy="forward-mode"), plain)
    h = hessian(lambda a: (a ** 3).sum(), x, vectorize=True,
                outer_jacobian_strategy="forward-mode")
    torch.testing.assert_close(h, torch.diag(6 * x))


@pytest.mark.parametrize(("make", "start"), [
    (lambda: Normal(torch.tensor([0.0]), torch.tensor([-1.0])),
     "Expected parameter scale (Tensor of shape (1,)) of distribution Normal(loc: "
     "tensor([0.]), scale: tensor([-1.])) to satisfy the constraint GreaterThan(lower_bound=0.0),"
     " but found invalid values:"),
    (lambda: Categorical(probs=torch.tensor([-0.2, 0.3, 0.5])),
     "Expected parameter probs (Tensor of shape (3,)) of distribution Categorical(probs: "
     "torch.Size([3])) to satisfy the constraint Simplex(), but found invalid values:"),
    (lambda: MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])),
     "Expected parameter covariance_matrix (Tensor of shape (2, 2)) of distribution "
     "MultivariateNormal(loc: torch.Size([2]), covariance_matrix: torch.Size([2, 2])) to "
     "satisfy the constraint PositiveDefinite(), but found invalid values:"),
    (lambda: Bernoulli(probs=torch.tensor([0.5])).log_prob(torch.tensor([0.5])),
     "Expected value argument (Tensor of shape (1,)) to be within the support (Boolean()) of "
     "the distribution Bernoulli(probs: tensor([0.5000])), but found invalid values:"),
    (lambda: Categorical(logits=torch.tensor(0.0)),
     "`logits` parameter must be at least one-dimensional."),
    (lambda: MultivariateNormal(torch.zeros(2), torch.eye(2), scale_tril=torch.eye(2)),
     "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."),
])
def test_distribution_checks(make, start):
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value).startswith(start)


def test_distribution_gradients_and_nodes():
    mu, sd = numbers(3).requires_grad_(), (numbers(3, seed=1).abs() + 0.5).requires_grad_()
    n = Normal(mu, sd)
    v = numbers(3, seed=2)
    assert [type(t.grad_fn).__name__ for t in (n.log_prob(v), n.entropy(), n.cdf(v))] == [
        "SubBackward0", "AddBackward0", "MulBackward0"]
    g = torch.autograd.grad(n.log_prob(v).sum(), (mu, sd))
    torch.testing.assert_close(g[0], (v - mu.detach()) / sd.detach() ** 2)
    logits = numbers(2, 4).requires_grad_()
    c = Categorical(logits=logits)
    assert type(c.log_prob(torch.tensor([1, 3])).grad_fn).__name__ == "SqueezeBackward1"
    assert type(c.probs.grad_fn).__name__ == "SoftmaxBackward0"
    b = Bernoulli(probs=torch.tensor([0.2, 0.7], requires_grad=True))
    assert type(b.log_prob(torch.tensor([0.0, 1.0])).grad_fn).__name__ == "NegBackward0"
    assert type(b.entropy().grad_fn).__name__ == "BinaryCrossEntropyWithLogitsBackward0"
    with pytest.raises(NotImplementedError):
        b.rsample()


def grads_of(seed=0):
    m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)).double()
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(numbers(*p.shape, seed=seed + i))
    m(numbers(5, 4, seed=9)).pow(2).sum().backward()
    return m


NO_GROUPS = ("Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this "
             "error message be improved?  If so, please report an enhancement request to "
             "PyTorch.)")


@pytest.mark.parametrize("foreach", [None, True, False])
@pytest.mark.parametrize("count", [0, 1, 2])
def test_clip_grad_value_refuses_parameters_without_gradients(foreach, count):
    params = [nn.Parameter(torch.ones(2)) for _ in range(count)]
    with pytest.raises(RuntimeError) as info:
        clip_grad_value_(params, 0.1, foreach=foreach)
    assert str(info.value) == NO_GROUPS
    total = clip_grad_norm_(params, 1.0, foreach=foreach)
    assert torch.equal(total, torch.tensor(0.0))


@pytest.mark.parametrize("foreach", [None, True, False])
def test_clip_grad_value_and_norm_with_gradients(foreach):
    m = grads_of()
    clip_grad_value_(m.parameters(), 0.1, foreach=foreach)
    assert all(p.grad.abs().max() <= 0.1 for p in m.parameters())
    m = grads_of()
    m[0].weight.grad[0, 0] = float("nan")
    with pytest.raises(RuntimeError, match="^The total norm of order 2.0 for gradients"):
        clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True, foreach=foreach)


def test_parametrization_state_dict_keys_and_grads():
    lin = nn.Linear(4, 3).double()
    parametrizations.weight_norm(lin)
    lin(numbers(2, 4)).sum().backward()
    assert list(lin.state_dict()) == [
        "bias", "parametrizations.weight.original0", "parametrizations.weight.original1"]
    assert type(lin.weight.grad_fn).__name__ == "WeightNormInterfaceBackward0"
    assert lin.parametrizations.weight.original0.grad.shape == (3, 1)
    lin = nn.Linear(4, 3).double()
    parametrizations.orthogonal(lin)
    assert list(lin.state_dict()) == [
        "bias", "parametrizations.weight.original", "parametrizations.weight.0.base"]
    assert type(lin).__name__ == "ParametrizedLinear"
    torch.testing.assert_close(lin.weight @ lin.weight.T, torch.eye(3, dtype=torch.float64))
    with pytest.raises(ValueError) as info:
        parametrizations.orthogonal(nn.Linear(3, 3), orthogonal_map="foo")
    assert str(info.value) == ('orthogonal_map has to be one of "matrix_exp", "cayley", '
                               '"householder". Got: foo')
