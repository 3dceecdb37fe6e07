"""refgrad._dim_order: the comparison and the sort behind Tensor.dim_order."""

from refgrad._dim_order import _compare, _row_major, _sorted_order


def test_compare_puts_smaller_strides_inside_and_leaves_zero_undecided():
    shape, strides = (2, 3, 4), (1, 4, 0)
    assert _compare(shape, strides, 0, 1) == -1 and _compare(shape, strides, 1, 0) == 1
    assert _compare(shape, strides, 2, 0) == 0 and _compare(shape, strides, 0, 2) == 0
    # equal strides: the larger size goes inside, an equal or smaller one says nothing
    assert _compare((3, 2), (5, 5), 0, 1) == 1 and _compare((3, 2), (5, 5), 1, 0) == 0


def test_row_major_ignores_sizes_of_one():
    assert _row_major((2, 1, 3), (3, 99, 1)) and not _row_major((2, 3), (1, 2))


def test_sorted_order_reports_what_it_could_not_order():
    assert _sorted_order((4, 3), (1, 4)) == ([1, 0], False)
    assert _sorted_order((2, 3), (0, 1)) == ([0, 1], True)
    assert _sorted_order((2, 3, 4, 5), (60, 1, 15, 3)) == ([0, 2, 3, 1], False)  # at once
    assert _sorted_order((), ()) == ([], False) and _sorted_order((5,), (0,)) == ([0], False)
