"""Small line plots on log-log axes, written as SVG by hand.

The costs chapter draws its measurements with this file. It is book machinery,
not part of the package, and needs nothing beyond the standard library.
"""

import math
from xml.sax.saxutils import escape

COLOURS = ("#1f5fa8", "#c8372d", "#2e8b3a", "#7b4fa0", "#d9822b")
WIDTH, HEIGHT = 640, 380
LEFT, RIGHT, TOP, BOTTOM = 70, 150, 34, 52  # margins around the plotting area


def decades(values) -> tuple:
    """The powers of ten just below the smallest value and just above the largest."""
    logs = [math.log10(v) for v in values]
    low, high = math.floor(min(logs)), math.ceil(max(logs))
    return low, max(high, low + 1)


class LogAxis:
    """Maps a positive value to a pixel position, evenly per decade."""

    def __init__(self, values, start: float, end: float, inset: float = 0.0) -> None:
        self.low, self.high = decades(values)
        self.start, self.end = start, end
        # Points on the first or last decade stay a little clear of the frame.
        step = math.copysign(inset, end - start)
        self._first, self._last = start + step, end - step

    def __call__(self, value: float) -> float:
        share = (math.log10(value) - self.low) / (self.high - self.low)
        return self._first + share * (self._last - self._first)

    def ticks(self) -> list:
        return [10.0**k for k in range(self.low, self.high + 1)]

    def minor_ticks(self) -> list:
        return [m * 10.0**k for k in range(self.low, self.high) for m in range(2, 10)]


def power_label(value: float) -> str:
    """10 with its exponent raised, as SVG text content."""
    return f'10<tspan dy="-7" font-size="9">{round(math.log10(value))}</tspan>'


def slope(xs, ys) -> float:
    """The least-squares slope of log y against log x: 1 means y grows like x."""
    lx, ly = [math.log10(x) for x in xs], [math.log10(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def _frame(xaxis: LogAxis, yaxis: LogAxis) -> list:
    """Grid lines, tick labels and the box around the plotting area."""
    parts, x0, x1 = [], xaxis.start, xaxis.end
    y0, y1 = yaxis.start, yaxis.end  # y0 is the bottom edge
    for v in xaxis.minor_ticks():
        parts.append(f'<line x1="{xaxis(v):.1f}" y1="{y1}" x2="{xaxis(v):.1f}" y2="{y0}" '
                     'stroke="#eee"/>')
    for v in yaxis.minor_ticks():
        parts.append(f'<line x1="{x0}" y1="{yaxis(v):.1f}" x2="{x1}" y2="{yaxis(v):.1f}" '
                     'stroke="#eee"/>')
    for v in xaxis.ticks():
        x = xaxis(v)
        parts.append(f'<line x1="{x:.1f}" y1="{y1}" x2="{x:.1f}" y2="{y0}" stroke="#ccc"/>')
        parts.append(f'<text x="{x:.1f}" y="{y0 + 18}" text-anchor="middle">'
                     f'{power_label(v)}</text>')
    for v in yaxis.ticks():
        y = yaxis(v)
        parts.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#ccc"/>')
        parts.append(f'<text x="{x0 - 8}" y="{y + 4:.1f}" text-anchor="end">'
                     f'{power_label(v)}</text>')
    parts.append(f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" '
                 'fill="none" stroke="#555"/>')
    return parts


def _series(name, points, colour, xaxis, yaxis) -> list:
    """One line with its markers, and a whisker from min to max at each point."""
    coords = [(xaxis(x), yaxis(y)) for x, y, _, _ in points]
    parts = [f'<g class="series"><title>{escape(name)}</title>',
             '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                 colour, " ".join(f"{x:.1f},{y:.1f}" for x, y in coords))]
    for (x, y), (_, _, low, high) in zip(coords, points):
        if low is not None and high is not None:
            parts.append(f'<line x1="{x:.1f}" y1="{yaxis(low):.1f}" x2="{x:.1f}" '
                         f'y2="{yaxis(high):.1f}" stroke="{colour}"/>')
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>')
    parts.append("</g>")
    return parts


def _legend(names, x: float, y: float) -> list:
    parts = []
    for i, (name, colour) in enumerate(zip(names, COLOURS)):
        row = y + 20 * i
        parts.append(f'<line x1="{x}" y1="{row}" x2="{x + 22}" y2="{row}" stroke="{colour}" '
                     'stroke-width="2"/>')
        parts.append(f'<circle cx="{x + 11}" cy="{row}" r="3.5" fill="{colour}"/>')
        parts.append(f'<text x="{x + 30}" y="{row + 4}">{escape(name)}</text>')
    return parts


def line_plot(series: dict, *, xlabel: str, ylabel: str, title: str = "") -> str:
    """SVG markup for ``{name: [(x, y, low, high), ...]}`` on log-log axes.

    ``low`` and ``high`` (the spread of the repeats) may be None.
    """
    if len(series) > len(COLOURS):
        raise ValueError(f"at most {len(COLOURS)} series")
    points = [p for pts in series.values() for p in pts]
    ys = [v for _, y, low, high in points for v in (y, low, high) if v is not None]
    xaxis = LogAxis([x for x, *_ in points], LEFT, WIDTH - RIGHT, inset=12)
    yaxis = LogAxis(ys, HEIGHT - BOTTOM, TOP, inset=8)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>']
    parts += _frame(xaxis, yaxis)
    for (name, pts), colour in zip(series.items(), COLOURS):
        parts += _series(name, pts, colour, xaxis, yaxis)
    parts += _legend(series, WIDTH - RIGHT + 16, TOP + 10)
    middle_x, middle_y = (LEFT + WIDTH - RIGHT) / 2, (TOP + HEIGHT - BOTTOM) / 2
    parts.append(f'<text x="{middle_x}" y="{HEIGHT - 10}" text-anchor="middle">'
                 f'{escape(xlabel)}</text>')
    parts.append(f'<text x="16" y="{middle_y}" text-anchor="middle" '
                 f'transform="rotate(-90 16 {middle_y})">{escape(ylabel)}</text>')
    if title:
        parts.append(f'<text x="{middle_x}" y="20" text-anchor="middle" font-weight="bold">'
                     f'{escape(title)}</text>')
    return "\n".join(parts + ["</svg>"])
