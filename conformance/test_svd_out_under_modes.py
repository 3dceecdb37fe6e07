"""Black-box tests: torch.svd, torch.linalg.svd and torch.qr with out= under a dispatch mode.
Where autograd is on, linalg.svd reaches the mode as _linalg_svd.U, whose full_matrices is
false unless given, and the outs still get the reduced shapes; without compute_uv each
resize_ a mode is handed counts one version, and an out that requires grad is refused the
resize. Inside inference_mode torch.svd and torch.qr reach the mode whole, as svd.U and
qr.Q. The same assertions run on torch."""

import contextlib
import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

B = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


class Running(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class NotRunningResize(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.__name__.startswith("resize_"):
            return args[0]
        return func(*args, **(kwargs or {}))


SHAPES = {  # id: (the outs' shapes, U's strides after): a resized U is laid out by columns
    "empty": ([(0,), (0,), (0,)], (1, 3)), "held": ([(2, 2), (2,), (2, 2)], (1, 3)),
    "reduced": ([(3, 2), (2,), (2, 2)], (2, 1))}


@pytest.mark.parametrize("case", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("nested", [False, True])
def test_svd_out_under_a_mode_gives_the_reduced_u(case, nested):
    shapes, strides = case
    a = torch.tensor(B)
    U, S, V = (torch.zeros(*s) for s in shapes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with Running(), (Running() if nested else contextlib.nullcontext()):
            torch.svd(a, out=(U, S, V))
    assert U.shape == (3, 2) and V.shape == (2, 2) and S.shape == (2,)
    assert torch.allclose(U @ torch.diag(S) @ V.T, a, atol=1e-5)
    assert U.stride() == strides


@pytest.mark.parametrize("full_matrices", [None, True, False])
def test_linalg_svd_out_under_a_mode_keeps_full_matrices(full_matrices):
    a = torch.tensor(B)
    outs = (torch.empty(0), torch.empty(0), torch.empty(0))
    given = {} if full_matrices is None else {"full_matrices": full_matrices}
    with Running():
        U, S, Vh = torch.linalg.svd(a, **given, out=outs)
    assert U.shape == ((3, 2) if full_matrices is False else (3, 3)) and Vh.shape == (2, 2)


@pytest.mark.parametrize("mode", [None, Running, NotRunningResize],
                         ids=["no_mode", "running", "not_running"])
def test_svd_without_uv_counts_a_version_for_each_resize_a_mode_sees(mode):
    a = torch.tensor(B)
    U, S, V = torch.empty(0), torch.empty(0), torch.empty(2, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mode is None:
            torch.svd(a, compute_uv=False, out=(U, S, V))
        else:
            with mode():
                torch.svd(a, compute_uv=False, out=(U, S, V))
    versions = [U._version, S._version, V._version]
    assert versions == ([1, 1, 1] if mode is None else [2, 1, 1])  # V was not resized
    assert U.shape == ((0,) if mode is NotRunningResize else (3, 3))


@pytest.mark.parametrize("grad_mode", [True, False], ids=["grad", "no_grad"])
def test_a_resize_a_mode_would_see_is_refused_for_an_out_that_requires_grad(grad_mode):
    a = torch.tensor(B)
    U, S, V = torch.empty(0), torch.empty(0), torch.zeros(3, 3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.set_grad_enabled(grad_mode), Running():
            with pytest.raises(RuntimeError, match="^cannot resize variables that require grad$"):
                torch.svd(a, compute_uv=False, out=(U, S, V))
    assert V.shape == (3, 3) and V._version == 0  # refused before the mode saw it
    assert U.shape == (3, 3) and U._version == 2


def test_without_a_mode_the_zero_after_the_resize_is_refused():
    a = torch.tensor(B)
    U, S, V = torch.empty(0), torch.empty(0), torch.zeros(3, 3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used"):
            torch.svd(a, compute_uv=False, out=(U, S, V))
    assert V.shape == (2, 2) and V._version == 0


class Named(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        shown = [a if isinstance(a, bool) else "T" for a in args]
        self.seen.append((str(func), shown, sorted(kwargs or {}), type(out).__name__))
        return out


WHOLE = {  # id: (call, what the mode sees after the outs are made, the outs' shapes)
    "svd": (lambda a, o: torch.svd(a, out=o), ("aten.svd.U", ["T"], ["S", "U", "V"]),
            [(3, 2), (2,), (2, 2)]),
    "svd_full": (lambda a, o: torch.svd(a, False, out=o),
                 ("aten.svd.U", ["T", False], ["S", "U", "V"]), [(3, 3), (2,), (2, 2)]),
    "svd_no_uv": (lambda a, o: torch.svd(a, compute_uv=False, out=o),
                  ("aten.svd.U", ["T", True, False], ["S", "U", "V"]), [(3, 3), (2,), (2, 2)]),
    "qr": (lambda a, o: torch.qr(a, out=o[:2]), ("aten.qr.Q", ["T"], ["Q", "R"]),
           [(3, 2), (2, 2)]),
    "qr_complete": (lambda a, o: torch.qr(a, some=False, out=o[:2]),
                    ("aten.qr.Q", ["T", False], ["Q", "R"]), [(3, 3), (3, 2)]),
}


@pytest.mark.parametrize("case", WHOLE.values(), ids=WHOLE.keys())
def test_in_inference_mode_svd_and_qr_reach_a_mode_whole(case):
    call, (name, args, kwargs), shapes = case
    a, outs = torch.tensor(B), (torch.empty(0), torch.empty(0), torch.empty(0))
    with warnings.catch_warnings(), torch.inference_mode(), Named() as mode:
        warnings.simplefilter("ignore")  # torch.qr's deprecation
        result = call(a, outs)
    assert mode.seen == [(name, args, kwargs, "tuple")]
    assert [tuple(t.shape) for t in result] == shapes
    assert all(r is o for r, o in zip(result, outs))
    assert type(result).__name__ == ("svd_out" if name == "aten.svd.U" else "qr_out")


def test_a_modes_own_qr_goes_whole_to_the_mode_below():
    a = torch.tensor(B)

    class Calling(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if str(func) == "aten.neg.default":
                torch.qr(a, out=(torch.empty(0), torch.empty(0)))
            return func(*args, **(kwargs or {}))

    with warnings.catch_warnings(), Named() as mode, Calling():
        warnings.simplefilter("ignore")
        -a
    assert [name for name, *_ in mode.seen] == [
        "aten.empty.memory_format", "aten.empty.memory_format", "aten.qr.Q", "aten.neg.default"]
