"""Black-box tests: what a dispatch mode is handed, argument by argument, for calls whose
arguments torch's schema takes in a form of its own: as_strided and floor_divide by position
only, narrow with a tensor start before it is read, tensordot's dims as two lists,
atleast_Nd of several tensors as one list, linalg.inv, inverse and tensorinv whole inside
inference_mode, tensorinv's steps with autograd on, tensordot of two matrices into a number
with both operands permuted first, and views refused for their sizes. The same assertions
run on torch."""

import contextlib

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()


def _x():
    return torch.arange(6.0).reshape(2, 3) * 0.25 + 0.5


def _square():
    return torch.arange(9.0).reshape(3, 3)


LONG = {"dtype": torch.int64, "layout": torch.strided, "device": torch.device("cpu")}

CASES = [  # (id, call, inside inference_mode, what the mode sees)
    ("as_strided_given", lambda: _x().as_strided((2,), (1,), 1), False,
     [("aten.as_strided.default", ("T", [2], [1], 1), {})]),
    ("fill_diagonal", lambda: _square().fill_diagonal_(1.0), False,
     [("aten.as_strided.default", ("T", [3], [4], 0), {}), ("aten.fill_.Scalar", ("T", 1.0), {})]),
    ("fill_diagonal_wrap", lambda: torch.zeros(7, 3).fill_diagonal_(2.0, wrap=True), False,
     [("aten.as_strided.default", ("T", [3], [4], 0), {}), ("aten.fill_.Scalar", ("T", 2.0), {}),
      ("aten.as_strided.default", ("T", [3], [4], 12), {}),
      ("aten.fill_.Scalar", ("T", 2.0), {})]),
    ("floor_divide_number", lambda: torch.floor_divide(_x(), 2), False,
     [("aten.floor_divide.default", ("T", 2), {})]),
    ("floor_divide_method", lambda: _x().floor_divide(2), True,
     [("aten.floor_divide.default", ("T", 2), {})]),
    ("floor_divide_tensors", lambda: torch.floor_divide(_x(), _x() + 1), False,
     [("aten.floor_divide.default", ("T", "T"), {})]),
    ("number_floor_divide", lambda: torch.floor_divide(7, _x()), False,
     [("aten.floor_divide.default", (7, "T"), {})]),
    ("narrow_tensor_start", lambda: _x().narrow(1, torch.tensor(1), 2), True,
     [("aten.narrow.Tensor", ("T", 1, "T", 2), {})]),
    ("narrow_number_start", lambda: _x().narrow(1, 1, 2), True,
     [("aten.narrow.default", ("T", 1, 1, 2), {})]),
    ("tensordot_pairs", lambda: torch.tensordot(_x(), _x(), dims=([1], [1])), True,
     [("aten.tensordot.default", ("T", "T", [1], [1]), {})]),
    ("tensordot_number", lambda: torch.tensordot(_x(), _square(), 1), True,
     [("aten.tensordot.default", ("T", "T", [-1], [0]), {})]),
    ("tensordot_default", lambda: torch.tensordot(_x(), _x()), True,
     [("aten.tensordot.default", ("T", "T", [-2, -1], [0, 1]), {})]),
    ("tensordot_tuples", lambda: torch.tensordot(_x(), _x(), ((0, 1), (0, 1))), True,
     [("aten.tensordot.default", ("T", "T", [0, 1], [0, 1]), {})]),
    ("tensordot_to_a_number", lambda: torch.tensordot(_x(), _x()), False,
     [("aten.permute.default", ("T", [-2, -1]), {}), ("aten.permute.default", ("T", [0, 1]), {}),
      ("aten.view.default", ("T", [6]), {}), ("aten.view.default", ("T", [6]), {}),
      ("aten.dot.default", ("T", "T"), {}), ("aten.view.default", ("T", []), {})]),
    ("atleast_1d_several", lambda: torch.atleast_1d(_x(), _x()), True,
     [("aten.atleast_1d.Sequence", (["T", "T"],), {})]),
    ("atleast_2d_several", lambda: torch.atleast_2d(_x(), _x(), _x()), True,
     [("aten.atleast_2d.Sequence", (["T", "T", "T"],), {})]),
    ("atleast_3d_several", lambda: torch.atleast_3d(_x(), _x()), True,
     [("aten.atleast_3d.Sequence", (["T", "T"],), {})]),
    ("atleast_1d_one", lambda: torch.atleast_1d(_x()), True,
     [("aten.atleast_1d.default", ("T",), {})]),
    ("inv_whole", lambda: torch.linalg.inv(torch.eye(3) * 2 + 0.5), True,
     [("aten.linalg_inv.default", ("T",), {})]),
    ("inverse_whole", lambda: torch.inverse(torch.eye(3) * 2 + 0.5), True,
     [("aten.inverse.default", ("T",), {})]),
    ("inverse_method_whole", lambda: (torch.eye(3) * 2 + 0.5).inverse(), True,
     [("aten.inverse.default", ("T",), {})]),
    ("tensorinv_whole", lambda: torch.linalg.tensorinv(torch.eye(4).view(4, 2, 2), 1), True,
     [("aten.linalg_tensorinv.default", ("T", 1), {})]),
    ("tensorinv_whole_default", lambda: torch.linalg.tensorinv(torch.eye(4).view(2, 2, 2, 2)),
     True, [("aten.linalg_tensorinv.default", ("T",), {})]),
    ("quantile_whole", lambda: torch.quantile(_x(), 0.3), True,
     [("aten.quantile.scalar", ("T", 0.3), {})]),
    ("quantile_tensor_whole", lambda: torch.quantile(_x(), torch.tensor([0.2, 0.9]), 1, True),
     True, [("aten.quantile.default", ("T", "T", 1, True), {})]),
    ("nanquantile_method_whole", lambda: _x().nanquantile(0.5, dim=0, interpolation="lower"),
     True, [("aten.nanquantile.scalar", ("T", 0.5, 0), {"interpolation": "lower"})]),
    ("quantile_defaults_given_whole",
     lambda: torch.quantile(_x(), 0.5, None, False, interpolation="linear"), True,
     [("aten.quantile.scalar", ("T", 0.5), {})]),
    ("quantile_steps", lambda: torch.quantile(_x(), 0.3, 1), False,
     [("aten.scalar_tensor.default", (0.3,),
       {"dtype": torch.float32, "layout": torch.strided, "device": torch.device("cpu")}),
      ("aten.sort.default", ("T",), {}), ("aten.view.default", ("T", [2, 3]), {}),
      ("aten.mul.Scalar", ("T", 2), {}), ("aten.isnan.default", ("T",), {}),
      ("aten.any.dim", ("T", -1, True), {}), ("aten.expand.default", ("T", [2, 1]), {}),
      ("aten.masked_fill.Scalar", ("T", "T", 2), {}),
      ("aten._to_copy.default", ("T",), LONG),
      ("aten.gather.default", ("T", -1, "T"), {}), ("aten.sub.Tensor", ("T", "T"), {}),
      ("aten.ceil_.default", ("T",), {}),
      ("aten._to_copy.default", ("T",), LONG),
      ("aten.gather.default", ("T", -1, "T"), {}), ("aten.lerp_.Tensor", ("T", "T", "T"), {}),
      ("aten.squeeze_.dim", ("T", -1), {})]),
    ("nanquantile_steps", lambda: torch.nanquantile(_x(), torch.tensor(0.5)), False,
     [("aten.view.default", ("T", [6]), {}), ("aten.sort.default", ("T",), {}),
      ("aten.view.default", ("T", [6]), {}), ("aten.isnan.default", ("T",), {}),
      ("aten.logical_not_.default", ("T",), {}),
      ("aten.sum.dim_IntList", ("T", [-1], True), {}), ("aten.sub.Scalar", ("T", 1), {}),
      ("aten.mul.Tensor", ("T", "T"), {}), ("aten.lt.Scalar", ("T", 0), {}),
      ("aten.masked_fill_.Scalar", ("T", "T", 0), {}),
      ("aten._to_copy.default", ("T",), LONG), ("aten.gather.default", ("T", -1, "T"), {}),
      ("aten.sub.Tensor", ("T", "T"), {}), ("aten.ceil_.default", ("T",), {}),
      ("aten._to_copy.default", ("T",), LONG), ("aten.gather.default", ("T", -1, "T"), {}),
      ("aten.lerp_.Tensor", ("T", "T", "T"), {}), ("aten.squeeze_.dim", ("T", -1), {})]),
    ("tensorinv", lambda: torch.linalg.tensorinv(torch.eye(4).view(4, 2, 2), 1), False,
     [("aten.view.default", ("T", [4, 4]), {}), ("aten.linalg_inv_ex.default", ("T",), {}),
      ("aten._linalg_check_errors.default", ("T", "inv"), {"is_matrix": True}),
      ("aten.view.default", ("T", [2, 2, 4]), {})]),
]


def _made(call, inference):
    """Every tensor made before the mode is on, then the call under the mode."""
    with torch.inference_mode() if inference else contextlib.nullcontext():
        alone = call()
        with Calls() as mode:
            under = call()
    return mode, alone, under


@pytest.mark.parametrize("call, inference, expected",
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_a_mode_sees_torchs_binding(call, inference, expected):
    mode, alone, under = _made(call, inference)
    assert mode.seen[-len(expected):] == expected
    for a, b in zip(alone if isinstance(alone, tuple) else (alone,),
                    under if isinstance(under, tuple) else (under,)):
        assert a.tolist() == b.tolist() and a.shape == b.shape


def test_what_the_mode_passes_back_runs_the_row_again():
    x = torch.arange(12.0)
    with Calls() as mode:
        x.as_strided((3,), (2,), 1)
        torch.floor_divide(x, 5)
    view, quotient = (func(*args, **kwargs) for func, args, kwargs in mode.kept)
    assert view.tolist() == [1.0, 3.0, 5.0] and view.storage_offset() == 1
    assert quotient.tolist() == (x // 5).tolist()


def test_an_as_strided_view_called_again_keeps_its_gradient():
    x = torch.arange(6.0, requires_grad=True)
    with Calls() as mode:
        x.as_strided((2,), (2,), 1)
    func, args, kwargs = mode.kept[0]
    func(*args, **kwargs).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]


REFUSED = [  # (id, call, inside inference_mode, what the mode sees before the refusal, message)
    ("view", lambda x: x.view(4, 2), False, [("aten.view.default", ("T", [4, 2]), {})],
     "shape '[4, 2]' is invalid for input of size 6"),
    ("view_tuple", lambda x: x.view((4, -1)), False, [("aten.view.default", ("T", [4, -1]), {})],
     "shape '[4, -1]' is invalid for input of size 6"),
    ("view_two_inferred", lambda x: x.view(-1, -1), False,
     [("aten.view.default", ("T", [-1, -1]), {})], "only one dimension can be inferred"),
    ("view_below_minus_one", lambda x: x.view(-2, 3), False,
     [("aten.view.default", ("T", [-2, 3]), {})],
     "invalid shape dimension -2 at index 0 of shape [-2, 3]"),
    ("view_in_inference_mode", lambda x: x.view(4, 2), True,
     [("aten.view.default", ("T", [4, 2]), {})], "shape '[4, 2]' is invalid for input of size 6"),
    ("reshape_contiguous", lambda x: x.reshape(4, 2), False,
     [("aten.view.default", ("T", [4, 2]), {})], "shape '[4, 2]' is invalid for input of size 6"),
    ("reshape_function", lambda x: torch.reshape(x, (5,)), False,
     [("aten.view.default", ("T", [5]), {})], "shape '[5]' is invalid for input of size 6"),
    ("reshape_strided", lambda x: x.view(2, 3).t().reshape(4, 2), False,
     [("aten.view.default", ("T", [2, 3]), {}), ("aten.t.default", ("T",), {})],
     "shape '[4, 2]' is invalid for input of size 6"),
    ("reshape_whole", lambda x: x.reshape(4, 2), True,
     [("aten.reshape.default", ("T", [4, 2]), {})],
     "shape '[4, 2]' is invalid for input of size 6"),
]


@pytest.mark.parametrize("call, inference, expected, message",
                         [pytest.param(*case[1:], id=case[0]) for case in REFUSED])
def test_a_refused_view_reaches_the_mode_once_before_the_refusal(call, inference, expected,
                                                                   message):
    x = torch.arange(6.0)
    with torch.inference_mode() if inference else contextlib.nullcontext(), Calls() as mode:
        with pytest.raises(RuntimeError) as refused:
            call(x)
    assert mode.seen == expected
    assert str(refused.value) == message


def test_a_mode_may_pass_a_refused_view_sizes_that_fit():
    from torch.utils._python_dispatch import TorchDispatchMode

    class Fitting(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if str(func) == "aten.view.default":
                args = (args[0], [3, 2])
            return func(*args, **(kwargs or {}))

    with Fitting():
        out = torch.arange(6.0).view(4, 2)
    assert out.shape == (3, 2) and out[2].tolist() == [4.0, 5.0]
