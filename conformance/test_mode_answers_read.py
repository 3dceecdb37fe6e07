"""A dispatch mode's answer is read as the op's declared results before the caller sees
it: one tensor, several, or a list of them; what cannot be read so is refused inside the
mode's `with`, and leaves the mode stack and grad mode as they were."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode

from conformance.test_factories_under_modes import Answering

LIST_CAST = ("Unable to cast Python instance of type {} to C++ type '?' (#define "
             "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")


def _under(answer, call):
    with Answering(answer):
        return call()


CALLS = {"max": lambda x: x.max(0), "sort": lambda x: x.sort(), "split": lambda x: x.split(1),
         "unbind": lambda x: x.unbind()}
ONE_TENSOR = {
    "mul": lambda x: x * 2,
    "sum": lambda x: x.sum(),
    "zeros": lambda x: torch.zeros(2),
    "ones_like": lambda x: torch.ones_like(x),
    "add_": lambda x: x.add_(1),
    "exp_": lambda x: x.exp_(),
}


@pytest.mark.parametrize("answer,shown", [([], "[]"), (5, "5"), (2.5, "2.5"), ("s", "s"),
                                          (True, "True"), ((), "()"), ({"a": 1}, "{'a': 1}")])
@pytest.mark.parametrize("op", sorted(ONE_TENSOR))
def test_one_tensor_result_refuses_what_is_no_tensor(op, answer, shown):
    x = torch.ones(2)
    with pytest.raises(RuntimeError) as caught:
        _under(answer, lambda: ONE_TENSOR[op](x))
    assert str(caught.value) == f"Unable to cast {shown} to Tensor"
    assert _get_current_dispatch_mode() is None and torch.is_grad_enabled()


def test_a_tuple_answer_for_one_tensor_is_shown_whole():
    t = torch.zeros(1)
    with pytest.raises(RuntimeError, match=r"^Unable to cast \(tensor\(\[0\.\]\), 5\) to Tensor$"):
        _under((t, 5), lambda: torch.ones(2) * 2)


def test_none_passes_for_one_tensor_and_an_in_place_op_gives_its_tensor():
    x = torch.ones(2)
    assert _under(None, lambda: x * 2) is None
    assert _under(None, lambda: torch.zeros(2)) is None
    assert _under(None, lambda: x.add_(1)) is x


@pytest.mark.parametrize("answer,message", [
    ((torch.zeros(1), 5), "Unable to cast 5 to Tensor"),
    ([torch.zeros(1), "s"], "Unable to cast s to Tensor"),
    ((5, torch.zeros(1)), "Unable to cast 5 to Tensor"),
    ((torch.zeros(1),), "Expected Tensor but got None"),
    ((), "Expected Tensor but got None"),
    ([], "Expected Tensor but got None"),
])
@pytest.mark.parametrize("op", ["max", "sort"])
def test_several_results_are_read_one_by_one(op, answer, message):
    x = torch.ones(3)
    with pytest.raises(RuntimeError) as caught:
        _under(answer, lambda: CALLS[op](x))
    assert str(caught.value) == message


def test_a_none_among_several_results_passes():
    t, x = torch.zeros(1), torch.ones(3)
    values, indices = _under((t, None), lambda: x.max(0))
    assert values is t and indices is None


@pytest.mark.parametrize("answer,kind", [
    ((torch.zeros(1), None), "<class 'tuple'>"),
    ([torch.zeros(1), 5], "<class 'list'>"),
    (None, "<class 'NoneType'>"),
    (5, "<class 'int'>"),
    (torch.zeros(1), "<class 'torch.Tensor'>"),
])
@pytest.mark.parametrize("op", ["split", "unbind"])
def test_a_list_result_takes_tensors_only(op, answer, kind):
    x = torch.ones(2)
    with pytest.raises(RuntimeError) as caught:
        _under(answer, lambda: CALLS[op](x))
    assert str(caught.value) == LIST_CAST.format(kind)


@pytest.mark.parametrize("answer", [[], (), [torch.zeros(1)]])
def test_a_list_result_comes_back_as_a_tuple(answer):
    x = torch.ones(2)
    got = _under(answer, lambda: x.split(1))
    assert type(got) is tuple and len(got) == len(answer)


@pytest.mark.parametrize("answer", [5, [], "s"])
def test_one_out_reads_the_answer_as_one_tensor(answer):
    x, out = torch.ones(2), torch.empty(2)
    with pytest.raises(RuntimeError) as caught:
        _under(answer, lambda: torch.add(x, 1, out=out))
    assert str(caught.value) == f"Unable to cast {answer} to Tensor"


@pytest.mark.parametrize("answer", [None, "other"])
def test_one_out_is_given_back_whatever_tensor_the_mode_answers(answer):
    x, out, other = torch.ones(2), torch.empty(2), torch.zeros(3)
    assert _under(other if answer else None, lambda: torch.add(x, 1, out=out)) is out


class _FirstDropped(TorchDispatchMode):
    """Runs ``name``, then hands back its results with the first one dropped to None."""

    def __init__(self, name):
        super().__init__()
        self.name = name

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        return (None, *out[1:]) if str(func).split(".")[1] == self.name else out


@pytest.mark.parametrize("name,call,kind", [
    ("max", lambda v: v.max(0), "max"), ("min", lambda v: v.min(0), "min"),
    ("sort", lambda v: v.sort(), "sort"), ("topk", lambda v: v.topk(2), "topk"),
    ("cummax", lambda v: v.cummax(0), "cummax"), ("kthvalue", lambda v: v.kthvalue(2), "kthvalue"),
    ("mode", lambda v: v.mode(), "mode"), ("aminmax", lambda v: torch.aminmax(v), "aminmax"),
    ("median", lambda v: v.median(0), "median"), ("frexp", lambda v: torch.frexp(v), "frexp"),
])
def test_none_for_the_first_of_several_results_reaches_the_caller(name, call, kind):
    v = torch.tensor([1.0, 3.0, 2.0])
    expected = call(v)
    with _FirstDropped(name):
        got = call(v)
    assert type(got).__name__ == kind and got[0] is None
    assert torch.equal(got[1], expected[1])
