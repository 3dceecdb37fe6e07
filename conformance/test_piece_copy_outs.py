"""out= for split_copy, split_with_sizes_copy and unbind_copy: a list of outs, one per
piece; None returned; resized and of the piece's dtype (split_copy: copied as copy_
copies); nothing recorded; the overloads a mode sees, and versions held under it."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import raises

GRAD = ("unbind_copy(): functions with out=... arguments don't support automatic "
        "differentiation, but one of the arguments requires grad.")


def _x():
    return torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])


CALLS = {
    "unbind": lambda x, out: torch.unbind_copy(x, 0, out=out),
    "split": lambda x, out: torch.split_copy(x, 2, 1, out=out),
    "sized": lambda x, out: torch.split_with_sizes_copy(x, [2, 1], 1, out=out),
}
SHAPES = {"unbind": [(3,), (3,)], "split": [(2, 2), (2, 1)], "sized": [(2, 2), (2, 1)]}


@pytest.mark.parametrize("name", CALLS)
def test_each_piece_is_written_into_its_out_and_none_is_returned(name):
    outs = [torch.empty(shape) for shape in SHAPES[name]]
    assert CALLS[name](_x(), outs) is None
    plain = {"unbind": torch.unbind_copy(_x(), 0), "split": torch.split_copy(_x(), 2, 1),
             "sized": torch.split_with_sizes_copy(_x(), [2, 1], 1)}[name]
    assert [o.tolist() for o in outs] == [p.tolist() for p in plain]
    assert [o._version for o in outs] == [1, 1]
    assert [o.stride() for o in outs] == [p.stride() for p in plain]


@pytest.mark.parametrize("name", ["unbind", "sized"])
def test_unbind_and_split_with_sizes_resize_their_outs_then_want_their_dtype(name):
    outs = [torch.empty(0), torch.zeros(7)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        CALLS[name](_x(), outs)
    assert [tuple(o.shape) for o in outs] == SHAPES[name]
    assert [o._version for o in outs] == [2, 2]  # the resize, then the copy
    assert sum("was resized" in str(w.message) for w in caught) == 1
    outs = [torch.empty(0), torch.empty(0, dtype=torch.int64)]
    with raises(RuntimeError, "Expected out tensor to have dtype float, but got long int "
                "instead"):
        CALLS[name](_x(), outs)
    # the first was written; the second resized, then refused
    assert [(tuple(o.shape), o._version) for o in outs] == [(SHAPES[name][0], 2),
                                                          (SHAPES[name][1], 1)]


def test_split_copy_copies_as_copy_does():
    outs = [torch.empty(2, 2, dtype=torch.float64), torch.zeros(2, 1, dtype=torch.int64)]
    torch.split_copy(_x() + 0.5, 2, 1, out=outs)
    assert outs[0].tolist() == [[0.5, 1.5], [3.5, 4.5]] and outs[1].tolist() == [[2], [5]]
    outs = [torch.empty(2, 2), torch.empty(0)]
    with raises(RuntimeError, "output with shape [0] doesn't match the broadcast shape "
                "[2, 0]"):
        torch.split_copy(_x(), 2, 1, out=outs)
    assert outs[0].tolist() == [[0.0, 1.0], [3.0, 4.0]] and outs[1]._version == 0


@pytest.mark.parametrize("call, message", [
    (lambda o: torch.split_copy(_x(), 2, 1, out=o[:1]),
     "split_copy_Tensor_out() expected an out= argument of size 2, got size 1"),
    (lambda o: torch.split_with_sizes_copy(_x(), [2, 1], 1, out=o[:1]),
     "split_with_sizes_copy_out expected an out= argument of size 2, got size 1"),
    (lambda o: torch.unbind_copy(_x(), 0, out=o * 2),
     "unbind_copy_int_out expected an out= argument of size 2, got size 4"),
    (lambda o: torch.split_copy(_x(), -1, 1, out=o[:1]),
     "split expects split_size be non-negative, but got split_size=-1"),
])
def test_the_count_of_outs_is_checked_after_the_input(call, message):
    outs = [torch.empty(0), torch.empty(0)]
    with raises(RuntimeError, message):
        call(outs)
    assert [o._version for o in outs] == [0, 0]


def test_the_outs_argument_is_a_sequence_of_tensors():
    with raises(TypeError, "split_copy(): argument 'out' must be tuple of Tensors, not "
                "Tensor"):
        torch.split_copy(_x(), 2, 1, out=torch.empty(2))
    with raises(TypeError, "expected Tensor as element 0 in argument 2, but got int"):
        torch.unbind_copy(_x(), 0, out=[1, 2])
    outs = (torch.empty(0), torch.empty(0))
    assert torch.unbind_copy(_x(), dim=0, out=outs) is None and outs[1].tolist() == [3, 4, 5]


@pytest.mark.parametrize("name", CALLS)
def test_nothing_is_recorded(name):
    x = _x().requires_grad_()
    outs = [torch.empty(shape) for shape in SHAPES[name]]
    CALLS[name](x, outs)
    assert [(o.requires_grad, o.grad_fn) for o in outs] == [(False, None)] * 2
    wanting = [torch.empty(shape).requires_grad_() for shape in SHAPES[name]]
    if name == "unbind":
        with raises(RuntimeError, GRAD):
            CALLS[name](_x(), wanting[:1])  # refused before the count is checked
        with torch.no_grad():
            CALLS[name](_x(), wanting)
    else:
        CALLS[name](_x(), wanting)
    assert wanting[1].tolist() == ([3.0, 4.0, 5.0] if name == "unbind" else [[2.0], [5.0]])
    assert wanting[1].requires_grad and wanting[1].grad_fn is None


class _Seen(TorchDispatchMode):
    def __init__(self, answer=False):
        super().__init__()
        self.seen, self.answer = [], answer

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.seen.append((str(func), [a if not isinstance(a, torch.Tensor) else "T"
                                      for a in args], type(kwargs.get("out")).__name__))
        return None if self.answer and "_copy" in str(func) else func(*args, **kwargs)


def test_a_mode_sees_the_out_overloads_and_the_outs_keep_their_versions():
    x = _x()
    outs = [[torch.empty(0), torch.empty(0)], [torch.empty(2, 2), torch.empty(2, 1)],
            [torch.empty(0), torch.empty(0)], [torch.empty(2, 3)]]
    with _Seen() as mode:
        torch.unbind_copy(x, 0, out=outs[0])
        torch.split_copy(x, 2, 1, out=outs[1])
        torch.split_with_sizes_copy(x, (2, 1), 1, out=outs[2])
        torch.split_copy(x, 3, 0, out=outs[3])
    assert mode.seen == [("aten.unbind_copy.int_out", ["T"], "list"),
                         ("aten.split_copy.Tensor_out", ["T", 2, 1], "list"),
                         ("aten.split_with_sizes_copy.out", ["T", [2, 1], 1], "list"),
                         ("aten.split_copy.Tensor_out", ["T", 3], "list")]
    assert [o._version for group in outs for o in group] == [0] * 7
    assert outs[0][1].tolist() == [3.0, 4.0, 5.0] and outs[3][0].tolist() == x.tolist()
    answered = [torch.empty(0), torch.empty(0), torch.empty(0)]
    with _Seen(answer=True):
        assert torch.unbind_copy(x, 1, out=answered) is None
    assert [(tuple(o.shape), o._version) for o in answered] == [((0,), 0)] * 3
