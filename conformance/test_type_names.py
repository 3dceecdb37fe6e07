"""Types named in messages as CPython's C level names them, torch's own types included."""

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
