"""Strides that ops outside TensorIterator give a transposed input's result.

Some kernels write a fresh row-major result whatever the input's layout, others
one laid out like the input, and unsqueeze keeps every old stride, a size-one
dimension's included.
"""

import pytest
import torch

ROW_MAJOR = [
    ("cat", lambda a: torch.cat([a, a]), (2, 1)),
    ("cat along 1", lambda a: torch.cat([a, a], 1), (4, 1)),
    ("stack", lambda a: torch.stack([a, a]), (6, 2, 1)),
    ("stack along 1", lambda a: torch.stack([a, a], 1), (4, 2, 1)),
    ("softmax", lambda a: a.softmax(-1), (2, 1)),
    ("softmax along 0", lambda a: a.softmax(0), (2, 1)),
    ("log_softmax", lambda a: a.log_softmax(-1), (2, 1)),
    ("cumsum", lambda a: a.cumsum(0), (2, 1)),
    ("cumprod", lambda a: a.cumprod(1), (2, 1)),
    ("cummax", lambda a: a.cummax(0).values, (2, 1)),
    ("cummin's indices", lambda a: a.cummin(0).indices, (2, 1)),
    ("logcumsumexp", lambda a: a.logcumsumexp(0), (2, 1)),
    ("masked_fill", lambda a: a.masked_fill(a > 0.5, 0.0), (2, 1)),
    ("roll", lambda a: a.roll(1, 0), (2, 1)),
]
REDUCED = [
    ("sum", lambda a: a.sum(0, keepdim=True), (12, 4, 1)),
    ("sum along two", lambda a: a.sum((0, 1), keepdim=True), (4, 4, 1)),
    ("mean", lambda a: a.mean(1), (4, 1)),
    ("mean kept", lambda a: a.mean(-1, keepdim=True), (3, 1, 1)),
    ("amax", lambda a: a.amax(-1, keepdim=True), (3, 1, 1)),
    ("amin", lambda a: a.amin(0, keepdim=True), (12, 4, 1)),
    ("logsumexp", lambda a: a.logsumexp(-1, keepdim=True), (3, 1, 1)),
    ("prod", lambda a: a.prod(-1, keepdim=True), (3, 1, 1)),
    ("var", lambda a: a.var(0), (4, 1)),
    ("std", lambda a: a.std(-1, keepdim=True), (3, 1, 1)),
    ("norm", lambda a: a.norm(dim=-1, keepdim=True), (3, 1, 1)),
]


@pytest.mark.parametrize("make, strides", [case[1:] for case in REDUCED],
                         ids=[case[0] for case in REDUCED])
def test_reductions_along_a_dimension_are_row_major_for_a_permuted_input(make, strides):
    a = torch.arange(60.0).reshape(3, 4, 5).permute(2, 0, 1).requires_grad_()
    out = make(a)
    assert out.stride() == strides
    assert torch.allclose(out, make(a.contiguous()))


@pytest.mark.parametrize("make, strides", [case[1:] for case in ROW_MAJOR],
                         ids=[case[0] for case in ROW_MAJOR])
def test_these_results_are_row_major_for_a_transposed_input(make, strides):
    a = torch.rand(2, 3, requires_grad=True).t()
    out = make(a)
    assert out.stride() == strides and out.is_contiguous()
    assert torch.equal(out, make(a.contiguous()))


def test_elementwise_results_keep_the_transposed_layout():
    a = torch.rand(2, 3).t()
    assert a.sin().stride() == (1, 3) and a.clamp(0.2, 0.8).stride() == (1, 3)


def test_flip_lays_its_copy_out_like_its_input():
    base = torch.arange(24.0).reshape(2, 3, 4)
    assert base.permute(2, 0, 1).flip(0).stride() == (1, 12, 4)
    assert base[:, ::2].flip(1).stride() == (8, 4, 1)  # gaps: closed up, in the input's order
    assert base.transpose(0, 2)[::2].flip(-1).stride() == (1, 2, 6)
    assert torch.arange(2.0).reshape(2, 1).t().flip(0).stride() == (1, 1)
    a = base[0].t()
    assert a.flip(0).stride() == (1, 4) and torch.equal(a.flip(0), a.contiguous().flip(0))


LIKE_INPUT = [
    ("sort", lambda a: a.sort(0).values, (1, 3)),
    ("sort's indices", lambda a: a.sort(1).indices, (1, 3)),
    ("argsort", lambda a: a.argsort(0, descending=True), (1, 3)),
    ("msort", lambda a: a.msort(), (1, 3)),
    ("topk", lambda a: a.topk(2, 0).values, (2, 1)),
    ("index_fill", lambda a: a.index_fill(0, torch.tensor([0]), 1.0), (1, 3)),
    ("put", lambda a: a.put(torch.tensor([0]), torch.tensor([1.0])), (1, 3)),
]


@pytest.mark.parametrize("make, strides", [case[1:] for case in LIKE_INPUT],
                         ids=[case[0] for case in LIKE_INPUT])
def test_these_results_are_laid_out_like_a_transposed_input(make, strides):
    a = torch.rand(2, 3).t()
    out = make(a)
    assert out.stride() == strides
    assert torch.equal(out, make(a.contiguous()))


def test_unsqueeze_keeps_a_size_one_dimensions_stride():
    a = torch.rand(2, 1).t()
    assert a.stride() == (1, 1)
    assert a.unsqueeze(0).stride() == (1, 1, 1)
    assert a.unsqueeze(1).stride() == (1, 2, 1)
    assert a.unsqueeze(2).stride() == (1, 1, 1)
    assert a.unsqueeze(0).unsqueeze(0).stride() == (1, 1, 1, 1)
    b = torch.rand(2, 3).t()
    assert b.unsqueeze(2).stride() == (1, 3, 1) and b.unsqueeze(0).stride() == (3, 1, 3)


def test_unsqueeze_in_place_keeps_a_size_one_dimensions_stride():
    a = torch.rand(2, 1).t().clone(memory_format=torch.preserve_format)
    assert a.stride() == (1, 1)
    assert a.unsqueeze_(0).stride() == (1, 1, 1)
