"""Ops whose result is a bool or a number reach dispatch modes as torch's do, and a
mode's answer for them is read as torch converts it: equal, allclose and is_same_size
whole, isclose in its steps, item's _local_scalar_dense read as a Scalar."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode

from conformance._support import recording_mode

CAST = ("Unable to cast Python instance of type {} to C++ type '?' (#define "
        "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")


Logging = recording_mode()


class Answers(TorchDispatchMode):
    def __init__(self, name, answer):
        super().__init__()
        self.name, self.answer, self.seen = name, answer, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func).split(".")[1])
        if str(func).split(".")[1] == self.name:
            return self.answer
        return func(*args, **(kwargs or {}))


def _seen(call):
    with Logging() as log:
        result = call()
    return result, log.seen


def test_truth_ops_reach_the_mode_whole():
    x, y = torch.tensor([1.0, 3.0, 2.0]), torch.tensor([1.0, 3.0, 2.5], requires_grad=True)
    assert _seen(lambda: torch.equal(x, y)) == (False, ["aten.equal.default"])
    assert _seen(lambda: torch.allclose(x, y, atol=0.5)) == (True, ["aten.allclose.default"])
    assert _seen(lambda: x.is_same_size(y)) == (True, ["aten.is_same_size.default"])


STEPS = ["aten.mul.Scalar", "aten.abs.default", "aten.add.Scalar", "aten.sub.Tensor",
         "aten.abs.default", "aten.abs.default", "aten.ne.Scalar", "aten.eq.Tensor",
         "aten.mul.Tensor", "aten.le.Tensor", "aten.bitwise_and_.Tensor",
         "aten.bitwise_or_.Tensor"]
NANS = ["aten.isnan.default", "aten.isnan.default", "aten.bitwise_and.Tensor",
        "aten.bitwise_or_.Tensor"]


@pytest.mark.parametrize("a,b,options,expected,steps", [
    ([1.0, 2.0], [1.0, 2.1], {}, [True, False], ["aten.eq.Tensor", *STEPS]),
    ([1, 2], [1, 3], {}, [True, False], ["aten.eq.Tensor", "aten._to_copy.default", *STEPS]),
    ([True, False], [True, True], {}, [True, False],
     ["aten.eq.Tensor", "aten._to_copy.default", "aten._to_copy.default", *STEPS]),
    ([1.0, 2.0], [1.0, 2.0], {"rtol": 0, "atol": 0}, [True, True], ["aten.eq.Tensor"]),
    ([1.0, float("nan")], [1.0, float("nan")], {"equal_nan": True}, [True, True],
     ["aten.eq.Tensor", *NANS, *STEPS]),
    ([1, 2], [1, 2], {"equal_nan": True}, [True, True],
     ["aten.eq.Tensor", "aten._to_copy.default", *STEPS]),
])
def test_isclose_runs_its_steps_above_autograd(a, b, options, expected, steps):
    a, b = torch.tensor(a), torch.tensor(b)  # made before the mode
    result, seen = _seen(lambda: torch.isclose(a, b, **options))
    assert result.tolist() == expected and seen == steps


def test_isclose_refuses_before_any_step():
    a, b = torch.zeros(2), torch.zeros(2, dtype=torch.float64)
    with Logging() as log:
        with pytest.raises(RuntimeError, match="^Float did not match Double$"):
            torch.isclose(a, b)
    assert log.seen == []


@pytest.mark.parametrize("answer,expected", [
    (True, True), (7, 7), (2.5, 2.5), (1j, 1j), ((1 << 64) - 1, (1 << 64) - 1),
    (-(1 << 63), -(1 << 63)),
])
def test_a_number_answer_is_read_as_a_scalar(answer, expected):
    x = torch.tensor([1.0, 3.0])
    with Answers("_local_scalar_dense", answer):
        got = x[0].item()
    assert got == expected and type(got) is type(expected)


def test_subclasses_of_int_and_float_come_back_plain():
    class Whole(int):
        pass

    class Real(float):
        pass

    x = torch.tensor([1.0])
    for answer, kind in ((Whole(4), int), (Real(1.5), float)):
        with Answers("_local_scalar_dense", answer):
            assert type(x.item()) is kind


@pytest.mark.parametrize("answer,error,message", [
    (None, RuntimeError, "Cannot cast None to number"),
    ("s", RuntimeError, "Cannot cast s to number"),
    ([1], RuntimeError, "Cannot cast [1] to number"),
    (1 << 64, OverflowError, "int too big to convert"),
    (-(1 << 63) - 1, OverflowError, "can't convert negative int to unsigned"),
])
def test_what_is_no_scalar_is_refused_inside_the_mode(answer, error, message):
    x = torch.tensor([1.0, 3.0])
    with pytest.raises(error) as caught:
        with Answers("_local_scalar_dense", answer):
            x[0].item()
    assert str(caught.value) == message
    assert _get_current_dispatch_mode() is None and torch.is_grad_enabled()


def test_numpy_scalars_and_tensors_are_no_scalar():
    np = pytest.importorskip("numpy")
    x = torch.tensor([1.0, 3.0])
    for answer, shown in ((np.int64(3), "3"), (torch.tensor(True), "tensor(True)")):
        with pytest.raises(RuntimeError) as caught:
            with Answers("_local_scalar_dense", answer):
                x[0].item()
        assert str(caught.value) == f"Cannot cast {shown} to number"


@pytest.mark.parametrize("answer,expected", [
    (True, True), (False, False), (None, False), (0, False), (5, True), (2.5, True),
    (0.0, False), (1j, True),
])
@pytest.mark.parametrize("name", ["equal", "allclose", "is_same_size"])
def test_a_truth_answer_is_read_as_a_bool(name, answer, expected):
    x = torch.tensor([1.0, 3.0])
    calls = {"equal": lambda: torch.equal(x, x), "allclose": lambda: torch.allclose(x, x),
             "is_same_size": lambda: x.is_same_size(x)}
    with Answers(name, answer):
        got = calls[name]()
    assert got is expected


def test_a_tensor_answer_is_read_by_its_is_nonzero_under_the_mode():
    x = torch.tensor([1.0, 3.0])
    mode = Answers("equal", torch.tensor(True))
    with mode:
        assert torch.equal(x, x) is True
    assert mode.seen == ["equal", "is_nonzero"]


@pytest.mark.parametrize("answer", ["s", [True], object()])
def test_what_has_no_truth_is_refused_inside_the_mode(answer):
    x = torch.tensor([1.0, 3.0])
    with pytest.raises(RuntimeError) as caught:
        with Answers("equal", answer):
            torch.equal(x, x)
    assert str(caught.value) == CAST.format(type(answer))
    assert _get_current_dispatch_mode() is None and torch.is_grad_enabled()


def _events(call):
    with torch.profiler.profile() as prof:
        call()
    return [event.name for event in prof.events()]


def test_profiled_events_of_the_truth_ops_and_isclose():
    x, b = torch.tensor([1.0, 2.0]), torch.tensor([True, False])
    assert _events(lambda: torch.equal(x, x)) == ["aten::equal", "aten::is_same_size"]
    assert _events(lambda: x.is_same_size(x)) == ["aten::is_same_size"]
    events = _events(lambda: torch.isclose(x, x))
    assert events[0] == "aten::isclose" and "aten::isfinite" in events
    assert events[-4:] == ["aten::__iand__", "aten::bitwise_and_", "aten::__ior__",
                           "aten::bitwise_or_"]
    c = b.clone()
    assert _events(lambda: c.__ixor__(b)) == ["aten::__ixor__", "aten::bitwise_xor_"]
