"""refgrad.nn.utils.prune, like torch's, is an attribute of nn.utils only once imported."""

import subprocess
import sys


def _run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split()


def test_starting_refgrad_does_not_import_prune():
    found = _run("import sys, refgrad; print('refgrad.nn.utils.prune' in sys.modules, "
                 "hasattr(refgrad.nn.utils, 'prune'))")
    assert found == ["False", "False"]


def test_importing_it_makes_the_attribute():
    found = _run("import refgrad; from refgrad.nn.utils import prune; "
                 "print(refgrad.nn.utils.prune is prune, prune.__name__)")
    assert found == ["True", "refgrad.nn.utils.prune"]
