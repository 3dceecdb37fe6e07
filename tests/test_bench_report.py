"""The benchmark report's pure helpers: summaries, ratios, targets, profiles, tables.

None of these tests time anything: they feed the helpers made-up timings.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "bench"))
import report  # noqa: E402


def timings(*totals):
    return [{"forward": t / 4, "backward": 3 * t / 4, "total": t} for t in totals]


def test_summary_is_median_min_max():
    assert report.summary([3.0, 1.0, 2.0, 10.0, 5.0]) == {"median": 3.0, "min": 1.0, "max": 10.0}


def test_ratios_pair_repeat_with_repeat_not_medians():
    # Repeat by repeat the ratio is 2 every time, although the medians differ by 5/3.
    slow, fast = timings(2.0, 10.0, 4.0), timings(1.0, 5.0, 2.0)
    assert report.per_repeat_ratios(slow, fast) == {"median": 2.0, "min": 2.0, "max": 2.0}
    shuffled = timings(2.0, 1.0, 5.0)
    assert report.per_repeat_ratios(slow, shuffled)["median"] != 2.0


def test_ratios_refuse_unequal_repeats():
    with pytest.raises(ValueError):
        report.per_repeat_ratios(timings(1.0, 2.0), timings(1.0))


def test_workload_entry_has_every_phase_and_present_baselines_only():
    runs = {"refgrad": timings(4.0, 6.0), "torch-1": timings(2.0, 2.0)}
    entry = report.workload_entry(runs, "ms", 1e3)
    assert set(entry["phases"]) == {"forward", "backward", "total"}
    assert entry["phases"]["backward"]["refgrad"]["max"] == 4.5
    assert list(entry["ratios"]) == ["refgrad/torch-1"]  # no floor in these runs
    assert entry["ratios"]["refgrad/torch-1"]["total"] == {"median": 2.5, "min": 2.0, "max": 3.0}


def ratio_entry(key, median):
    return {"ratios": {key: {"total": {"median": median, "min": median, "max": median}}}}


def fake_results(w1=1.4, w3_ok=True):
    single = lambda v: {"median": v, "min": v, "max": v}  # noqa: E731
    return {"workloads": {
        "W1": ratio_entry("refgrad/torch-1", w1),
        "W2": ratio_entry("refgrad/floor", 1.2),
        "W3": {"runs": [{"ops": 10, "refgrad/torch": single(0.9), "refgrad": {"ok": True}},
                        {"ops": 100, "refgrad/torch": single(0.5), "refgrad": {"ok": w3_ok}}]},
        "W4": {"W4/W1": {"refgrad": single(1.3), "torch-1": single(1.6)}},
        "M1": {"nodes": 100, "refgrad": single(900.0), "torch": single(870.0)},
    }}


def test_targets_state_limit_measured_and_verdict():
    rows = {r["id"]: r for r in report.targets(fake_results())}
    assert set(rows) == {"W1", "W2", "W3", "W4", "M1"}  # W5 and W6 were not run
    assert (rows["W1"]["limit"], rows["W1"]["measured"], rows["W1"]["met"]) == (1.5, 1.4, True)
    assert (rows["W2"]["limit"], rows["W2"]["met"]) == (1.1, False)
    assert rows["W3"]["measured"] == 0.9 and rows["W3"]["met"]  # the ratio at the first size
    assert (rows["W4"]["limit"], rows["W4"]["met"]) == (1.6, True)  # torch's own W4/W1
    assert (rows["M1"]["limit"], rows["M1"]["unit"], rows["M1"]["met"]) == (870.0, "bytes", False)


def test_w3_fails_when_the_long_chain_does_not_work():
    rows = {r["id"]: r for r in report.targets(fake_results(w3_ok=False))}
    assert not rows["W3"]["met"] and "FAILED" in rows["W3"]["note"]


def test_function_labels():
    assert report.function_label("/x/src/refgrad/_ops/dispatch.py", 10, "call") == (
        "_ops/dispatch.py:call")
    assert report.function_label("/v/site-packages/numpy/_core/_methods.py", 3, "_sum") == (
        "numpy/_core/_methods.py:_sum")
    assert report.function_label("/w/tests/bench/workloads.py", 3, "<lambda>") == (
        "workloads.py:<lambda>")
    assert report.function_label("~", 0, "<built-in method math.exp>") == (
        "<built-in method math.exp>")
    assert report.function_label("~", 0, "<built-in method __new__ of type object at 0x7f3a>") == (
        "<built-in method __new__ of type object>")


def test_group_profile_top_functions_then_other():
    stats = {
        ("/a/refgrad/f.py", 1, "big"): (4, 4, 0.004, 0.01),
        ("/a/refgrad/f.py", 9, "big"): (4, 4, 0.002, 0.01),  # the same label: merged
        ("/a/refgrad/g.py", 1, "mid"): (2, 2, 0.003, 0.01),
        ("~", 0, "<built-in small>"): (8, 8, 0.001, 0.001),
        ("~", 0, "<method 'disable' of '_lsprof.Profiler' objects>"): (1, 1, 5.0, 5.0),
    }
    rows = report.group_profile(stats, ops=1000, top=2)
    assert [r["function"] for r in rows] == ["f.py:big", "g.py:mid", "other"]
    assert rows[0]["us_per_op"] == pytest.approx(6.0) and rows[0]["calls_per_op"] == 0.008
    assert rows[2]["us_per_op"] == pytest.approx(1.0)
    assert sum(r["share"] for r in rows) == pytest.approx(1.0)


def test_number_and_cell_formats():
    assert [report.number(v) for v in (1234.5, 12.34, 1.234, 0.001234)] == [
        "1,234", "12.3", "1.23", "0.00123"]
    assert report.cell({"median": 0.002, "min": 0.001, "max": 0.003}, 1e3) == "2.00 (1.00–3.00)"


def test_markdown_shows_the_machine_and_the_verdicts():
    results = fake_results(w1=2.0)
    results.update(repeats=7, quick=False, targets=report.targets(results), machine={
        "date": "2026-01-01 00:00 UTC", "cpu": "Test CPU", "cores": 2, "python": "3.11",
        "numpy": "2.0", "torch": "2.13.0", "torch_threads": 2})
    del results["workloads"]["W3"]  # tables for what was run, and nothing else
    text = report.markdown(results)
    assert "Test CPU (2 cores)" in text and "7 repeats" in text
    assert "| W1 total time, refgrad / torch (1 thread) | 1.50× | 2.00× | not met |" in text
    assert "| 870 B | 900 B | not met |" in text
    assert "## W3" not in text
