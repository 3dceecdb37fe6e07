"""The book's hand-made SVG line plots."""

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "chapters"))
import _plots  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def plot(**series):
    return ET.fromstring(_plots.line_plot(series, xlabel="nodes", ylabel="seconds"))


def test_decades_enclose_the_values():
    assert _plots.decades([0.03, 2000.0]) == (-2, 4)
    assert _plots.decades([10.0]) == (1, 2)  # never an empty range


def test_log_axis_spaces_decades_evenly():
    axis = _plots.LogAxis([1.0, 1000.0], 0.0, 300.0)
    assert [axis(v) for v in (1.0, 10.0, 100.0, 1000.0)] == pytest.approx([0, 100, 200, 300])
    assert axis.ticks() == [1.0, 10.0, 100.0, 1000.0]
    assert len(axis.minor_ticks()) == 3 * 8


def test_slope_of_a_power_law():
    xs = [1e3, 1e4, 1e5]
    assert _plots.slope(xs, [2 * x for x in xs]) == pytest.approx(1.0)
    assert _plots.slope(xs, [x**2 for x in xs]) == pytest.approx(2.0)


def test_plot_is_svg_with_one_line_and_legend_entry_per_series():
    root = plot(refgrad=[(1e3, 0.1, 0.09, 0.2), (1e5, 10.0, 9.0, 11.0)],
                torch=[(1e3, 0.01, None, None), (1e5, 1.0, None, None)])
    assert root.tag == SVG + "svg"
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 2
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    assert "refgrad" in texts and "torch" in texts and "nodes" in texts
    # Larger values lie right (x) and higher (smaller y) on the canvas.
    (x1, y1), (x2, y2) = (map(float, p.split(",")) for p in lines[0].get("points").split())
    assert x2 > x1 and y2 < y1
    whiskers = [g for g in root.iter(SVG + "g") if g.find(SVG + "line") is not None]
    assert len(whiskers) == 1  # only the series with a spread gets them


def test_plot_ticks_are_powers_of_ten():
    root = plot(a=[(1.0, 1.0, None, None), (100.0, 1000.0, None, None)])
    labels = {"".join(t.itertext()) for t in root.iter(SVG + "text")}
    assert {"100", "101", "102", "103"} <= labels  # 10 with a raised exponent


def test_names_are_escaped():
    root = plot(**{"a & b": [(1.0, 1.0, None, None), (10.0, 10.0, None, None)]})
    assert "a & b" in ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def test_too_many_series_are_refused():
    many = {str(i): [(1.0, 1.0, None, None)] for i in range(len(_plots.COLOURS) + 1)}
    with pytest.raises(ValueError):
        _plots.line_plot(many, xlabel="x", ylabel="y")


def test_inset_keeps_end_points_off_the_frame():
    axis = _plots.LogAxis([1.0, 100.0], 0.0, 200.0, inset=10)
    assert (axis.start, axis(1.0), axis(10.0), axis(100.0)) == pytest.approx((0, 10, 100, 190))
    down = _plots.LogAxis([1.0, 100.0], 200.0, 0.0, inset=10)  # a y axis grows upwards
    assert (down(1.0), down(100.0)) == pytest.approx((190, 10))
