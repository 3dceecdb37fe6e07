"""refgrad._ops.histograms: where values land, and the rows behind torch.histogram."""

import numpy as np

import refgrad as torch
from refgrad._ops.histograms import _ROWS, _counted, _places, upper_bound


def test_places_close_the_last_interval_and_trust_the_edges_over_scaling():
    edges = np.array([0.0, 1.0, 2.0, 4.0])
    values = np.array([0.0, 0.999, 1.0, 3.9, 4.0])
    assert _places(values, edges, guessed=False).tolist() == [0, 0, 1, 2, 2]
    # scaling guesses 4.0 * 3 / 4 = 3 for the last edge, and 1.5 for 2.0: the edges decide
    assert _places(np.array([2.0, 4.0]), edges, guessed=True).tolist() == [2, 2]


def test_places_search_only_next_to_the_guess():
    # uneven edges, which linspace never makes: scaling guesses interval 0 for 2.5, and the
    # search looks no further than the edges just around it, where a full search finds 2
    edges = np.array([0.0, 0.1, 0.2, 10.0])
    assert _places(np.array([2.5]), edges, guessed=False).tolist() == [2]
    assert _places(np.array([2.5]), edges, guessed=True).tolist() == [1]


def test_counted_weights_add_in_element_order_in_the_input_dtype():
    a = np.array([0.5, 0.5, 0.5], np.float32)
    w = np.array([1e8, 1.0, -1e8], np.float32)
    hist, edges = _counted(a, w, edges=np.array([0.0, 1.0], np.float32), density=False,
                           operation="histogram")
    assert hist.dtype == np.float32 and hist.tolist() == [0.0]  # (1e8 + 1) rounds to 1e8
    assert edges.tolist() == [0.0, 1.0]


def test_four_rows_one_per_set_of_edges():
    assert {row.inputs for row in _ROWS.values()} == {
        ("self",), ("self", "weight"), ("self", "bins"), ("self", "bins", "weight")}
    assert all(row.node == "NotImplemented" for row in _ROWS.values())
    hist, edges = torch.histogram(torch.tensor([1.0, 2.0]), 2)
    assert hist._base is None and edges._base is None


def _halving(edges, value) -> int:
    """C++'s std::upper_bound, one value at a time, comparing by < alone."""
    first, length = 0, len(edges)
    while length > 0:
        half = length >> 1
        if value < edges[first + half]:
            length = half
        else:
            first, length = first + half + 1, length - half - 1
    return first


def test_upper_bound_halves_as_std_upper_bound_does_for_any_edges():
    rng = np.random.default_rng(0)
    picks = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, 1.0, 2.0, 3.5])
    for n in range(1, 12):
        edges = rng.choice(picks, n)
        values = np.concatenate([picks, rng.uniform(-1.0, 4.0, 5)])
        assert upper_bound(edges, values).tolist() == [_halving(edges, v) for v in values]


def test_places_with_a_nan_edge_differ_from_numpys_search():
    edges, values = np.array([0.0, np.nan, 4.0]), np.array([1.0, 3.0])
    assert _places(values, edges, guessed=False).tolist() == [1, 1]  # torch's answer
    assert (np.searchsorted(edges, values, side="right") - 1).tolist() == [0, 0]
