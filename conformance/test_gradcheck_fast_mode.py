"""gradcheck's fast mode: the random vectors it checks along, and the numbers it reports."""

import re

import pytest
import torch
from torch.autograd.gradcheck import GradcheckError


class SquareWithWrongGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * a

    @staticmethod
    def backward(ctx, g):
        return g  # the derivative is 2a: the analytical Jacobian here is the identity


def reported(error) -> tuple:
    found = re.match(r"Jacobian mismatch for output 0 with respect to input 0,\n"
                     r"numerical:(\S+)\nanalytical:(\S+)\n", str(error))
    return float(found[1]), float(found[2])


def unit(n, generator, dtype):
    u = torch.rand(n, generator=generator).to(dtype)
    return u / u.norm()


@pytest.mark.filterwarnings("ignore:Input #0 requires gradient and is not a double")
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_fast_mode_reports_v_j_u_for_vectors_drawn_in_single_precision(dtype):
    x = torch.linspace(0.1, 1, 6, dtype=dtype).reshape(2, 3).requires_grad_()
    torch.manual_seed(3)
    before = torch.rand(2)
    torch.manual_seed(3)
    with pytest.raises(GradcheckError) as failed:
        torch.autograd.gradcheck(SquareWithWrongGrad.apply, (x,), fast_mode=True,
                                 eps=1e-3, atol=1e-5, rtol=1e-3)
    assert torch.equal(torch.rand(2), before)  # its own generator: the user's stream is left
    generator = torch.Generator()  # a new one starts at torch's fixed default seed
    u = unit(6, generator, dtype).double()
    v = unit(6, generator, dtype).double()
    numerical, analytical = reported(failed.value)
    assert analytical == pytest.approx((v * u).sum().item(), rel=1e-6)
    true = (v * 2 * x.detach().reshape(-1).double() * u).sum().item()
    assert numerical == pytest.approx(true, rel=1e-3)


def test_the_vectors_are_drawn_in_the_default_dtype():
    x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64, requires_grad=True)
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        with pytest.raises(GradcheckError) as failed:
            torch.autograd.gradcheck(SquareWithWrongGrad.apply, (x,), fast_mode=True)
        generator = torch.Generator()
        u, v = unit(3, generator, torch.float64), unit(3, generator, torch.float64)
    finally:
        torch.set_default_dtype(default)
    _, analytical = reported(failed.value)
    assert analytical == pytest.approx((v * u).sum().item(), rel=1e-12)


class Unsteady(torch.autograd.Function):
    calls = 0

    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        Unsteady.calls += 1
        return g * 2 + 1e-9 * Unsteady.calls


@pytest.mark.parametrize("fast_mode", [False, True])
def test_a_backward_that_is_not_reentrant_is_reported_with_torchs_note(fast_mode):
    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    with pytest.raises(GradcheckError) as failed:
        torch.autograd.gradcheck(Unsteady.apply, (x,), fast_mode=fast_mode)
    text = str(failed.value)
    assert text.startswith("Backward is not reentrant, i.e., running backward with same input "
                           "and grad_output multiple times gives different values, although "
                           "analytical gradient matches numerical gradient.The tolerance for "
                           "nondeterminism was 0.0.\n\nNOTE: If your op relies on "
                           "non-deterministic operations i.e., it is listed here:\n")
    assert text.endswith("  module_test entry to have `gradcheck_nondet_tol=<tol>`\n")


@pytest.mark.filterwarnings("ignore:Input #. requires gradient and is not a double")
def test_gradgradcheck_draws_its_grad_outputs_in_the_outputs_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.manual_seed(0)
    torch.autograd.gradgradcheck(lambda a: a ** 3, (x,), raise_exception=False)
    after = torch.rand(1)
    torch.manual_seed(0)
    torch.empty(2).uniform_(-1, 1)
    assert torch.equal(after, torch.rand(1))


@pytest.mark.parametrize("fast_mode", [True, False])
def test_the_zero_tangents_a_custom_jvp_receives_are_positive_zeros(fast_mode):
    seen = []

    class Mul(torch.autograd.Function):
        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_forward(*inputs)
            ctx.save_for_backward(*inputs)

        @staticmethod
        def jvp(ctx, xt, yt):
            seen.append(torch.signbit(xt).any().item() or torch.signbit(yt).any().item())
            x, y = ctx.saved_tensors
            return xt * y + x * yt

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x

    x = torch.tensor([0.5, -1.5, -2.0], dtype=torch.double, requires_grad=True)
    y = torch.tensor([-0.5, 1.0, -3.0], dtype=torch.double, requires_grad=True)
    assert torch.autograd.gradcheck(Mul.apply, (x, y), check_forward_ad=True,
                                    check_backward_ad=False, fast_mode=fast_mode)
    assert len(seen) >= 4 and not any(seen)


def test_the_warning_for_an_input_not_double_comes_from_gradcheck_s_module():
    import sys
    import warnings

    module = sys.modules[torch.autograd.gradcheck.__module__]
    x = torch.randn(3, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # each place a warning is raised from shows it once
        for check in (torch.autograd.gradcheck, torch.autograd.gradgradcheck):
            check(lambda a: a * 2, (x,), raise_exception=False)
        torch.autograd.gradcheck(lambda a: a * 2, (x,), raise_exception=False)
        torch.autograd.gradcheck(lambda a, b: a * b, (x, x.detach().requires_grad_()),
                                 raise_exception=False)
    assert [str(w.message)[:8] for w in caught] == ["Input #0", "Input #1"]
    assert {w.filename for w in caught} == {module.__file__}
    assert all(w.category is UserWarning for w in caught)
