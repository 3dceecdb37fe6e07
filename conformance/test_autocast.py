"""CPU autocast: its switches, its regions, which operations cast and how, and its cast cache."""

import warnings

import pytest
import torch

from conformance._support import raises

HALF = torch.float16
DEVICES = ("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
           "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
           "device string: foo")


def _region(**options):
    return torch.autocast("cpu", dtype=HALF, **options)


def test_names_and_switches_inside_and_outside_a_region():
    assert torch.autocast is torch.amp.autocast is torch.amp.autocast_mode.autocast
    assert issubclass(torch.cpu.amp.autocast, torch.autocast)
    assert not torch.is_autocast_enabled("cpu")
    with _region():
        assert torch.is_autocast_enabled("cpu") and torch.get_autocast_dtype("cpu") is HALF
        assert not torch.is_autocast_enabled()  # no argument: cuda
        with torch.autocast("cpu", enabled=False):
            assert not torch.is_autocast_enabled("cpu")
            assert torch.get_autocast_dtype("cpu") is HALF
        assert torch.is_autocast_enabled("cpu")
    assert not torch.is_autocast_enabled("cpu")


def test_decorator_runs_the_function_inside_a_region():
    @_region()
    def product(a):
        return a @ a, torch.is_autocast_enabled("cpu")

    out, on = product(torch.ones(2, 2))
    assert out.dtype is HALF and on and not torch.is_autocast_enabled("cpu")


def test_nesting_counts_and_goes_below_zero():
    assert [torch.autocast_increment_nesting(), torch.autocast_increment_nesting(),
            torch.autocast_decrement_nesting(), torch.autocast_decrement_nesting(),
            torch.autocast_decrement_nesting(), torch.autocast_increment_nesting()] == [
        1, 2, 1, 0, -1, 0]


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.autocast("foo"), RuntimeError, DEVICES),
    (lambda: torch.autocast(3), ValueError, "Expected `device_type` of type `str`, got: "
                                            "`<class 'int'>`"),
    (lambda: torch.is_autocast_enabled("foo"), RuntimeError, DEVICES),
    (lambda: torch.is_autocast_enabled(3), TypeError, "is_autocast_enabled(): argument "
                                                      "'device_type' (position 1) must be str, "
                                                      "not int"),
    (lambda: torch.set_autocast_enabled("cpu", 1), TypeError, "set_autocast_enabled(): "
                                                              "argument 'enabled' (position 2) "
                                                              "must be bool, not int"),
    (lambda: torch.set_autocast_dtype("cpu", 3), TypeError, "set_autocast_dtype(): argument "
                                                            "'dtype' (position 2) must be "
                                                            "torch.dtype, not int"),
])
def test_bad_arguments_are_refused_with_torchs_words(call, kind, message):
    with raises(kind, message):
        call()


@pytest.mark.parametrize("dtype", [torch.float64, torch.int32])
def test_an_unsupported_dtype_warns_and_disables(dtype):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        region = torch.autocast("cpu", dtype=dtype)
    assert [str(w.message) for w in seen] == [
        "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
        "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently."]
    assert seen[0].category is UserWarning and region._enabled is False
    assert region.fast_dtype is dtype


def test_cuda_without_cuda_warns_and_disables():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        region = torch.autocast("cuda", dtype=HALF)
    assert [str(w.message) for w in seen] == [
        "CUDA is not available or torch_xla is imported. Disabling autocast."]
    assert region._enabled is False and region.device == "cuda"


def test_the_older_cpu_spelling_is_deprecated():
    with pytest.warns(FutureWarning) as seen:
        region = torch.cpu.amp.autocast(dtype=HALF)
    assert str(seen[0].message) == ("`torch.cpu.amp.autocast(args...)` is deprecated. Please "
                                    "use `torch.amp.autocast('cpu', args...)` instead.")
    with region:
        assert torch.is_autocast_enabled("cpu")
