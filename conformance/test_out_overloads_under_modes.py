"""Black-box tests: an out= call under a dispatch mode reaches it as torch's out overload
for the form the arguments pick (sum.IntList_out, max.dim_max, sort.values_stable, ...),
with torch's layout of the arguments, its names for the written tensors, the ops an alias
stands for where autograd is on, and the steps of the composites that write out= themselves
(linalg.norm). What the mode's func writes is what the call writes without a mode. The same
assertions run on torch.
"""

import contextlib
import warnings

import pytest
import torch

from conformance._out_composite_cases import COMPOSITE_CASES
from conformance._out_overload_cases import OVERLOAD_CASES
from conformance._out_product_cases import PRODUCT_CASES
from conformance._support import calling_mode


def _shown(value):
    if isinstance(value, torch.Tensor):
        return "T"
    if isinstance(value, list | tuple):
        return type(value)(_shown(v) for v in value)
    return value if isinstance(value, bool | int | float | str | type(None)) else str(value)


Calls = calling_mode(_shown)


class _Inputs:
    """The operands, and empty outs of each dtype a case writes."""

    def __init__(self):
        d = torch.float64
        self.x = torch.tensor([[0.2, 0.5, 0.7], [0.3, 0.9, 0.4]], dtype=d)
        self.y = torch.tensor([[0.6, 0.1, 0.8], [0.25, 0.35, 0.45]], dtype=d)
        self.m = torch.tensor([[2.0, 0.5, 0.1], [0.5, 3.0, 0.2], [0.1, 0.2, 4.0]], dtype=d)
        self.v = torch.tensor([0.2, 0.5, 0.7], dtype=d)
        self.i = torch.tensor([[1, 2, 3], [4, 5, 6]])
        self.b = torch.tensor([[True, False, True], [False, True, True]])
        self.ix2 = torch.tensor([[0, 1], [2, 0]])
        self.u, self.ui = torch.tensor([[[[0.5]]]], dtype=d), torch.tensor([[[[3]]]])
        self.xg, self.mg = self.x.clone().requires_grad_(), self.m.clone().requires_grad_()
        self.vg = self.v.clone().requires_grad_()
        self.o, self.o2 = torch.empty(0, dtype=d), torch.empty(0, dtype=d)
        self.o3 = torch.zeros(3, dtype=d)  # holds elements: resized with a warning
        self.oi, self.ob = torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.bool)
        self.oi32, self.oi32b = (torch.empty(0, dtype=torch.int32) for _ in range(2))

    def outs(self):
        return [self.o, self.o2, self.o3, self.oi, self.ob, self.oi32, self.oi32b]


CASES = [*OVERLOAD_CASES, *COMPOSITE_CASES, *PRODUCT_CASES]


def _run(call, whole, mode):
    t = _Inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.inference_mode() if whole else contextlib.nullcontext(), mode:
            call(t)
    return t


@pytest.mark.parametrize("call, whole, expected",
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_a_mode_sees_torchs_out_overload(call, whole, expected):
    mode = Calls()
    _run(call, whole, mode)
    assert mode.seen == expected


def _same(written, expected, vectors):
    # Under a mode torch's singular values come from an SVD that computes the vectors
    # too (the mode's _linalg_svd step), which its matrix library may round otherwise in
    # the last places than the values alone; elsewhere the numbers are the same bits.
    if vectors and written.is_floating_point():
        return torch.allclose(written, expected, rtol=1e-14, atol=0)
    return torch.equal(written, expected)


@pytest.mark.parametrize("call, whole, steps",
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_the_modes_func_writes_what_the_call_writes(call, whole, steps):
    under = _run(call, whole, Calls())
    alone = _run(call, whole, contextlib.nullcontext())
    vectors = any(step[:2] == ("aten._linalg_svd.default", ("T",)) for step in steps)
    for written, expected in zip(under.outs(), alone.outs()):
        assert written.shape == expected.shape
        assert _same(written, expected, vectors)


def test_the_written_tensors_come_back():
    t = _Inputs()
    with Calls():
        values, indices = torch.max(t.x, 1, out=(t.o, t.oi))
    assert values is t.o and indices is t.oi


@pytest.mark.parametrize("whole", [False, True])
def test_out_none_is_the_functional_form(whole):
    t, mode = _Inputs(), Calls()
    with torch.inference_mode() if whole else contextlib.nullcontext(), mode:
        torch.clip(t.x, 0.2, 0.5, out=None)
        torch.sum(t.x, 0, out=None)
    clip = "aten.clip.default" if whole else "aten.clamp.default"
    assert mode.seen == [(clip, ("T", 0.2, 0.5), {}), ("aten.sum.dim_IntList", ("T", [0]), {})]


NESTED = ["sum_dims_keep", "max_dim", "sort_stable", "std_unbiased", "special_round", "square",
          "matmul_matrices", "cross", "linalg_norm", "linalg_norm_resized", "norm_p_dim",
          "tensordot_whole", "svd_whole", "eigvalsh", "svdvals", "msort", "linalg_inv",
          "dstack", "diff_twice", "slogdet", "matrix_power_5", "take_along_dim"]


@pytest.mark.parametrize("call, whole, expected",
                         [pytest.param(*case[1:], id=case[0]) for case in CASES
                          if case[0] in NESTED])
def test_a_second_mode_sees_the_same(call, whole, expected):
    outer, inner = Calls(), Calls()
    t = _Inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.inference_mode() if whole else contextlib.nullcontext(), outer, inner:
            call(t)
    assert inner.seen == expected
    assert outer.seen == expected


def test_a_singular_matrix_is_refused_after_the_check():
    mode, m = Calls(), torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
    o = torch.empty(0, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="linalg.inv: The diagonal element 2 is zero"), mode:
        torch.linalg.inv(m, out=o)
    assert [seen[0] for seen in mode.seen] == ["aten.empty.memory_format",
                                               "aten.linalg_inv_ex.inverse",
                                               "aten._linalg_check_errors.default"]


GRAD_CASES = [  # (id, a call whose write autograd refuses, the kernel named, what the mode saw)
    ("inv", lambda t: torch.linalg.inv(t.mg, out=t.o), "linalg_inv_ex",
     ["aten.empty.memory_format"]),
    ("msort", lambda t: torch.msort(t.xg, out=t.o), "sort", ["aten.empty.memory_format"]),
    ("square", lambda t: torch.square(t.xg, out=t.o), "pow", []),
    ("cross", lambda t: torch.cross(t.mg, t.mg, out=t.o), "linalg_cross", []),
    ("eigvalsh", lambda t: torch.linalg.eigvalsh(t.mg, out=t.o), "_linalg_eigh",
     ["aten.empty.memory_format"]),
    ("svdvals", lambda t: torch.linalg.svdvals(t.mg, out=t.o), "_linalg_svd",
     ["aten.empty.memory_format", "aten.empty.memory_format"]),
    ("absolute", lambda t: torch.absolute(t.xg, out=t.o), "abs", []),
    ("std", lambda t: torch.std(t.xg, 1, True, out=t.o), "std", []),
    ("norm", lambda t: torch.norm(t.xg, out=t.o), "linalg_vector_norm", []),
    ("outer", lambda t: torch.outer(t.vg, t.vg, out=t.o), "mul", ["aten.view.default"]),
    ("hstack", lambda t: torch.hstack([t.xg, t.xg], out=t.o), "cat", []),
    ("vecdot", lambda t: torch.linalg.vecdot(t.xg, t.xg, out=t.o), "sum", ["aten.mul.Tensor"]),
    ("argsort", lambda t: torch.argsort(t.xg, stable=True, out=t.oi), "sort",
     ["aten.empty.memory_format"]),
    ("cholesky", lambda t: torch.linalg.cholesky(t.mg, out=t.o), "linalg_cholesky_ex",
     ["aten.empty.memory_format"]),
    ("float_power", lambda t: torch.float_power(t.xg, 2, out=t.o), "pow", []),
    ("det", lambda t: torch.linalg.det(t.mg, out=t.o), "_linalg_det",
     ["aten.empty.memory_format", "aten.empty.memory_format"]),
    ("slogdet", lambda t: torch.slogdet(t.mg, out=(t.o, t.o2)), "_linalg_slogdet",
     ["aten.empty.memory_format", "aten.empty.memory_format"]),
    ("nanmean", lambda t: torch.nanmean(t.xg, 1, out=t.o), "nansum",
     ["aten.ne.Tensor", "aten.logical_not_.default", "aten.sum.dim_IntList"]),
    ("matrix_power", lambda t: torch.matrix_power(t.mg, 5, out=t.o), "matmul",
     ["aten.resize_.default", "aten.mm.default", "aten.mm.default"]),
    ("solve", lambda t: torch.linalg.solve(t.mg, t.y.t(), out=t.o), "_linalg_solve_ex",
     ["aten.t.default", *["aten.new_empty.default"] * 3]),
]


@pytest.mark.parametrize("call, kernel, seen",
                         [pytest.param(*case[1:], id=case[0]) for case in GRAD_CASES])
def test_a_write_autograd_refuses_is_refused_at_the_kernel(call, kernel, seen):
    t, mode = _Inputs(), Calls()
    with pytest.raises(RuntimeError, match=rf"^{kernel}\(\): functions with out="), mode:
        call(t)
    assert [s[0] for s in mode.seen] == seen


def test_a_write_in_pieces_records_the_copy():
    x = torch.tensor([[0.2, 0.5], [0.3, 0.9]], dtype=torch.float64, requires_grad=True)
    o = torch.empty(0, dtype=torch.float64)
    with Calls():
        written = torch.linalg.norm(x, out=o)
    assert written is o and o.shape == () and o._version == 2
    assert type(o.grad_fn).__name__ == "CopyBackwards"


def test_a_singular_system_is_refused_after_the_check():
    mode, a = Calls(), torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
    b, o = torch.ones(2, 1, dtype=torch.float64), torch.empty(0, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="torch.linalg.solve: The solver failed"), mode:
        torch.linalg.solve(a, b, out=o)
    assert [seen[0] for seen in mode.seen][-2:] == ["aten._linalg_solve_ex.result",
                                                     "aten._linalg_check_errors.default"]


def test_an_out_the_result_does_not_cast_to_is_refused_after_the_mode_asks():
    mode, x = Calls(), torch.tensor([0.2, 0.5], dtype=torch.float64)
    with pytest.raises(RuntimeError, match="result type Double can't be cast to the desired "
                                           "output type Long"), mode:
        torch.special.ndtr(x, out=torch.empty(0, dtype=torch.int64))
    assert mode.seen[-1] == ("aten.can_cast.default", ("torch.float64", "torch.int64"), {})
