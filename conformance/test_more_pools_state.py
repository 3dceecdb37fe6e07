"""native_dropout's and the fractional pools' draws, the tangents, nodes and modules.

The draws follow refgrad.manual_seed as torch's follow torch.manual_seed; the
expected results were taken from torch 2.13 (conformance/_more_pools_expected.py).
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
import torch.nn.functional as F

from conformance._more_pools_expected import DRAWS, TANGENTS
from conformance._support import distinct_values

values = distinct_values


def _samples(n, batch, channels):
    return (values(batch, channels, n) * 0.9 + 0.05).detach()


def _draws():
    """Results that depend on the generator, each after manual_seed(0)."""
    x, h = values(2, 3, 5, 6), values(3, 4).t().half()

    def fractional(n, **kw):
        pool = F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d
        a = x if n == 2 else x[None]
        out = pool(a, 2, return_indices=True, **kw)
        return [out[0].flatten().tolist(), out[1].flatten().tolist()]

    def dropout(a, p, train):
        out, mask = torch.native_dropout(a, p, train)
        return [out.flatten().tolist(), mask.flatten().tolist(), list(out.stride()),
                list(mask.stride()), str(mask.dtype)]

    return {
        "fractional2d_size": lambda: fractional(2, output_size=(3, 4)),
        "fractional2d_ratio": lambda: fractional(2, output_ratio=(0.5, 0.7)),
        "fractional3d_ratio": lambda: fractional(3, output_ratio=0.6),
        "fractional2d_half": lambda: F.fractional_max_pool2d(
            (x * 9).half(), 3, output_size=(3, 3)).flatten().tolist(),
        "dropout": lambda: dropout(values(3, 4), 0.3, True),
        "dropout_none": lambda: dropout(values(3, 4), 0.6, None),
        "dropout_transposed": lambda: dropout(values(3, 4).t(), 0.3, True),
        "dropout_half": lambda: dropout(h, 0.3, True),
        "dropout_zero": lambda: dropout(values(2, 3), 0.0, True) + [torch.rand(2).tolist()],
        "dropout_one": lambda: dropout(values(2, 3), 1.0, True),
        "dropout_eval": lambda: dropout(values(2, 3), 0.3, False) + [torch.rand(2).tolist()],
        "dropout_empty": lambda: dropout(values(0, 3), 0.3, True)[1:] + [torch.rand(2).tolist()],
        # F.dropout and F.alpha_dropout draw their noise in the input's memory order too
        "F_dropout_transposed": lambda: F.dropout(values(3, 4).t(), 0.4).tolist(),
        "F_alpha_dropout_transposed": lambda: F.alpha_dropout(
            values(2, 3, 4).transpose(0, 2), 0.4, True).flatten().tolist(),
    }


@pytest.mark.parametrize("name", sorted(_draws()))
def test_draws_match_torch_under_the_same_seed(name):
    torch.manual_seed(0)
    assert _draws()[name]() == DRAWS[name]


def _tangents():
    """Forward-mode tangents of each function: (value, tangent) of the first output."""
    x = values(1, 2, 4, 6)
    v, i = F.max_pool2d(x, 2, return_indices=True)
    v1, i1 = F.max_pool1d(values(1, 2, 9), 2, return_indices=True)
    v3, i3 = F.max_pool3d(values(1, 2, 2, 4, 6), (1, 2, 2), return_indices=True)

    def tangent_of(f, primal, seed=None):
        with fwAD.dual_level():
            t = values(*primal.shape).flip(-1) - 0.4 if seed is None else seed
            out = f(fwAD.make_dual(primal, t))
            out = out[0] if isinstance(out, tuple) else out
            found = fwAD.unpack_dual(out).tangent
            return [out.flatten().tolist(), None if found is None else found.flatten().tolist()]

    def dropout(train):
        torch.manual_seed(0)
        return tangent_of(lambda a: torch.native_dropout(a, 0.6, train), values(3, 4))

    return {
        "max_unpool2d": lambda: tangent_of(lambda a: F.max_unpool2d(a, i, 2), v),
        "max_unpool3d": lambda: tangent_of(lambda a: F.max_unpool3d(a, i3, (1, 2, 2)), v3),
        "max_unpool1d": lambda: tangent_of(
            lambda a: F.max_unpool1d(a, i1, 2, output_size=(9,)), v1),
        "fractional2d": lambda: tangent_of(lambda a: F.fractional_max_pool2d(
            a, 2, (3, 3), _random_samples=_samples(2, 1, 2)), x),
        "fractional3d": lambda: tangent_of(lambda a: F.fractional_max_pool3d(
            a, 2, (2, 2, 2), _random_samples=_samples(3, 1, 2)), values(1, 2, 4, 5, 6)),
        "lp_pool2d": lambda: tangent_of(lambda a: F.lp_pool2d(a, 2, (2, 3)), x),
        "dropout_train": lambda: dropout(True),
        "dropout_none": lambda: dropout(None),
        "dropout_eval": lambda: dropout(False),
    }


@pytest.mark.parametrize("name", sorted(_tangents()))
def test_tangents_match_torch(name):
    value, tangent = _tangents()[name]()
    expected_value, expected_tangent = TANGENTS[name]
    assert value == pytest.approx(expected_value, rel=1e-12, abs=1e-15)
    assert tangent == pytest.approx(expected_tangent, rel=1e-12, abs=1e-15)


def test_what_the_nodes_keep():
    x = values(1, 2, 5, 6).requires_grad_()
    v, i = F.max_pool2d(x, 2, return_indices=True)
    node = F.max_unpool2d(v, i, 2).grad_fn
    assert [a for a in dir(node) if "saved" in a] == ["_raw_saved_indices", "_saved_indices"]
    assert node._saved_indices.tolist() == i.tolist()
    node = F.max_unpool3d(v[None], i[None], (1, 2, 2)).grad_fn
    assert [a for a in dir(node) if "saved" in a] == ["_raw_saved_indices", "_saved_indices"]
    y, where = F.fractional_max_pool2d(x, (2, 3), (3, 2), return_indices=True,
                                       _random_samples=_samples(2, 1, 2))
    node = y.grad_fn
    assert [a for a in dir(node) if "saved" in a] == [
        "_raw_saved_result1", "_raw_saved_self", "_saved_kernel_size", "_saved_output_size",
        "_saved_result1", "_saved_self"]
    assert (node._saved_kernel_size, node._saved_output_size) == ((2, 3), (3, 2))
    assert node._saved_result1.tolist() == where.tolist() and node._saved_self is x
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "FractionalMaxPool2DBackwardBackward0"
    assert [a for a in dir(g.grad_fn) if "saved" in a] == ["_raw_saved_indices",
                                                           "_saved_indices"]
    out, mask = torch.native_dropout(x, 0.25, None)
    node = out.grad_fn
    assert [a for a in dir(node) if "saved" in a] == ["_raw_saved_result1", "_saved_p",
                                                      "_saved_result1"]
    assert node._saved_p == 0.25 and node._saved_result1.dtype == torch.bool
    assert not mask.requires_grad and mask.grad_fn is None
    (g,) = torch.autograd.grad(out.sum(), x)  # train=None: the mask, unscaled
    assert g.tolist() == mask.double().tolist()


def test_the_modules_print_and_call_their_functions():
    x = values(1, 2, 4, 6)
    assert [repr(m) for m in (nn.LPPool1d(2, 3), nn.LPPool2d(1.5, (2, 3), 1, True),
                              nn.LPPool3d(2, 2), nn.MaxUnpool1d(2), nn.MaxUnpool2d(3, 1, 1),
                              nn.MaxUnpool3d((1, 2, 2)), nn.FractionalMaxPool2d(2, 3),
                              nn.FractionalMaxPool3d(2, output_ratio=0.5))] == [
        "LPPool1d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)",
        "LPPool2d(norm_type=1.5, kernel_size=(2, 3), stride=1, ceil_mode=True)",
        "LPPool3d(norm_type=2, kernel_size=2, stride=None, ceil_mode=False)",
        "MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))",
        "MaxUnpool2d(kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))",
        "MaxUnpool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2), padding=(0, 0, 0))",
        "FractionalMaxPool2d()", "FractionalMaxPool3d()"]
    assert torch.equal(nn.LPPool2d(2, 2)(x), F.lp_pool2d(x, 2.0, 2))
    v, i = nn.MaxPool2d(2, return_indices=True)(x)
    assert torch.equal(nn.MaxUnpool2d(2)(v, i, output_size=(5, 7)),
                       F.max_unpool2d(v, i, 2, output_size=(5, 7)))
    samples = _samples(2, 1, 2)
    pool = nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0.5), return_indices=True,
                                  _random_samples=samples)
    assert list(dict(pool.named_buffers())) == ["_random_samples"]
    assert pool.kernel_size == (2, 2) and pool.output_ratio == (0.5, 0.5)
    assert pool.output_size is None
    y, where = pool(x)
    assert torch.equal(y, F.fractional_max_pool2d(x, 2, (2, 3), _random_samples=samples))
    assert nn.FractionalMaxPool3d(2, (1, 2, 2)).output_size == (1, 2, 2)
