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
