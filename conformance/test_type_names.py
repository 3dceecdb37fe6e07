"""Types named in messages as CPython's C level names them, torch's own types included."""

import collections

import numpy as np
import pytest
import torch

from conformance._support import raises


class Mine:
    pass


VALUES = [
    (lambda: torch.tensor(True), "Tensor"),
    (lambda: torch.nn.Parameter(torch.ones(1)), "Parameter"),
    (lambda: np.array(True), "numpy.ndarray"),
    (lambda: Mine(), "Mine"),
    (lambda: torch.float32, "torch.dtype"),
    (lambda: torch.Size([1]), "torch.Size"),
    (lambda: torch.device("cpu"), "torch.device"),
    (lambda: torch.Generator(), "torch._C.Generator"),
    (lambda: torch.strided, "torch.layout"),
    (lambda: torch.contiguous_format, "torch.memory_format"),
    (lambda: torch.finfo(torch.float32), "torch.finfo"),
    (lambda: torch.iinfo(torch.int32), "torch.iinfo"),
    (lambda: torch.max(torch.ones(2), 0), "torch.return_types.max"),
]

SETTERS = [
    (torch.set_grad_enabled, "set_grad_enabled"),
    (torch.autograd.set_multithreading_enabled, "set_multithreading_enabled"),
    (torch._C._set_view_replay_enabled, "set_view_replay_enabled"),
    (torch.autograd.set_detect_anomaly, "set_anomaly_enabled"),
]


@pytest.mark.parametrize("make, name", VALUES)
@pytest.mark.parametrize("setter, setter_name", SETTERS)
def test_mode_setters_name_the_type_they_refuse(make, name, setter, setter_name):
    before = (torch.is_grad_enabled(), torch.is_anomaly_enabled())
    with raises(TypeError, f"{setter_name}(): argument 'enabled' (position 1) must be bool, "
                           f"not {name}"):
        setter(make())
    assert (torch.is_grad_enabled(), torch.is_anomaly_enabled()) == before


@pytest.mark.parametrize("make, name", [v for v in VALUES if v[1] not in ("Tensor", "Parameter")])
def test_is_inference_names_the_type_it_refuses(make, name):
    with raises(TypeError, f"is_inference(): argument 'input' (position 1) must be Tensor, "
                           f"not {name}"):
        torch.is_inference(make())


def test_a_custom_functions_refusals_name_numpy_types():
    class Saves(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(np.ones(1))
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return grad

    class Returns(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return np.ones(2)

    a = torch.ones(2, requires_grad=True)
    with raises(TypeError, "save_for_backward can only save variables, but argument 0 is of "
                           "type numpy.ndarray"):
        Saves.apply(a)
    with raises(RuntimeError, "expected Variable or None (got numpy.ndarray)"):
        Returns.apply(a).sum().backward()


def test_an_unpack_hook_result_is_named_by_its_c_type_name():
    a = torch.ones(2, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: np.ones(2)):
        y = a.exp()
    with raises(TypeError, "Output of saved tensor unpack_hook expected to be a Tensor but got "
                           "result of type numpy.ndarray"):
        y.sum().backward()


def test_assigning_something_else_than_a_tensor_names_its_type():
    a = torch.ones(2, requires_grad=True)
    with raises(TypeError, "assigned grad expected to be a Tensor or None but got grad of type "
                           "numpy.ndarray"):
        a.grad = np.ones(2)
    with raises(TypeError, "Variable data has to be a tensor, but got numpy.ndarray"):
        a.data = np.ones(2)
    with raises(RuntimeError, "grad_dtype must be a torch.dtype or None, but got torch.Size"):
        a.grad_dtype = torch.Size([1])
    assert a.grad is None and a.tolist() == [1.0, 1.0]


V, OD = np.ones(2), collections.OrderedDict()
CALLS = [
    (lambda x: torch.Generator().manual_seed(V), RuntimeError,
     "manual_seed expected a long, but got numpy.ndarray"),
    (lambda x: torch.Generator().set_state(V), TypeError,
     "expected a torch.ByteTensor, but got numpy.ndarray"),
    (lambda x: torch.Size([V]), TypeError,
     "torch.Size() takes an iterable of 'int' (item 0 is 'numpy.ndarray')"),
    (lambda x: torch.Size([torch.float32]), TypeError,
     "torch.Size() takes an iterable of 'int' (item 0 is 'torch.dtype')"),
    (lambda x: torch.zeros(2, V), TypeError,
     "zeros(): argument 'size' failed to unpack the object at pos 2 with error \"type must be "
     "tuple of ints,but got numpy.ndarray\""),
    (lambda x: x.new_full(V, 1.0), TypeError,
     "new_full(): argument 'size' (position 1) must be tuple of ints, not numpy.ndarray"),
    (lambda x: x.stride(V), TypeError,
     "stride(): argument 'dim' (position 1) must be int, not numpy.ndarray"),
    (lambda x: torch.kron(x, V), TypeError,
     "kron(): argument 'other' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda x: torch.broadcast_tensors(x, V), TypeError,
     "expected Tensor as element 1 in argument 0, but got numpy.ndarray"),
    (lambda x: torch.cat([x, V]), TypeError,
     "expected Tensor as element 1 in argument 0, but got numpy.ndarray"),
    (lambda x: torch.add(x, x, out=V), TypeError,
     "add(): argument 'out' must be Tensor, not numpy.ndarray"),
    (lambda x: torch.linalg.matrix_power(x, OD), TypeError,
     "linalg_matrix_power(): argument 'n' (position 2) must be int, not "
     "collections.OrderedDict"),
    (lambda x: torch.hypot(x, V), TypeError,
     "hypot(): argument 'other' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda x: torch.atan2(x, V), TypeError,
     "atan2(): argument 'other' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda x: torch.frexp(x, out=OD), TypeError,
     "frexp(): argument 'out' must be tuple of Tensors, not collections.OrderedDict"),
    (lambda x: torch.tensor([OD]), RuntimeError,
     "Could not infer dtype of collections.OrderedDict"),
    (lambda x: torch.randint(5, V), TypeError,
     "randint(): argument 'size' (position 2) must be tuple of ints, not numpy.ndarray"),
    (lambda x: torch.softmax(x, V), TypeError,
     "softmax(): argument 'dim' (position 2) must be int, not numpy.ndarray"),
    (lambda x: x.index_put_((torch.tensor([0]),), V), TypeError,
     "index_put_(): argument 'values' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda x: x.index_put_((V,), torch.ones(1)), TypeError,
     "expected Tensor as element 0 in argument 0, but got numpy.ndarray"),
    (lambda x: torch.kthvalue(x, OD), TypeError,
     "kthvalue(): argument 'k' (position 2) must be int, not collections.OrderedDict"),
    (lambda x: torch.index_select(x, 0, V), TypeError,
     "index_select(): argument 'index' (position 3) must be Tensor, not numpy.ndarray"),
    (lambda x: torch.finfo(V), TypeError,
     "finfo(): argument 'type' (position 1) must be torch.dtype, not numpy.ndarray"),
    (lambda x: torch.iinfo(torch.Size([2])), TypeError,
     "iinfo(): argument 'type' (position 1) must be torch.dtype, not torch.Size"),
    (lambda x: torch.Tensor(OD), TypeError,
     "new(): data must be a sequence (got collections.OrderedDict)"),
]


@pytest.mark.parametrize("call, kind, message", CALLS)
def test_operations_name_a_refused_argument_by_its_c_type_name(call, kind, message):
    x = torch.ones(2, 2)
    with raises(kind, message):
        call(x)
    assert x.tolist() == [[1.0, 1.0], [1.0, 1.0]]


@pytest.mark.parametrize("call, name, got", [
    (lambda x: torch.bitwise_left_shift(V, x.long()), "bitwise_left_shift",
     "numpy.ndarray, Tensor"),
    (lambda x: torch.rsub(V, x), "rsub", "numpy.ndarray, Tensor"),
    (lambda x: torch.searchsorted(V, x), "searchsorted", "numpy.ndarray, Tensor"),
    (lambda x: torch.isin(V, OD), "isin", "numpy.ndarray, collections.OrderedDict"),
    (lambda x: torch.clamp(x, x, OD), "clamp", "Tensor, Tensor, collections.OrderedDict"),
    (lambda x: torch.narrow(x, V, 0, 1), "narrow", "Tensor, numpy.ndarray, int, int"),
    (lambda x: torch.randint(0, V, (2,)), "randint", "int, numpy.ndarray, tuple"),
    (lambda x: torch.movedim(x, 0, OD), "movedim", "Tensor, int, collections.OrderedDict"),
    (lambda x: torch.addmm(x, x, x, beta=OD), "addmm",
     "Tensor, Tensor, Tensor, beta=collections.OrderedDict"),
])
def test_an_invalid_combination_names_numpy_and_collections_types(call, name, got):
    with pytest.raises(TypeError) as info:
        call(torch.ones(2, 2))
    assert str(info.value).startswith(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected")
