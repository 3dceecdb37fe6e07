"""torch.geqrf and Tensor.geqrf: LAPACK's QR left as reflectors; values, layouts, refusals,
out=, and what a dispatch mode is handed."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

A = [[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0], [1.0, 1.0, 1.0]]
RNG = np.random.default_rng(5)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 5), (2, 5, 3), (1, 1)])
def test_values_rebuild_the_matrix(shape):
    x = torch.tensor(RNG.standard_normal(shape))
    a, tau = torch.geqrf(x)
    m, n = shape[-2:]
    assert a.shape == x.shape and tau.shape == (*shape[:-2], min(m, n))
    assert a.stride()[-2:] == (1, m) and tau.is_contiguous()
    q = torch.linalg.householder_product(a[..., :min(m, n)], tau)
    r = a.triu()[..., :min(m, n), :]
    torch.testing.assert_close(q @ r, x)
    assert torch.equal(x.geqrf().a, a)


def test_lapacks_numbers():
    a, tau = torch.geqrf(torch.tensor(A, dtype=torch.float64))
    torch.testing.assert_close(a[0], torch.tensor([-4.69041575982343, -1.918806447200494,
                                                   -4.157413968934404], dtype=torch.float64))
    torch.testing.assert_close(tau[0], torch.tensor(1.852802865422442, dtype=torch.float64))
    a, tau = torch.geqrf(torch.tensor([[1.0, 2.0], [0.0, 0.0]]))  # nothing to reflect
    assert a.tolist() == [[1.0, 2.0], [0.0, 0.0]] and tau.tolist() == [0.0, 0.0]
    r = torch.geqrf(torch.zeros(3, 2))
    assert type(r).__name__ == "geqrf" and repr(r).startswith("torch.return_types.geqrf(\na=")


@pytest.mark.parametrize("shape, strides, k", [
    ((2, 0), (1, 2), 0), ((0, 2), (1, 1), 0), ((2, 0, 4), (4, 1, 1), 0),
    ((2, 4, 0), (4, 1, 4), 0), ((0, 4, 3), (12, 1, 4), 3)])
def test_empty(shape, strides, k):
    a, tau = torch.geqrf(torch.zeros(*shape))
    assert a.stride() == strides and tau.shape == (*shape[:-2], k)


def test_refusals():
    with raises(RuntimeError, "torch.geqrf: input must have at least 2 dimensions."):
        torch.geqrf(torch.ones(3, dtype=torch.int64))
    with raises(NotImplementedError, "\"geqrf_cpu\" not implemented for 'Bool'"):
        torch.geqrf(torch.ones(2, 2, dtype=torch.bool))
    with raises(NotImplementedError, "\"geqrf_cpu\" not implemented for 'Half'"):
        torch.geqrf(torch.ones(2, 2, dtype=torch.float16))


def test_no_derivative():
    x = torch.tensor(A, requires_grad=True)
    a, tau = torch.geqrf(x)
    assert a.grad_fn.name() == tau.grad_fn.name() == "GeqrfBackward0"
    with raises(NotImplementedError, "the derivative for 'geqrf' is not implemented."):
        a.sum().backward()
    fw = torch.autograd.forward_ad
    with fw.dual_level(), pytest.raises(NotImplementedError, match=(
            "^Trying to use forward AD with geqrf that does not support it because it has not "
            "been implemented yet")):
        torch.geqrf(fw.make_dual(torch.tensor(A), torch.ones(4, 3)))


@pytest.mark.parametrize("outs, strides, warned", [
    ((torch.float32, 0, torch.float32, 0), (1, 4), 0),
    ((torch.float32, 0, torch.float32, 3), (1, 4), 0),
    ((torch.float32, 0, torch.float32, 5), (3, 1), 1),
    ((torch.float32, 0, torch.float64, 0), (3, 1), 0),
    ((torch.float64, 0, torch.float32, 0), (3, 1), 0),
    ((torch.float16, 0, torch.float32, 0), (3, 1), 0),
    ((torch.float32, 12, torch.float32, 0), (3, 1), 1),
    ((torch.float32, (4, 3), torch.float32, 0), (3, 1), 0)])
def test_out(outs, strides, warned):
    dtype, shape, tau_dtype, tau_shape = outs
    a, tau = torch.empty(shape, dtype=dtype), torch.empty(tau_shape, dtype=tau_dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = torch.geqrf(torch.tensor(A), out=(a, tau))
    assert type(result).__name__ == "geqrf_out" and result.a is a and result.tau is tau
    assert a.stride() == strides and (a._version, tau._version) == (1, 1)
    assert len(caught) == warned
    torch.testing.assert_close(a, torch.geqrf(torch.tensor(A)).a.to(dtype))


def test_out_refused():
    x = torch.tensor(A)
    with raises(RuntimeError, "torch.geqrf: Expected tau to be safely castable from Float dtype, "
                              "but got tau with dtype Long"):
        torch.geqrf(x, out=(torch.empty(0), torch.empty(0, dtype=torch.int64)))
    with raises(TypeError, "geqrf(): argument 'out' must be tuple of Tensors, not Tensor"):
        torch.geqrf(x, out=torch.empty(0))
    with raises(TypeError, "expected tuple of 2 elements but got 1"):
        torch.geqrf(x, out=(torch.empty(0),))
    with raises(TypeError, "expected Tensor as element 0 in argument 1, but got int"):
        torch.geqrf(x, out=(1, 2))
    with raises(RuntimeError, "geqrf(): functions with out=... arguments don't support automatic "
                              "differentiation, but one of the arguments requires grad."):
        torch.geqrf(x.requires_grad_(), out=(torch.empty(0), torch.empty(0)))


def test_what_a_mode_is_handed():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), sorted(kwargs or {})))
            return func(*args, **(kwargs or {}))

    x, outs = torch.tensor(A), (torch.empty(0), torch.empty(0))
    with Seen():
        x.geqrf()
        torch.geqrf(x, out=outs)
    assert seen == [("aten.geqrf.default", []), ("aten.geqrf.a", ["a", "tau"])]
