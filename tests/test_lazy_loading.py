"""Modules that, as in torch, are loaded on first use rather than when refgrad starts:
nn.functional when first named, nn.utils.prune only when imported."""

import subprocess
import sys

import pytest

import refgrad


def _run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split()


def test_starting_refgrad_does_not_load_functional():
    found = _run("import sys, refgrad; print('refgrad.nn.functional' in sys.modules, "
                 "'refgrad._ops.losses' in sys.modules)")
    assert found == ["False", "False"]


def test_reading_the_name_loads_it():
    found = _run("import refgrad; print(refgrad.nn.functional.relu(refgrad.tensor([-1.0, 2.0]))"
                 ".tolist()[1], refgrad.nn.functional.__name__)")
    assert found == ["2.0", "refgrad.nn.functional"]


def test_other_names_are_still_missing():
    with pytest.raises(AttributeError, match="^module 'refgrad.nn' has no attribute 'nope'$"):
        refgrad.nn.nope  # noqa: B018


def test_starting_refgrad_does_not_import_prune():
    found = _run("import sys, refgrad; print('refgrad.nn.utils.prune' in sys.modules, "
                 "hasattr(refgrad.nn.utils, 'prune'))")
    assert found == ["False", "False"]


def test_importing_prune_makes_the_attribute():
    found = _run("import refgrad; from refgrad.nn.utils import prune; "
                 "print(refgrad.nn.utils.prune is prune, prune.__name__)")
    assert found == ["True", "refgrad.nn.utils.prune"]
