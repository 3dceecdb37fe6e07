"""CPU autocast's op policy: lower precision, float32 and promote lists, graphs, cast cache."""

import numpy
import pytest
import torch
import torch.nn.functional as F

from conformance._support import graph_nodes

HALF = torch.float16


def _region(**options):
    return torch.autocast("cpu", dtype=HALF, **options)


def _m(*shape):
    return torch.randn(*shape)


@pytest.mark.parametrize("make", [
    lambda: torch.mm(_m(2, 3), _m(3, 2)),
    lambda: _m(2, 3) @ _m(3, 2),
    lambda: _m(2, 3).matmul(_m(3)),
    lambda: torch.bmm(_m(2, 2, 2), _m(2, 2, 2)),
    lambda: torch.addmm(_m(2, 2), _m(2, 2), _m(2, 2)),
    lambda: torch.baddbmm(_m(2, 2, 2), _m(2, 2, 2), _m(2, 2, 2)),
    lambda: torch.addbmm(_m(2, 2), _m(2, 2, 2), _m(2, 2, 2)),
    lambda: F.linear(_m(2, 4), _m(3, 4), _m(3)),
    lambda: F.conv1d(_m(1, 2, 5), _m(3, 2, 2)),
    lambda: F.conv2d(_m(1, 2, 4, 4), _m(3, 2, 2, 2)),
    lambda: F.prelu(_m(2, 4), torch.tensor([0.2])),
    lambda: F.scaled_dot_product_attention(_m(1, 2, 3), _m(1, 2, 3), _m(1, 2, 3)),
    lambda: F.relu(torch.mm(_m(2, 2), _m(2, 2))),
])
def test_lower_precision_ops_run_in_the_low_dtype(make):
    with _region():
        assert make().dtype is HALF


@pytest.mark.parametrize("make, dtype", [
    (lambda: torch.mm(_m(2, 2).double(), _m(2, 2).double()), torch.float64),
    (lambda: torch.mm(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.long)),
     torch.int64),
    (lambda: torch.mv(_m(2, 2), _m(2)), torch.float32),
    (lambda: _m(2, 2).half().prod(), torch.float32),
    (lambda: torch.cat([_m(2).half(), _m(2)]), torch.float32),
    (lambda: torch.stack([_m(2).half(), _m(2)]), torch.float32),
    (lambda: torch.cat([_m(2).half(), _m(2).half()]), HALF),
    (lambda: torch.cat([_m(2).half(), _m(2).double()]), torch.float64),
    (lambda: _m(2).half() + _m(2), torch.float32),
])
def test_other_lists_and_ops_outside_them(make, dtype):
    with _region():
        assert make().dtype is dtype


def test_the_same_ops_outside_a_region_keep_float32():
    assert torch.mm(_m(2, 2), _m(2, 2)).dtype is torch.float32
    with torch.autocast("cpu", dtype=HALF, enabled=False):
        assert F.linear(_m(2, 4), _m(3, 4)).dtype is torch.float32


def test_linear_casts_before_transposing_and_gradients_come_back_float32():
    w, b = _m(3, 4).requires_grad_(), _m(3).requires_grad_()
    with _region():
        y = F.linear(_m(2, 4), w, b)
        z = _m(4).requires_grad_() @ w.t()
    assert graph_nodes(y) == [
        (0, "AddmmBackward0"), (1, "ToCopyBackward0"), (2, "AccumulateGrad"), (1, None),
        (1, "TBackward0"), (2, "ToCopyBackward0"), (3, "AccumulateGrad")]
    assert [n for n in graph_nodes(z) if n[0] <= 3] == [
        (0, "SqueezeBackward4"), (1, "MmBackward0"), (2, "UnsqueezeBackward0"),
        (3, "ToCopyBackward0"), (2, "ToCopyBackward0"), (3, "TBackward0")]
    y.sum().backward()
    assert w.grad.dtype is torch.float32 and b.grad.dtype is torch.float32


def _weight_cast(y):
    return y.grad_fn.next_functions[2][0].next_functions[0][0]


def test_a_leaf_is_cast_once_per_region_unless_the_cache_is_off():
    w, b, x = _m(3, 4).requires_grad_(), _m(3), _m(2, 4)
    with _region():
        first, second = F.linear(x, w, b), F.linear(x, w, b)
        assert _weight_cast(first) is _weight_cast(second)
    with _region():
        assert _weight_cast(F.linear(x, w, b)) is not _weight_cast(first)
    with _region(cache_enabled=False):
        assert _weight_cast(F.linear(x, w, b)) is not _weight_cast(F.linear(x, w, b))


def test_casts_without_grad_are_not_kept_for_later_uses():
    w, b, x = _m(3, 4).requires_grad_(), _m(3), _m(2, 4)
    with _region():
        with torch.no_grad():
            quiet = F.linear(x, w, b)
        with torch.inference_mode():
            inferred = F.linear(x, w, b)
        later = F.linear(x, w, b)
    assert quiet.dtype is HALF and not quiet.requires_grad
    assert inferred.dtype is HALF and inferred.is_inference()
    assert later.requires_grad and type(_weight_cast(later)).__name__ == "ToCopyBackward0"


def _h(*shape):
    return torch.randn(*shape).half()


@pytest.mark.parametrize("make", [
    lambda: F.mse_loss(_h(2, 3), _m(2, 3)),
    lambda: F.l1_loss(_h(2, 3), _h(2, 3)),
    lambda: F.smooth_l1_loss(_h(2, 3), _h(2, 3)),
    lambda: F.huber_loss(_h(2, 3), _h(2, 3)),
    lambda: F.binary_cross_entropy(torch.rand(2, 3).half(), torch.rand(2, 3).half()),
    lambda: F.binary_cross_entropy_with_logits(_h(2, 3), torch.rand(2, 3).half(),
                                               pos_weight=_h(3)),
    lambda: F.nll_loss(_h(2, 3), torch.tensor([0, 1]), weight=_h(3).abs()),
    lambda: F.cross_entropy(_h(2, 3), torch.tensor([0, 1])),
    lambda: F.cross_entropy(_h(2, 3), torch.rand(2, 3).half()),
])
def test_losses_run_in_float32(make):
    with _region():
        assert make().dtype is torch.float32


def test_cross_entropy_casts_before_its_log_softmax_and_nll_loss_its_weight():
    x = _h(2, 3).requires_grad_()
    with _region():
        loss = F.cross_entropy(x, torch.tensor([0, 1]))
        weighted = F.nll_loss(x, torch.tensor([0, 1]), weight=_h(3).abs())
    assert [n for n in graph_nodes(loss)] == [
        (0, "NllLossBackward0"), (1, "LogSoftmaxBackward0"), (2, "ToCopyBackward0"),
        (3, "AccumulateGrad")]
    assert weighted.grad_fn._saved_weight.dtype is torch.float32


@pytest.mark.parametrize("make", [
    lambda: torch.mm(_h(2, 2), _m(2, 2)),
    lambda: torch.bmm(_h(2, 2, 2), _m(2, 2, 2)),
    lambda: _h(2, 2) @ _m(2, 2),
    lambda: torch.addmm(_m(2, 2), _h(2, 2), _m(2, 2)),
    lambda: torch.baddbmm(_m(2, 2, 2), _h(2, 2, 2), _m(2, 2, 2)),
    lambda: torch.addbmm(_m(2, 2), _h(2, 2, 2), _m(2, 2, 2)),
    lambda: torch.nn.Linear(4, 3)(_h(2, 4)),
    lambda: F.conv1d(_h(1, 2, 5), _m(3, 2, 2)),
    lambda: F.conv2d(_h(1, 2, 4, 4), _m(3, 2, 2, 2), _m(3)),
    lambda: F.conv3d(_h(1, 2, 3, 3, 3), _m(3, 2, 2, 2, 2)),
    lambda: F.conv_transpose1d(_h(1, 2, 5), _m(2, 3, 2)),
    lambda: F.prelu(_h(2, 4), torch.tensor([0.2])),
    lambda: F.scaled_dot_product_attention(_h(1, 2, 3), _m(1, 2, 3), _m(1, 2, 3)),
])
def test_a_float16_input_meets_a_float32_weight(make):
    with _region():
        assert make().dtype is HALF


def test_numbers_are_left_alone():
    with _region():
        out = torch.addmm(_m(2, 2), _m(2, 2), _m(2, 2), beta=numpy.float64(2.0), alpha=0.5)
    assert out.dtype is HALF


@pytest.mark.parametrize("make, dtype", [
    (lambda: torch.cdist(_h(3, 2), _m(4, 2)), torch.float32),
    (lambda: torch.cdist(_h(3, 2), _h(4, 2)), torch.float32),
    (lambda: _h(3, 2).index_copy(0, torch.tensor([0]), _m(1, 2)), torch.float32),
    (lambda: torch.index_copy(_h(3, 2), 0, torch.tensor([0]), _h(1, 2)), HALF),
])
def test_functions_that_check_dtypes_first_cast_before(make, dtype):
    with _region():
        assert make().dtype is dtype
