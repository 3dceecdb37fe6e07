"""The weights-only loader: pickle protocols, NumPy's dtype, an explicit pickle_module and
where its warnings point, as torch's."""

import io
import pickle
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises
from conformance.test_save_load import ADVICE

UNSAFE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only if "
    "you got the file from a trusted source."
)
OPERAND = (
    f"Weights only load failed. {UNSAFE}\nPlease file an issue with the following so that we "
    "can make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n\n"
    "Unsupported operand {}\n\nCheck the documentation of torch.load to learn more about "
    "types accepted by default with weights_only "
    "https://pytorch.org/docs/stable/generated/torch.load.html."
)
PROTOCOL = (
    "Detected pickle protocol {} in the checkpoint, which was not the default pickle protocol "
    "used by `torch.load` (2). The weights_only Unpickler might not support all instructions "
    "implemented by this protocol, please file an issue for adding support if you encounter "
    "this."
)


def saved(obj, **save_args):
    buffer = io.BytesIO()
    torch.save(obj, buffer, **save_args)
    buffer.seek(0)
    return buffer


def _loaded_noting_warnings(buffer, **load_args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return torch.load(buffer, **load_args), [str(w.message) for w in caught]
        except pickle.UnpicklingError as error:
            return error, [str(w.message) for w in caught]


@pytest.mark.parametrize(("protocol", "operand"), [(0, 100), (1, 73), (4, 149), (5, 149),
                                                   (-1, 149)])
def test_weights_only_refuses_what_its_loop_does_not_know(protocol, operand):
    x = torch.arange(3.0)
    result, caught = _loaded_noting_warnings(saved({"x": x}, pickle_protocol=protocol))
    assert isinstance(result, pickle.UnpicklingError)
    assert str(result) == OPERAND.format(operand)
    shown = 5 if protocol == -1 else protocol
    assert caught == ([PROTOCOL.format(shown)] if shown > 2 else [])


def test_protocol_3_loads_with_a_warning_and_2_without():
    x = torch.arange(3.0)
    result, caught = _loaded_noting_warnings(saved({"x": x}, pickle_protocol=3))
    assert result["x"].tolist() == [0.0, 1.0, 2.0] and caught == [PROTOCOL.format(3)]
    result, caught = _loaded_noting_warnings(saved({"x": x}, pickle_protocol=2))
    assert result["x"].tolist() == [0.0, 1.0, 2.0] and caught == []


@pytest.mark.parametrize("protocol", [1, 3, 4, 5])
def test_without_weights_only_every_protocol_but_0_loads_silently(protocol):
    x = torch.arange(3.0)
    result, caught = _loaded_noting_warnings(saved({"x": x}, pickle_protocol=protocol),
                                             weights_only=False)
    assert result["x"].tolist() == [0.0, 1.0, 2.0] and caught == []


def test_a_numpy_dtype_is_refused_by_weights_only():
    with raises(pickle.UnpicklingError, ADVICE.format("numpy.dtype")):
        torch.load(saved(np.dtype("float32")))
    assert torch.load(saved(np.dtype("float32")), weights_only=False) == np.dtype("float32")


def test_an_explicit_pickle_module_is_refused_with_weights_only():
    with raises(RuntimeError, "Can not safely load weights when explicit pickle_module is "
                "specified"):
        torch.load(saved(torch.ones(2)), pickle_module=pickle, weights_only=True)
    with raises(RuntimeError, "Can not safely load weights when explicit pickle_module is "
                "specified"):
        torch.load(3, pickle_module=pickle, weights_only=True)  # before the file is looked at
    assert torch.load(saved(torch.ones(2)), pickle_module=pickle).tolist() == [1.0, 1.0]


def test_a_pickle_module_that_is_no_module_is_asked_its_name():
    with raises(AttributeError, "'int' object has no attribute '__name__'"):
        torch.load(saved(torch.ones(2)), pickle_module=5, weights_only=False)


def test_the_warning_for_load_arguments_points_at_serialization():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.load(saved(torch.ones(2)), encoding="latin1")
    assert [(str(w.message), w.filename.rsplit("/", 1)[-1]) for w in caught] == [
        ("pickle_load_args only works if `weights_only=False`.", "serialization.py")]


def test_protocol_0_cannot_be_loaded_without_weights_only_either():
    with raises(AssertionError, "saved_id must be a tuple, got str"):
        torch.load(saved(torch.ones(2), pickle_protocol=0), weights_only=False)
