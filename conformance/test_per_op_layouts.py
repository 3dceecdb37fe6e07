"""Strides of results whose kernels decide their own layout, whatever the input's.

Row-major results (renorm, logsigmoid, tril, one_hot, any, all, count_nonzero, repeat), results
contiguous in the input's suggested memory format (pad, roll), and empty results that keep
the input's strides (flip, roll, where).
"""

import pytest
import torch
import torch.nn.functional as F


def _transposed():
    return (torch.arange(12.0).reshape(4, 3) * 0.37 % 1.9 - 0.6).t()


def _permuted():
    return (torch.arange(24.0).reshape(2, 3, 4) * 0.37 % 1.9 - 0.6).permute(2, 0, 1)


def _channels_last():
    a = torch.arange(120.0).reshape(2, 3, 4, 5) * 0.37 % 1.9 - 0.6
    return a.contiguous(memory_format=torch.channels_last)


ROW_MAJOR = [
    ("renorm", lambda a: a.renorm(2, 0, 1.0)),
    ("renorm along the last", lambda a: a.renorm(2, -1, 1.0)),
    ("logsigmoid", F.logsigmoid),
    ("tril", lambda a: a.tril()),
    ("triu", lambda a: a.triu(1)),
    ("one_hot", lambda a: F.one_hot((a * 3).abs().long() % 3, 3)),
    ("any kept", lambda a: a.any(0, keepdim=True)),
    ("any along the last", lambda a: a.any(-1)),
    ("all kept", lambda a: a.all(-1, keepdim=True)),
    ("count_nonzero", lambda a: torch.count_nonzero(a, -1)),
    ("repeat by ones", lambda a: a.repeat(*([1] * a.dim()))),
    ("roll flattened", lambda a: a.roll(1)),
]


@pytest.mark.parametrize("make", [_transposed, _permuted, _channels_last],
                         ids=["transposed", "permuted", "channels_last"])
@pytest.mark.parametrize("op", [case[1] for case in ROW_MAJOR], ids=[c[0] for c in ROW_MAJOR])
def test_row_major_whatever_the_input(make, op):
    a = make()
    out = op(a)
    if out.dim() >= 2 and not (a.dim() == 2 and op in (ROW_MAJOR[3][1], ROW_MAJOR[4][1])):
        assert out.is_contiguous(), out.stride()
    assert torch.allclose(out, op(a.contiguous()))


def test_tril_of_a_transposed_matrix_is_row_major_too():
    assert _transposed().tril().stride() == (4, 1)


SUGGESTED = [
    ("pad constant", lambda a: F.pad(a, (1, 2, 0, 1)), (120, 1, 24, 3), (18, 6, 1)),
    ("pad reflect", lambda a: F.pad(a, (1, 1, 1, 1), mode="reflect"), (126, 1, 21, 3),
     (20, 5, 1)),
    ("pad replicate", lambda a: F.pad(a, (1, 1, 1, 1), mode="replicate"), (126, 1, 21, 3),
     (20, 5, 1)),
    ("pad circular", lambda a: F.pad(a, (1, 1, 1, 1), mode="circular"), (126, 42, 7, 1),
     (20, 5, 1)),
    ("roll", lambda a: a.roll(1, 0), (60, 1, 15, 3), (6, 3, 1)),
]


@pytest.mark.parametrize("op, channels_last, permuted", [c[1:] for c in SUGGESTED],
                         ids=[c[0] for c in SUGGESTED])
def test_contiguous_in_the_suggested_memory_format(op, channels_last, permuted):
    a = _channels_last()
    assert op(a).stride() == channels_last
    assert torch.equal(op(a), op(a.contiguous()))
    assert op(_permuted()).stride() == permuted


def test_one_dimensional_pads_of_a_transposed_input_are_row_major():
    a = _transposed()
    assert F.pad(a, (1, 2)).stride() == (7, 1)
    assert F.pad(a, (1, 1), mode="reflect").stride() == (6, 1)
    assert F.pad(a, (1, 1), mode="replicate").stride() == (6, 1)


@pytest.mark.parametrize("op, strides", [
    (lambda a: a.flip(0), (1, 3)),
    (lambda a: a.roll(1, 0), (1, 3)),
    (lambda a: torch.where(a > 0, a, torch.zeros(a.shape[-1])), (1, 3)),
    (lambda a: a.roll(1), (1, 1)),
    (lambda a: a.tile((2,)), (1, 1)),
    (lambda a: a.repeat(1, 1), (1, 1)),
], ids=["flip", "roll", "where", "roll flattened", "tile", "repeat"])
def test_empty_results(op, strides):
    a = torch.ones(0, 3).t()
    assert op(a).stride() == strides


def test_flip_of_an_empty_permuted_tensor_keeps_its_strides():
    a = torch.ones(2, 0, 3).permute(2, 0, 1)
    assert a.flip(0).stride() == (1, 3, 3)
    assert a.roll(1, 0).stride() == (1, 3, 3)


def test_roll_of_a_contiguous_tensor_with_a_size_one_dimension_is_row_major():
    a = torch.arange(4.0).reshape(1, 4).t()
    assert a.roll(1, 0).stride() == (1, 1)


@pytest.mark.parametrize("op", [
    lambda a: F.rrelu(a),
    lambda a: (a + 3).mvlgamma(2),
    lambda a: torch.var_mean(a, 0)[1],
    lambda a: torch.std_mean(a, 0)[0],
    lambda a: torch.aminmax(a, dim=0).max,
    lambda a: a.nansum(0),
    lambda a: a.nanmean(0),
    lambda a: a.median(0).indices,
], ids=["rrelu", "mvlgamma", "var_mean", "std_mean", "aminmax", "nansum", "nanmean",
        "median's indices"])
def test_more_row_major_results_of_a_channels_last_input(op):
    a = _channels_last()
    assert op(a).is_contiguous()
    assert op(_permuted()).is_contiguous()


@pytest.mark.parametrize("k, transposed, permuted", [
    (0, (4, 1), (6, 3, 1)), (1, (3, 1), (12, 1, 4)), (2, (1, 3), (1, 12, 4)),
    (3, (3, 1), (12, 1, 4))])
def test_rot90_flips_like_the_input_then_transposes(k, transposed, permuted):
    assert _transposed().rot90(k).stride() == transposed
    assert _permuted().rot90(k).stride() == permuted
    assert torch.ones(0, 3).t().rot90(1).stride() == (3, 1)


def test_cat_keeps_channels_last_only_when_every_input_suggests_it():
    a = _channels_last()
    assert torch.cat([a, a]).stride() == (60, 1, 15, 3)
    assert torch.cat([a, a], 1).stride() == (120, 1, 30, 6)
    assert torch.hstack([a, a]).stride() == (120, 1, 30, 6)
    assert torch.cat([a, a.contiguous()]).stride() == (60, 20, 5, 1)
    assert torch.cat([a, torch.ones(0)]).stride() == (60, 20, 5, 1)


def test_isclose_and_round_with_decimals_are_laid_out_like_the_input():
    a = _transposed()
    assert torch.isclose(a, a.contiguous()).stride() == (1, 3)
    assert torch.isclose(a.contiguous(), a).stride() == (4, 1)
    assert torch.isclose(a, torch.zeros(4)).stride() == (1, 3)
    assert a.round(decimals=1).stride() == (1, 3)
    assert _permuted().round(decimals=1).stride() == (1, 12, 4)


@pytest.mark.parametrize("op", [
    lambda a: a.neg(), lambda a: a * 2, lambda a: a.repeat(2, 1), lambda a: a.renorm(2, 0, 1.0),
    lambda a: F.pad(a, (1, 2)),
], ids=["neg", "mul", "repeat", "renorm", "pad"])
def test_an_empty_leaf_gets_a_grad_with_its_own_strides(op):
    leaf = torch.empty_strided((3, 0), (1, 3)).requires_grad_()
    out = op(leaf)
    out.backward(torch.ones(out.shape))
    assert leaf.grad.stride() == (1, 3)
    permuted = torch.empty_strided((3, 2, 0), (1, 3, 3)).requires_grad_()
    permuted.neg().sum().backward()
    assert permuted.grad.stride() == (1, 3, 3)


def test_the_mean_of_an_empty_permuted_tensor_is_row_major():
    a = torch.ones(2, 0, 3).permute(2, 0, 1)
    assert a.mean(-1, keepdim=True).stride() == (2, 1, 1)
    assert a.mean(-1, keepdim=True).isnan().all()


def test_a_retained_grad_is_a_row_major_copy():
    x = torch.randn(4, 3).t().requires_grad_()
    y = x * 1
    y.retain_grad()
    (y * 2).backward(torch.ones(4, 3).t(), retain_graph=True)
    assert y.grad.stride() == (4, 1)
    (y * 2).backward(torch.ones(4, 3).t())
    assert y.grad.stride() == (4, 1) and torch.equal(y.grad, torch.full((3, 4), 4.0))
    assert x.grad.stride() == (1, 3)
    e = torch.empty_strided((3, 0), (1, 3)).requires_grad_()
    f = e * 1
    f.retain_grad()
    f.backward(torch.empty_strided((3, 0), (1, 3)))
    assert f.grad.stride() == (1, 1)


@pytest.mark.parametrize("dim, shared, mixed", [
    (0, (120, 60, 1, 15, 3), (120, 60, 20, 5, 1)), (1, (120, 3, 1, 30, 6), (120, 60, 20, 5, 1)),
    (2, (120, 1, 60, 15, 3), (120, 40, 20, 5, 1)), (4, (120, 40, 10, 2, 1), (120, 40, 10, 2, 1))])
def test_stack_is_cat_split_by_a_view(dim, shared, mixed):
    a = _channels_last()
    assert torch.stack([a, a], dim).stride() == shared
    assert torch.stack([a, a.contiguous()], dim).stride() == mixed
    assert torch.equal(torch.stack([a, a], dim), torch.stack([a.contiguous()] * 2, dim))


@pytest.mark.parametrize("loss", [F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss])
def test_unreduced_losses_are_laid_out_by_their_pair(loss):
    a, b = _transposed(), torch.ones(3, 4)
    assert loss(a, b, reduction="none").stride() == (1, 3)
    assert loss(b, a, reduction="none").stride() == (4, 1)


@pytest.mark.parametrize("make", [_transposed, _permuted, _channels_last],
                         ids=["transposed", "permuted", "channels_last"])
def test_layer_norm_is_row_major(make):
    a = make()
    assert F.layer_norm(a, a.shape[-1:]).is_contiguous()


@pytest.mark.parametrize("op", [
    lambda a: F.max_pool2d(a, 2), lambda a: F.max_pool2d(a, 2, return_indices=True)[1],
    lambda a: F.avg_pool2d(a, 2), lambda a: F.adaptive_avg_pool2d(a, 2),
    lambda a: F.group_norm(a, 1), lambda a: F.group_norm(a, 3),
], ids=["max_pool2d", "max_pool2d's indices", "avg_pool2d", "adaptive_avg_pool2d",
        "group_norm", "group_norm by channel"])
def test_pools_and_group_norm_keep_channels_last(op):
    a = _channels_last()
    out = op(a)
    assert out.is_contiguous(memory_format=torch.channels_last) and not out.is_contiguous()
    assert torch.allclose(out.double(), op(a.contiguous()).double(), atol=1e-5)
    assert op(a.contiguous()).is_contiguous()


@pytest.mark.parametrize("loss", [F.mse_loss, F.huber_loss, F.smooth_l1_loss])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_squared_and_huber_loss_gradients_are_row_major(loss, reduction):
    x = torch.rand(2, 3).t().requires_grad_()
    (g,) = torch.autograd.grad(loss(x, torch.rand(3, 2), reduction=reduction).sum(), x)
    assert g.stride() == (2, 1)
    c = torch.rand(1, 3, 2, 2).contiguous(memory_format=torch.channels_last).requires_grad_()
    (g,) = torch.autograd.grad(loss(c, torch.rand(1, 3, 2, 2), reduction=reduction).sum(), c)
    assert g.stride() == (12, 4, 2, 1)
    loss(x, torch.rand(3, 2), reduction=reduction).sum().backward()
    assert x.grad.stride() == (1, 3) and x.grad._version == 1  # copied into the leaf's layout
