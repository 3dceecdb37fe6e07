"""CPU autocast's op policy: lower precision, float32 and promote lists, graphs, cast cache."""

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
