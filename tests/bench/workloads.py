"""The benchmark workloads, each written once against torch's API.

Every workload takes the library as its first argument (``refgrad`` or
``torch``) and returns a dict of phase timings in seconds: ``forward``,
``backward`` and ``total``. Inputs are made before the clock starts, from
NumPy, so both libraries start from the same numbers.
"""

import time

import numpy as np

# One elementwise step after another, in turn: mul, add, sin, exp. The values
# stay between 1/e and e, so a chain of any length neither overflows nor vanishes.
STEPS = (lambda y: y * 0.9, lambda y: y + 0.1, lambda y: y.sin(), lambda y: y.exp())


def _hook(grad):
    return None


def _pack(t):
    return t


def _unpack(t):
    return t


def _timings(start, middle, end) -> dict:
    return {"forward": middle - start, "backward": end - middle, "total": end - start}


def start_values(size: int):
    return np.linspace(0.1, 0.3, size, dtype=np.float32)


def chain(torch, size: int, length: int, hooks: bool = False) -> dict:
    """``length`` elementwise ops on a ``size``-element float32 tensor, then backward."""
    x = torch.tensor(start_values(size), requires_grad=True)
    seed = torch.ones(size)
    start = time.perf_counter()
    y = x
    for i in range(length):
        y = STEPS[i % 4](y)
        if hooks:
            y.register_hook(_hook)
    middle = time.perf_counter()
    y.backward(seed)
    return _timings(start, middle, time.perf_counter())


def _add(a: dict, b: dict) -> dict:
    return {phase: a[phase] + b[phase] for phase in a}


def w1_op_overhead(torch, chains: int, length: int) -> dict:
    """``chains`` chains of ``length`` ops on 3-element tensors (W1: 50 of 2,000)."""
    total = {"forward": 0.0, "backward": 0.0, "total": 0.0}
    for _ in range(chains):
        total = _add(total, chain(torch, 3, length))
    return total


def w4_hooks(torch, chains: int, length: int) -> dict:
    """W1 with a hook on every intermediate and a saved-tensor hook pair active."""
    total = {"forward": 0.0, "backward": 0.0, "total": 0.0}
    with torch.autograd.graph.saved_tensors_hooks(_pack, _unpack):
        for _ in range(chains):
            total = _add(total, chain(torch, 3, length, hooks=True))
    return total


def w2_mlp_step(torch, weights: dict) -> dict:
    """One training step of a relu MLP with a mean-squared-error loss.

    As in a training loop, the parameters live across steps: each library's are
    made once, and their ``.grad`` is set to None before each step, untimed.
    The floor keeps its parameters across steps in the same way.
    """
    params, x, target = _mlp(torch, weights)
    for p in params:
        p.grad = None
    start = time.perf_counter()
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    out = h @ params[-2] + params[-1]
    loss = ((out - target) ** 2).mean()
    middle = time.perf_counter()
    loss.backward()
    return _timings(start, middle, time.perf_counter())


_MLPS: dict = {}  # (library, weights) -> the parameters, input and target made from them


def _mlp(torch, weights: dict) -> tuple:
    key = (torch.__name__, id(weights))
    if key not in _MLPS:
        params = [torch.tensor(w, requires_grad=True) for w in weights["params"]]
        _MLPS[key] = (params, torch.tensor(weights["x"]), torch.tensor(weights["y"]), weights)
    return _MLPS[key][:3]


def mlp_weights(widths=(1024, 1024, 1024, 10), batch: int = 256, seed: int = 0) -> dict:
    """Weights for ``len(widths) - 1`` linear layers, an input batch and a target."""
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(widths, widths[1:]):
        params.append((rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32))
        params.append(np.zeros(fan_out, np.float32))
    x = rng.standard_normal((batch, widths[0])).astype(np.float32)
    y = rng.standard_normal((batch, widths[-1])).astype(np.float32)
    return {"params": params, "x": x, "y": y}


def w5_wide(torch, leaves: int) -> dict:
    """``leaves`` leaves of 16 elements summed into one loss."""
    xs = [torch.ones(16, requires_grad=True) for _ in range(leaves)]
    start = time.perf_counter()
    loss = xs[0].sum()
    for x in xs[1:]:
        loss = loss + x.sum()
    middle = time.perf_counter()
    loss.backward()
    return _timings(start, middle, time.perf_counter())


def w6_big_elementwise(torch, array) -> dict:
    """(x.sin() * x + x.exp()).sum() on one large float32 tensor."""
    x = torch.tensor(array, requires_grad=True)
    start = time.perf_counter()
    loss = (x.sin() * x + x.exp()).sum()
    middle = time.perf_counter()
    loss.backward()
    return _timings(start, middle, time.perf_counter())
