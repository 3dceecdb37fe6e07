"""torch.nn.EmbeddingBag: its settings, first table, printed form, call and refusals."""

import inspect

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from conformance._support import raises


def _table():
    return torch.arange(15.0, dtype=torch.float64).reshape(5, 3)


def test_constructor_takes_torch_arguments_in_torch_order():
    names = list(inspect.signature(nn.EmbeddingBag.__init__).parameters)
    assert names == ["self", "num_embeddings", "embedding_dim", "max_norm", "norm_type",
                     "scale_grad_by_freq", "mode", "sparse", "_weight", "include_last_offset",
                     "padding_idx", "device", "dtype"]
    names = list(inspect.signature(nn.EmbeddingBag.from_pretrained).parameters)
    assert names == ["embeddings", "freeze", "max_norm", "norm_type", "scale_grad_by_freq",
                     "mode", "sparse", "include_last_offset", "padding_idx"]


def test_defaults_and_a_new_table():
    bag = nn.EmbeddingBag(4, 2)
    assert (bag.mode, bag.max_norm, bag.norm_type, bag.scale_grad_by_freq, bag.sparse,
            bag.include_last_offset, bag.padding_idx) == ("mean", None, 2.0, False, False,
                                                          False, None)
    assert isinstance(bag.weight, nn.Parameter) and bag.weight.requires_grad
    assert bag.weight.shape == (4, 2) and bag.weight.dtype == torch.float32
    assert nn.EmbeddingBag(4, 2, dtype=torch.float64).weight.dtype == torch.float64
    assert [name for name, _ in bag.named_parameters()] == ["weight"]
    assert list(bag.state_dict()) == ["weight"]


def test_padding_row_starts_at_zero_and_counts_from_the_end():
    bag = nn.EmbeddingBag(4, 2, padding_idx=-1)
    assert bag.padding_idx == 3 and bag.weight[3].tolist() == [0.0, 0.0]
    assert bag.weight.grad_fn is None and bool(bag.weight[:3].abs().sum() > 0)


def test_a_given_table_is_kept_as_it_is():
    table = _table()
    bag = nn.EmbeddingBag(5, 3, _weight=table, padding_idx=0)
    assert bag.weight.requires_grad and torch.equal(bag.weight, _table())
    assert bag.weight.data_ptr() == table.data_ptr()
    frozen = nn.EmbeddingBag.from_pretrained(table)
    assert not frozen.weight.requires_grad and frozen.mode == "mean"
    thawed = nn.EmbeddingBag.from_pretrained(table, freeze=False, mode="max",
                                             include_last_offset=True, padding_idx=-2)
    assert thawed.weight.requires_grad and thawed.include_last_offset
    assert thawed.padding_idx == 3 and torch.equal(thawed.weight, _table())


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 2])
def test_call_is_the_function_with_the_settings(mode, padding_idx):
    bag = nn.EmbeddingBag.from_pretrained(_table(), freeze=False, mode=mode,
                                          include_last_offset=True, padding_idx=padding_idx)
    indices, offsets = torch.tensor([0, 2, 4, 2, 1, 3]), torch.tensor([0, 2, 2, 6])
    out = bag(indices, offsets)
    mine = _table().requires_grad_()
    expected = F.embedding_bag(indices, mine, offsets, mode=mode, include_last_offset=True,
                               padding_idx=padding_idx)
    assert torch.equal(out, expected) and out.grad_fn.name() == "EmbeddingBagBackward0"
    grad = torch.arange(9.0, dtype=torch.float64).reshape(3, 3)
    assert torch.equal(torch.autograd.grad(out, bag.weight, grad)[0],
                       torch.autograd.grad(expected, mine, grad)[0])


def test_call_with_a_matrix_and_per_sample_weights():
    bag = nn.EmbeddingBag.from_pretrained(_table(), mode="sum")
    weights = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
    out = bag(torch.tensor([[0, 1], [2, 3]]), per_sample_weights=weights)
    table = _table()
    assert torch.equal(out, torch.stack([table[0] + 2 * table[1], 3 * table[2] + 4 * table[3]]))
    assert out.grad_fn is None


REPRS = [
    (lambda: nn.EmbeddingBag(5, 3), "EmbeddingBag(5, 3, mode='mean')"),
    (lambda: nn.EmbeddingBag(5, 3, max_norm=2, norm_type=2, mode="max", sparse=True,
                             include_last_offset=True),
     "EmbeddingBag(5, 3, max_norm=2, mode='max')"),
    (lambda: nn.EmbeddingBag(5, 3, norm_type=2.5, scale_grad_by_freq=1, mode="sum",
                             padding_idx=-2),
     "EmbeddingBag(5, 3, norm_type=2.5, scale_grad_by_freq=1, mode='sum', padding_idx=3)"),
    (lambda: nn.EmbeddingBag(5, 3, mode=3), "EmbeddingBag(5, 3, mode=3)"),
]


@pytest.mark.parametrize("make, text", REPRS)
def test_prints_as_torch_prints_it(make, text):
    assert repr(make()) == text


@pytest.mark.parametrize("make, kind, message", [
    (lambda: nn.EmbeddingBag(5, 3, padding_idx=5), AssertionError,
     "padding_idx must be within num_embeddings"),
    (lambda: nn.EmbeddingBag(5, 3, padding_idx=-6), AssertionError,
     "padding_idx must be within num_embeddings"),
    (lambda: nn.EmbeddingBag(5, 3, _weight=torch.zeros(4, 3)), AssertionError,
     "Shape of weight does not match num_embeddings and embedding_dim"),
    (lambda: nn.EmbeddingBag.from_pretrained(torch.zeros(5)), AssertionError,
     "Embeddings parameter is expected to be 2-dimensional"),
    (lambda: nn.EmbeddingBag(5, 3, mode="foo")(torch.tensor([[1, 2]])), ValueError,
     "mode has to be one of sum, mean or max"),
    (lambda: nn.EmbeddingBag(5, 3, mode="max", sparse=True)(torch.tensor([[1, 2]])), ValueError,
     "max mode does not support sparse weights"),
    (lambda: nn.EmbeddingBag(5, 3)(torch.tensor([0, 1])), ValueError,
     "offsets has to be a 1D Tensor but got None"),
])
def test_refuses_bad_settings(make, kind, message):
    with raises(kind, message):
        make()
