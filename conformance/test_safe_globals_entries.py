"""add_safe_globals takes an object, or a pair of an object and the full name to know it
by; what it is given is read when a load looks up a global, and fails there."""

import io
import pickle

import pytest
import torch

from conformance._support import raises


class Renamed:
    def __init__(self):
        self.value = 3


def _saved(obj) -> io.BytesIO:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return buffer


def test_a_pair_allows_an_object_by_the_name_it_gives():
    with torch.serialization.safe_globals([(Renamed, f"{__name__}.Renamed")]):
        assert torch.load(_saved(Renamed())).value == 3
    with torch.serialization.safe_globals([(Renamed, "elsewhere.Renamed")]), pytest.raises(
            pickle.UnpicklingError, match=f"GLOBAL {__name__}.Renamed was not an allowed"):
        torch.load(_saved(Renamed()))


def test_what_is_not_a_global_is_taken_and_fails_at_the_load():
    with torch.serialization.safe_globals([1]):
        assert torch.load(_saved([torch.ones(1)]))[0].tolist() == [1.0]  # no lookup needed
        with raises(AttributeError, "'int' object has no attribute '__module__'"):
            torch.load(_saved(Renamed()))


def test_pairs_of_the_wrong_form_fail_at_the_load():
    with torch.serialization.safe_globals([(Renamed, "a.b", 3)]), raises(
            ValueError, "Expected tuple of length 2 (global, str of callable full path), but "
            "got tuple of length: 3"):
        torch.load(_saved(Renamed()))
    with torch.serialization.safe_globals([(Renamed, 5)]), raises(
            TypeError, "Expected second item in tuple to be str of callable full path, but "
            "got: <class 'int'>"):
        torch.load(_saved(Renamed()))
