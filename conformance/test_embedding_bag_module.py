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


# torch.embedding_bag, the namespace function with its three bookkeeping outputs
_INDICES, _OFFSETS = [2, 2, 0, 1, 3], [0, 2, 2]


def _bags_by_hand(include_last_offset, padding_idx):
    """Each index's bag, and each bag's rows that are not padding."""
    starts = _OFFSETS[:-1] if include_last_offset else _OFFSETS
    bag = [sum(s <= p for s in starts) - 1 for p in range(len(_INDICES))]
    rows = [[i for i, b in zip(_INDICES, bag) if b == k and i != padding_idx]
            for k in range(len(starts))]
    return bag, rows


@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("include_last_offset", [False, True])
@pytest.mark.parametrize("padding_idx", [None, 3, -2])
def test_namespace_embedding_bag_returns_the_bags_and_their_bookkeeping(
        mode, include_last_offset, padding_idx):
    table = _table().requires_grad_()
    indices, offsets = torch.tensor(_INDICES), torch.tensor(_OFFSETS)
    out, offset2bag, bag_size, max_indices = torch.embedding_bag(
        table, indices, offsets, False, mode, False, None, include_last_offset, padding_idx)
    expected = F.embedding_bag(indices, table, offsets, mode=["sum", "mean", "max"][mode],
                               include_last_offset=include_last_offset, padding_idx=padding_idx)
    assert torch.equal(out, expected) and out.grad_fn.name() == "EmbeddingBagBackward0"
    bag, rows = _bags_by_hand(include_last_offset, 3 if padding_idx == -2 else padding_idx)
    assert offset2bag.tolist() == bag
    sizes = [len(r) for r in rows] if mode else [0] * len(rows)
    assert bag_size.tolist() == sizes
    if mode == 2:
        data = _table()
        best = [[max(r, key=lambda i, c=c: data[i, c].item()) if r else 0 for c in range(3)]
                for r in rows]
        assert max_indices.tolist() == best
    else:
        assert max_indices.tolist() == sizes
    for t in (offset2bag, bag_size, max_indices):
        assert t.dtype == torch.int64 and not t.requires_grad and t.grad_fn is None


def test_bookkeeping_of_sum_follows_the_table():
    indices, offsets = torch.tensor(_INDICES), torch.tensor(_OFFSETS)
    fast = torch.embedding_bag(_table().float(), indices, offsets, False, 0, False, None, True)
    assert fast[1].shape == (0,) and fast[2].tolist() == [0, 0, 0]  # one an offset
    grads = torch.embedding_bag(_table().float().requires_grad_(), indices, offsets, False, 0,
                                False, None, True)
    assert grads[2].tolist() == [0, 0] and grads[3].tolist() == [0, 0]  # one a bag
    general = torch.embedding_bag(_table(), indices, offsets, False, 0)
    assert general[1].tolist() == [0, 0, 2, 2, 2]
    narrow = torch.embedding_bag(_table(), indices.int(), offsets.int(), False, 1)
    assert [t.dtype for t in narrow[1:]] == [torch.int32] * 3
    mixed = torch.embedding_bag(_table(), indices.int(), offsets, False, 2)
    assert [t.dtype for t in mixed[1:]] == [torch.int64] * 3


def test_namespace_embedding_bag_per_sample_weights():
    table = _table().requires_grad_()
    weights = torch.arange(5.0, dtype=torch.float64).requires_grad_()
    out = torch.embedding_bag(table, torch.tensor(_INDICES), torch.tensor(_OFFSETS), False, 0,
                              False, weights)[0]
    data = _table()
    assert out.tolist() == [(0 * data[2] + 1 * data[2]).tolist(), [0.0] * 3,
                            (2 * data[0] + 3 * data[1] + 4 * data[3]).tolist()]
    grad = torch.autograd.grad(out.sum(), weights)[0]
    assert grad.tolist() == [data[i].sum().item() for i in _INDICES]
    assert torch.equal(torch._embedding_bag(table, torch.tensor(_INDICES),
                                            torch.tensor(_OFFSETS), False, 0, False,
                                            weights)[0], out)


@pytest.mark.parametrize("args, message", [
    ((False, 3, False, None, False, 7),
     "padding_idx must be within the number of embeddings, -5 through 4, but got 7"),
    ((False, -1), "`mode` must be sum, mean, or max."),
    ((False, 1, False, torch.ones(5, dtype=torch.float64)),
     "embedding_bag: per_sample_weights only supported with mode='sum'"),
    ((False, 0, False, torch.ones(3, dtype=torch.float64)),
     "Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false. "
     " (Could this error message be improved?  If so, please report an enhancement request to "
     "PyTorch.)"),
    ((False, 0, False, torch.ones(5)),
     "Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
     "'per_sample_weights'; but type torch.DoubleTensor does not equal torch.FloatTensor (while "
     "checking arguments for embedding_bag)"),
])
def test_namespace_embedding_bag_refuses_in_the_kernels_order(args, message):
    with raises(RuntimeError, message):
        torch.embedding_bag(_table(), torch.tensor(_INDICES), torch.tensor(_OFFSETS), *args)


def test_mode_is_checked_after_the_offsets_and_before_the_indices():
    with raises(RuntimeError, "`mode` must be sum, mean, or max."):
        torch.embedding_bag(_table(), torch.tensor([7]), torch.tensor([0]), False, 3)
    with raises(RuntimeError, "offsets[-1] can not be greater than input's length 1 but got "
                              "offsets[-1] of 2"):
        torch.embedding_bag(_table(), torch.tensor([1]), torch.tensor([0, 2]), False, 3)


# scale_grad_by_freq: torch's CPU kernel divides the k-th smallest distinct index's gradient
# by the count of the k-th smallest index (NOTE [The frequency torch divides by])
@pytest.mark.parametrize("padding_idx", [None, 0])
def test_scale_grad_by_freq_divides_as_torch_does(padding_idx):
    table = _table().requires_grad_()
    weights = torch.arange(1.0, 6.0, dtype=torch.float64).requires_grad_()
    indices = torch.tensor([[1, 1, 2, 0, 1]])  # sorted 0 1 1 1 2: runs divided by 1, 3, 3
    out = F.embedding_bag(indices, table, mode="sum", scale_grad_by_freq=True,
                          per_sample_weights=weights[None], padding_idx=padding_idx)
    assert out.grad_fn._saved_scale_grad_by_freq is True
    gw, gp = torch.autograd.grad(out.sum(), [table, weights])
    first = 0.0 if padding_idx == 0 else 4.0
    assert gw[:, 0].tolist() == pytest.approx([first, (1 + 2 + 5) / 3, 3 / 3, 0.0, 0.0])
    data = _table()
    assert gp.tolist() == [0.0 if i == padding_idx else data[i].sum().item()
                           for i in [1, 1, 2, 0, 1]]


def test_scale_grad_by_freq_in_mean_mode_and_through_the_module():
    bag = nn.EmbeddingBag.from_pretrained(_table(), freeze=False, scale_grad_by_freq=True)
    out = bag(torch.tensor([2, 2, 0, 3]), torch.tensor([0, 1]))
    grad = torch.autograd.grad(out.sum(), bag.weight)[0]
    # bags of 1 and 3; sorted 0 2 2 3: runs divided by counts of 0, 2, 2
    assert grad[:, 1].tolist() == pytest.approx([1 / 3, 0.0, (1 + 1 / 3) / 2, 1 / 3 / 2, 0.0])


def test_scale_grad_by_freq_leaves_max_as_it_is():
    table = _table().requires_grad_()
    out = torch.embedding_bag(table, torch.tensor([2, 2, 0]), torch.tensor([0]), True, 2)[0]
    assert torch.autograd.grad(out.sum(), table)[0][:, 2].tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]


# NOTE [Where embedding_bag's bags end]: torch's fast path ends the last bag at the last offset
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_last_bag_ends_where_the_kernel_ends_it(dtype, mode):
    table = torch.arange(15.0).reshape(5, 3).to(dtype)
    out = F.embedding_bag(torch.tensor([0, 1, 2, 3, 4, 0]), table, torch.tensor([0, 2, 4]),
                          mode=mode, include_last_offset=True)
    fast = dtype != torch.float64 and mode != "max"
    rows = [2, 3] if fast else [2, 3, 4, 0]
    picked = table.double()[rows]
    expected = {"sum": picked.sum(0), "mean": picked.sum(0) / 4, "max": picked.max(0).values}
    assert out[1].tolist() == expected[mode].tolist()


def test_fast_path_is_left_for_padding_or_a_strided_table():
    table = torch.arange(15.0).reshape(5, 3)
    indices, offsets = torch.tensor([0, 1, 2, 3, 4, 0]), torch.tensor([0, 2, 4])
    padded = F.embedding_bag(indices, table, offsets, mode="sum", include_last_offset=True,
                             padding_idx=4)
    assert padded[1].tolist() == (table[2] + table[3] + table[0]).tolist()
    strided = F.embedding_bag(indices, table.t().contiguous().t(), offsets, mode="sum",
                              include_last_offset=True)
    assert strided[1].tolist() == (table[2] + table[3] + table[4] + table[0]).tolist()


_TEXTS = (
    " * (Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool "
    "sparse, Tensor per_sample_weights, bool include_last_offset, int padding_idx)\n"
    " * (Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq = False, int mode "
    "= 0, bool sparse = False, Tensor per_sample_weights = None, bool include_last_offset = "
    "False)\n")


@pytest.mark.parametrize("extra, kwargs, message", [
    ((), {}, "embedding_bag() received an invalid combination of arguments - got (Tensor, "
              "Tensor), but expected one of:\n" + _TEXTS),
    (("offsets",), {"mode": "sum"}, "embedding_bag(): argument 'mode' must be int, not str"),
    (("offsets", 1), {},
     "embedding_bag(): argument 'scale_grad_by_freq' (position 4) must be bool, not int"),
    (("offsets", False, True), {},
     "embedding_bag(): argument 'mode' (position 5) must be int, not bool"),
    (("offsets",), {"mode": 1, "padding_idx": 2},
     "embedding_bag() got an unexpected keyword argument 'padding_idx'"),
])
def test_namespace_embedding_bag_reads_its_arguments_as_torch_does(extra, kwargs, message):
    extra = tuple(torch.tensor([0]) if e == "offsets" else e for e in extra)
    with raises(TypeError, message):
        torch.embedding_bag(torch.zeros(5, 3), torch.tensor([1]), *extra, **kwargs)


def test_namespace_embedding_bag_takes_keywords_and_the_short_form():
    table, indices, offsets = _table(), torch.tensor([1, 2]), torch.tensor([0])
    by_name = torch.embedding_bag(weight=table, indices=indices, offsets=offsets, mode=1)
    short = torch.embedding_bag(table, indices, offsets, False, 1, False, None, False)
    assert torch.equal(by_name[0], short[0]) and short[2].tolist() == [2]
