"""Pictures for the book: Graphviz DOT rendered to inline SVG at build time.

The chapters import this file from their own folder. It is book machinery, not
part of the package.
"""

import os
import shutil
import subprocess
import sys

DOT_PROGRAM = "graphviz-pure"


def _dot_executable() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), DOT_PROGRAM)
    found = beside if os.path.exists(beside) else shutil.which(DOT_PROGRAM)
    if found is None:
        raise RuntimeError(f"{DOT_PROGRAM} is missing: install the book extra")
    return found


def render_svg(source: str) -> str:
    """The SVG markup for a DOT graph, without the XML prologue."""
    done = subprocess.run(
        [_dot_executable(), "-Tsvg"], input=source, capture_output=True, text=True, check=True
    )
    svg = done.stdout
    return svg[svg.index("<svg") :]


class Picture:
    """A DOT graph that notebooks and the book show as inline SVG."""

    def __init__(self, source: str) -> None:
        self.source = source

    def _repr_html_(self) -> str:
        return f'<div class="refgrad-figure">{render_svg(self.source)}</div>'


def dot(source: str) -> Picture:
    return Picture(source)


def graph_of(tensors: dict) -> Picture:
    """Draw the graph behind named tensors, walking ``next_functions`` with a stack."""
    lines = ['digraph { rankdir=TB; node [shape=box, fontname="Helvetica", fontsize=11];']
    ids, stack = {}, []
    for label, t in tensors.items():
        lines.append(f'"{label}" [shape=plaintext];')
        if t.grad_fn is not None:
            stack.append(t.grad_fn)
            lines.append(f'"{label}" -> "n{id(t.grad_fn)}" [style=dashed];')
    while stack:
        node = stack.pop()
        if node in ids:
            continue
        ids[node] = f"n{id(node)}"
        lines.append(f'"{ids[node]}" [label="{node.name().replace("torch::autograd::", "")}"];')
        for child, _ in node.next_functions:
            if child is not None:
                lines.append(f'"{ids[node]}" -> "n{id(child)}";')
                stack.append(child)
    return dot("\n".join(lines) + "}")
