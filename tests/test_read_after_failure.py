"""NOTE [Read after a failure]: the call is read against torch's signatures only once it fails."""

import pytest

import refgrad
from refgrad import _read_after_failure
from refgrad._read_after_failure import read_after_failure


def _spec(text: str) -> tuple:
    return ((text,), (), False, None)


def test_a_successful_call_parses_no_signature():
    spec = _spec("double(Tensor input)")
    double = read_after_failure(lambda input: input * 2, spec)
    assert double(refgrad.ones(2)).tolist() == [2.0, 2.0]
    assert spec not in _read_after_failure._PARSED


def test_a_failed_call_that_fits_none_gets_torchs_error():
    spec = _spec("halve(Tensor input)")
    halve = read_after_failure(lambda input: input.ndim, spec)
    with pytest.raises(TypeError, match=r"^halve\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not str$"):
        halve("a")
    assert spec in _read_after_failure._PARSED  # parsed once, at the first failure


def test_a_failed_call_that_fits_keeps_its_error():
    def refuse(input):
        raise RuntimeError("its own words")

    with pytest.raises(RuntimeError, match="^its own words$"):
        read_after_failure(refuse, _spec("f(Tensor input)"))(refgrad.ones(1))


def test_methods_are_read_without_the_tensor():
    x = refgrad.ones(2)
    with pytest.raises(TypeError, match=r"^dot\(\): argument 'tensor' \(position 1\)"):
        x.dot("a")
    assert x.dot(x).item() == 2.0
