"""Black-box tests: what a dispatch mode sees of nanmean. With autograd on, the pieces torch
makes it of (detach, ne, logical_not_, sum, nansum, div); where autograd is out of the way,
nanmean whole, its dims as a list. The values and the graph stay as without a mode. The same
assertions run on torch.
"""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import recording_mode

Names = recording_mode()
PIECES = ["aten.detach.default", "aten.ne.Tensor", "aten.logical_not_.default",
          "aten.sum.dim_IntList", "aten.nansum.default", "aten.div.Tensor"]
NAN = float("nan")


def _x():
    return torch.tensor([[1.0, NAN, 3.0], [4.0, 5.0, NAN]], dtype=torch.float64)


CALLS = [
    lambda x: x.nanmean(),
    lambda x: x.nanmean(dim=0),
    lambda x: torch.nanmean(x, 1, keepdim=True),
    lambda x: x.nanmean((0, 1)),
    lambda x: x.nanmean(dtype=torch.float32),
]


@pytest.mark.parametrize("call", CALLS)
def test_with_autograd_on_the_mode_sees_the_pieces(call):
    x = _x().requires_grad_()
    with Names() as mode:
        y = call(x)
    assert mode.seen == PIECES
    alone = call(x)
    assert torch.equal(y.isnan(), alone.isnan())
    assert torch.equal(y.nan_to_num(), alone.nan_to_num())
    assert y.grad_fn.name() == alone.grad_fn.name() == "DivBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "NansumBackward0"


class Calls(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        shown = tuple("T" if isinstance(a, torch.Tensor) else a for a in args)
        self.seen.append((str(func), shown, kwargs))
        return func(*args, **kwargs)


@pytest.mark.parametrize(("call", "args", "kwargs"), [
    (lambda x: x.nanmean(), ("T",), {}),
    (lambda x: x.nanmean(dim=0), ("T", [0]), {}),
    (lambda x: torch.nanmean(x, 1, keepdim=True), ("T", [1], True), {}),
    (lambda x: x.nanmean((0, -1)), ("T", [0, -1]), {}),
    (lambda x: x.nanmean(dtype=torch.float32), ("T",), {"dtype": torch.float32}),
])
def test_where_autograd_is_out_of_the_way_the_mode_sees_it_whole(call, args, kwargs):
    x = _x()
    with torch.inference_mode():
        with Calls() as mode:
            y = call(x)
        alone = call(x)
    assert mode.seen == [("aten.nanmean.default", args, kwargs)]
    assert torch.equal(y.nan_to_num(), alone.nan_to_num()) and y.dtype == alone.dtype
    with torch.inference_mode():
        z = _x()
    with Names() as mode:
        z.nanmean(0)
    assert mode.seen == ["aten.nanmean.default"]  # an inference tensor, outside the mode


def test_two_modes_see_the_same_pieces():
    x = _x().requires_grad_()
    with Names() as outer, Names() as inner:
        x.nanmean(0)
    assert inner.seen == outer.seen == PIECES


def test_a_number_alone():
    x = torch.tensor(NAN, requires_grad=True)
    with Names() as mode:
        y = x.nanmean()
    assert mode.seen == PIECES and y.isnan()
