"""Hand-written NumPy floors: the same forward and backward, with no autograd."""

import time

import numpy as np
from workloads import W1_CHAINS, W1_LENGTH


def w1_floor():
    forward = backward = 0.0
    for _ in range(W1_CHAINS):
        start = time.perf_counter()
        y = np.array([0.1, 0.2, 0.3], np.float32)
        saved = []
        for i in range(W1_LENGTH):
            step = i % 4
            if step == 2:
                saved.append(y)
                y = np.sin(y)
            elif step == 3:
                y = np.exp(y)
                saved.append(y)
            else:
                saved.append(None)
                y = y * np.float32(0.9) if step == 0 else y + np.float32(0.1)
        middle = time.perf_counter()
        g = np.ones(3, np.float32)
        for i in reversed(range(W1_LENGTH)):
            step = i % 4
            g = g * np.float32(0.9) if step == 0 else g if step == 1 else (
                g * np.cos(saved[i]) if step == 2 else g * saved[i])
        end = time.perf_counter()
        forward += middle - start
        backward += end - middle
    return {"forward": forward, "backward": backward, "total": forward + backward}


def w2_floor(weights):
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
    end = time.perf_counter()
    return {"forward": middle - start, "backward": end - middle, "total": end - start}


def w5_floor(leaves=10_000):
    xs = [np.ones(16, np.float32) for _ in range(leaves)]
    start = time.perf_counter()
    loss = np.float32(0)
    for x in xs:
        loss = loss + x.sum()
    middle = time.perf_counter()
    grads = [np.ones_like(x) for x in xs]
    end = time.perf_counter()
    assert len(grads) == leaves
    return {"forward": middle - start, "backward": end - middle, "total": end - start}


def w6_floor(array):
    start = time.perf_counter()
    s, e = np.sin(array), np.exp(array)
    _ = (s * array + e).sum()
    middle = time.perf_counter()
    _ = np.cos(array) * array + s + e
    end = time.perf_counter()
    return {"forward": middle - start, "backward": end - middle, "total": end - start}
