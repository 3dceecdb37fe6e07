"""W3 and M1 in a fresh process: a deep chain, its time, and its memory.

    python deep_chain.py LIBRARY N [--keep]

Prints one JSON line. Without --keep it times N ops on a 1-element tensor and
a backward through them, checks the gradient, and reports the peak RSS growth.
With --keep it builds the chain, keeps it alive, and reports the RSS growth
per recorded node.
"""

import importlib
import json
import math
import sys
import time

_FACTOR, _SHIFT = 1.0000001, 0.0000001


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        line = next(line for line in f if line.startswith(field + ":"))
    return int(line.split()[1]) * 1024  # the kernel writes kB


def rss_bytes() -> int:
    return _status("VmRSS")


def peak_rss_bytes() -> int:
    # Not getrusage's ru_maxrss: a child started from a large parent reports the parent's.
    return _status("VmHWM")


def reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # sets the peak back to the current RSS


def build(x, n: int):
    y = x
    for i in range(n):
        y = y * _FACTOR if i % 2 else y + _SHIFT
    return y


def main() -> None:
    library, n, keep = sys.argv[1], int(sys.argv[2]), "--keep" in sys.argv
    torch = importlib.import_module(library)
    if library == "torch":
        torch.set_num_threads(1)
    x = torch.tensor([0.5], requires_grad=True)
    build(x, 8).backward()  # warm the path before measuring
    x.grad = None
    reset_peak()
    before = rss_bytes()
    start = time.perf_counter()
    y = build(x, n)
    middle = time.perf_counter()
    if keep:
        grown = rss_bytes() - before
        print(json.dumps({"library": library, "nodes": n, "bytes_per_node": grown / n}))
        return
    y.backward()
    end = time.perf_counter()
    grad, expected = float(x.grad[0]), _FACTOR ** (n // 2)
    print(json.dumps({
        "library": library, "ops": n, "forward": middle - start, "backward": end - middle,
        "total": end - start, "peak_rss_growth": peak_rss_bytes() - before,
        "ok": math.isfinite(grad) and abs(grad - expected) < 0.05 * expected,
    }))


if __name__ == "__main__":
    main()
