"""NOTE [Read after a failure]: the call is read against torch's signatures only once it fails."""

import pytest

import refgrad
from refgrad._after_failure import read_after_failure
from refgrad._arguments import Arguments


class Counting(Arguments):
    """Arguments that count how often a call is read against them."""

    reads = 0

    def check(self, args, kwargs):
        Counting.reads += 1
        super().check(args, kwargs)


def test_a_successful_call_is_never_read():
    Counting.reads = 0
    double = read_after_failure(lambda input: input * 2, Counting("double(Tensor input)"))
    assert double(refgrad.ones(2)).tolist() == [2.0, 2.0]
    assert Counting.reads == 0


def test_a_failed_call_that_fits_none_gets_torchs_error():
    Counting.reads = 0
    double = read_after_failure(lambda input: input.ndim, Counting("double(Tensor input)"))
    with pytest.raises(TypeError, match=r"^double\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not str$"):
        double("a")
    assert Counting.reads == 1


def test_a_failed_call_that_fits_keeps_its_error():
    def refuse(input):
        raise RuntimeError("its own words")

    with pytest.raises(RuntimeError, match="^its own words$"):
        read_after_failure(refuse, Arguments("f(Tensor input)"))(refgrad.ones(1))


def test_methods_are_read_without_the_tensor():
    x = refgrad.ones(2)
    with pytest.raises(TypeError, match=r"^dot\(\): argument 'tensor' \(position 1\)"):
        x.dot("a")
    assert x.dot(x).item() == 2.0
