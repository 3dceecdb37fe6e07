"""The benchmark workloads, each written once against torch's API.

Every workload takes the library as its first argument (``refgrad`` or
``torch``) and returns a dict of phase timings in seconds.
"""

import time

import numpy as np

W1_CHAINS, W1_LENGTH = 50, 2000
_W1_STEPS = (lambda y: y * 0.9, lambda y: y + 0.1, lambda y: y.sin(), lambda y: y.exp())


def w1_op_overhead(torch, hooks=False):
    """50 chains of 2,000 elementwise ops on 3-element tensors, then backward."""
    forward = backward = 0.0
    for _ in range(W1_CHAINS):
        x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
        start = time.perf_counter()
        y = x
        for i in range(W1_LENGTH):
            y = _W1_STEPS[i % 4](y)
            if hooks:
                y.register_hook(lambda g: None)
        middle = time.perf_counter()
        y.backward(torch.ones(3))
        end = time.perf_counter()
        forward += middle - start
        backward += end - middle
    return {"forward": forward, "backward": backward, "total": forward + backward}


def w4_hooks(torch):
    """W1 with a hook on every intermediate and a saved-tensor hook pair active."""
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        return w1_op_overhead(torch, hooks=True)


def w2_mlp_step(torch, weights):
    """One forward and backward of a 1024-1024-1024-10 relu MLP on a batch of 256."""
    params = [torch.tensor(w, requires_grad=True) for w in weights["params"]]
    x, target = torch.tensor(weights["x"]), torch.tensor(weights["y"])
    start = time.perf_counter()
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    out = h @ params[-2] + params[-1]
    loss = ((out - target) ** 2).mean()
    middle = time.perf_counter()
    loss.backward()
    end = time.perf_counter()
    return {"forward": middle - start, "backward": end - middle, "total": end - start}


def mlp_weights(seed=0):
    rng = np.random.default_rng(seed)
    widths = [1024, 1024, 1024, 1024, 10]
    params = []
    for fan_in, fan_out in zip(widths, widths[1:]):
        params.append((rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32))
        params.append(np.zeros(fan_out, np.float32))
    x = rng.standard_normal((256, 1024)).astype(np.float32)
    y = rng.standard_normal((256, 10)).astype(np.float32)
    return {"params": params, "x": x, "y": y}


def w5_wide(torch, leaves=10_000):
    """10,000 leaves of 16 elements summed into one loss."""
    xs = [torch.ones(16, requires_grad=True) for _ in range(leaves)]
    start = time.perf_counter()
    loss = xs[0].sum()
    for x in xs[1:]:
        loss = loss + x.sum()
    middle = time.perf_counter()
    loss.backward()
    end = time.perf_counter()
    return {"forward": middle - start, "backward": end - middle, "total": end - start}


def w6_big_elementwise(torch, array):
    """(x.sin() * x + x.exp()).sum() on 4 Mi float32 elements."""
    x = torch.tensor(array, requires_grad=True)
    start = time.perf_counter()
    loss = (x.sin() * x + x.exp()).sum()
    middle = time.perf_counter()
    loss.backward()
    end = time.perf_counter()
    return {"forward": middle - start, "backward": end - middle, "total": end - start}
