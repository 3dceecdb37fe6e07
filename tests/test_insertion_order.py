"""refgrad._layouts.insertion_order: the one sort behind like_strides, dim_order and
the strides of an elementwise result."""

from refgrad._layouts import insertion_order


def _by_key(key):
    return lambda a, b: (key[a] > key[b]) - (key[a] < key[b])


def test_sorts_in_place_and_keeps_equal_items_in_their_order():
    order = [3, 0, 2, 1]
    key = {0: 2, 1: 1, 2: 2, 3: 0}
    assert insertion_order(order, _by_key(key)) is order
    assert order == [3, 1, 0, 2]  # 0 and 2 compare equal: 0 stays before 2


def test_a_zero_lets_the_item_look_past_an_undecided_one():
    # 1 and "x" decide nothing; 1 then meets 2 and trades places with it, over "x"
    def compare(a, b):
        if "x" in (a, b):
            return 0
        return 1 if a > b else -1
    assert insertion_order([2, "x", 1], compare) == [1, "x", 2]


def test_a_minus_one_stops_the_search():
    # 1 meets 3 first, which keeps it after; 2, which 1 would pass, is never asked
    def compare(a, b):
        return -1 if (a, b) == (3, 1) else (1 if a > b else -1)
    assert insertion_order([2, 3, 1], compare) == [2, 3, 1]
