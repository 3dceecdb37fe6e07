"""Black-box tests: Tensor.new, the legacy constructor on an instance, makes tensors of the
instance's dtype and refuses bad calls in torch's words. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises

_FORMS = (" * (*, torch.device device = None)\n"
          "      didn't match because some of the keywords were incorrect: {}\n"
          " * (torch.Storage storage)\n * (Tensor other)\n"
          " * (tuple of ints size, *, torch.device device = None)\n"
          " * (object data, *, torch.device device = None)\n")


def _options(name):
    return (f"TensorOptions(dtype={name}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


@pytest.mark.parametrize("dtype", [torch.int32, torch.float64, torch.bool, torch.float16])
def test_sizes_and_data_take_the_instances_dtype(dtype):
    x = torch.zeros(1, dtype=dtype)
    assert x.new(2, 3).shape == (2, 3) and x.new(2, 3).dtype == dtype
    assert x.new(torch.Size([4])).shape == (4,)
    assert x.new().shape == (0,) and x.new().dtype == dtype
    made = x.new([1, 0])
    assert made.dtype == dtype and made.tolist() == torch.tensor([1, 0], dtype=dtype).tolist()
    assert x.new((2, 3)).tolist() == torch.tensor([2, 3], dtype=dtype).tolist()  # data
    assert x.new(np.array([1, 2])).dtype == dtype


def test_data_is_converted_and_nothing_requires_grad():
    f = torch.ones(2, requires_grad=True)
    made = torch.arange(3, dtype=torch.int32).new([1.5, 2])
    assert made.tolist() == [1, 2] and made.dtype == torch.int32
    assert not f.new([1.0]).requires_grad and not f.new(2).requires_grad
    assert f.new([1.0], device="cpu").tolist() == [1.0]
    assert f.new(device=torch.device("cpu")).shape == (0,)


def test_a_tensor_of_the_same_dtype_is_aliased():
    f = torch.ones(2, requires_grad=True)
    alias = f.new(f * 1)
    assert type(alias.grad_fn).__name__ == "AliasBackward0" and alias._is_view()
    alias = f.new(f)
    assert alias._base is f and alias.dtype == torch.float32


@pytest.mark.parametrize("mine, theirs, words", [
    (torch.int32, torch.float32, ("int", "float")),
    (torch.float32, torch.int64, ("float", "long int")),
    (torch.float64, torch.bool, ("double", "bool")),
])
def test_a_tensor_of_another_dtype_is_refused(mine, theirs, words):
    with raises(TypeError, f"expected {_options(words[0])} (got {_options(words[1])})"):
        torch.zeros(1, dtype=mine).new(torch.zeros(1, dtype=theirs))


@pytest.mark.parametrize("call, error, message", [
    (lambda f: f.new(2.5), TypeError, "new(): data must be a sequence (got float)"),
    (lambda f: f.new("a"), TypeError, "new(): invalid data type 'str'"),
    (lambda f: f.new(2, "a"), TypeError, "new(): argument 'size' failed to unpack the object "
     'at pos 2 with error "type must be tuple of ints,but got str"'),
    (lambda f: f.new(2, 3, 4.0), TypeError, "new(): argument 'size' failed to unpack the "
     'object at pos 3 with error "type must be tuple of ints,but got float"'),
    (lambda f: f.new(-1), RuntimeError, "Trying to create tensor with negative dimension -1: "
     "[-1]"),
    (lambda f: f.new([[1, 2], [3]]), ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
    (lambda f: f.new(2, device="cuda"), RuntimeError,
     "legacy constructor expects device type: cpu but device type: cuda was passed"),
    (lambda f: f.new([1, 2], dtype=torch.int64), TypeError,
     "new() received an invalid combination of arguments - got (list, dtype=torch.dtype), but "
     "expected one of:\n" + _FORMS.format("dtype")),
    (lambda f: f.new(3, requires_grad=True), TypeError,
     "new() received an invalid combination of arguments - got (int, requires_grad=bool), but "
     "expected one of:\n" + _FORMS.format("requires_grad")),
])
def test_bad_calls_are_refused_in_torchs_words(call, error, message):
    with raises(error, message):
        call(torch.ones(2, requires_grad=True))


def test_the_legacy_constructor_reads_a_size_and_a_device():
    assert torch.Tensor(torch.Size([2, 3])).shape == (2, 3)
    assert torch.Tensor([1.5, 2], device="cpu").tolist() == [1.5, 2.0]
    with raises(RuntimeError, "legacy constructor expects device type: cpu but device type: "
                "cuda was passed"):
        torch.Tensor(2, device="cuda")
    with raises(TypeError, "new() received an invalid combination of arguments - got (list, "
                "dtype=torch.dtype), but expected one of:\n" + _FORMS.format("dtype")):
        torch.Tensor([1, 2], dtype=torch.int64)
