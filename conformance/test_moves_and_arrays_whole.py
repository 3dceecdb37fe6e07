"""Black-box tests: where composites reach a dispatch mode whole (inference mode, an
inference tensor, a mode's own body), cpu() shows aten.to.dtype_layout naming the dtype,
layout and device, and numpy() shows detach, that move, resolve_conj and resolve_neg;
where autograd is on, numpy() shows its detach alone and cpu() nothing. The same assertions
run on torch."""

import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

MOVE = "aten.to.dtype_layout"
WHOLE_ARRAY = ["aten.detach.default", MOVE, "aten.resolve_conj.default",
               "aten.resolve_neg.default"]


class Seen(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen, self.kwargs = [], []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func))
        self.kwargs.append(dict(kwargs or {}))
        return func(*args, **(kwargs or {}))


def test_with_autograd_on_numpy_shows_its_detach_alone_and_cpu_nothing():
    x = torch.tensor([1.5, 2.0])
    with Seen() as mode:
        a = x.numpy()
        assert x.cpu() is x
    assert mode.seen == ["aten.detach.default"] and a.tolist() == [1.5, 2.0]


@pytest.mark.parametrize("force", [False, True])
def test_numpy_in_inference_mode_moves_and_resolves_its_detached_alias(force):
    x = torch.tensor([1.5, 2.0])
    with torch.inference_mode(), Seen() as mode:
        a = x.numpy(force=force)
    assert mode.seen == WHOLE_ARRAY
    assert mode.kwargs[1] == {"dtype": torch.float32, "layout": torch.strided,
                              "device": torch.device("cpu")}
    a[0] = 4.0  # the array still shares the tensor's memory
    assert x.tolist() == [4.0, 2.0]


def test_numpy_of_an_inference_tensor_and_asarray_show_the_same_steps():
    with torch.inference_mode():
        n = torch.tensor([1, 2])
    with Seen() as mode:
        a = np.asarray(n)
    assert mode.seen == WHOLE_ARRAY and a.dtype == np.int64
    assert mode.kwargs[1]["dtype"] is torch.int64


@pytest.mark.parametrize("memory_format", [None, torch.contiguous_format])
def test_cpu_in_inference_mode_names_dtype_layout_and_device(memory_format):
    x = torch.ones(2, 3, dtype=torch.float64)
    expected = {"dtype": torch.float64, "layout": torch.strided, "device": torch.device("cpu")}
    given = {}
    if memory_format is not None:
        expected["memory_format"] = given["memory_format"] = memory_format
    with torch.inference_mode(), Seen() as mode:
        y = x.cpu(**given)
    assert mode.seen == [MOVE] and mode.kwargs == [expected] and y is x


def test_a_modes_own_body_sees_the_whole_steps_in_the_mode_below():
    x = torch.tensor([3.0])

    class Reading(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if str(func) == "aten.neg.default":
                x.numpy()
            return func(*args, **(kwargs or {}))

    with Seen() as mode, Reading():
        -x
    assert mode.seen == [*WHOLE_ARRAY, "aten.neg.default"]
