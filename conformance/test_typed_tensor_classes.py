"""Black-box tests: torch.FloatTensor, torch.LongTensor and the other typed classes of the
legacy API construct tensors of their dtype, recognise such tensors, and refuse what torch
refuses in its words. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises

_CLASSES = [
    ("BoolTensor", torch.bool), ("ByteTensor", torch.uint8), ("CharTensor", torch.int8),
    ("ShortTensor", torch.int16), ("IntTensor", torch.int32), ("LongTensor", torch.int64),
    ("HalfTensor", torch.float16), ("FloatTensor", torch.float32),
    ("DoubleTensor", torch.float64),
]


_FORMS = (" * (*, torch.device device = None)\n"
          "      didn't match because some of the keywords were incorrect: {}\n"
          " * (torch.Storage storage)\n * (Tensor other)\n"
          " * (tuple of ints size, *, torch.device device = None)\n"
          " * (object data, *, torch.device device = None)\n")


def _options(name):
    return (f"TensorOptions(dtype={name}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


@pytest.mark.parametrize("name, dtype", _CLASSES)
def test_each_class_constructs_its_dtype(name, dtype):
    kind = getattr(torch, name)
    assert kind.dtype == dtype and not kind.is_cuda and not kind.is_sparse
    assert kind.__name__ == name and str(kind).endswith(f".{name}'>")
    made = kind([1, 0])
    assert type(made) is torch.Tensor and made.dtype == dtype
    assert made.tolist() == torch.tensor([1, 0], dtype=dtype).tolist()
    assert kind(2, 3).shape == (2, 3) and kind(2, 3).dtype == dtype
    assert kind(torch.Size([4])).shape == (4,) and kind(size=(1, 2)).shape == (1, 2)
    assert kind().shape == (0,) and kind().dtype == dtype
    assert kind((2, 3)).shape == (2,) and kind(data=[1]).shape == (1,)
    assert kind(np.ones(2)).dtype == dtype and kind([1], device="cpu").dtype == dtype


@pytest.mark.parametrize("name, dtype", _CLASSES)
def test_isinstance_asks_for_the_dtype(name, dtype):
    kind = getattr(torch, name)
    assert isinstance(torch.zeros(2, dtype=dtype), kind)
    other = torch.float32 if dtype == torch.float64 else torch.float64
    assert not isinstance(torch.zeros(2, dtype=other), kind)
    assert not isinstance(np.zeros(2), kind) and not isinstance(3, kind)
    assert not issubclass(kind, torch.Tensor) and not issubclass(torch.Tensor, kind)


def test_isinstance_holds_for_parameters_and_graphs():
    assert isinstance(torch.nn.Parameter(torch.ones(2)), torch.FloatTensor)
    assert isinstance(torch.ones(2, requires_grad=True) * 2, torch.FloatTensor)
    assert not isinstance(torch.ones(2), torch.DoubleTensor)
    assert isinstance(torch.ones(2, dtype=torch.long), torch.LongTensor)


def test_data_is_converted_as_the_dtype_converts():
    assert torch.LongTensor([1.5]).tolist() == [1]
    assert torch.ByteTensor([-1]).tolist() == [255]
    assert torch.BoolTensor([1, 0, 2]).tolist() == [True, False, True]
    assert torch.LongTensor([True, 2]).tolist() == [1, 2]
    with raises(RuntimeError, "value cannot be converted to type int32 without overflow"):
        torch.IntTensor([2 ** 40])
    with raises(ValueError, "expected sequence of length 2 at dim 1 (got 1)"):
        torch.LongTensor([[1, 2], [3]])


def test_a_tensor_of_the_classes_dtype_is_aliased():
    x = torch.ones(2, requires_grad=True)
    alias = torch.FloatTensor(x)
    assert type(alias.grad_fn).__name__ == "AliasBackward0" and alias._base is x
    assert torch.LongTensor(torch.ones(2, dtype=torch.long)).grad_fn is None


@pytest.mark.parametrize("kind, given, words", [
    ("FloatTensor", torch.float64, ("float", "double")),
    ("LongTensor", torch.float32, ("long int", "float")),
])
def test_a_tensor_of_another_dtype_is_refused(kind, given, words):
    with raises(TypeError, f"expected {_options(words[0])} (got {_options(words[1])})"):
        getattr(torch, kind)(torch.zeros(1, dtype=given))


def test_bad_calls_get_the_legacy_constructors_errors():
    with raises(TypeError, "new(): invalid data type 'str'"):
        torch.LongTensor("abc")
    with raises(TypeError, "new(): data must be a sequence (got NoneType)"):
        torch.LongTensor(None)
    with raises(TypeError, "new(): data must be a sequence (got bool)"):
        torch.LongTensor(True)
    with raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"):
        torch.LongTensor(-1)
    with raises(TypeError, "new() received an invalid combination of arguments - got (list, "
                "requires_grad=bool), but expected one of:\n" + _FORMS.format("requires_grad")):
        torch.LongTensor([1, 2], requires_grad=True)
    with raises(TypeError, "new() received an invalid combination of arguments - got (list, "
                "dtype=torch.dtype), but expected one of:\n" + _FORMS.format("dtype")):
        torch.FloatTensor([1, 2], dtype=torch.float64)
    with raises(RuntimeError, "legacy constructor expects device type: cpu but device type: "
                "cuda was passed"):
        torch.FloatTensor([1], device="cuda")


def test_the_classes_cannot_be_subclassed():
    with pytest.raises(TypeError) as caught:
        type("Mine", (torch.FloatTensor,), {})
    assert str(caught.value) == "type 'torch.FloatTensor' is not an acceptable base type"


def test_type_converts_by_class():
    x = torch.ones(2, requires_grad=True)
    assert torch.ones(2).type(torch.LongTensor).dtype == torch.int64
    assert torch.Tensor.type(torch.ones(2), torch.IntTensor).dtype == torch.int32
    converted = x.type(torch.DoubleTensor)
    assert converted.dtype == torch.float64 and converted.grad_fn.name() == "ToCopyBackward0"
    assert x.type(torch.FloatTensor) is x
    assert torch.ones(2).long().type() == "torch.LongTensor"


def test_the_default_dtype_does_not_change_the_classes():
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.FloatTensor([1]).dtype == torch.float32
        assert torch.Tensor([1]).dtype == torch.float64
    finally:
        torch.set_default_dtype(before)
