"""The book's picture helper: DOT in, inline SVG out."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "chapters"))
import _figures  # noqa: E402


def test_dot_renders_inline_svg_with_the_labels():
    html = _figures.dot('digraph { a -> b; b [label="MulBackward0"] }')._repr_html_()
    assert html.startswith('<div class="refgrad-figure"><svg')
    assert "MulBackward0" in html and "<?xml" not in html
