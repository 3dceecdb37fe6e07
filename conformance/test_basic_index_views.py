"""Basic indices (ints, slices, None, Ellipsis) as views: their layout, base, counter and
history, and the words of their refusals, with nothing recording and with history."""

import numpy as np
import pytest
import torch

from conformance._support import raises

BASIC = [
    0, -1, 2, slice(None), slice(1, 3), slice(None, None, 2), slice(-2, None),
    slice(1, 100, 3), slice(0, 1), (), (1, 2), (-3, -1), (0, 0, 0), (None,), (None, 1),
    (1, None), (Ellipsis,), (Ellipsis, 1), (1, Ellipsis), (None, None, 0),
    (slice(1, 3), None, 2), (Ellipsis, None), (None, Ellipsis, None),
    (slice(0, 1), slice(2, 3)), (0, slice(1, 4, 2), None),
    (None, slice(0, 1), Ellipsis, None, -1),
]


def _source(kind):
    x = torch.tensor(np.arange(60, dtype=np.float32).reshape(3, 4, 5))
    if kind == "view":
        return x[:, 1:]
    if kind == "transposed":
        return x.transpose(0, 2)
    return x


def _layout(v):
    return tuple(v.shape), v.stride(), v.storage_offset(), v.is_contiguous(), v.tolist()


# Strides and offsets below are torch's own, worked out by hand from its rules:
# a select drops a dimension, a slice multiplies its stride by the step, and
# None's new dimension has the stride of size times stride of the one after it.
@pytest.mark.parametrize(("index", "layout"), [
    (1, ((4, 5), (5, 1), 20)),
    (-1, ((4, 5), (5, 1), 40)),
    ((1, 2), ((5,), (1,), 30)),
    ((1, 2, 3), ((), (), 33)),
    (slice(1, 3), ((2, 4, 5), (20, 5, 1), 20)),
    (slice(0, 3, 2), ((2, 4, 5), (40, 5, 1), 0)),
    ((None, slice(1, 3)), ((1, 2, 4, 5), (60, 20, 5, 1), 20)),
    ((None, None, 0), ((1, 1, 4, 5), (60, 60, 5, 1), 0)),
    ((1, None), ((1, 4, 5), (20, 5, 1), 20)),
    ((Ellipsis, None), ((3, 4, 5, 1), (20, 5, 1, 1), 0)),
    ((Ellipsis, 2), ((3, 4), (20, 5), 2)),
    ((slice(0, 1), slice(2, 3)), ((1, 1, 5), (20, 5, 1), 10)),
])
def test_layout_of_basic_views(index, layout):
    x = torch.tensor(np.arange(60, dtype=np.float32).reshape(3, 4, 5))
    v = x[index]
    assert (tuple(v.shape), v.stride(), v.storage_offset()) == layout


@pytest.mark.parametrize("kind", ["plain", "view", "transposed"])
@pytest.mark.parametrize("index", BASIC, ids=repr)
def test_every_basic_index_is_a_view_of_the_base(kind, index):
    x = _source(kind)
    base = x if x._base is None else x._base
    v = x[index]
    assert v._base is base
    assert v._version == x._version
    assert v.requires_grad is False and v.is_leaf and v.grad_fn is None
    expected = np.asarray(x.tolist())[index]
    assert v.tolist() == expected.tolist()
    assert v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


@pytest.mark.parametrize("index", [1, (1, slice(0, 2)), (None, 0), (Ellipsis, 2), ()],
                         ids=repr)
def test_writes_through_a_row_bump_the_shared_version(index):
    x = torch.zeros(3, 4)
    v = x[index]
    before = x._version
    v.add_(1)
    assert x._version == v._version == before + 1
    x.mul_(2)
    assert v._version == x._version == before + 2
    assert float(x.sum()) == 2.0 * v.numel()


@pytest.mark.parametrize("index", [1, (1, 2), slice(1, 3), (None, 1), (Ellipsis, 0), ()],
                         ids=repr)
def test_views_of_a_leaf_under_no_grad_follow_its_flag(index):
    x = torch.ones(3, 4, requires_grad=True)
    with torch.no_grad():
        v = x[index]
    assert v._base is x and v.grad_fn is None and v.requires_grad is True and v.is_leaf
    with torch.no_grad():
        v.mul_(3)
    assert float(x.detach().sum()) == 12.0 + 2.0 * v.numel()


@pytest.mark.parametrize(("index", "names"), [
    (1, ["SelectBackward0"]),
    ((1, 2), ["SelectBackward0", "SelectBackward0"]),
    (slice(1, 3), ["SliceBackward0"]),
    ((1, slice(1, 3)), ["SliceBackward0", "SelectBackward0"]),
    ((None, 1), ["SelectBackward0", "UnsqueezeBackward0"]),
    ((), ["AliasBackward0"]),
    ((Ellipsis,), ["AliasBackward0"]),
])
def test_history_of_basic_views(index, names):
    x = torch.ones(3, 4, requires_grad=True)
    node, seen = x[index].grad_fn, []
    while node is not None and type(node).__name__ != "AccumulateGrad":
        seen.append(type(node).__name__)
        node = node.next_functions[0][0]
    assert seen == names


NO_GRAD_VIEW_WRITTEN = (
    "A view was created in no_grad mode and its base or another view of its base has been "
    "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
    "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked).")


def test_a_row_written_in_place_is_as_strided_then():
    x = torch.ones(3, 4, requires_grad=True)
    y = x.clone()
    with torch.no_grad():
        row = y[1]
    y.mul_(2)
    with raises(RuntimeError, NO_GRAD_VIEW_WRITTEN):
        row.grad_fn
    z = y[1]
    z.add_(1)
    assert type(z.grad_fn).__name__ == "AsStridedBackward0"


@pytest.mark.parametrize(("index", "message"), [
    (3, "index 3 is out of bounds for dimension 0 with size 3"),
    (-4, "index -4 is out of bounds for dimension 0 with size 3"),
    ((0, 4), "index 4 is out of bounds for dimension 1 with size 4"),
    ((None, 0, -5), "index -5 is out of bounds for dimension 2 with size 4"),
    ((0, 0, 0), "too many indices for tensor of dimension 2"),
])
def test_out_of_range_in_torch_words(index, message):
    x = torch.zeros(3, 4)
    with raises(IndexError, message):
        x[index]


def test_empty_slices_keep_torch_offsets():
    x = torch.zeros(3, 4)
    v = x[2:2]
    assert tuple(v.shape) == (0, 4) and v._base is x
    w = x[:, 3:1]
    assert tuple(w.shape) == (3, 0)


def test_rows_in_inference_mode():
    x = torch.ones(3, 4)
    with torch.inference_mode():
        v = x[1]
        w = x[None, 0:2]
    assert not v.is_inference() and v._base is x and w._base is x
    with torch.inference_mode():
        y = torch.ones(3, 4)
        r = y[1]
    assert r.is_inference()
    with raises(RuntimeError, "Inference tensors do not track version counter."):
        r._version


def test_rows_of_a_dataset_of_ones_own():
    class Rows(torch.utils.data.Dataset):
        def __init__(self):
            self.data = torch.arange(20.0).reshape(10, 2)
            self.target = torch.arange(10)

        def __len__(self):
            return 10

        def __getitem__(self, i):
            return self.data[i], self.target[i]

    batches = list(torch.utils.data.DataLoader(Rows(), batch_size=4))
    assert [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batches[0][0].tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]
    assert batches[0][0]._base is None and batches[0][0].is_contiguous()
