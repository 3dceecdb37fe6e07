"""`<<`, `>>`, `<<=` and `>>=` are torch's own operators __lshift__, __rshift__,
__ilshift__ and __irshift__ to a dispatch mode, the profiler and torch.ops.aten; the
reflected `1 << x` is bitwise_left_shift; every form shifts alike."""

import pytest
import torch

from conformance._support import arguments_shown, recording_mode

Shapes = recording_mode(arguments_shown, with_arguments=True)


a, b = torch.tensor([1, -8, 3]), torch.tensor([1, 2, 70])


def _left(x):
    x <<= b
    return x


def _right(x):
    x >>= 1
    return x


CASES = {
    "a << b": (lambda: a << b, "aten.__lshift__.Tensor", ["T", "T"], [2, -32, 0]),
    "a << 1": (lambda: a << 1, "aten.__lshift__.Scalar", ["T", "int"], [2, -16, 6]),
    "a >> b": (lambda: a >> b, "aten.__rshift__.Tensor", ["T", "T"], [0, -2, 0]),
    "1 << a": (lambda: 1 << a, "aten.bitwise_left_shift.Scalar_Tensor", ["int", "T"],
               [2, 0, 8]),
    "a <<= b": (lambda: _left(a.clone()), "aten.__ilshift__.Tensor", ["T", "T"], [2, -32, 0]),
    "a >>= 1": (lambda: _right(a.clone()), "aten.__irshift__.Scalar", ["T", "int"],
                [0, -4, 1]),
    "bitwise_left_shift": (lambda: torch.bitwise_left_shift(a, b),
                           "aten.bitwise_left_shift.Tensor", ["T", "T"], [2, -32, 0]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_shift_goes_to_a_mode_by_torchs_name(case):
    call, name, kinds, values = CASES[case]
    assert call().tolist() == values
    with Shapes() as mode:
        got = call()
    assert got.tolist() == values
    assert [seen for seen in mode.seen if "clone" not in seen[0]] == [(name, kinds, {})]


def test_the_profiler_names_the_operators():
    with torch.profiler.profile(record_shapes=True) as prof:
        a << b
        c = a.clone()
        c <<= 1
    events = [(e.name, e.input_shapes) for e in prof.events()]
    assert events[:2] == [("aten::__lshift__", [[3], [3]]), ("aten::empty", [[]] * 6)]
    assert events[-1] == ("aten::__ilshift__", [[3], []])


def test_the_operators_are_aten_ops_by_name():
    assert torch.ops.aten.__lshift__.Tensor(a, b).tolist() == [2, -32, 0]
    assert torch.ops.aten.__irshift__.Scalar(a.clone(), 1).tolist() == [0, -4, 1]
    assert torch.ops.aten.__and__.Scalar(a, 1).tolist() == [1, 0, 1]
    with pytest.raises(AttributeError):
        torch.ops.aten.__len__


def test_the_operators_refuse_as_torchs_do():
    with pytest.raises(NotImplementedError, match='"lshift_cpu" not implemented for \'Float\''):
        a << 1.5
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                                           "output type Long$"):
        _left_float = a.clone()
        _left_float <<= torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="unsupported operand type"):
        a << "x"
