"""What several oracle files share: data, weights, a bitwise comparison, a comparison to
rounding, and torch's square roots."""

import contextlib

import numpy as np
import torch

import refgrad


def data(shape, dtype, seed, scale=3.0, shift=1.0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale + shift).astype(dtype)


def filled(lib, module, rng, scale=0.3):
    """``module`` in float64 with normal weights drawn from ``rng``: the same in either library."""
    module.double()
    with lib.no_grad():
        for p in module.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)) * scale))
    return module


def assert_bitwise(ours, theirs, nans_alike=True):
    """Every array the same bits; with ``nans_alike``, NaNs of any payload count as alike."""
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        same = np.array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}"))
        assert same or (nans_alike and np.array_equal(a, b, equal_nan=True)), (
            f"{(a != b).sum()} of {a.size} differ")


def assert_walks_agree(ours, theirs, rtol=1e-9, atol=1e-12):
    """Two walks' records, array by array: the same dtypes and shapes, values to rounding."""
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


@contextlib.contextmanager
def torch_roots():
    """refgrad's Tensor.sqrt and sqrt_ answering with torch's roots, which are not always
    correctly rounded on the CPU, so that the rest of a computation can be compared bit for
    bit; for runs without grad."""
    plain, in_place = refgrad.Tensor.sqrt, refgrad.Tensor.sqrt_

    def root(self):
        return refgrad.tensor(torch.from_numpy(self.numpy().copy()).sqrt().numpy())

    refgrad.Tensor.sqrt = root
    refgrad.Tensor.sqrt_ = lambda self: self.copy_(root(self))
    try:
        yield
    finally:
        refgrad.Tensor.sqrt, refgrad.Tensor.sqrt_ = plain, in_place
