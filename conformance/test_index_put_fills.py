"""index_put_ with one mask and a value of one element fills, as torch's masked_fill_ path
does: the value may have another dtype, a uint8 mask is refused without a warning, and
the node is still IndexPutBackward0. And torch.index_put refuses None among its indices."""

import warnings

import pytest
import torch

from conformance._support import raises

MASK = torch.tensor([True, False, True])
BYTES = torch.tensor([1, 0, 1], dtype=torch.uint8)


def _assigned(index, value, into):
    into[index] = value
    return into


@pytest.mark.parametrize("value, into, expected", [
    (torch.tensor(2.5, dtype=torch.float64), torch.zeros(3), [2.5, 0.0, 2.5]),
    (torch.tensor([2.5], dtype=torch.float64), torch.zeros(3), [2.5, 0.0, 2.5]),
    (torch.tensor(2.7), torch.zeros(3, dtype=torch.int64), [2, 0, 2]),
    (torch.tensor(2.7), torch.zeros(3, dtype=torch.bool), [True, False, True]),
    (torch.tensor(7, dtype=torch.int32), torch.zeros(3, dtype=torch.float16), [7.0, 0.0, 7.0]),
])
def test_a_mask_and_one_value_of_another_dtype_fill(value, into, expected):
    kind = into.dtype
    assert _assigned(MASK, value, into.clone()).tolist() == expected
    assert into.clone().index_put_((MASK,), value).tolist() == expected
    out = into.index_put((MASK,), value)
    assert out.tolist() == expected and out.dtype is kind


def test_the_mask_covers_the_dimensions_it_stands_at():
    value = torch.tensor(2.5, dtype=torch.float64)
    expected = [[2.5, 2.5], [0.0, 0.0], [2.5, 2.5]]
    assert torch.zeros(3, 2).index_put((MASK,), value).tolist() == expected
    written = torch.zeros(3, 2)
    written[:, torch.tensor([True, False])] = value
    assert written.tolist() == [[2.5, 0.0]] * 3
    with raises(IndexError, "The shape of the mask [2] at index 0 does not match the shape of "
                            "the indexed tensor [3] at index 0"):
        torch.zeros(3)[torch.tensor([True, False])] = torch.tensor(1.0, dtype=torch.float64)


@pytest.mark.parametrize("value, kind, name", [
    (300.0, torch.uint8, "uint8_t"), (float("nan"), torch.int64, "int64_t"),
])
def test_a_value_that_does_not_fit_is_refused_as_a_fill_refuses_it(value, kind, name):
    with raises(RuntimeError, f"value cannot be converted to type {name} without overflow"):
        torch.zeros(3, dtype=kind)[MASK] = torch.tensor(value)


_BYTE_MASK_REFUSED = ("masked_fill_ only supports boolean masks, but got mask with dtype "
                      "unsigned char")


@pytest.mark.parametrize("write", [
    lambda: _assigned(BYTES, torch.tensor(5.0), torch.zeros(3)),
    lambda: _assigned(BYTES, torch.tensor([5.0]), torch.zeros(3)),
    lambda: _assigned(BYTES, 5.0, torch.zeros(3)),
    lambda: torch.zeros(3).index_put((BYTES,), torch.tensor(2.5)),
    lambda: torch.zeros(3).index_put_((BYTES,), torch.tensor(2.5)),
])
def test_a_uint8_mask_with_one_value_is_refused_unwarned(write):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(RuntimeError, _BYTE_MASK_REFUSED):
            write()


def test_a_uint8_mask_is_checked_for_its_sizes_first():
    mask = torch.tensor([1, 0, 1, 1], dtype=torch.uint8)
    with raises(IndexError, "The shape of the mask [4] at index 0 does not match the shape of "
                            "the indexed tensor [3, 4] at index 0"):
        torch.zeros(3, 4).index_put_((mask,), torch.tensor(1.0))


def test_a_uint8_mask_with_many_values_is_a_mask_with_a_warning():
    with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
        assert _assigned(BYTES, torch.tensor([5.0, 6.0]), torch.zeros(3)).tolist() == [5, 0, 6]


@pytest.mark.parametrize("put", [
    lambda y, v: _assigned(MASK, v, y), lambda y, v: y.index_put((MASK,), v),
])
def test_the_fill_is_recorded_as_index_put(put):
    x = torch.zeros(3, requires_grad=True)
    v = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
    y = put(x.clone(), v)
    assert type(y.grad_fn).__name__ == "IndexPutBackward0" and y.dtype is torch.float32
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == [
        "CloneBackward0", "AccumulateGrad"]
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 0.0]
    assert v.grad.dtype is torch.float64 and v.grad.item() == 4.0


def test_accumulating_never_fills():
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, "
                              "got Float for the destination and Double for the source."):
        torch.zeros(3).index_put_((MASK,), torch.tensor(2.5, dtype=torch.float64), True)


_AT_0 = torch.tensor([0])


@pytest.mark.parametrize("call, argument", [
    (lambda x: torch.index_put(x, (None, _AT_0), torch.tensor(5.0)), "element 0 in argument 1"),
    (lambda x: x.index_put((None, _AT_0), torch.tensor(5.0)), "element 0 in argument 0"),
    (lambda x: x.index_put((_AT_0, None), torch.tensor(5.0)), "element 1 in argument 0"),
])
def test_index_put_refuses_none_among_its_indices(call, argument):
    x = torch.zeros(2, 3)
    with raises(TypeError, f"expected Tensor as {argument}, but got NoneType"):
        call(x)
