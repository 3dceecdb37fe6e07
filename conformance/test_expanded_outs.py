"""Reductions and histc with out= an expanded tensor: a dimension along which out has stride 0
is reduced too, so every shared element holds the reduction over all the rows that share it;
argmax and argmin count their index within the innermost loop of the reduced dimensions."""

import warnings

import pytest
import torch


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # frobenius_norm's deprecation
        yield


def _shared(shape, strides, dtype=torch.float32):
    """A tensor of ``shape`` over as little memory as ``strides`` needs (0: shared)."""
    size = sum((n - 1) * s for n, s in zip(shape, strides)) + 1
    return torch.zeros(size, dtype=dtype).as_strided(shape, strides)


def _grid():
    return torch.tensor([[3.0, 1, 4, 1, 5, 2], [2, 6, 5, 3, 9, 8], [7, 0, 1, 1, 2, 3]])


def _cube():
    return (torch.arange(60.0).reshape(3, 4, 5) * 7 % 11 - 5) / 4


def test_a_sum_into_an_expanded_out_sums_every_row():
    out = torch.zeros(1).expand(3)
    assert torch.sum(_grid(), 1, out=out) is out
    assert out.tolist() == [63.0, 63.0, 63.0] and out.stride() == (0,)


@pytest.mark.parametrize("call, merged", [
    (lambda x, o: torch.sum(x, 2, out=o), lambda x: x.sum((0, 2))),
    (lambda x, o: torch.nansum(x, 2, out=o), lambda x: x.nansum((0, 2))),
    (lambda x, o: torch.amax(x, 2, out=o), lambda x: x.amax((0, 2))),
    (lambda x, o: torch.amin(x, (2,), out=o), lambda x: x.amin((0, 2))),
    (lambda x, o: torch.std(x, 2, out=o), lambda x: x.std((0, 2))),
    (lambda x, o: torch.var(x, 2, False, out=o), lambda x: x.var((0, 2), unbiased=False)),
    (lambda x, o: torch.var(x, 2, correction=0, out=o), lambda x: x.var((0, 2), correction=0)),
    (lambda x, o: torch.norm(x, 3, 2, out=o), lambda x: x.norm(3, (0, 2))),
    (lambda x, o: torch.linalg.vector_norm(x, 1, 2, out=o),
     lambda x: torch.linalg.vector_norm(x, 1, (0, 2))),
    (lambda x, o: torch.frobenius_norm(x, [2], out=o), lambda x: x.norm(2, (0, 2))),
    (lambda x, o: torch.prod(x, 2, out=o), lambda x: x.permute(1, 0, 2).reshape(4, 15).prod(1)),
])
def test_a_reduction_takes_the_shared_dimension_as_reduced_too(call, merged):
    out = _shared((3, 4), (0, 1))
    call(_cube(), out)
    assert torch.equal(out[0], merged(_cube())) and torch.equal(out[2], out[0])


def test_all_and_any_merge_their_rows():
    x = torch.tensor([[1, 1], [0, 1]])
    assert torch.all(x, 1, out=_shared((2,), (0,), torch.bool)).tolist() == [False, False]
    assert torch.any(x - 1, 1, out=_shared((2,), (0,), torch.bool)).tolist() == [True, True]


@pytest.mark.parametrize("out, dims", [
    (_shared((3, 1, 5), (0, 5, 1)), (0, 1)),  # keepdim: the reduced place is 1 already
    (_shared((3, 1, 5), (1, 5, 0)), (1, 2)),
    (_shared((3, 1, 5), (0, 0, 0)), (0, 1, 2)),
])
def test_with_keepdim_out_lines_up_with_the_input(out, dims):
    torch.sum(_cube(), 1, True, out=out)
    assert torch.equal(out, _cube().sum(dims, True).expand(3, 1, 5))


def test_the_result_is_cast_to_a_shared_out_of_another_dtype():
    out = _shared((3, 4), (0, 1), torch.float64)
    torch.sum(_cube(), 2, dtype=torch.float64, out=out)
    assert torch.equal(out[1], _cube().double().sum((0, 2)))


def test_an_out_resized_or_reduced_everywhere_has_nothing_to_merge():
    out = torch.zeros(1).expand(2)
    torch.sum(_grid(), 1, out=out)  # three rows: out is resized to fresh memory
    assert out.tolist() == [16.0, 33.0, 14.0] and out.stride() == (1,)
    out = torch.zeros(())
    assert torch.sum(_grid(), (0, 1), out=out).item() == 63.0


def test_argmax_counts_over_dimensions_that_fold_together():
    x = _grid()  # 9 is at row 1, column 4: position 10 of the twelve
    for dim, n in ((1, 3), (0, 6)):
        out = _shared((n,), (0,), torch.long)
        assert torch.argmax(x, dim, out=out).tolist() == [10] * n
    assert torch.argmin(x, 1, out=_shared((3,), (0,), torch.long)).tolist() == [13] * 3
    out = _shared((3, 1), (0, 1), torch.long)
    assert torch.argmax(x, 1, True, out=out).tolist() == [[10]] * 3


def test_argmax_counts_within_the_innermost_loop_where_dimensions_do_not_fold():
    y = torch.zeros(2, 3, 4)
    y[0, 2, 0] = y[1, 2, 3] = 5  # equal extremes: the smaller count wins
    y[0, 1, 3] = y[1, 1, 0] = 7
    y[0, 0, 2] = y[1, 0, 2] = y[1, 0, 0] = 1
    out = _shared((2, 3), (0, 1), torch.long)
    assert torch.argmax(y, 2, out=out).tolist() == [[0, 0, 0]] * 2
    assert torch.argmin(-y, 2, out=_shared((2, 3), (0, 1), torch.long)).tolist() == [[0, 0, 0]] * 2
    y[1, 1, 0] = 6
    assert torch.argmax(y, 2, out=_shared((2, 3), (0, 1), torch.long)).tolist() == [[0, 3, 0]] * 2
    # a transposed input: the fastest reduced dimension is its first; 9 counts as 1, not 3
    z = torch.tensor([[[8.0, 0], [1, 2], [3, 4]], [[5, 6], [7, 9], [2, 0]]]).permute(2, 1, 0)
    out = _shared((2, 3), (0, 1), torch.long)
    assert torch.argmax(z, 2, out=out).tolist() == [[0, 1, 1]] * 2


def test_argmax_takes_the_first_nan():
    x = torch.tensor([[1.0, float("nan"), 3], [4, 5, float("nan")]])
    assert torch.argmax(x, 1, out=_shared((2,), (0,), torch.long)).tolist() == [1, 1]
    out = torch.amax(x, 1, out=_shared((2,), (0,)))
    assert out.isnan().tolist() == [True, True]


def test_histc_counts_every_element_into_the_shared_bins():
    out = torch.histc(torch.tensor([1.0, 2, 3, 10]), 3, 0, 4, out=_shared((3,), (0,)))
    assert out.tolist() == [3.0, 3.0, 3.0]
