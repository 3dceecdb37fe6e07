"""Run every workload side by side: refgrad, torch (1 thread and default), NumPy floor.

    python tests/bench/run.py [--quick] [--repeats N] [--out DIR] [--only W1 W3 ...]

Writes bench.json and bench.md into DIR: by default ``book/bench`` (the run the
book shows), or ``bench-results`` for a ``--quick`` run, which uses few repeats
and small sizes and is only for trying the harness.
"""

import argparse
import cProfile
import datetime
import functools
import gc
import json
import os
import platform
import pstats
import subprocess
import sys
from pathlib import Path

import floor
import numpy as np
import report
import torch
import workloads as w

import refgrad

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_THREADS = torch.get_num_threads()
REFGRAD_THREADS = refgrad.get_num_threads()

FULL = {
    "repeats": 7,
    "W1": {"chains": 50, "length": 2000},
    "W2": {"widths": [1024, 1024, 1024, 10], "batch": 256},
    "W5": {"leaves": 10_000},
    "W6": {"elements": 4 * 2**20},
    "W3": {"ops": [100_000, 1_000_000], "repeats": [7, 3]},
    "M1": {"nodes": 100_000, "repeats": 3},
    "nodes": [1_000, 10_000, 100_000],
    "sizes": [[1, 2000], [16, 2000], [256, 2000], [4096, 1000], [65536, 200], [1048576, 40]],
}
QUICK = {
    "repeats": 3,
    "W1": {"chains": 5, "length": 400},
    "W2": {"widths": [256, 256, 256, 10], "batch": 64},
    "W5": {"leaves": 1_000},
    "W6": {"elements": 65536},
    "W3": {"ops": [10_000, 100_000], "repeats": [3, 1]},
    "M1": {"nodes": 10_000, "repeats": 1},
    "nodes": [100, 1_000, 10_000],
    "sizes": [[1, 400], [16, 400], [256, 400], [4096, 200], [65536, 40]],
}


def with_threads(n: int, fn, library=torch):
    default = DEFAULT_THREADS if library is torch else REFGRAD_THREADS

    def run():
        library.set_num_threads(n)
        try:
            return fn()
        finally:
            library.set_num_threads(default)
    return run


def implementations(workload, floor_fn, *args, one_thread: bool = False) -> dict:
    """The same workload for each implementation, as zero-argument callables.

    With ``one_thread``, refgrad also runs on one thread ("refgrad-1"): for the
    workloads of large arrays, whose elementwise ops refgrad shares among threads.
    """
    on_torch = functools.partial(workload, torch, *args)
    impls = {"refgrad": functools.partial(workload, refgrad, *args)}
    if one_thread:
        impls["refgrad-1"] = with_threads(1, impls["refgrad"], refgrad)
    impls.update({"torch-1": with_threads(1, on_torch),
                  "torch-default": with_threads(DEFAULT_THREADS, on_torch)})
    if floor_fn is not None:
        impls["floor"] = functools.partial(floor_fn, *args)
    return impls


def measure(impls: dict, repeats: int, settle: bool = False) -> dict:
    """Interleave the implementations repeat by repeat, after one warm-up each.

    With ``settle``, each timed run follows an untimed run of the same
    implementation. A workload of large arrays costs more when the memory
    allocator has just handed its pages back to the system, as it may after
    another implementation's run; settling measures each one in the steady
    state a loop of its own reaches.
    """
    runs = {name: [] for name in impls}
    for run in impls.values():
        run()
    for _ in range(repeats):
        for name, run in impls.items():
            gc.collect()
            if settle:
                run()
            runs[name].append(run())
    return runs


def per_op(runs: dict, ops: int) -> dict:
    return {name: [{k: v / ops for k, v in t.items()} for t in timings]
            for name, timings in runs.items()}


def run_w1_w4(cfg, repeats) -> dict:
    """W1 and W4 interleaved in one loop, so that W4/W1 is a per-repeat ratio."""
    args = (cfg["chains"], cfg["length"])
    impls = {("W1", k): v for k, v in implementations(w.w1_op_overhead, floor.w1_floor,
                                                      *args).items()}
    impls.update({("W4", k): v for k, v in implementations(w.w4_hooks, None, *args).items()})
    runs = measure(impls, repeats)
    split = {name: {impl: r for (wl, impl), r in runs.items() if wl == name}
             for name in ("W1", "W4")}
    scale = 1e6 / (cfg["chains"] * cfg["length"])
    out = {name: report.workload_entry(split[name], "µs per op", scale) for name in split}
    out["W4"]["W4/W1"] = {impl: report.per_repeat_ratios(split["W4"][impl], split["W1"][impl])
                          for impl in split["W4"]}
    return out


def fresh_process(library: str, n: int, keep: bool = False) -> dict:
    command = [sys.executable, str(HERE / "deep_chain.py"), library, str(n)]
    done = subprocess.run(command + (["--keep"] if keep else []), capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def run_w3(cfg) -> dict:
    entry = {"runs": []}
    for n, repeats in zip(cfg["ops"], cfg["repeats"]):
        runs = {"refgrad": [], "torch": []}
        for _ in range(repeats):
            for lib in runs:
                runs[lib].append(fresh_process(lib, n))
        one = {lib: {**{p: report.summary(r[p] for r in rs) for p in report.PHASES},
                     "peak_rss_growth": report.summary(r["peak_rss_growth"] for r in rs),
                     "ok": all(r["ok"] for r in rs)} for lib, rs in runs.items()}
        one.update(ops=n, repeats=repeats,
                   **{"refgrad/torch": report.per_repeat_ratios(runs["refgrad"], runs["torch"])})
        entry["runs"].append(one)
        print("W3", n, json.dumps(one["refgrad/torch"]), flush=True)
    return entry


def run_m1(cfg) -> dict:
    values = {"refgrad": [], "torch": []}
    for _ in range(cfg["repeats"]):
        for lib in values:
            values[lib].append(fresh_process(lib, cfg["nodes"], keep=True)["bytes_per_node"])
    return {"nodes": cfg["nodes"], **{lib: report.summary(v) for lib, v in values.items()}}


def three_way(make_torch, make_floor) -> dict:
    """refgrad, torch on one thread, and the floor: the series the plots draw."""
    return {"refgrad": functools.partial(make_torch, refgrad),
            "torch-1": with_threads(1, functools.partial(make_torch, torch)),
            "floor": make_floor}


def run_sweeps(config, repeats) -> dict:
    nodes = {"x": config["nodes"], "ops": config["nodes"], "series": {}}
    for n in config["nodes"]:
        impls = three_way(functools.partial(_chain, 1, n), functools.partial(floor.chain_floor,
                                                                             1, n))
        for impl, summ in report.summarise(measure(impls, repeats)).items():
            nodes["series"].setdefault(impl, []).append(summ)
    sizes = {"x": [s for s, _ in config["sizes"]], "ops": [n for _, n in config["sizes"]],
             "series": {}}
    for size, n in config["sizes"]:
        impls = three_way(functools.partial(_chain, size, n),
                          functools.partial(floor.chain_floor, size, n))
        runs = per_op(measure(impls, repeats), n)
        for impl, summ in report.summarise(runs).items():
            sizes["series"].setdefault(impl, []).append(summ)
        print("size", size, flush=True)
    return {"nodes": nodes, "sizes": sizes}


def _chain(size, length, library):
    return w.chain(library, size, length)


def profile_w1(cfg) -> dict:
    """Where refgrad's time goes in W1: cProfile around forward and backward apart."""
    forward, backward = cProfile.Profile(), cProfile.Profile()
    for _ in range(cfg["chains"]):
        x = refgrad.tensor(w.start_values(3), requires_grad=True)
        seed = refgrad.ones(3)
        forward.enable()
        y = x
        for i in range(cfg["length"]):
            y = w.STEPS[i % 4](y)
        forward.disable()
        backward.enable()
        y.backward(seed)
        backward.disable()
    ops = cfg["chains"] * cfg["length"]
    return {"ops": ops, "forward": report.group_profile(pstats.Stats(forward).stats, ops),
            "backward": report.group_profile(pstats.Stats(backward).stats, ops)}


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=ROOT).stdout.strip()
    return {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "cpu": cpu, "cores": len(os.sched_getaffinity(0)), "platform": platform.platform(),
            "python": platform.python_version(), "numpy": np.__version__,
            "torch": torch.__version__, "torch_threads": DEFAULT_THREADS,
            "refgrad_threads": REFGRAD_THREADS,
            "refgrad_commit": commit or None, "load_average": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="few repeats, small sizes")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", nargs="*", default=None,
                        help="some of W1 W2 W3 W4 W5 W6 M1 sweeps profile")
    args = parser.parse_args()
    # torch and refgrad share this process only so that their runs can be interleaved.
    # Freezing what the imports made keeps a garbage collection that one library's
    # allocations set off from walking the other's modules, as it would not in a
    # process that imports one of them.
    gc.collect()
    gc.freeze()
    config = QUICK if args.quick else FULL
    repeats = args.repeats or config["repeats"]
    out = args.out or (ROOT / ("bench-results" if args.quick else "book/bench"))
    wanted = lambda *names: args.only is None or any(n in args.only for n in names)  # noqa: E731
    results = {"machine": machine(), "quick": args.quick, "repeats": repeats,
               "config": config, "workloads": {}}
    found = results["workloads"]
    if wanted("W1", "W4"):
        found.update(run_w1_w4(config["W1"], repeats))
    weights = w.mlp_weights(config["W2"]["widths"], config["W2"]["batch"])
    array = np.random.default_rng(0).standard_normal(config["W6"]["elements"]).astype(np.float32)
    for name, workload, floor_fn, extra, unit, large in (
        ("W2", w.w2_mlp_step, floor.w2_floor, weights, "ms per step", True),
        ("W5", w.w5_wide, floor.w5_floor, config["W5"]["leaves"], "ms", False),
        ("W6", w.w6_big_elementwise, floor.w6_floor, array, "ms", True),
    ):
        if wanted(name):
            impls = implementations(workload, floor_fn, extra, one_thread=large)
            runs = measure(impls, repeats, settle=large)
            found[name] = report.workload_entry(runs, unit, 1e3)
            print(name, json.dumps(found[name]["ratios"]["refgrad/floor"]["total"]), flush=True)
    if wanted("W3"):
        found["W3"] = run_w3(config["W3"])
    if wanted("M1"):
        found["M1"] = run_m1(config["M1"])
    if wanted("sweeps"):
        results["sweeps"] = run_sweeps(config, repeats)
    if wanted("profile"):
        results["profile"] = profile_w1(config["W1"])
    results["machine"]["load_average_end"] = os.getloadavg()[0]  # others' work shows here
    results["targets"] = report.targets(results)
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(json.dumps(results, indent=1) + "\n")
    (out / "bench.md").write_text(report.markdown(results))
    print(report.markdown(results))


if __name__ == "__main__":
    main()
