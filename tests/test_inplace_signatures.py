"""Unit tests: the in-place signatures read after a failure, and the methods that read them."""

import refgrad
from refgrad._arguments import Arguments
from refgrad._inplace_refusals import WRAPPED
from refgrad._ops import inplace_signatures
from refgrad._ops.inplace_signatures import SIGNATURES, refuse, takes_alpha


def test_every_signature_names_a_method_and_parses():
    for name, (texts, hidden, numbers) in SIGNATURES.items():
        assert callable(getattr(refgrad.Tensor, name)), name
        arguments = Arguments(*(name + t for t in texts), method=True,
                              hidden=tuple(name + t for t in hidden), numbers_as_tensors=numbers)
        assert all(s.name == name for s in arguments.signatures)


def test_a_method_with_no_signatures_here_is_left_to_its_own_failure():
    assert refuse("pow_", ("a",), {}) is None
    assert "pow_" not in inplace_signatures._PARSED


def test_signatures_are_parsed_at_the_first_failure_only():
    inplace_signatures._PARSED.pop("lt_", None)
    x = refgrad.ones(2)
    x.lt_(x)
    assert "lt_" not in inplace_signatures._PARSED
    try:
        x.lt_(x, x)
    except TypeError:
        pass
    assert "lt_" in inplace_signatures._PARSED


def test_only_the_methods_that_take_alpha_read_it():
    assert takes_alpha("add_") and takes_alpha("index_add_")
    assert not takes_alpha("abs_") and not takes_alpha("pow_")


def test_a_second_name_is_refused_under_its_own_and_runs_the_first():
    x = refgrad.full((2,), -2.0)
    assert refgrad.Tensor.divide_.__wrapped__ is not None
    assert x.absolute_().tolist() == [2.0, 2.0] and x._version == 1
    for name in WRAPPED:
        assert getattr(refgrad.Tensor, name).__name__ == name
