"""Black-box tests: the public classes print, pickle and are named in messages by the
module users import them from. The same assertions run on torch.
"""

import copy
import pickle

import pytest
import torch

from conformance._support import raises


def _public():
    return [(torch.Tensor, torch.empty(3)), (torch.Size, torch.Size([2])),
            (torch.dtype, torch.float32), (torch.device, torch.device("cpu")),
            (torch.layout, torch.strided), (torch.memory_format, torch.contiguous_format),
            (torch.finfo, torch.finfo(torch.float32)), (torch.iinfo, torch.iinfo(torch.int8))]


def test_public_classes_name_the_package():
    for cls, value in _public():
        assert type(value) is cls and cls.__module__ == torch.__name__
        assert repr(cls) == f"<class '{torch.__name__}.{cls.__qualname__}'>"
    assert repr(type(torch.empty(3))) == f"<class '{torch.__name__}.Tensor'>"
    assert torch.AcceleratorError.__module__ == torch.__name__
    assert torch.Generator.__module__ == f"{torch.__name__}._C"
    assert torch._C.Generator is torch.Generator


@pytest.mark.parametrize("value", ["strided", "contiguous_format", "float64"])
def test_singletons_pickle_and_copy_as_themselves(value):
    one = getattr(torch, value)
    assert pickle.loads(pickle.dumps(one)) is one
    assert copy.copy(one) is one and copy.deepcopy(one) is one


def test_values_pickle_back():
    assert pickle.loads(pickle.dumps(torch.Size([2, 3]))) == torch.Size([2, 3])
    assert pickle.loads(pickle.dumps(torch.device("cpu"))) == torch.device("cpu")
    assert pickle.loads(pickle.dumps(torch.arange(3.0))).tolist() == [0.0, 1.0, 2.0]
    g = torch.Generator()
    g.manual_seed(3)
    again = pickle.loads(pickle.dumps(g))
    assert type(again) is torch.Generator
    assert torch.rand(2, generator=again).tolist() == torch.rand(2, generator=g).tolist()


def test_messages_name_the_types_as_torch_does():
    assert torch.typename(torch.Size([1])) == "torch.Size"
    assert torch.typename(torch.ones(2)) == "torch.FloatTensor"
    with raises(TypeError, "add(): argument 'other' (position 1) must be Tensor, not torch.Size"):
        torch.ones(2).add(torch.Size([1]))
    with raises(TypeError, "reshape(): argument 'shape' (position 1) must be tuple of ints, "
                           "not torch.dtype"):
        torch.ones(2).reshape(torch.float32)
    with raises(TypeError, "add(): argument 'other' (position 2) must be Tensor, not "
                           "torch.layout"):
        torch.add(torch.ones(2), torch.strided)


def test_finfo_and_iinfo_cannot_be_pickled_or_copied():
    for info, name in ((torch.finfo(torch.float32), "torch.finfo"),
                       (torch.iinfo(torch.int8), "torch.iinfo")):
        for action in (pickle.dumps, copy.copy, copy.deepcopy):
            with pytest.raises(TypeError, match=f"^cannot pickle '{name}' object$"):
                action(info)
