"""var and std of float64 tensors to the bit. Along dimensions torch runs Welford's update
in float64 through each slice in the order its loop walks memory (the smallest stride
innermost); over everything it takes its mean, then adds the squared distances in
float64 one after another within each call of its loop, the calls' totals into their
thread's, and the threads' totals in turn. The references use Python floats.
"""

import numpy as np
import torch

from tests._references import running


def welford(values, correction=1, with_mean=False):
    mean, m2, _ = running(values)
    spread = m2 / max(len(values) - correction, 0)
    return (spread, mean) if with_mean else spread


def in_turn(values, mean):
    total = 0.0
    for v in values:
        total = total + (v - mean) * (v - mean)
    return total


def test_welford_walks_a_permuted_slice_in_memory_order():
    a = np.random.default_rng(1).standard_normal((4, 6, 5))
    y = torch.from_numpy(a).permute(2, 1, 0)  # (5, 6, 4): dim 1 has the smaller stride
    expected = [welford([float(a[k, j, i]) for k in range(4) for j in range(6)])
                for i in range(5)]
    assert y.var((1, 2)).tolist() == expected
    assert y.std((1, 2)).tolist() == [float(np.sqrt(v)) for v in expected]
    assert y.var((2, 1), correction=0).tolist() == [
        welford([float(a[k, j, i]) for k in range(4) for j in range(6)], 0) for i in range(5)]


def test_var_mean_walks_memory_order_even_over_everything():
    a = np.random.default_rng(4).standard_normal((4, 6, 5))
    y = torch.from_numpy(a).permute(2, 1, 0)
    var, mean = torch.var_mean(y, (1, 2))
    expected = [welford([float(a[k, j, i]) for k in range(4) for j in range(6)], 1, True)
                for i in range(5)]
    assert var.tolist() == [v for v, _ in expected]
    assert mean.tolist() == [m for _, m in expected]
    var, mean = torch.var_mean(y)  # everything: Welford's update in memory order
    assert (var.item(), mean.item()) == welford([float(v) for v in a.reshape(-1)], 1, True)


def test_over_everything_the_distances_are_added_in_memory_order():
    a = np.random.default_rng(2).standard_normal((30, 41))
    x = torch.from_numpy(a).t()  # read in memory order: the rows of a
    mean = x.mean().item()
    values = [float(v) for v in a.reshape(-1)]
    assert x.var().item() == in_turn(values, mean) / (len(values) - 1)
    assert x.std(correction=0).item() == float(np.sqrt(in_turn(values, mean) / len(values)))


def test_a_large_spread_is_shared_among_threads(threads):
    # (301, 201)[:, :200], 60200 elements: each thread's share ends or starts mid-row,
    # and the part of a row is a call of its own, its total added to the share's.
    a = np.random.default_rng(3).standard_normal((301, 201))
    x = torch.from_numpy(a)[:, :200]
    rows = [[float(v) for v in a[r, :200]] for r in range(301)]
    flat = sum(rows, [])
    mean = x.mean().item()
    threads(1)
    assert x.var().item() == in_turn(flat, mean) / (len(flat) - 1)
    threads(2)
    first = 0.0 + in_turn(flat[:30000], mean) + in_turn(flat[30000:30100], mean)
    second = 0.0 + in_turn(flat[30100:30200], mean) + in_turn(flat[30200:], mean)
    assert x.var().item() == (0.0 + first + second) / (len(flat) - 1)
