"""nn.UninitializedParameter and nn.UninitializedBuffer: what they hold, refuse and become."""

import copy
import pickle
import re

import pytest
import torch
from torch import nn
from torch.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy

from conformance._support import raises

NO_SHAPE = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually "
    "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
    "initialized one. Call `forward` to initialize the parameters before accessing their "
    "attributes.")


def refused(what, cls="UninitializedParameter"):
    return (f"Attempted to use an uninitialized parameter in {what}. This error happens when "
            "you are using a `LazyModule` or explicitly manipulating "
            f"`torch.nn.parameter.{cls}` objects. When using LazyModules Call `forward` with a "
            "dummy batch to initialize the parameters before calling torch functions")


def method(name):
    return f"<method '{name}' of 'torch._C.TensorBase' objects>"


def test_the_placeholders_and_their_settings():
    p, b = UninitializedParameter(), UninitializedBuffer()
    assert (repr(p), str(p), repr(b)) == ("<UninitializedParameter>", "<UninitializedParameter>",
                                          "<UninitializedBuffer>")
    assert (p.requires_grad, b.requires_grad) == (True, False)
    assert UninitializedParameter.cls_to_become is nn.Parameter
    assert UninitializedBuffer.cls_to_become is torch.Tensor
    assert isinstance(p, nn.Parameter) and isinstance(b, nn.Buffer) and b.persistent
    assert is_lazy(p) and is_lazy(b) and not is_lazy(torch.zeros(1)) and not is_lazy(None)
    assert nn.UninitializedParameter is UninitializedParameter
    assert nn.UninitializedBuffer is UninitializedBuffer
    assert not UninitializedBuffer(persistent=False).persistent
    assert not UninitializedParameter(requires_grad=False).requires_grad
    assert UninitializedParameter(dtype=torch.float64).dtype == torch.float64


def test_a_parameter_that_requires_grad_must_be_floating():
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                "gradients"):
        UninitializedParameter(dtype=torch.int64)


def test_the_shape_and_sharing_are_refused():
    p = UninitializedParameter()
    with raises(RuntimeError, NO_SHAPE):
        p.shape
    with raises(RuntimeError, "Can't share memory on an uninitialized parameter or buffer. "
                "Call `forward` to initialize the parameters before calling "
                "`module.share_memory()`."):
        p.share_memory_()


@pytest.mark.parametrize(("call", "name"), [
    (lambda p: p.sum(), "sum"), (lambda p: p.numel(), "numel"), (lambda p: p.dim(), "dim"),
    (lambda p: p + 1, "add"), (lambda p: 1 + p, "add"), (lambda p: p * 2, "mul"),
    (lambda p: -p, "neg"), (lambda p: p.detach(), "detach"), (lambda p: p.item(), "item"),
    (lambda p: p.tolist(), "tolist"), (lambda p: p.zero_(), "zero_"),
    (lambda p: p.requires_grad_(False), "requires_grad_"), (lambda p: p == p, "__eq__"),
    (lambda p: p < 1, "lt"), (lambda p: bool(p), "__bool__"), (lambda p: iter(p), "dim"),
])
def test_methods_and_operators_are_refused_by_torch_name(call, name):
    with raises(ValueError, refused(method(name))):
        call(UninitializedParameter())
    with raises(ValueError, refused(method(name), "UninitializedBuffer")):
        call(UninitializedBuffer())


def test_indexing_is_refused_as_a_slot():
    with raises(ValueError, refused("<slot wrapper '__getitem__' of 'torch._C.TensorBase' "
                                    "objects>")):
        UninitializedParameter()[0]


@pytest.mark.parametrize(("call", "name"), [
    (lambda p: len(p), "__len__"), (lambda p: 1 - p, "__rsub__"), (lambda p: 1 / p, "__rdiv__"),
    (lambda p: f"{p}", "__format__")])
def test_methods_written_in_python_are_named_with_their_address(call, name):
    pattern = re.escape(refused(f"<function Tensor.{name} at 0xADDRESS>"))
    with pytest.raises(ValueError, match=pattern.replace("0xADDRESS", "0x[0-9a-f]+")):
        call(UninitializedParameter())


def test_what_stays_open():
    p = UninitializedParameter()
    assert p.size() == torch.Size([0]) and p.dtype == torch.float32 and p.ndim == 1
    assert p.is_floating_point() and not p.is_complex() and p.get_device() == -1
    assert p.is_leaf and p.grad is None and p.device == torch.device("cpu")
    assert type(p.data) is torch.Tensor and p.data.tolist() == []
    assert p.float() is p and type(p.cpu()) is UninitializedParameter
    moved = p.double()
    assert type(moved) is torch.Tensor and moved.dtype == torch.float64
    assert p.to(torch.float16).dtype == torch.float16 and hash(p) == hash(p)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                "operation."):
        p.copy_(torch.zeros(0))


def test_materialize_makes_the_class_it_stands_for():
    p = UninitializedParameter(dtype=torch.float64)
    assert p.materialize((2, 3)) is None
    assert type(p) is nn.Parameter and p.shape == (2, 3) and p.dtype == torch.float64
    assert p.requires_grad
    b = UninitializedBuffer()
    b.materialize([4], dtype=torch.int64)
    assert type(b) is torch.Tensor and b.shape == (4,) and b.dtype == torch.int64
    assert not b.requires_grad and isinstance(b, nn.Buffer)
    q = UninitializedParameter()
    q.materialize(3)
    assert q.shape == (3,)
    with raises(AttributeError, "'Parameter' object has no attribute 'materialize'"):
        q.materialize((2,))


def test_copies_and_pickles_keep_requires_grad():
    p = UninitializedParameter(requires_grad=False, dtype=torch.float64)
    copied = copy.deepcopy(p)
    assert type(copied) is UninitializedParameter and copied is not p
    assert (copied.requires_grad, copied.dtype) == (False, torch.float64)
    memo = {}
    assert copy.deepcopy(p, memo) is copy.deepcopy(p, memo)
    assert p.__reduce_ex__(2) == (UninitializedParameter, (False,))
    loaded = pickle.loads(pickle.dumps(p))
    assert type(loaded) is UninitializedParameter and not loaded.requires_grad
    assert loaded.dtype == torch.float32  # only requires_grad is kept
    assert type(copy.copy(p)) is UninitializedParameter
    buffer = pickle.loads(pickle.dumps(UninitializedBuffer(persistent=False)))
    assert type(buffer) is UninitializedBuffer and buffer.persistent


def test_a_buffer_has_no_deep_copy_of_its_own():
    pattern = re.escape(refused("<function Tensor.__deepcopy__ at 0xADDRESS>",
                                "UninitializedBuffer"))
    with pytest.raises(ValueError, match=pattern.replace("0xADDRESS", "0x[0-9a-f]+")):
        copy.deepcopy(UninitializedBuffer())
