"""Unit tests: the out-overload table of chapter "out= overloads under a dispatch mode"
reads, and picks torch's overload and argument layout for calls its tests single out."""

import pytest

import refgrad
from refgrad.utils._out_overloads import (
    CHOSEN,
    RESOLVED,
    laid_out,
    out_overload,
    read,
)
from refgrad.utils._out_schemas import SCHEMA_OF


@pytest.mark.parametrize("overload", sorted(SCHEMA_OF))
def test_every_schema_reads(overload):
    positional, keyword, written = read(overload)
    assert written and all(name for name in written)
    assert all(isinstance(name, str) for name, _, _ in (*positional, *keyword))


@pytest.mark.parametrize("given, resolved", sorted(RESOLVED.items()))
def test_an_alias_resolved_writes_as_many_tensors(given, resolved):
    assert len(read(given)[2]) == len(read(resolved)[2])


def test_a_function_of_several_results_names_each_written_tensor():
    assert read(out_overload("max", (refgrad.ones(2), 0), {}))[2] == ("max", "max_values")
    assert read("linalg_svd.U")[2] == ("U", "S", "Vh")
    assert set(CHOSEN) >= {"max", "min", "sort", "linalg_svd"}


def test_a_keyword_given_as_none_picks_its_form():
    x = refgrad.ones(2, 3)
    assert out_overload("div", (x, x), {"rounding_mode": None}) == "div.out_mode"
    assert out_overload("div", (x, x), {}) == "div.out"
    assert out_overload("sort", (x,), {"stable": None}) == "sort.values_stable"
    assert out_overload("any", (x,), {"dim": None}) == "any.dims_out"
    assert out_overload("any", (x,), {}) == "any.all_out"


def test_arguments_are_laid_out_as_torchs_binding_lays_them():
    x = refgrad.ones(2, 3)
    assert laid_out("clamp.out", [x, None, 0.6], {}, {}) == ((x, None, 0.6), {})
    assert laid_out("sum.IntList_out", [x, 1, False], {"dtype": None}, {}) == ((x, [1]), {})
    given, named = laid_out("topk.values", [x, 2, -1, False, True], {}, {})
    assert given == (x, 2, -1, False) and named == {}
    assert laid_out("gather.out", [x, 1, x], {"sparse_grad": False}, {}) == ((x, 1, x), {})
