"""Black-box tests: gcd and lcm, their methods, in-place forms and out=. The same assertions
run on torch.
"""

import pytest
import torch

from conformance._support import raises

T = torch.tensor


def test_values_and_signs():
    a, b = T([12, -18, 0, 0, 7, -4]), T([-8, 12, 5, 0, -7, -6])
    assert torch.gcd(a, b).tolist() == [4, 6, 5, 0, 7, 2]
    assert torch.lcm(a, b).tolist() == [24, 36, 0, 0, 7, 12]
    assert torch.gcd(T(12), T(-18)).tolist() == 6 and torch.lcm(T(12), T(-18)).tolist() == 36


def test_broadcasting_and_promotion():
    rows, cols = T([[4], [6]]), T([6, 9, -8])
    assert torch.gcd(rows, cols).tolist() == [[2, 1, 4], [6, 3, 2]]
    assert torch.lcm(rows, cols).tolist() == [[12, 36, 8], [6, 18, 24]]
    small = T([12], dtype=torch.int8)
    assert torch.gcd(small, T([-18], dtype=torch.int16)).dtype is torch.int16
    assert torch.gcd(T([4, 6], dtype=torch.int8), T(4)).dtype is torch.int8  # 0-d: no say
    mixed = torch.gcd(T([4], dtype=torch.uint8), T([-2], dtype=torch.int8))
    assert mixed.dtype is torch.int16 and mixed.tolist() == [2]
    assert torch.gcd(T([True]), T([4])).tolist() == [1]
    assert torch.lcm(T([], dtype=torch.int64), T([3])).shape == (0,)


def test_the_dtypes_width_shows_in_the_corners():
    i8 = torch.int8
    assert torch.lcm(T([100, -100], dtype=i8), T([3, 3], dtype=i8)).tolist() == [44, 44]
    assert torch.gcd(T([-128], dtype=i8), T([0], dtype=i8)).tolist() == [-128]
    assert torch.lcm(T([200], dtype=torch.uint8), T([3], dtype=torch.uint8)).tolist() == [88]
    assert torch.lcm(T([2**62]), T([3])).tolist() == [2**62]
    assert torch.gcd(T([-2**63]), T([0])).tolist() == [-2**63]


@pytest.mark.parametrize("name", ["gcd", "lcm"])
def test_floats_and_bools_have_no_kernel(name):
    f = getattr(torch, name)
    for a, b, kind in ((T([1.0]), T([2.0]), "Float"), (T([1]), T([2.0]), "Float"),
                       (T([1.0], dtype=torch.float64), T([2]), "Double"),
                       (T([1.0], dtype=torch.float16), T([2.0], dtype=torch.float16), "Half"),
                       (T([True]), T([False]), "Bool"),
                       (T([1.0], requires_grad=True), T([2.0]), "Float")):
        with raises(NotImplementedError, f"\"{name}_cpu\" not implemented for '{kind}'"):
            f(a, b)
    with raises(NotImplementedError, f"\"{name}_cpu\" not implemented for 'Float'"):
        getattr(T([4.0]), f"{name}_")(T([2]))


@pytest.mark.parametrize("name", ["gcd", "lcm"])
def test_arguments_are_read_as_torch_reads_them(name):
    f, x = getattr(torch, name), T([4, 6])
    with raises(TypeError, f"{name}(): argument 'other' (position 2) must be Tensor, not int"):
        f(x, 2)
    with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not int"):
        f(4, x)
    with raises(TypeError, f'{name}() missing 2 required positional argument: "input", '
                '"other"'):
        f()
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "other"'):
        f(x)
    with raises(TypeError, f"{name}() takes 2 positional arguments but 3 were given"):
        f(x, x, x)
    with raises(TypeError, f"{name}(): argument 'other' (position 1) must be Tensor, not int"):
        getattr(x, name)(2)
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'out'"):
        getattr(x, name)(x, out=None)
    assert getattr(x, name)(other=T([6])).tolist() == f(x, T([6])).tolist()


@pytest.mark.parametrize(("name", "expected"), [("gcd", [4, 2]), ("lcm", [24, 72])])
def test_in_place(name, expected):
    x = T([12, 18])
    version = x._version
    assert getattr(x, f"{name}_")(T([8])) is x and x.tolist() == expected
    assert x._version == version + 1
    assert getattr(torch, f"{name}_")(T([12, 18]), T([8])).tolist() == expected
    small = getattr(T([12], dtype=torch.int8), f"{name}_")(T([8]))
    assert small.dtype is torch.int8
    with raises(TypeError, f"{name}_(): argument 'other' (position 1) must be Tensor, not int"):
        getattr(T([12]), f"{name}_")(8)
    with raises(TypeError, f"{name}_(): argument 'other' (position 2) must be Tensor, not int"):
        getattr(torch, f"{name}_")(T([12]), 8)
    with raises(TypeError, f"{name}_() got an unexpected keyword argument 'out'"):
        getattr(T([12]), f"{name}_")(T([8]), out=None)
    with raises(RuntimeError, "output with shape [1] doesn't match the broadcast shape [2]"):
        getattr(T([12]), f"{name}_")(T([8, 4]))
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        getattr(T([4]), f"{name}_")(T([2.0]))
    with raises(RuntimeError, "result type Long can't be cast to the desired output type Bool"):
        getattr(T([True]), f"{name}_")(T([2]))


@pytest.mark.parametrize("name", ["gcd", "lcm"])
def test_out(name):
    f = getattr(torch, name)
    out = torch.empty(2, dtype=torch.int64)
    assert f(T([12, 4]), T([8]), out=out) is out and out.tolist() == f(T([12, 4]), T([8])).tolist()
    assert f(T([12]), T([8]), out=torch.empty(1)).dtype is torch.float32
    assert f(T([12]), T([8]), out=torch.empty(1, dtype=torch.int8)).dtype is torch.int8
    assert f(T([12, 4]), T([8]), out=torch.empty(0, dtype=torch.int64)).shape == (2,)
    with raises(RuntimeError, f"aten::{name}(): functions with out=... arguments don't support "
                "automatic differentiation, but one of the arguments requires grad."):
        f(T([12]), T([8]), out=torch.empty(1, requires_grad=True))
