"""Black-box tests: NumPy scalars where torch takes a number.

torch's argument parser reads a NumPy scalar as the Python number it holds: it never
promotes a tensor as a NumPy float64 would, a NumPy bool counts as a float, and an
unsigned 64-bit value beyond int64 is refused. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises

SCALARS = [np.float64(1.5), np.float32(1.5), np.float16(1.5), np.int64(3), np.int32(3),
           np.uint8(3), np.uint64(3), np.int8(-2)]
OVERFLOW = "value cannot be converted to type int64_t without overflow"


def python(value):
    return float(value) if isinstance(value, np.floating) else int(value)


@pytest.mark.parametrize("scalar", SCALARS, ids=lambda s: type(s).__name__)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64"])
def test_an_operator_reads_a_numpy_scalar_as_its_python_number(scalar, dtype):
    x = torch.tensor([1, 2, 4], dtype=getattr(torch, dtype))
    for form in (lambda t, s: t * s, lambda t, s: s * t, lambda t, s: t + s,
                 lambda t, s: s - t, lambda t, s: t / s, lambda t, s: t ** s,
                 lambda t, s: torch.where(t > 1, t, s), lambda t, s: t.clamp(max=s)):
        try:
            want = form(x, python(scalar))
        except RuntimeError as error:  # int64 ** -2: refused either way, in one wording
            with raises(RuntimeError, str(error)):
                form(x, scalar)
            continue
        got = form(x, scalar)
        assert got.dtype == want.dtype
        assert torch.equal(got, want)


@pytest.mark.parametrize("scalar", SCALARS, ids=lambda s: type(s).__name__)
def test_comparisons_and_fills_read_a_numpy_scalar(scalar):
    x = torch.tensor([1.0, 3.0, 1.5])
    assert (x == scalar).tolist() == (x == python(scalar)).tolist()
    assert (scalar < x).tolist() == (python(scalar) < x).tolist()
    full = torch.full((2,), scalar)
    assert full.dtype == torch.full((2,), python(scalar)).dtype
    assert x.clone().fill_(scalar).tolist() == [float(python(scalar))] * 3
    assert x.masked_fill(x > 2, scalar).tolist() == x.masked_fill(x > 2, python(scalar)).tolist()


def test_a_numpy_scalar_records_as_a_python_number_does():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * np.float32(0.1)
    assert type(y.grad_fn).__name__ == "MulBackward0" and y.dtype == torch.float32
    saved = y.grad_fn._saved_other
    assert saved.dtype == torch.float64 and saved.item() == float(np.float32(0.1))
    out = (np.float64(3) - x) + x ** np.int64(2) + x.clamp(min=np.float64(1.5))
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == [
        "AddBackward0", "ClampBackward1"]
    assert out.grad_fn.next_functions[1][0]._saved_min == 1.5
    out.sum().backward()
    assert x.grad.tolist() == [-1 + 2 * 1 + 0, -1 + 2 * 2 + 1]


def test_a_numpy_bool_counts_as_a_float():
    i = torch.tensor([1, 2])
    assert (i * np.True_).dtype == torch.float32
    assert (torch.ones(2) - np.True_).tolist() == [0.0, 0.0]  # a Python True is refused
    assert torch.full((2,), np.True_).dtype == torch.float32
    with raises(RuntimeError, "For integral input tensors, argument alpha must not be a "
                              "floating point number."):
        torch.add(i, i, alpha=np.True_)


@pytest.mark.parametrize("call", [
    lambda x, big: torch.mul(x, big), lambda x, big: x.pow(big),
    lambda x, big: x.add(x, alpha=big), lambda x, big: torch.full((2,), big),
    lambda x, big: x.clamp(max=big), lambda x, big: torch.where(x > 1, x, big),
])
def test_an_unsigned_value_beyond_int64_is_refused(call):
    x = torch.tensor([1.0, 2.0])
    with raises(TypeError, "an integer is required"):
        call(x, np.uint64(2**63))
    assert call(x, np.uint64(2**63 - 1)) is not None


def test_a_numpy_array_is_not_taken_for_a_tensor():
    x = torch.tensor([1.0, 2.0])
    with raises(TypeError, "mul(): argument 'other' (position 2) must be Tensor, not "
                           "numpy.ndarray"):
        torch.mul(x, np.ones(2))
    with raises(TypeError, "add(): argument 'other' (position 2) must be Tensor, not "
                           "numpy.ndarray"):
        torch.add(x, np.array(2.0))


def test_in_place_forms_name_themselves_and_read_alpha_first():
    x = torch.tensor([1.0, 2.0], requires_grad=True)  # a leaf: writing it is refused too
    for name in ("add_", "sub_"):
        with raises(TypeError, f"{name}(): argument 'alpha' must be Number, not str"):
            getattr(x, name)(x, alpha="2")
    y = torch.tensor([1, 2])
    assert y.add_(y, alpha=np.int64(2)).tolist() == [3, 6]


@pytest.mark.parametrize(("make", "name"), [
    (lambda x: x.pow(2**63), "_saved_exponent"),
    (lambda x: x.clamp(min=2**64 - 1), "_saved_min"),
    (lambda x: torch.add(x, x, alpha=2**63), "_saved_alpha"),
    (lambda x: torch.rsub(x, 2, alpha=2**63), "_saved_alpha"),
])
def test_an_unsigned_int_parameter_does_not_read_back(make, name):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    node = make(x).grad_fn
    with raises(RuntimeError, OVERFLOW):
        getattr(node, name)
    assert torch.add(x, x, alpha=2**63 - 1).grad_fn._saved_alpha == 2**63 - 1
    assert torch.add(x, x, alpha=-(2**63)).grad_fn._saved_alpha == -(2**63)


def test_numpy_integers_serve_as_dims_and_sizes():
    x = torch.arange(6.0).reshape(2, 3)
    one = np.int64(1)
    assert x.sum(one).tolist() == [3.0, 12.0] and x.sum(dim=np.int32(-1)).tolist() == [3.0, 12.0]
    assert x.mean(one).tolist() == [1.0, 4.0] and x.amax(np.uint8(1)).tolist() == [2.0, 5.0]
    assert x.unsqueeze(0).squeeze(np.int64(0)).shape == (2, 3)
    assert torch.zeros(np.int64(2), 3).shape == (2, 3) and torch.ones([np.int8(2)]).shape == (2,)
    assert [p.shape for p in x.chunk(np.int64(2), one)] == [(2, 2), (2, 1)]
    assert torch.linalg.vector_norm(x, dim=one).shape == (2,)


def test_numpy_floats_in_ranges_norms_and_alpha():
    assert torch.arange(np.float32(2.0)).dtype == torch.float32
    assert torch.arange(0, 3, np.float16(1.0)).tolist() == [0.0, 1.0, 2.0]
    x = torch.tensor([1.0, 2.0, 3.0])
    for p in (np.float64(2.5), np.int64(3), np.uint8(3)):
        assert torch.norm(x, p=p).dtype == torch.float32
    assert torch.add(x, np.float32(0.5), alpha=2).tolist() == [2.0, 3.0, 4.0]
    assert torch.sub(x, np.int64(1), alpha=np.int64(2)).tolist() == [-1.0, 0.0, 1.0]


def test_power_assignment_writes_in_place():
    x = torch.tensor([1.0, 2.0])
    same = x
    x **= np.float64(2.0)
    assert x is same and x._version == 1 and x.tolist() == [1.0, 4.0]
    i = torch.tensor([1, 2, 3])
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        i **= 2.5
    assert i.tolist() == [1, 2, 3] and i._version == 0


def test_sequences_and_strings_are_not_operands():
    x = torch.tensor([1.0, 2.0, 3.0])
    for value, shown in (([1, 2, 3], "list"), ((1, 2, 3), "tuple"), ("a", "str")):
        with raises(TypeError, f"add(): argument 'other' (position 2) must be Tensor, not "
                               f"{shown}"):
            torch.add(x, value)
    assert x.tolist() == [1.0, 2.0, 3.0]


def test_comparisons_with_what_is_not_a_tensor_fall_back_to_python():
    x = torch.tensor([1.0, 2.0])
    assert (x == [1, 2]) is False and (x != [1, 2]) is True
    assert (x == None) is False and (x != None) is True  # noqa: E711 - the point of the test
    assert (x == "a") is False
    with raises(TypeError, "'<' not supported between instances of 'Tensor' and 'list'"):
        assert x < [1, 2]
    assert (x == np.float64(2.0)).tolist() == [False, True]
