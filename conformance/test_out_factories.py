"""out= for zeros, ones, rand, randint, randperm, randn and empty: made in out's dtype, written
into it, or resized as resize_ resizes."""

import warnings

import pytest
import torch

from conformance._support import raises

NEEDS_GRAD = ("aten::{}(): functions with out=... arguments don't support automatic "
              "differentiation, but one of the arguments requires grad.")
MAKE = {
    "zeros": lambda out: torch.zeros(2, 3, out=out),
    "ones": lambda out: torch.ones((2, 3), out=out),
    "rand": lambda out: torch.rand(2, 3, out=out),
    "randint": lambda out: torch.randint(2, 5, (2, 3), out=out),
    "randperm": lambda out: torch.randperm(6, out=out),
}


@pytest.mark.parametrize("name", sorted(MAKE))
@pytest.mark.parametrize("dtype", [torch.float64, torch.int32])
def test_the_values_are_made_in_outs_dtype_and_shape(name, dtype):
    if name == "rand" and dtype == torch.int32:
        dtype = torch.float16
    out = torch.full((5,), 7, dtype=dtype)  # resized without a warning
    assert MAKE[name](out) is out
    assert out.dtype == dtype and out._version == 1 and not out.requires_grad
    assert out.numel() == 6 and (out != 7).any()
    if name == "randperm":
        assert sorted(out.tolist()) == list(range(6))
    elif name == "randint":
        assert all(2 <= v < 5 for v in out.flatten().tolist())


@pytest.mark.parametrize("name", ["rand", "randint", "randperm"])
def test_out_draws_what_the_factory_draws(name):
    torch.manual_seed(3)
    made = MAKE[name](None)
    torch.manual_seed(3)
    out = torch.empty(0, dtype=made.dtype)
    assert torch.equal(MAKE[name](out), made)


@pytest.mark.parametrize("name", sorted(MAKE))
def test_an_out_that_requires_grad_is_refused(name):
    out = torch.zeros(6, requires_grad=True)
    with raises(RuntimeError, NEEDS_GRAD.format(name)):
        MAKE[name](out)
    with torch.no_grad():
        MAKE[name](out)
    assert not out.requires_grad  # the call's requires_grad says, and it said False


def test_a_dtype_out_cannot_hold_is_refused_by_the_kernel():
    with raises(NotImplementedError, "\"check_uniform_bounds\" not implemented for 'Long'"):
        torch.rand(2, out=torch.zeros(2, dtype=torch.long))
    with raises(NotImplementedError, "\"randperm\" not implemented for 'Bool'"):
        torch.randperm(2, out=torch.zeros(2, dtype=torch.bool))
    with raises(RuntimeError, "dtype Double does not match dtype of out parameter (Float)"):
        torch.zeros(2, dtype=torch.float64, out=torch.zeros(2))


def test_randn_out_takes_the_draws_of_its_dtype():
    for dtype in (torch.float32, torch.float64):
        torch.manual_seed(0)
        expected = torch.randn(5, dtype=dtype)
        torch.manual_seed(0)
        out = torch.empty(5, dtype=dtype)
        assert torch.randn(5, out=out) is out and out._version == 1
        assert torch.equal(out, expected)


def test_randn_and_empty_resize_out_as_resize_does():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning for resizing an out that holds values
        out = torch.zeros(3)
        torch.randn(2, 2, out=out)
        assert out.shape == (2, 2) and out._version == 2  # resized, then written
        out = torch.arange(6.0)
        assert torch.empty(2, 3, out=out) is out
        assert out.shape == (2, 3) and out._version == 1
    same = torch.arange(6.0)
    torch.empty(6, out=same)
    assert same.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and same._version == 0
    flagged = torch.empty(2, out=torch.zeros(2), requires_grad=True)
    assert flagged.requires_grad and flagged._version == 0
    assert torch.empty(2, out=torch.zeros(2, dtype=torch.int64)).dtype == torch.int64


@pytest.mark.parametrize("factory", ["randn", "empty"])
def test_randn_and_empty_out_refusals(factory):
    make = getattr(torch, factory)
    with raises(RuntimeError, "cannot resize variables that require grad"):
        make(2, out=torch.zeros(2, requires_grad=True))
    with raises(RuntimeError, "dtype Double does not match dtype of out parameter (Float)"):
        make(2, out=torch.zeros(2), dtype=torch.float64)


def test_randn_refuses_an_integer_out():
    with raises(NotImplementedError, "\"normal_kernel_cpu\" not implemented for 'Long'"):
        torch.randn(2, out=torch.zeros(2, dtype=torch.int64))


def test_empty_refuses_a_memory_format_with_out():
    for fmt in (torch.channels_last, torch.contiguous_format):
        with raises(RuntimeError, "'memory_format' argument is incompatible with 'out' tensor "
                                  "argument"):
            torch.empty(1, 1, 2, 2, out=torch.empty(0), memory_format=fmt)
    assert torch.empty(2, out=torch.empty(0), memory_format=None).shape == (2,)


def test_an_out_view_resized_stays_a_view_of_its_base():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for write in (lambda o: torch.exp(torch.zeros(3), out=o),
                      lambda o: torch.ones(3, out=o)):
            base = torch.zeros(6)
            write(base[:4])
            assert base.tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
            base = torch.zeros(6)
            short = base[:2]
            write(short)
            assert base.tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0] and short.shape == (3,)


@pytest.mark.parametrize("make, draws_first", [(lambda out: torch.rand(5, out=out), True),
                                               (lambda out: torch.randn(3, out=out), False)])
def test_an_inference_out_is_refused_after_one_draw_or_none(make, draws_first):
    with torch.inference_mode():
        inference = torch.empty(5)
    torch.manual_seed(0)
    with raises(RuntimeError, "Inplace update to inference tensor outside InferenceMode is not "
                              "allowed.You can make a clone to get a normal tensor before doing "
                              "inplace update.See https://github.com/pytorch/rfcs/pull/17 for "
                              "more details."):
        make(inference)
    after = torch.rand(1)
    torch.manual_seed(0)
    if draws_first:  # rand draws, then writes: randn resizes out first
        make(torch.empty(5))
    assert torch.equal(after, torch.rand(1))


@pytest.mark.parametrize("make", [lambda: torch.rand(3, pin_memory=True),
                                  lambda: torch.randperm(3, pin_memory=True),
                                  lambda: torch.randint(3, (3,), pin_memory=True)])
def test_a_refused_pin_draws_nothing(make):
    torch.manual_seed(0)
    with raises(RuntimeError, "pin_memory=True requires a CUDA or other accelerator backend; no "
                              "pinned memory allocator is available on this system."):
        make()
    after = torch.rand(1)
    torch.manual_seed(0)
    assert torch.equal(after, torch.rand(1))
