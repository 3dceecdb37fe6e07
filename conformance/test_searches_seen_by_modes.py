"""isin, searchsorted and bucketize reach a dispatch mode as one op each, with torch's
overload and arguments, run below it with what the mode passes back, and open their
events under the profiler."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import arguments_shown, recording_mode
from conformance.test_factories_under_modes import Answering

Shapes = recording_mode(arguments_shown, with_arguments=True)


s, v = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.5, 0.5])
CASES = {
    "searchsorted": (lambda: torch.searchsorted(s, v), "aten.searchsorted.Tensor", ["T", "T"], {}),
    "searchsorted right": (lambda: torch.searchsorted(s, v, right=True),
                           "aten.searchsorted.Tensor", ["T", "T"], {"right": True}),
    "searchsorted side": (lambda: torch.searchsorted(s, v, side="right"),
                          "aten.searchsorted.Tensor", ["T", "T"], {"side": "right"}),
    "searchsorted number": (lambda: torch.searchsorted(s, 2.5), "aten.searchsorted.Scalar",
                            ["T", "float"], {}),
    "bucketize": (lambda: torch.bucketize(v, s, out_int32=True), "aten.bucketize.Tensor",
                  ["T", "T"], {"out_int32": True}),
    "bucketize number": (lambda: torch.bucketize(2.5, s), "aten.bucketize.Scalar",
                         ["float", "T"], {}),
    "isin": (lambda: torch.isin(v, s), "aten.isin.Tensor_Tensor", ["T", "T"], {}),
    "isin invert": (lambda: torch.isin(v, s, invert=True), "aten.isin.Tensor_Tensor",
                    ["T", "T"], {"invert": True}),
    "isin number second": (lambda: torch.isin(v, 0.5), "aten.isin.Tensor_Scalar",
                           ["T", "float"], {}),
    "isin number first": (lambda: torch.isin(0.5, s), "aten.isin.Scalar_Tensor",
                          ["float", "T"], {}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_search_is_one_op_for_a_mode(case):
    call, name, kinds, keywords = CASES[case]
    expected = call()
    with Shapes() as mode:
        got = call()
    assert mode.seen == [(name, kinds, keywords)]
    assert torch.equal(got, expected) and got.dtype == expected.dtype


class Rightwards(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **{**(kwargs or {}), "right": True})


def test_the_search_runs_with_what_the_mode_passes_on():
    found = torch.tensor([2.0])
    assert torch.searchsorted(s, found).tolist() == [1]
    with Rightwards():
        assert torch.searchsorted(s, found).tolist() == [2]
        assert torch.bucketize(found, s).tolist() == [2]


def test_the_answer_is_read_as_one_tensor():
    answer = torch.zeros(1)
    with Answering(answer):
        assert torch.isin(v, s) is answer
    with pytest.raises(RuntimeError, match="^Unable to cast 5 to Tensor$"):
        with Answering(5):
            torch.bucketize(v, s)


def test_a_refusal_of_the_arguments_comes_before_the_mode():
    with Shapes() as mode:
        with pytest.raises(TypeError, match=r"^searchsorted\(\) received an invalid"):
            torch.searchsorted(s, "x")
    assert mode.seen == []


def _events(call):
    with torch.profiler.profile(record_shapes=True) as prof:
        call()
    return [(event.name, event.input_shapes) for event in prof.events()]


def test_searches_open_their_events_under_the_profiler():
    empty = ("aten::empty", [[]] * 6)
    assert _events(lambda: torch.searchsorted(s, v, right=True)) == [
        ("aten::searchsorted", [[3], [2], [], [], [], []]), empty]
    wrapped = [("aten::to", [[]] * 5), ("aten::_to_copy", [[]] * 7),
               ("aten::empty_strided", [[]] * 6), ("aten::copy_", [[]] * 3)]  # the number
    assert _events(lambda: torch.bucketize(2.5, s)) == [
        ("aten::bucketize", [[], [3], [], []]), empty, *wrapped]
    assert _events(lambda: torch.isin(v, s))[0] == ("aten::isin", [[2], [3], [], []])
