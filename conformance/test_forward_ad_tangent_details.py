"""Black-box tests: details of forward-mode tangents: which inputs' tangents a formula reads,
the signs of zeros a mask leaves, the padding row of embedding, tangent dtypes of copy_ and
of the normalizations, the dual's strides, and the primal's node class."""

import math

import pytest
import torch
import torch.nn.functional as F

from conformance._support import forward_ad_refusal, raises

fwAD = torch.autograd.forward_ad


def dual(t, tangent=None):
    return fwAD.make_dual(t, torch.ones_like(t) if tangent is None else tangent)


def tangent(y):
    return fwAD.unpack_dual(y).tangent


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_soft_margin_loss_refuses_a_dual_input_with_a_dual_target(reduction):
    with fwAD.dual_level():
        with raises(NotImplementedError, forward_ad_refusal("soft_margin_loss_backward")):
            F.soft_margin_loss(dual(torch.ones(2)), dual(-torch.ones(2)), reduction=reduction)
        assert tangent(F.soft_margin_loss(torch.ones(2), dual(-torch.ones(2)))) is None
        one = tangent(F.soft_margin_loss(dual(torch.ones(2)), -torch.ones(2),
                                         reduction=reduction))
        assert one is not None and one.shape == ((2,) if reduction == "none" else ())


def test_embedding_keeps_the_padding_rows_tangent():
    with fwAD.dual_level():
        weight = dual(torch.zeros(3, 2), torch.arange(6.0).view(3, 2))
        out = tangent(F.embedding(torch.tensor([0, 1, 1]), weight, padding_idx=1))
    assert out.tolist() == [[0.0, 1.0], [2.0, 3.0], [2.0, 3.0]]


@pytest.mark.parametrize("name", ["copysign", "nextafter"])
def test_a_dual_second_input_alone_gives_no_tangent(name):
    a, b = torch.tensor([1.5, -2.5]), torch.tensor([-0.5, 2.0])
    with fwAD.dual_level():
        assert tangent(getattr(torch, name)(a, dual(b.clone()))) is None
        assert tangent(getattr(a.clone(), name + "_")(dual(b.clone()))) is None
        assert tangent(getattr(torch, name)(dual(a.clone()), b)) is not None


@pytest.mark.parametrize("name", ["fmax", "fmin"])
def test_fmax_and_fmin_tangents_follow_torchs_masks(name):
    nan = math.nan
    with fwAD.dual_level():
        a = dual(torch.tensor([1.0, 2.0, nan, 1.0, -1.0]), torch.tensor([1.0, 2, 3, 4, -1]))
        b = dual(torch.tensor([1.0, 1.0, 1.0, nan, 2.0]), torch.tensor([10.0, 20, 30, 40, 50]))
        both = tangent(getattr(torch, name)(a, b)).tolist()
        left = tangent(getattr(torch, name)(a, fwAD.unpack_dual(b).primal)).tolist()
    # fmax takes the first tangent where the first input is greater, fmin where it is
    # smaller or equal; a tangent not taken, next to none, leaves a zero of its sign
    if name == "fmax":
        assert both == [10.0, 2.0, 30.0, 4.0, 50.0]
        assert left == [0.0, 2.0, 0.0, 4.0, -0.0]
    else:
        assert both == [1.0, 20.0, 30.0, 4.0, -1.0]
        assert left == [1.0, 0.0, 0.0, 4.0, -1.0]
    assert math.copysign(1, left[-1]) == -1


def test_copy_keeps_a_same_shaped_sources_tangent_dtype():
    with fwAD.dual_level():
        into64 = torch.zeros(2, dtype=torch.float64).copy_(dual(torch.ones(2)))
        into16 = torch.zeros(2, dtype=torch.float16).copy_(dual(torch.ones(2)))
        broadcast = torch.zeros(2, 2, dtype=torch.float64).copy_(dual(torch.ones(2)))
        had_one = dual(torch.zeros(2, dtype=torch.float64)).copy_(dual(torch.ones(2)))
        assert tangent(into64).dtype == torch.float32
        assert tangent(into16).dtype == torch.float32
        assert tangent(broadcast).dtype == torch.float64
        assert tangent(had_one).dtype == torch.float64


def _channels_last():
    return torch.arange(12.0).view(1, 2, 2, 3).contiguous(memory_format=torch.channels_last)


LAYOUTS = {
    "channels_last both": (_channels_last, _channels_last),
    "channels_last primal": (_channels_last, lambda: torch.ones(1, 2, 2, 3)),
    "transposed row": (lambda: torch.ones(3, 1).t(), lambda: torch.ones(1, 3)),
    "row, transposed tangent": (lambda: torch.ones(1, 3), lambda: torch.ones(3, 1).t()),
    "size-one strides": (lambda: torch.ones(1, 1, 3).as_strided((1, 1, 3), (7, 5, 1)),
                         lambda: torch.ones(1, 1, 3).as_strided((1, 1, 3), (9, 9, 1))),
    "expanded tangent": (lambda: torch.ones(3, 2), lambda: torch.ones(3, 1).expand(3, 2)),
    "sliced primal": (lambda: torch.ones(3, 4)[:, ::2], lambda: torch.ones(3, 2)),
}


@pytest.mark.parametrize("case", LAYOUTS)
def test_a_dual_keeps_every_stride_of_its_primal(case):
    make_primal, make_tangent = LAYOUTS[case]
    with fwAD.dual_level():
        primal, given = make_primal(), make_tangent()
        d = fwAD.make_dual(primal, given)
        unpacked = fwAD.unpack_dual(d)
        assert d.stride() == primal.stride()
        assert d.data_ptr() == primal.data_ptr()
        assert unpacked.primal.stride() == primal.stride()
        kept = unpacked.tangent
        assert kept.stride() == primal.stride() or kept is given


def test_the_primals_node_is_a_cpp_function_named_identity():
    with fwAD.dual_level():
        primal = fwAD.unpack_dual(dual(torch.ones(2, requires_grad=True))).primal
        assert type(primal.grad_fn).__name__ == "CppFunction"
        assert primal.grad_fn.name() == "torch::autograd::Identity"
        assert "grad_fn=<Identity>" in repr(primal)


NORMS = {
    "layer_norm": (lambda x, w, b: F.layer_norm(x, (3,), w, b), (2, 3)),
    "batch_norm": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (2, 3, 2)),
    "group_norm": (lambda x, w, b: F.group_norm(x, 3, w, b), (2, 3, 2)),
}


@pytest.mark.parametrize("name", NORMS)
@pytest.mark.parametrize("duals", ["xw", "xwb", "x", "w", "xb", "wb"])
def test_half_normalizations_tangent_dtype(name, duals):
    function, shape = NORMS[name]
    x = torch.rand(shape, generator=torch.Generator().manual_seed(0)).half()
    w, b = torch.rand(3) + 0.5, torch.rand(3)
    with fwAD.dual_level():
        y = function(dual(x) if "x" in duals else x, dual(w) if "w" in duals else w,
                     dual(b) if "b" in duals else b)
        out = tangent(y)
    assert y.dtype == torch.float16
    both = "x" in duals and "w" in duals
    assert out.dtype == (torch.float16 if both else torch.float32)
