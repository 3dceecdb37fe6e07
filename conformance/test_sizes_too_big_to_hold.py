"""Black-box tests: a factory given sizes past what int64 counts, or bytes past what the
machine holds, is refused in torch's words, before anything is allocated or drawn."""

import pytest
import torch

from conformance._support import raises

ALLOC = ("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
         "memory: you tried to allocate {} bytes. Error code 12 (Cannot allocate memory)")


def test_a_size_past_a_long_long_fails_the_parser():
    with pytest.raises(TypeError) as caught:
        torch.empty(2**63)
    assert str(caught.value).startswith(
        "empty(): argument 'size' failed to unpack the object at pos 1 with error "
        '"Overflow when unpacking long long')


def test_a_later_size_past_a_long_long_is_named_by_its_position():
    with pytest.raises(TypeError, match="at pos 2 with error \"Overflow when unpacking"):
        torch.zeros(-1, 2**64)


@pytest.mark.parametrize(("call", "nbytes"), (
    ("torch.ones(2**40)", 4 * 2**40), ("torch.zeros(2**40)", 4 * 2**40),
    ("torch.empty(2**62, dtype=torch.uint8)", 2**62)))
def test_more_bytes_than_the_machine_holds_are_refused_by_the_allocator(call, nbytes):
    with raises(RuntimeError, ALLOC.format(nbytes)):
        eval(call, {"torch": torch})


@pytest.mark.parametrize(("call", "sizes"), (
    ("torch.rand(2**62)", [2**62]), ("torch.randn(2**40, 2**40)", [2**40, 2**40]),
    ("torch.full((2**62,), 1.)", [2**62]), ("torch.empty(2**61)", [2**61])))
def test_bytes_past_int64_are_refused(call, sizes):
    with raises(RuntimeError, f"Storage size calculation overflowed with sizes={sizes}"):
        eval(call, {"torch": torch})


def test_strides_past_int64_are_refused_even_with_no_elements():
    with raises(RuntimeError, "Stride calculation overflowed"):
        torch.empty(0, 2**62, 2**62)


def test_a_refused_draw_leaves_the_generator_as_it_was():
    state = torch.get_rng_state()
    with pytest.raises(RuntimeError):
        torch.rand(2**62)
    assert torch.equal(torch.get_rng_state(), state)
