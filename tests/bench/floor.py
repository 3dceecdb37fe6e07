"""Hand-written NumPy floors: the same forward and backward, with no autograd.

Each floor keeps exactly what the autograd node would save (sin its input, exp
its output, mul and add by a number nothing) and walks the chain back by hand.
"""

import time

import numpy as np
from workloads import start_values

_MUL, _ADD = np.float32(0.9), np.float32(0.1)


def _timings(start, middle, end) -> dict:
    return {"forward": middle - start, "backward": end - middle, "total": end - start}


def chain_floor(size: int, length: int) -> dict:
    y = start_values(size)
    start = time.perf_counter()
    saved = []
    for i in range(length):
        step = i % 4
        if step == 0:
            saved.append(None)
            y = y * _MUL
        elif step == 1:
            saved.append(None)
            y = y + _ADD
        elif step == 2:
            saved.append(y)
            y = np.sin(y)
        else:
            y = np.exp(y)
            saved.append(y)
    middle = time.perf_counter()
    g = np.ones(size, np.float32)
    for i in reversed(range(length)):
        step = i % 4
        if step == 0:
            g = g * _MUL
        elif step == 2:
            g = g * np.cos(saved[i])
        elif step == 3:
            g = g * saved[i]
    return _timings(start, middle, time.perf_counter())


def w1_floor(chains: int, length: int) -> dict:
    total = {"forward": 0.0, "backward": 0.0, "total": 0.0}
    for _ in range(chains):
        one = chain_floor(3, length)
        total = {phase: total[phase] + one[phase] for phase in total}
    return total


def w2_floor(weights: dict) -> dict:
    params, x, target = weights["params"], weights["x"], weights["y"]
    start = time.perf_counter()
    activations, h = [x], x
    for i in range(0, len(params) - 2, 2):
        h = np.maximum(h @ params[i] + params[i + 1], 0)
        activations.append(h)
    out = h @ params[-2] + params[-1]
    diff = out - target
    _ = (diff * diff).mean()
    middle = time.perf_counter()
    g = 2 * diff / diff.size
    grads = [None] * len(params)
    for i in range(len(params) - 2, -1, -2):
        grads[i], grads[i + 1] = activations[i // 2].T @ g, g.sum(0)
        if i:
            g = (g @ params[i].T) * (activations[i // 2] > 0)
    return _timings(start, middle, time.perf_counter())


def w5_floor(leaves: int) -> dict:
    xs = [np.ones(16, np.float32) for _ in range(leaves)]
    start = time.perf_counter()
    loss = np.float32(0)
    for x in xs:
        loss = loss + x.sum()
    middle = time.perf_counter()
    grads = [np.ones_like(x) for x in xs]
    end = time.perf_counter()
    assert len(grads) == leaves
    return _timings(start, middle, end)


def w6_floor(array) -> dict:
    start = time.perf_counter()
    s, e = np.sin(array), np.exp(array)
    _ = (s * array + e).sum()
    middle = time.perf_counter()
    _ = np.cos(array) * array + s + e
    return _timings(start, middle, time.perf_counter())
