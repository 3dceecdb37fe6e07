"""Black-box tests: Tensor.to in each of torch's three forms, what it returns unchanged, and
the TypeError for a call that fits none. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

_REST = ("bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = "
         "None)")
_FORMS = ("\n * (torch.device device = None, torch.dtype dtype = None, " + _REST
          + "\n * (torch.dtype dtype, " + _REST + "\n * (Tensor tensor, " + _REST + "\n")


def test_another_tensor_gives_its_dtype_and_device():
    x, other = torch.ones(2), torch.ones(3, dtype=torch.float64)
    y = x.to(other)
    assert y.dtype == torch.float64 and y.device == other.device and y.shape == (2,)
    assert x.to(torch.ones(1, dtype=torch.int32)).dtype == torch.int32
    assert x.to(tensor=other).dtype == torch.float64
    assert x.to(x) is x
    assert x.to(x, copy=True) is not x and x.to(x, True, True) is not x
    assert x.to(other, non_blocking=True).dtype == torch.float64


def test_a_tensor_that_requires_grad_records_the_copy():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.to(torch.ones(1, dtype=torch.float64))
    assert type(y.grad_fn).__name__ == "ToCopyBackward0"
    y.sum().backward()
    assert x.grad.dtype == torch.float32 and x.grad.tolist() == [1.0, 1.0]


def test_positional_non_blocking_and_copy():
    x = torch.ones(2)
    assert x.to(torch.float64, True).dtype == torch.float64
    copied = x.to(torch.float32, False, True)
    assert copied is not x and copied.dtype == torch.float32 and copied.tolist() == [1.0, 1.0]
    assert x.to("cpu", torch.float64, True, True).dtype == torch.float64
    assert x.to("cpu", None, False, False) is x


def test_none_stands_for_not_given():
    x = torch.ones(2)
    assert x.to(None) is x and x.to(None, None) is x
    assert x.to(device=None, dtype=None, non_blocking=False, copy=False) is x
    assert x.to(memory_format=None) is x and x.to() is x and x.to(non_blocking=True) is x
    assert x.to(None, torch.float64).dtype == torch.float64


def test_python_number_types_stand_for_dtypes():
    x = torch.ones(2)
    assert x.to(float).dtype == torch.float64 and x.to(int).dtype == torch.int64
    assert x.to(bool).dtype == torch.bool and x.to(dtype=float).dtype == torch.float64
    assert x.to("cpu", float).dtype == torch.float64 and x.to(None, int).dtype == torch.int64
    # A float or bool given first is read as its type.
    assert x.to(1.5).dtype == torch.float64 and x.to(True).dtype == torch.bool
    assert x.to(2.5, True).dtype == torch.float64


def test_cpu_with_an_index_is_another_device_and_makes_a_copy():
    x = torch.ones(2, requires_grad=True)
    y = x.to("cpu:0")
    assert y is not x and y.device == torch.device("cpu") and y.grad_fn is not None
    assert x.to(device="cpu:0") is not x and x.to(torch.device("cpu")) is x


@pytest.mark.parametrize("call, got", [
    ("x.to(other=x)", "(other=Tensor, )"),
    ("x.to(x, dtype=torch.float16)", "(Tensor, dtype=torch.dtype)"),
    ("x.to(torch.float64, device='cpu')", "(torch.dtype, device=str)"),
    ("x.to('cpu', 'cpu')", "(str, str)"),
    ("x.to(torch.float64, torch.float64)", "(torch.dtype, torch.dtype)"),
    ("x.to(torch.float64, non_blocking=1)", "(torch.dtype, non_blocking=int)"),
    ("x.to(x, False, False, torch.contiguous_format)",
     "(Tensor, bool, bool, torch.memory_format)"),
    ("x.to(torch.float64, None)", "(torch.dtype, NoneType)"),
    ("x.to(x, None)", "(Tensor, NoneType)"),
    ("x.to(x.double(), torch.float16)", "(Tensor, torch.dtype)"),
    ("x.to('cpu', x)", "(str, Tensor)"),
    ("x.to(device=x)", "(device=Tensor, )"),
    ("x.to(1, 2)", "(int, int)"),
    ("x.to(dtype=2.5)", "(dtype=float, )"),
    ("x.to('cpu', 2.5)", "(str, float)"),
])
def test_a_call_that_fits_no_form_is_refused_in_torchs_words(call, got):
    x = torch.ones(2)
    message = (f"to() received an invalid combination of arguments - got {got}, but expected "
               f"one of:{_FORMS}")
    with raises(TypeError, message):
        eval(call, {"torch": torch, "x": x})


def test_too_many_positional_arguments():
    with raises(TypeError, "to() takes from 0 to 4 positional arguments but 5 were given"):
        torch.ones(2).to("cpu", torch.float64, True, True, torch.contiguous_format)


def test_a_float_given_first_is_named_as_given_when_nothing_fits():
    with raises(TypeError, "to() received an invalid combination of arguments - got (float, "
                           f"str, str), but expected one of:{_FORMS}"):
        torch.ones(2).to(1.5, "cpu", "x")


def test_an_index_tensor_is_another_tensor_not_a_device():
    assert torch.ones(2).to(torch.tensor(0, dtype=torch.int32)).dtype == torch.int32


def test_a_module_reads_the_same_forms():
    assert torch.nn.Linear(2, 2).to(float).weight.dtype == torch.float64
    assert torch.nn.Linear(2, 2).to(dtype=float).weight.dtype == torch.float64
    assert torch.nn.Linear(2, 2).to("cpu", float).bias.dtype == torch.float64
    assert torch.nn.Linear(2, 2).to(torch.ones(1, dtype=torch.float64)).weight.dtype == \
        torch.float64
    with raises(TypeError, "nn.Module.to only accepts floating point or complex dtypes, but "
                           "got desired dtype=torch.int64"):
        torch.nn.Linear(2, 2).to(int)
    with raises(TypeError, "to() received an invalid combination of arguments - got (str, "
                           f"str), but expected one of:{_FORMS}"):
        torch.nn.Linear(2, 2).to("cpu", "x")


def test_a_module_takes_no_copy():
    for call in (lambda m: m.to(copy=False), lambda m: m.to(torch.float64, False, False)):
        with raises(RuntimeError, ".to() does not accept copy argument"):
            call(torch.nn.Linear(2, 2))
