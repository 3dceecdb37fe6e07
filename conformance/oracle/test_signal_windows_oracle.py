"""Oracle test: torch.signal.windows, refgrad against torch.

The windows are built from the same ops in the same order, so the sample positions agree
to the bit, and windows whose remaining kernels round as torch's do (abs and linspace)
agree to the bit. The others may differ by the last bit of a vectorised exp, sin, cos or
sqrt, and are held to that: float64 exp among them, since NumPy picks its exp kernel by
the processor's instruction set, and on some processors it rounds a few values in a
hundred differently from torch's.
"""

import numpy as np
import pytest
import torch

import refgrad

LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 64, 100, 257, 1000]
NAMES = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_hamming",
         "hamming", "hann", "kaiser", "nuttall"]
PARAMETERS = {"exponential": [{}, {"tau": 0.5}, {"tau": 3.7}],
              "gaussian": [{}, {"std": 0.3}, {"std": 7.1}],
              "kaiser": [{}, {"beta": 0.0}, {"beta": 4.3}, {"beta": 30.0}],
              "general_hamming": [{}, {"alpha": 0.3}]}


def both(name, M, dtype, **kw):
    t = getattr(torch.signal.windows, name)(M, dtype=getattr(torch, dtype), **kw)
    r = getattr(refgrad.signal.windows, name)(M, dtype=getattr(refgrad, dtype), **kw)
    return t.numpy(), r.numpy()


def cases(names, dtypes):
    for name in names:
        for kw in PARAMETERS.get(name, [{}]):
            for dtype in dtypes:
                for sym in (True, False):
                    yield name, dtype, dict(kw, sym=sym)


@pytest.mark.parametrize("name,dtype,kw", list(cases(["bartlett"], ["float32", "float64"])))
def test_bit_for_bit(name, dtype, kw):
    for M in LENGTHS:
        t, r = both(name, M, dtype, **kw)
        assert t.dtype == r.dtype and t.shape == r.shape
        assert t.tobytes() == r.tobytes(), (name, M, kw)


@pytest.mark.parametrize("center,tau", [(0.0, 1.0), (1.3, 2.0), (-4.5, 0.7)])
def test_exponential_centres_within_the_last_bit(center, tau):
    for M in LENGTHS:
        t, r = both("exponential", M, "float64", sym=False, center=center, tau=tau)
        assert t.shape == r.shape
        assert np.abs(t - r).max(initial=0.0) <= 4 * np.finfo(np.float64).eps


@pytest.mark.parametrize("name,dtype,kw", list(cases(NAMES, ["float32", "float64"])))
def test_within_the_last_bits_of_a_kernel(name, dtype, kw):
    eps = np.finfo(dtype).eps
    for M in LENGTHS:
        t, r = both(name, M, dtype, **kw)
        assert t.dtype == r.dtype and t.shape == r.shape
        # every window lies in [0, 1]; the terms before a cosine sum are at most 1 too.
        # kaiser's I0 grows like exp(x): a last-bit change of its argument (about beta)
        # moves the window by about beta units of its last bit
        bound = 4 * eps * (1 + kw.get("beta", 12.0) if name == "kaiser" else 1)
        assert np.abs(t.astype(np.float64) - r).max(initial=0.0) <= bound, (name, M, kw)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("a", [[0.5, 0.3, 0.2], (1.0,), [0.1, 0.2, 0.3, 0.25, 0.15]])
def test_general_cosine(dtype, a):
    eps = np.finfo(dtype).eps
    for M in LENGTHS:
        for sym in (True, False):
            t, r = both("general_cosine", M, dtype, a=a, sym=sym)
            assert t.shape == r.shape
            assert np.abs(t.astype(np.float64) - r).max(initial=0.0) <= 4 * eps * sum(a)


@pytest.mark.parametrize("M", [2, 5, 16])
def test_gradients_through_the_positions(M):
    grads = []
    for T in (torch, refgrad):
        w = T.signal.windows.bartlett(M, dtype=T.float64, requires_grad=True)
        leaf = w.grad_fn.next_functions[0][0].next_functions[0][0].variable
        w.backward(T.ones(M, dtype=T.float64))
        grads.append(leaf.grad.numpy())
    assert grads[0].tobytes() == grads[1].tobytes()
