"""Oracle test: gradcheck's batched checks, refgrad against real torch 2.13.

Each case runs on both libraries from the same NumPy operands and the same seed: the
failure's whole text, seeds and tangents drawn by each library's generator, printed
tensors included, must be the same, and so must the generator's state afterwards.
"""

import numpy as np
import pytest
import torch
from torch.autograd.gradcheck import GradcheckError

import refgrad
from refgrad.autograd.gradcheck import GradcheckError as RefgradGradcheckError

ERRORS = {torch: GradcheckError, refgrad: RefgradGradcheckError}


def root_of_seed(lib):
    """a * b and 2a; the products square the square root of a seed: NaN for a negative."""

    class RootOfSeed(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            ctx.save_for_forward(a, b)
            return a * b, a * 2

        @staticmethod
        def backward(ctx, g1, g2):
            a, b = ctx.saved_tensors
            return g1 * b + g2 * 2, g1.sqrt().square() * a

        @staticmethod
        def jvp(ctx, ta, tb):
            a, b = ctx.saved_tensors
            return ta * b + tb.sqrt().square() * a, ta * 2

    return RootOfSeed.apply


OPTIONS = [
    {"check_batched_grad": True},
    {"check_backward_ad": False, "check_forward_ad": True, "check_batched_forward_grad": True},
]


def failure(lib, seed, shape, options):
    rng = np.random.default_rng(seed)
    a, b = (lib.tensor(rng.uniform(0.5, 1.5, shape), requires_grad=True) for _ in range(2))
    lib.manual_seed(seed)
    with pytest.raises(ERRORS[lib]) as failed:
        lib.autograd.gradcheck(root_of_seed(lib), (a, b), **options)
    return str(failed.value), lib.randn(3, dtype=lib.float64).numpy().tobytes()


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_the_mismatch_text_is_torchs(options, seed, shape):
    assert failure(refgrad, seed, shape, options) == failure(torch, seed, shape, options)


@pytest.mark.parametrize("seed", [0, 1])
def test_gradgradcheck_draws_as_torch(seed):
    def drawn(lib):
        rng = np.random.default_rng(seed)
        x = lib.tensor(rng.uniform(0.5, 1.5, (2, 3)), requires_grad=True)
        lib.manual_seed(seed)
        assert lib.autograd.gradgradcheck(lambda x: (x.exp() * x).sum(1), (x,),
                                          check_batched_grad=True, check_fwd_over_rev=True)
        return lib.randn(5, dtype=lib.float64).numpy().tobytes()

    assert drawn(refgrad) == drawn(torch)
