"""Oracle test: seeded the same, a lazy layer's first call draws torch's parameters bit for bit.

The draws happen at the first call, in the plain layer's order (the weight's
Kaiming draw, then the bias's), so refgrad's generator, which matches
torch's, gives the same numbers. Outputs and a norm's running statistics are
computed each library its own way, and are compared to rounding.
"""

import numpy as np
import pytest
import torch

import refgrad

CASES = {
    "LazyLinear": ((4,), (2, 3)),
    "LazyConv1d": ((4, 3), (2, 3, 6)),
    "LazyConv2d": ((4, 3), (3, 5, 5)),
    "LazyConv3d": ((2, 2), (1, 2, 3, 3, 3)),
    "LazyConvTranspose1d": ((4, 3), (2, 3, 5)),
    "LazyConvTranspose2d": ((4, 3), (1, 3, 4, 4)),
    "LazyConvTranspose3d": ((2, 2), (2, 3, 3, 3)),
    "LazyBatchNorm2d": ((), (2, 3, 2, 2)),
    "LazyInstanceNorm1d": ((), (2, 3, 5)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_first_call_draws_what_torch_draws(name):
    args, shape = CASES[name]

    def run(lib):
        lib.manual_seed(0)
        module = getattr(lib.nn, name)(*args)
        out = module(lib.randn(*shape))
        state = {k: v.numpy() for k, v in module.state_dict().items()}
        return type(module).__name__, repr(module), state, out.detach().numpy(), lib.rand(1)

    ours, theirs = run(refgrad), run(torch)
    assert ours[:2] == theirs[:2]
    assert list(ours[2]) == list(theirs[2])
    for key in ours[2]:  # the running statistics are computed, the rest drawn or filled
        if key.startswith("running_"):
            np.testing.assert_allclose(ours[2][key], theirs[2][key], rtol=1e-6)
        else:
            assert np.array_equal(ours[2][key], theirs[2][key]), key
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-5, atol=1e-6)
    assert ours[4].item() == theirs[4].item()  # the stream left at the same place
