"""number_refused: the sequence number of a node torch makes before its kernel refuses."""

import pytest

import refgrad
from refgrad._ops.dispatch import before_refusal, call
from refgrad._ops.table import OPS
from refgrad._refused_numbers import _reached_the_row, _requires_grad, number_refused
from refgrad.autograd._introspection import peek_sequence_nr


def taken(name, args, error) -> int:
    before = peek_sequence_nr()
    number_refused(name, args, {}, error)
    return peek_sequence_nr() - before


def test_a_failure_is_numbered_once_however_many_wrappers_hand_it_on():
    x = refgrad.ones(2, requires_grad=True)
    error = IndexError("out of range")
    assert taken("sum", (x,), error) == 1
    assert taken("sum", (x,), error) == 0  # an outer wrapper's turn: already handed


@pytest.mark.parametrize("error", [TypeError("parser"), ValueError("Python's"),
                                   NotImplementedError("cast")])
def test_failures_before_autograd_are_never_numbered(error):
    assert taken("sum", (refgrad.ones(2, requires_grad=True),), error) == 0


def test_names_without_a_differentiable_row_take_nothing():
    x = refgrad.ones(2, requires_grad=True)
    assert "narrow" not in OPS
    assert taken("narrow", (x,), RuntimeError("composite")) == 0
    assert OPS["argmax"].backward is None
    assert taken("argmax", (x,), RuntimeError("no node")) == 0
    assert taken("reshape", (x,), RuntimeError("as view")) == 1  # a composite of one row


def test_a_list_of_tensors_is_looked_into():
    plain, grad = refgrad.ones(2), refgrad.ones(2, requires_grad=True)
    assert not _requires_grad((plain, [plain], 3))
    assert _requires_grad(([plain, grad],))
    assert _requires_grad((plain,)) is False and _requires_grad((grad,)) is True


def test_a_failure_through_the_row_counts_as_reached():
    x = refgrad.ones(2, requires_grad=True)
    try:
        call(OPS["view"], (x,), {"shape": (7,)})
    except (ValueError, RuntimeError) as error:
        assert _reached_the_row(error)
    else:
        raise AssertionError("view(7) should fail")
    fresh = RuntimeError("raised by a function before its row")
    try:
        raise fresh
    except RuntimeError as error:
        assert not _reached_the_row(error)


def test_an_error_raised_in_place_of_the_rows_is_reached_through_its_context():
    x = refgrad.ones(2, requires_grad=True)
    try:
        try:
            call(OPS["view"], (x,), {"shape": (7,)})
        except (ValueError, RuntimeError):
            raise IndexError("in the function's own words") from None
    except IndexError as error:
        assert _reached_the_row(error)
        assert taken("view", (x,), error) == 0


def test_before_refusal_and_a_handed_failure_never_both_number():
    x = refgrad.ones(2, requires_grad=True)
    start = peek_sequence_nr()
    with pytest.raises(RuntimeError):
        x.view(7)
    assert peek_sequence_nr() - start == 1
    before_refusal(OPS["view"], (x,), {"shape": (7,)})
    assert peek_sequence_nr() - start == 2
