"""W3 and M1 in a fresh process: a deep chain, its time, and its memory.

    python deep_chain.py LIBRARY N [--keep]

Prints one JSON line. Without --keep it times N ops on a 1-element tensor and
a backward through them, and reports the peak RSS growth. With --keep it
builds the chain, keeps it alive, and reports the RSS growth per node.
"""

import importlib
import json
import resource
import sys
import time


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def main() -> None:
    library, n, keep = sys.argv[1], int(sys.argv[2]), "--keep" in sys.argv
    torch = importlib.import_module(library)
    if library == "torch":
        torch.set_num_threads(1)
    x = torch.tensor([0.5], requires_grad=True)
    y = x * 1.0  # warm the path before measuring
    before = rss_bytes()
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.perf_counter()
    y = x
    for i in range(n):
        y = y * 1.0000001 if i % 2 else y + 0.0000001
    middle = time.perf_counter()
    if keep:
        grown = rss_bytes() - before
        print(json.dumps({"library": library, "nodes": n, "bytes_per_node": grown / n}))
        return
    y.backward()
    end = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"library": library, "ops": n, "forward": middle - start,
                      "backward": end - middle, "total": end - start,
                      "peak_rss_growth": peak - peak_before}))


if __name__ == "__main__":
    main()
