"""Machine instructions per op of W1's chain, counted under valgrind's callgrind.

    python3 tests/bench/instructions.py [LIBRARY ...]

Timings on a shared machine move with its load; an instruction count does not.
For each library (refgrad and torch by default) this runs the chain of
workloads.STEPS twice under callgrind, with a short and a long chain, and
divides the difference in instructions by the difference in ops, so that
imports and start-up cancel out. Forward and backward are counted together,
with the graph freed after each backward, as in W1. Needs valgrind on the PATH;
torch under callgrind takes a few minutes.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHORT, LONG = 1000, 5000

CHILD = """
import importlib, sys
import numpy as np
sys.path.insert(0, {here!r})
from workloads import STEPS, start_values

torch = importlib.import_module({library!r})
x = torch.tensor(start_values(3), requires_grad=True)
seed = torch.ones(3)
for length in (8, {ops}):  # a warm-up, then the counted chain
    y = x
    for i in range(length):
        y = STEPS[i % 4](y)
    y.backward(seed)
"""


def instructions(library: str, ops: int) -> int:
    """Instructions callgrind counts for one child process running ``ops`` ops."""
    code = CHILD.format(here=str(HERE), library=library, ops=ops)
    env = dict(os.environ, PYTHONHASHSEED="0")
    if library == "refgrad":
        env["PYTHONPATH"] = str(HERE.parents[1] / "src")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", code],
        env=env, capture_output=True, text=True, check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError("callgrind printed no instruction count:\n" + done.stderr[-2000:])
    return int(found.group(1))


def per_op(library: str) -> float:
    return (instructions(library, LONG) - instructions(library, SHORT)) / (LONG - SHORT)


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on the PATH")
    for library in sys.argv[1:] or ["refgrad", "torch"]:
        print(f"{library}: {per_op(library):,.0f} instructions per op, forward and backward")


if __name__ == "__main__":
    main()
