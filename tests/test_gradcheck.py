"""refgrad.autograd.gradcheck: signatures, messages and each kind of failure."""

import inspect
import itertools
import sys

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops.dispatch import call
from refgrad._ops.table import Op
from refgrad._tensor import make_tensor
from refgrad.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck


def _row(backward, saves=(("self", ("self",)),), forward=np.sin):
    # node classes are made once per node name, so each probe row gets its own name
    name = f"Probe{next(_names)}"
    op = Op(name.lower(), f"{name}Backward0", ("self",), forward=forward, backward=backward,
            saves=saves)
    return lambda t: call(op, (t,))

_names = itertools.count()


def _x():
    return torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)


def test_signatures_are_torchs():
    params = inspect.signature(gradcheck).parameters
    assert list(params)[:2] == ["func", "inputs"]
    assert {k: p.default for k, p in params.items() if p.kind is p.KEYWORD_ONLY} == {
        "eps": 1e-06, "atol": 1e-05, "rtol": 0.001, "raise_exception": True, "nondet_tol": 0.0,
        "check_undefined_grad": True, "check_grad_dtypes": False, "check_batched_grad": False,
        "check_batched_forward_grad": False, "check_forward_ad": False,
        "check_backward_ad": True, "fast_mode": False, "masked": None,
    }
    params = inspect.signature(gradgradcheck).parameters
    assert list(params)[:3] == ["func", "inputs", "grad_outputs"]
    assert params["grad_outputs"].default is None and params["masked"].default is False
    assert params["check_rev_over_rev"].default is True


def test_public_names():
    module = sys.modules["refgrad.autograd.gradcheck"]
    assert torch.autograd.gradcheck is gradcheck and torch.autograd.gradgradcheck is gradgradcheck
    assert module.GradcheckError is GradcheckError and issubclass(GradcheckError, RuntimeError)
    assert GradcheckError.__module__ == "refgrad.autograd.gradcheck"
    assert {"gradcheck", "gradgradcheck"} <= set(torch.autograd.__all__)


def test_mismatch_message_shows_both_jacobians():
    wrong = _row(lambda g, self: (g * self.cos() * 1.1,))
    with pytest.raises(GradcheckError) as info:
        gradcheck(wrong, (_x(),))
    assert str(info.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[0.8776, 0.0000],\n        [0.0000, 0.5403]], dtype=torch.float64)\n"
        "analytical:tensor([[0.9653, 0.0000],\n        [0.0000, 0.5943]], dtype=torch.float64)\n"
    )
    assert gradcheck(wrong, (_x(),), raise_exception=False) is False
    with pytest.raises(GradcheckError, match="Below, we recompute numerical and analytical"):
        gradcheck(wrong, (_x(),), fast_mode=True)


def test_single_precision_warns():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    with pytest.warns(UserWarning, match=r"^Input #0 requires gradient and is not a double"):
        gradcheck(torch.exp, (x,), raise_exception=False)


def test_inputs_are_validated():
    with pytest.raises(ValueError, match="expects at least one input tensor to require"):
        gradcheck(torch.sin, (_x().detach(),))
    leaf = make_tensor(np.broadcast_to(np.ones(1), (3,)), requires_grad=True)
    with pytest.raises(RuntimeError, match="The 0th input has a dimension with stride 0"):
        gradcheck(torch.sin, (leaf,))


def test_batched_checks_run_and_options_are_asserted():
    assert gradcheck(torch.sin, (_x(),), check_batched_grad=True, check_forward_ad=True,
                     check_batched_forward_grad=True)
    assert gradgradcheck(torch.sin, (_x(),), check_batched_grad=True)
    with pytest.raises(AssertionError, match="at least one of check_forward_ad"):
        gradcheck(torch.sin, (_x(),), check_backward_ad=False)
    with pytest.raises(AssertionError, match="requires check_rev_over_rev"):
        gradgradcheck(torch.sin, (_x(),), check_rev_over_rev=False, check_fwd_over_rev=True)


def test_backward_must_multiply_by_grad_output():
    # Right for every unit-vector seed, yet not zero for a zero seed.
    forgot = _row(lambda g, self: (g * self.cos() + (1 - g.sum()) * 0.5,))
    with pytest.raises(GradcheckError, match="^backward not multiplied by grad_output$"):
        gradcheck(forgot, (_x(),))


def test_nondeterministic_backward_is_caught():
    noise = iter(np.linspace(0, 1e-7, 1000))
    jitter = _row(lambda g, self: (g * (self.cos() + float(next(noise))),))
    with pytest.raises(GradcheckError, match="Backward is not reentrant"):
        gradcheck(jitter, (_x(),), check_undefined_grad=False)
    assert gradcheck(jitter, (_x(),), nondet_tol=1e-6, check_undefined_grad=False)


def test_lost_dependence_is_caught():
    detached = lambda t: t.detach().sin()  # noqa: E731 - no output requires grad
    with pytest.raises(GradcheckError, match="Numerical gradient for function expected to be"):
        gradcheck(detached, (_x(),))
    assert gradcheck(lambda t: t.detach() * 0, (_x(),))


def test_gradgradcheck_catches_a_wrong_second_derivative():
    # cos's backward written with a frozen sin: right first derivative, wrong second one.
    frozen = _row(lambda g, self: (g * -make_tensor(np.sin(self._data)),), forward=np.cos)
    assert gradcheck(frozen, (_x(),))
    with pytest.raises(GradcheckError, match="Jacobian mismatch"):
        gradgradcheck(frozen, (_x(),))
    assert gradgradcheck(torch.cos, (_x(),), gen_non_contig_grad_outputs=True)
    assert gradgradcheck(torch.cos, (_x(),), fast_mode=True)


def test_forward_mode_is_checked_against_finite_differences():
    x = torch.tensor([0.5, 1.0, -2.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([[0.3, -1.2], [2.0, 0.7]], dtype=torch.float64, requires_grad=True)
    f = lambda a, b: (a[:2] @ b).exp()  # noqa: E731
    for fast in (False, True):
        assert gradcheck(f, (x, w), check_forward_ad=True, fast_mode=fast)
        assert gradcheck(f, (x, w), check_forward_ad=True, check_backward_ad=False,
                         fast_mode=fast)
    assert gradgradcheck(lambda a: (a ** 3).sin().sum(), (x,), check_fwd_over_rev=True)


def test_forward_mode_catches_a_wrong_jvp():
    class Sin(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_forward(a)
            return a.sin()

        @staticmethod
        def backward(ctx, g):
            raise AssertionError("backward is not checked here")

        @staticmethod
        def jvp(ctx, t):
            (a,) = ctx.saved_tensors
            return t * a.cos() * 1.001

    x = torch.tensor([0.5, 1.0, -2.0], dtype=torch.float64, requires_grad=True)
    options = {"check_forward_ad": True, "check_backward_ad": False, "rtol": 1e-4}
    with pytest.raises(GradcheckError, match="^Jacobian computed with forward mode mismatch "
                       "for output 0 with respect to input 0,\nnumerical:"):
        gradcheck(Sin.apply, (x,), **options)
    with pytest.raises(GradcheckError, match="(?s)computed with forward mode.*in slow mode"):
        gradcheck(Sin.apply, (x,), fast_mode=True, **options)
    assert gradcheck(Sin.apply, (x,), check_forward_ad=True, check_backward_ad=False)  # 0.1%
