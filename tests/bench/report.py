"""Pure helpers for the benchmark report: summaries, ratios, targets, profiles.

Nothing here times anything or imports torch, so ordinary tests can check it.
"""

import os
import re
import statistics


def summary(values) -> dict:
    values = list(values)
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(runs: dict, phase: str = "total") -> dict:
    """``{implementation: summary}`` of one phase over every repeat."""
    return {name: summary(t[phase] for t in timings) for name, timings in runs.items()}


def per_repeat_ratios(numerators: list, denominators: list, phase: str = "total") -> dict:
    """Repeat i over repeat i, then summarised: robust to drift in the machine's load."""
    if len(numerators) != len(denominators):
        raise ValueError("ratios need the same number of repeats on both sides")
    return summary(n[phase] / d[phase] for n, d in zip(numerators, denominators))


PHASES = ("forward", "backward", "total")


def workload_entry(runs: dict, unit: str, scale: float, baselines=("torch-1", "floor")) -> dict:
    """Summaries of every phase, and refgrad's per-repeat ratios to each baseline."""
    entry = {"unit": unit, "scale": scale,
             "phases": {phase: summarise(runs, phase) for phase in PHASES}, "ratios": {}}
    for ours in ("refgrad", "refgrad-1"):
        for baseline in baselines:
            if ours in runs and baseline in runs:
                entry["ratios"][f"{ours}/{baseline}"] = {
                    phase: per_repeat_ratios(runs[ours], runs[baseline], phase)
                    for phase in PHASES}
    return entry


def _ratio(results, name, key):
    entry = results["workloads"].get(name)
    if entry is None or key not in entry["ratios"]:
        return None
    return entry["ratios"][key]["total"]["median"]


def _w3(results):
    entry = results["workloads"].get("W3")
    if entry is None:
        return None
    first, last = entry["runs"][0], entry["runs"][-1]
    working = last["refgrad"]["ok"]
    note = f"{last['ops']:,} ops: {'working' if working else 'FAILED'}"
    return first["refgrad/torch"]["median"], 1.0, working, note


def _w4(results):
    entry = results["workloads"].get("W4")
    if entry is None:
        return None
    ratios = entry["W4/W1"]
    return ratios["refgrad"]["median"], ratios["torch-1"]["median"], True, "limit: torch's W4/W1"


def _m1(results):
    entry = results["workloads"].get("M1")
    if entry is None:
        return None
    return entry["refgrad"]["median"], entry["torch"]["median"], True, "limit: torch's bytes/node"


def _fixed(name, key, limit):
    def measured(results):
        value = _ratio(results, name, key)
        if value is None:
            return None
        one = _ratio(results, name, key.replace("refgrad/", "refgrad-1/"))
        return value, limit, True, "" if one is None else f"refgrad on 1 thread: {one:.2f}×"
    return measured


# (id, what is compared, unit of the measured value, how to find measured and limit)
TARGETS = (
    ("W1", "W1 total time, refgrad / torch (1 thread)", "x", _fixed("W1", "refgrad/torch-1", 1.5)),
    ("W2", "W2 MLP step, refgrad / NumPy floor", "x", _fixed("W2", "refgrad/floor", 1.1)),
    ("W3", "W3 deep chain, refgrad / torch (1 thread), and 1e6 ops working", "x", _w3),
    ("W4", "W4/W1 (hooks on) for refgrad, against torch's W4/W1", "x", _w4),
    ("W5", "W5 wide sum, refgrad / torch (1 thread)", "x", _fixed("W5", "refgrad/torch-1", 1.0)),
    ("W6", "W6 big elementwise, refgrad / NumPy floor", "x", _fixed("W6", "refgrad/floor", 1.15)),
    ("M1", "M1 bytes per recorded node, refgrad against torch", "bytes", _m1),
)


def targets(results: dict) -> list:
    """Each target with its limit, the measured value and whether it was met."""
    rows = []
    for ident, what, unit, find in TARGETS:
        found = find(results)
        if found is None:
            continue
        measured, limit, working, note = found
        rows.append({"id": ident, "target": what, "unit": unit, "measured": measured,
                     "limit": limit, "met": bool(working and measured <= limit), "note": note})
    return rows


def function_label(file: str, line: int, name: str) -> str:
    """A short, stable name for one profiled function."""
    if file == "~":  # a built-in: cProfile writes its name in angle brackets
        return re.sub(r" at 0x[0-9a-f]+", "", name)  # no addresses: they change every run
    parts = file.replace(os.sep, "/").split("/")
    if "refgrad" in parts:  # refgrad's own modules, from the package down
        parts = parts[len(parts) - parts[::-1].index("refgrad"):]
    elif "site-packages" in parts:  # another library's: from its name down
        parts = parts[parts.index("site-packages") + 1:]
    else:
        parts = parts[-1:]
    return f"{'/'.join(parts)}:{name}"


def group_profile(stats: dict, ops: int, top: int = 12) -> list:
    """Own time per function (pstats' ``tottime``) as microseconds per op, top ``top`` + other.

    ``stats`` is ``pstats.Stats(...).stats``: ``{(file, line, name): (cc, nc, tt, ct, ...)}``.
    """
    grouped: dict = {}
    for (file, line, name), (_, calls, tottime, *_rest) in stats.items():
        if "_lsprof.Profiler" in name:  # the profiler switching itself off
            continue
        label = function_label(file, line, name)
        time_calls = grouped.setdefault(label, [0.0, 0])
        time_calls[0] += tottime
        time_calls[1] += calls
    total = sum(t for t, _ in grouped.values()) or 1.0
    ranked = sorted(grouped.items(), key=lambda item: -item[1][0])
    rows = [{"function": label, "us_per_op": t / ops * 1e6, "calls_per_op": c / ops,
             "share": t / total} for label, (t, c) in ranked[:top]]
    rest = ranked[top:]
    if rest:
        t = sum(t for _, (t, _) in rest)
        rows.append({"function": "other", "us_per_op": t / ops * 1e6,
                     "calls_per_op": sum(c for _, (_, c) in rest) / ops, "share": t / total})
    return rows


def number(value: float) -> str:
    """Three significant figures, without exponents for ordinary sizes."""
    if value == 0 or abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    if abs(value) >= 0.01:
        return f"{value:.2f}"
    return f"{value:.3g}"


def cell(summ: dict, scale: float = 1.0) -> str:
    """``median (min–max)``, scaled into the display unit."""
    low, mid, high = (summ[k] * scale for k in ("min", "median", "max"))
    return f"{number(mid)} ({number(low)}–{number(high)})"


def _table(header, rows) -> list:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows)]


def targets_table(rows: list) -> list:
    def shown(value, unit):
        return f"{value:.0f} B" if unit == "bytes" else f"{value:.2f}×"

    return _table(
        ["target", "limit", "measured", "verdict", "note"],
        [[r["target"], shown(r["limit"], r["unit"]), shown(r["measured"], r["unit"]),
          "met" if r["met"] else "not met", r["note"]] for r in rows])


def workloads_table(workloads: dict) -> list:
    rows = []
    impls = ("refgrad", "refgrad-1", "torch-1", "torch-default", "floor")
    keys = ("refgrad/torch-1", "refgrad/floor", "refgrad-1/floor")
    for name, entry in workloads.items():
        if "phases" not in entry:
            continue
        total, scale = entry["phases"]["total"], entry["scale"]
        times = [cell(total[i], scale) if i in total else "–" for i in impls]
        ratios = [cell(entry["ratios"][k]["total"]) if k in entry["ratios"] else "–"
                  for k in keys]
        rows.append([name, entry["unit"], *times, *ratios])
    return _table(["workload", "unit", *impls, *keys], rows)


def phases_table(entry: dict) -> list:
    impls = list(entry["phases"]["total"])
    rows = [[phase, *(cell(entry["phases"][phase][i], entry["scale"]) for i in impls)]
            for phase in PHASES]
    return _table(["phase", *impls], rows)


def w3_table(entry: dict) -> list:
    rows = []
    for run in entry["runs"]:
        for lib in ("refgrad", "torch"):
            r = run[lib]
            rows.append([f"{run['ops']:,}", lib, cell(r["total"]),
                         cell(r["peak_rss_growth"], 2**-20), "yes" if r["ok"] else "no"])
        rows.append([f"{run['ops']:,}", "refgrad/torch", cell(run["refgrad/torch"]), "", ""])
    return _table(["ops", "library", "seconds", "peak RSS growth (MiB)", "gradient right"], rows)


def sweep_table(sweep: dict, label: str, scale: float) -> list:
    impls = list(sweep["series"])
    rows = [[f"{x:,}", f"{ops:,}", *(cell(sweep["series"][i][k], scale) for i in impls)]
            for k, (x, ops) in enumerate(zip(sweep["x"], sweep["ops"]))]
    return _table([label, "ops", *impls], rows)


def profile_table(rows: list) -> list:
    return _table(["function", "µs per op", "calls per op", "share"],
                  [[f"`{r['function']}`", number(r["us_per_op"]), number(r["calls_per_op"]),
                    f"{r['share']:.0%}"] for r in rows])


def markdown(results: dict) -> str:
    m, w = results["machine"], results["workloads"]
    lines = ["# refgrad benchmarks", "",
             f"{m['date']}; {m['cpu']} ({m['cores']} cores); Python {m['python']}, "
             f"NumPy {m['numpy']}, torch {m['torch']} (default threads: {m['torch_threads']}), "
             f"refgrad threads: {m.get('refgrad_threads', 1)}; "
             f"{results['repeats']} repeats{' (quick run)' if results['quick'] else ''}.", "",
             "Times: median (min–max) over the repeats; ratios: median (min–max) of "
             "per-repeat ratios.", "", "## Targets", "", *targets_table(results["targets"]),
             "", "## Workloads", "", *workloads_table(w)]
    for name in ("W1", "W4"):
        if "phases" in w.get(name, {}):
            lines += ["", f"## {name} by phase ({w[name]['unit']})", "", *phases_table(w[name])]
    if "W4" in w:
        lines += ["", "W4/W1: " + ", ".join(
            f"{impl} {cell(r)}" for impl, r in w["W4"]["W4/W1"].items())]
    if "W3" in w:
        lines += ["", "## W3 deep chain (fresh process each)", "", *w3_table(w["W3"])]
    if "M1" in w:
        lines += ["", f"## M1 bytes per recorded node ({w['M1']['nodes']:,} nodes kept alive)",
                  "", *(f"- {lib}: {cell(w['M1'][lib])}" for lib in ("refgrad", "torch"))]
    sweeps = results.get("sweeps", {})
    if "nodes" in sweeps:
        lines += ["", "## Time against number of nodes (ms, forward + backward)", "",
                  *sweep_table(sweeps["nodes"], "nodes", 1e3)]
    if "sizes" in sweeps:
        lines += ["", "## Cost per op against tensor size (µs per op, forward + backward)", "",
                  *sweep_table(sweeps["sizes"], "elements", 1e6)]
    if "profile" in results:
        for phase in ("forward", "backward"):
            lines += ["", f"## Profile of W1 on refgrad, {phase} (under cProfile)", "",
                      *profile_table(results["profile"][phase])]
    return "\n".join(lines) + "\n"
