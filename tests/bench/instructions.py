"""Machine instructions per unit of work, counted under valgrind's callgrind.

    python3 tests/bench/instructions.py [--workload W1|W3|W5] [--no-gc] [LIBRARY ...]

Timings on a shared machine move with its load; an instruction count does not.
For each library (refgrad and torch by default) the child process imports
everything and warms the path up first, then runs the counted part inside
``eval()``; callgrind counts only while ``builtin_eval`` runs
(``--toggle-collect``), so imports, start-up and the warm-up stay out of the
count, and two runs of the same code give the same number to within a few
hundred instructions in a hundred million. The cyclic garbage collector is run
just before the count, so that its passes fall at the same places in the
counted work however many objects the imports left behind: otherwise one more
or one fewer full pass inside the count moves it by about 1% for W1. A heap
that grew by some hundreds of objects can still move a pass, so ``--no-gc``
turns the collector off for the counted part: what is left is the path's own
code, and a change that moves the default count but not this one moved a
collector pass. Needs valgrind on the PATH; torch under callgrind takes a few
minutes.

- W1: the chain of workloads.STEPS on 3-element tensors, forward and backward,
  per op, with the graph freed as in W1.
- W3: deep_chain.build on a 1-element tensor, forward and backward, per op.
- W5: workloads.w5_wide, per leaf.

Any module on the path that speaks the workloads' API can be counted too, such as
``minigrad``, the least autograd (``instructions.py --workload W5 minigrad``).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

PRELUDE = """
import gc, importlib, sys
sys.path.insert(0, {here!r})
torch = importlib.import_module({library!r})
if {library!r} == "torch":
    torch.set_num_threads(1)
"""

# Each workload: (setup code that defines run(n), units counted, what a unit is).
WORKLOADS = {
    "W1": ("""
from workloads import STEPS, start_values
x = torch.tensor(start_values(3), requires_grad=True)
seed = torch.ones(3)
def run(n):
    y = x
    for i in range(n):
        y = STEPS[i % 4](y)
    y.backward(seed)
""", 4000, "op"),
    "W3": ("""
import deep_chain
def run(n):
    x = torch.tensor([0.5], requires_grad=True)
    deep_chain.build(x, n).backward()
""", 20000, "op"),
    "W5": ("""
from workloads import w5_wide
def run(n):
    w5_wide(torch, n)
""", 2000, "leaf"),
}


def instructions(library: str, workload: str, collector: bool = True) -> float:
    """Instructions callgrind counts per unit of ``workload`` for ``library``, with the
    cyclic garbage collector on or off for the counted part."""
    setup, units, _ = WORKLOADS[workload]
    off = "" if collector else "gc.disable()\n"
    code = (PRELUDE.format(here=str(HERE), library=library) + setup
            + f"run(8)\ngc.collect()\n{off}eval(compile('run({units})', 'counted', 'exec'))\n")
    env = dict(os.environ, PYTHONHASHSEED="0")
    if library == "refgrad":
        env["PYTHONPATH"] = str(HERE.parents[1] / "src")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--toggle-collect=builtin_eval",
         "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        env=env, capture_output=True, text=True, check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError("callgrind printed no instruction count:\n" + done.stderr[-2000:])
    return int(found.group(1)) / units


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on the PATH")
    args = sys.argv[1:]
    workload = "W1"
    if args[:1] == ["--workload"]:
        workload, args = args[1], args[2:]
    collector = "--no-gc" not in args
    args = [a for a in args if a != "--no-gc"]
    unit = WORKLOADS[workload][2]
    for library in args or ["refgrad", "torch"]:
        count = instructions(library, workload, collector)
        print(f"{library}: {count:,.0f} instructions per {unit} of {workload}, "
              "forward and backward" + ("" if collector else ", collector off"))


if __name__ == "__main__":
    main()
