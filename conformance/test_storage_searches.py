"""Black-box tests: a storage freed and brought back in a loop, every kind of alias of a
shrunk storage refusing views past its end, advanced indexing over a shrunk storage, and
the reads torch refuses of a storage with no bytes."""

import pytest
import torch

from conformance._support import raises


def _bounds(sizes, strides, offset, needed, has):
    return (f"setStorage: sizes {sizes}, strides {strides}, storage offset {offset}, and "
            f"itemsize 4 requiring a storage size of {needed} are out of bounds for storage "
            f"of size {has}")


NOT_ALLOCATED = "The tensor has a non-zero number of elements, but its data is not allocated yet."


def test_freeing_and_bringing_back_a_storage_in_a_loop_keeps_its_tensors():
    crowd = [[i] for i in range(20_000)]  # unrelated live objects
    p = torch.arange(6.0)
    head, alias = p[:2], p.detach()
    s = p.untyped_storage()
    for step in range(200):
        s.resize_(0)
        with raises(RuntimeError, _bounds([2], [1], 0, 8, 0)):
            alias[:2]
        s.resize_(24)
        p.fill_(step)  # the bytes a storage grows by are torch's to choose
        head[1] = -step
        assert head.untyped_storage() is s and alias[:2].tolist() == [step, -step]
    assert p.tolist() == [199.0, -199.0, 199.0, 199.0, 199.0, 199.0] and len(crowd) == 20_000


ALIASES = [
    lambda x: x,
    lambda x: x.detach(),
    lambda x: x.data,
    lambda x: x.view(2, 3).view(6),
    lambda x: torch.nn.Parameter(x, requires_grad=False),
]


@pytest.mark.parametrize("make", ALIASES)
@pytest.mark.parametrize("made_after", [False, True])
def test_every_alias_of_a_shrunk_storage_refuses_a_view_past_its_end(make, made_after):
    x = torch.arange(6.0)
    alias = None if made_after else make(x)
    x.untyped_storage().resize_(8)
    alias = make(x) if made_after else alias
    with raises(RuntimeError, _bounds([2], [1], 1, 12, 8)):
        alias[1:3]
    assert alias[:2].tolist() == [0.0, 1.0]


@pytest.mark.parametrize("join", [
    lambda x: torch.empty(0).set_(x.untyped_storage(), 0, (6,), (1,)),
    lambda x: torch.empty(0).set_(x),
])
def test_set_with_a_geometry_past_a_shrunk_storage_grows_it(join):
    x = torch.arange(6.0)
    x.untyped_storage().resize_(8)
    y = join(x)
    assert x.untyped_storage().nbytes() == 24 and y[1:3].shape == (2,)
    x.untyped_storage().resize_(8)  # and shrunk again, under the tensor set_ made
    with raises(RuntimeError, _bounds([2], [1], 1, 12, 8)):
        y[1:3]


INDEXED = [  # (index of x = arange(24.0).view(2, 3, 4), sizes, strides, offset, bytes needed)
    ((slice(None), [0, 1]), [2, 2, 4], [12, 0, 1], 0, 64),
    (([0, 1], slice(None), [1, 2]), [2, 4, 3], [12, 1, 4], 0, 96),
    ((Ellipsis, [[0], [1]]), [2, 3, 2, 1], [12, 4, 0, 0], 0, 84),
    ([0, 1], [2, 3, 4], [0, 4, 1], 0, 48),
]


@pytest.mark.parametrize("index, sizes, strides, offset, needed", INDEXED)
@pytest.mark.parametrize("has", [0, 8])
def test_advanced_indexing_past_a_shrunk_storage_is_refused(index, sizes, strides, offset,
                                                            needed, has):
    x = torch.arange(24.0).view(2, 3, 4)
    index = tuple(torch.tensor(i) if isinstance(i, list) else i for i in index) if (
        isinstance(index, tuple)) else torch.tensor(index)
    x.untyped_storage().resize_(has)
    with raises(RuntimeError, _bounds(sizes, strides, offset, needed, has)):
        x[index]
    with raises(RuntimeError, _bounds(sizes, strides, offset, needed, has)):
        x[index] = 1.0


def test_a_mask_indexes_as_one_index_per_dimension_it_covers():
    x = torch.arange(24.0).view(2, 3, 4)
    mask, none = torch.ones(3, 4, dtype=torch.bool), torch.zeros(2, dtype=torch.bool)
    x.untyped_storage().resize_(8)
    with raises(RuntimeError, _bounds([2, 12], [12, 0], 0, 52, 8)):
        x[:, mask]
    assert x[none].shape == (0, 3, 4)  # no elements: nothing to check


def test_index_put_past_a_shrunk_storage_is_refused():
    x = torch.arange(24.0).view(2, 3, 4)
    x.untyped_storage().resize_(8)
    with raises(RuntimeError, _bounds([2, 3, 4], [0, 4, 1], 0, 48, 8)):
        x.index_put_((torch.tensor([0, 1]),), torch.tensor(1.0), accumulate=True)
    with raises(RuntimeError, _bounds([1, 3, 4], [0, 4, 1], 0, 48, 8)):
        x.index_put_((torch.tensor([1]),), torch.tensor(1.0))


def test_indexing_within_a_shrunk_storage_reads_what_it_kept():
    x = torch.arange(6.0)
    x.untyped_storage().resize_(8)
    assert x[torch.tensor([0, 1])].tolist() == [0.0, 1.0]
    x.untyped_storage().resize_(24)
    x.copy_(torch.arange(6.0))  # the bytes a storage grows by are torch's to choose
    assert x[[4, 5]].tolist() == [4.0, 5.0]


READS = [
    lambda x: x.index_select(0, torch.tensor([0, 1])),
    lambda x: torch.index_select(x, 0, torch.tensor([0])),
    lambda x: x.gather(0, torch.tensor([0, 1])),
    lambda x: torch.gather(x, 0, torch.tensor([1])),
    lambda x: x.take(torch.tensor([0])),
    lambda x: torch.take(x, torch.tensor([0])),
    lambda x: x.put_(torch.tensor([0]), torch.tensor([1.0])),
]


@pytest.mark.parametrize("read", READS)
def test_reads_of_a_storage_with_no_bytes_are_refused(read):
    x = torch.arange(6.0)
    x.untyped_storage().resize_(0)
    with pytest.raises(RuntimeError) as caught:
        read(x)
    assert str(caught.value).splitlines()[0] == NOT_ALLOCATED
    x.untyped_storage().resize_(24)
    assert read(x).shape in ((1,), (2,), (6,))


def test_a_tensor_grown_past_its_storage_keeps_the_storage_object():
    x = torch.arange(6.0)
    s, view = x.untyped_storage(), x[1:]
    x.resize_(100)
    assert x.untyped_storage() is s and s.nbytes() == 400 and view.untyped_storage() is s
    x[2] = -7.0
    assert view[1].item() == -7.0 and s.data_ptr() == x.data_ptr()


ALONG = [  # (write or read of x = arange(24.0).view(2, 3, 4), sizes, strides, needed)
    (lambda x: x.index_fill_(1, torch.tensor([0, 1]), 0.0), [2, 2, 4], [12, 0, 1], 64),
    (lambda x: x.index_fill_(-3, torch.tensor([1]), 0.0), [1, 3, 4], [0, 4, 1], 48),
    (lambda x: x.index_copy_(1, torch.tensor([0, 1]), torch.zeros(2, 2, 4)), [2, 2, 4],
     [12, 0, 1], 64),
    (lambda x: x.take_along_dim(torch.zeros(1, 1, 4, dtype=torch.int64), 1), [2, 3, 4],
     [12, 4, 1], 96),
]


@pytest.mark.parametrize("call, sizes, strides, needed", ALONG)
def test_writes_along_a_dim_past_a_shrunk_storage_are_refused(call, sizes, strides, needed):
    x = torch.arange(24.0).view(2, 3, 4)
    x.untyped_storage().resize_(8)
    with raises(RuntimeError, _bounds(sizes, strides, 0, needed, 8)):
        call(x)


def test_item_of_a_storage_with_no_bytes_is_refused():
    x = torch.tensor(5.0)
    x.untyped_storage().resize_(0)
    with pytest.raises(RuntimeError) as caught:
        x.item()
    assert str(caught.value).splitlines()[0] == NOT_ALLOCATED
    x.untyped_storage().resize_(4)
    x.fill_(2.0)
    assert x.item() == 2.0


def test_a_view_of_an_inference_tensor_past_a_shrunk_storage_is_refused():
    with torch.inference_mode():
        x = torch.arange(6.0)
        x.untyped_storage().resize_(8)
        with raises(RuntimeError, _bounds([2], [1], 1, 12, 8)):
            x[1:3]
        assert x[:2].tolist() == [0.0, 1.0] and x.view(2, 3).shape == (2, 3)  # view: unchecked


def test_a_view_made_by_a_modes_own_code_past_a_shrunk_storage_is_refused():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Slicing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args, kwargs=None):
            if func is torch.ops.aten.neg.default:
                try:
                    args[0][1:3]
                except RuntimeError as error:
                    seen.append(str(error))
            return func(*args, **(kwargs or {}))

    y = torch.arange(6.0)
    y.untyped_storage().resize_(8)
    with Slicing():
        torch.neg(y)
    assert seen == [_bounds([2], [1], 1, 12, 8)]
