"""Run every workload side by side: refgrad, torch (1 thread and default), NumPy floor.

    python tests/bench/run.py [--repeats 7] [--out bench-results]

Writes bench.json and bench.md into the output folder.
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

import floor
import numpy as np
import torch
import workloads as w

import refgrad

HERE = Path(__file__).resolve().parent
DEFAULT_THREADS = torch.get_num_threads()


def implementations(workload, floor_fn, *args):
    """The same workload for each implementation, as zero-argument callables."""
    def with_threads(n):
        def run():
            torch.set_num_threads(n)
            try:
                return workload(torch, *args)
            finally:
                torch.set_num_threads(DEFAULT_THREADS)
        return run

    impls = {"refgrad": lambda: workload(refgrad, *args), "torch-1": with_threads(1),
             f"torch-{DEFAULT_THREADS}": with_threads(DEFAULT_THREADS)}
    if floor_fn is not None:
        impls["floor"] = lambda: floor_fn(*args)
    return impls


def measure(impls, repeats):
    """Interleave implementations repeat by repeat; keep every timing."""
    runs = {name: [] for name in impls}
    for run in impls.values():
        run()  # warm up
    for _ in range(repeats):
        for name, run in impls.items():
            runs[name].append(run())
    return runs


def summarise(runs, phase="total", scale=1.0):
    out = {}
    for name, timings in runs.items():
        values = [t[phase] * scale for t in timings]
        out[name] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    return out


def ratios(runs, against, phase="total"):
    """Per-repeat ratios of refgrad to ``against``, summarised."""
    values = [r[phase] / a[phase] for r, a in zip(runs["refgrad"], runs[against])]
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def fresh_process(library, n, keep=False):
    command = [sys.executable, str(HERE / "deep_chain.py"), library, str(n)]
    done = subprocess.run(command + (["--keep"] if keep else []), capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("bench-results"))
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    results = {"repeats": args.repeats, "torch_threads": DEFAULT_THREADS, "workloads": {}}
    plan = {
        "W1": (w.w1_op_overhead, floor.w1_floor, ()),
        "W2": (w.w2_mlp_step, floor.w2_floor, (w.mlp_weights(),)),
        "W5": (w.w5_wide, floor.w5_floor, ()),
        "W6": (w.w6_big_elementwise, floor.w6_floor,
               (np.random.default_rng(0).standard_normal(4 * 2**20).astype(np.float32),)),
    }
    for name, (workload, floor_fn, extra) in plan.items():
        if args.only and name not in args.only:
            continue
        runs = measure(implementations(workload, floor_fn, *extra), args.repeats)
        entry = {phase: summarise(runs, phase) for phase in ("forward", "backward", "total")}
        entry["refgrad/torch-1"] = ratios(runs, "torch-1")
        entry["refgrad/floor"] = ratios(runs, "floor")
        results["workloads"][name] = entry
        print(name, json.dumps(entry["total"]), flush=True)
    if not args.only or "W3" in args.only:
        results["workloads"]["W3"] = {
            str(n): {lib: fresh_process(lib, n) for lib in ("refgrad", "torch")}
            for n in (100_000, 1_000_000)
        }
        results["workloads"]["M1"] = {lib: fresh_process(lib, 200_000, keep=True)
                                      for lib in ("refgrad", "torch")}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench.json").write_text(json.dumps(results, indent=2))
    (args.out / "bench.md").write_text(markdown(results))
    print((args.out / "bench.md").read_text())


def _cell(total, key) -> str:
    t = total[key]
    return f"{t['median'] * 1e3:.2f} ms ({t['min'] * 1e3:.2f}–{t['max'] * 1e3:.2f})"


def markdown(results) -> str:
    lines = ["| workload | refgrad (median, min–max) | torch, 1 thread | floor | "
             "refgrad/torch-1 | refgrad/floor |", "|---|---|---|---|---|---|"]
    for name, entry in results["workloads"].items():
        if name in ("W3", "M1"):
            continue
        total = entry["total"]
        lines.append(f"| {name} | {_cell(total, 'refgrad')} | {_cell(total, 'torch-1')} | "
                     f"{_cell(total, 'floor')} | "
                     f"{entry['refgrad/torch-1']['median']:.2f} | "
                     f"{entry['refgrad/floor']['median']:.2f} |")
    if "W1" in results["workloads"]:
        ops = w.W1_CHAINS * w.W1_LENGTH
        totals = results["workloads"]["W1"]["total"]
        per_op = {k: v["median"] / ops * 1e6 for k, v in totals.items()}
        lines.append("")
        lines.append("W1 microseconds per op (total): " + ", ".join(
            f"{k} {v:.2f}" for k, v in per_op.items()))
    for n, libs in results["workloads"].get("W3", {}).items():
        lines.append(f"W3 {n} ops: " + ", ".join(
            f"{lib} {r['total']:.2f} s, peak RSS +{r['peak_rss_growth'] / 2**20:.0f} MiB"
            for lib, r in libs.items()))
    for lib, r in results["workloads"].get("M1", {}).items():
        lines.append(f"M1 {lib}: {r['bytes_per_node']:.0f} bytes per node")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
