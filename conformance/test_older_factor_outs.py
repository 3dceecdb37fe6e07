"""out= for torch.svd, torch.qr, torch.triangular_solve, torch.lu_unpack and torch.histogram:
results, layouts, versions, refusals, and what a dispatch mode is handed."""

import warnings

import pytest
import torch

from conformance._support import raises

A = [[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]]
B = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
GRAD = ("{}(): functions with out=... arguments don't support automatic differentiation, but "
        "one of the arguments requires grad.")


def _calls():
    a, b = torch.tensor(A), torch.tensor(B)
    LU, pivots = torch.linalg.lu_factor(a)
    return {
        "svd": (lambda out: torch.svd(a, out=out), 3, "_linalg_svd"),
        "svd_some_false": (lambda out: torch.svd(b, some=False, out=out), 3, "_linalg_svd"),
        "qr": (lambda out: torch.qr(b, out=out), 2, "linalg_qr"),
        "qr_complete": (lambda out: torch.qr(b, False, out=out), 2, "linalg_qr"),
        "triangular_solve": (lambda out: torch.triangular_solve(b, a.triu(), out=out), 2,
                             "triangular_solve"),
        "lu_unpack": (lambda out: torch.lu_unpack(LU, pivots, out=out), 3, "lu_unpack"),
        "histogram": (lambda out: torch.histogram(a, 3, out=out), 2, "aten::histogram"),
    }


NAMES = list(_calls())


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # deprecations and resizes
        yield


def _plain(name):
    a, b = torch.tensor(A), torch.tensor(B)
    LU, pivots = torch.linalg.lu_factor(a)
    return {"svd": lambda: torch.svd(a), "svd_some_false": lambda: torch.svd(b, some=False),
            "qr": lambda: torch.qr(b), "qr_complete": lambda: torch.qr(b, False),
            "triangular_solve": lambda: torch.triangular_solve(b, a.triu()),
            "lu_unpack": lambda: torch.lu_unpack(LU, pivots),
            "histogram": lambda: torch.histogram(a, 3)}[name]()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape", [(0,), (9, 9)])
def test_outs_written_as_the_plain_results(name, shape):
    call, count, _ = _calls()[name]
    outs = tuple(torch.empty(*shape) for _ in range(count))
    result = call(outs)
    expected = _plain(name)
    assert type(result).__name__ == type(expected).__name__ + "_out"
    assert repr(result).startswith(f"torch.return_types.{type(expected).__name__}_out(")
    assert all(r is o for r, o in zip(result, outs))
    for o, e in zip(outs, expected):
        assert o.shape == e.shape and o.dtype == e.dtype
        torch.testing.assert_close(o, e)
    layouts = {
        ("svd", (0,)): [(1, 3), (1,), (3, 1)], ("svd", (9, 9)): [(1, 3), (1,), (3, 1)],
        ("svd_some_false", (0,)): [(1, 3), (1,), (2, 1)],
        ("qr", (0,)): [(1, 3), (1, 2)], ("qr_complete", (0,)): [(1, 3), (1, 3)],
        ("triangular_solve", (0,)): [(1, 3), (1, 3)],
        ("triangular_solve", (9, 9)): [(1, 3), (1, 3)],
        ("lu_unpack", (0,)): [(3, 1)] * 3, ("histogram", (0,)): [(1,), (1,)]}
    if (name, shape) in layouts:
        assert [o.stride() for o in outs] == layouts[name, shape]
    versions = {("svd", (0,)): [1, 1, 2], ("svd", (9, 9)): [1, 1, 3],
                ("svd_some_false", (0,)): [1, 1, 2], ("svd_some_false", (9, 9)): [1, 1, 3]}
    assert [o._version for o in outs] == versions.get((name, shape), [1] * count)


@pytest.mark.parametrize("name", NAMES)
def test_outs_of_other_kinds_refused(name):
    call, count, _ = _calls()[name]
    function = name.partition("_some")[0].partition("_complete")[0]
    position = {"svd": 3, "qr": 2, "triangular_solve": 5, "lu_unpack": 4, "histogram": 5}
    with raises(TypeError, f"expected tuple of {count} elements but got {count + 1}"):
        call(tuple(torch.empty(0) for _ in range(count + 1)))
    with raises(TypeError, f"expected Tensor as element 0 in argument {position[function]}, "
                           "but got int"):
        call((1,) * count)
    if function != "histogram":  # histogram's parser lists its forms
        with raises(TypeError, f"{function}(): argument 'out' must be tuple of Tensors, not "
                               "Tensor"):
            call(torch.empty(0))
    assert type(call([torch.empty(0) for _ in range(count)])).__name__.endswith("_out")


@pytest.mark.parametrize("name", NAMES)
def test_outs_of_another_dtype_refused(name):
    call, count, _ = _calls()[name]
    outs = tuple(torch.empty(0) for _ in range(count - 1))
    last = torch.empty(0, dtype=torch.int64)
    if name == "histogram":
        message = ("torch.histogram: input tensor and bin_edges tensor should have the same "
                   "dtype, but got input float and bin_edges long int for dimension 0")
    else:
        message = "Expected out tensor to have dtype float, but got long int instead"
    with raises(RuntimeError, message):
        call((*outs, last))


def test_svd_without_uv():
    a = torch.tensor(B)
    U, S, V = torch.empty(5), torch.empty(0), torch.empty(0)
    result = torch.svd(a, compute_uv=False, out=(U, S, V))
    assert result.V is V and torch.equal(S, torch.linalg.svdvals(a))
    assert U.shape == (3, 3) and V.shape == (2, 2) and U.stride() == (3, 1)
    assert not U.any() and not V.any() and [U._version, S._version, V._version] == [1, 1, 1]
    with raises(RuntimeError, "torch.svd: Expected out tensor to have dtype Float but got Double "
                              "instead"):
        torch.svd(a, compute_uv=False, out=(torch.empty(0, dtype=torch.float64), S, V))


@pytest.mark.parametrize("name", NAMES)
def test_grad_refused_as_torch_refuses(name):
    call, count, said = _calls()[name]
    with raises(RuntimeError, GRAD.format(said)):
        call(tuple(torch.empty(0, requires_grad=True) for _ in range(count)))


def test_inputs_that_require_grad():
    a = torch.tensor(A, requires_grad=True)
    with raises(RuntimeError, GRAD.format("_linalg_svd")):
        torch.svd(a, out=(torch.empty(0), torch.empty(0), torch.empty(0)))
    with raises(RuntimeError, GRAD.format("triangular_solve")):
        torch.triangular_solve(torch.ones(3, 1), a, out=(torch.empty(0), torch.empty(0)))
    hist, edges = torch.empty(0), torch.empty(0)
    torch.histogram(a, 3, out=(hist, edges))  # no derivative: the write is recorded
    assert hist.grad_fn.name().endswith("NotImplemented") and hist._version == 1
    with torch.no_grad():
        torch.svd(a, out=(torch.empty(0), torch.empty(0), torch.empty(0)))


def test_histogram_checks_its_outs_first():
    x = torch.tensor([1.0, 2.0])
    double = (torch.empty(0, dtype=torch.float64), torch.empty(0))
    with raises(RuntimeError, "torch.histogram: input tensor and hist tensor should have the "
                              "same dtype, but got input float and hist double"):
        torch.histogram(x, -1, out=double)
    with raises(RuntimeError, "torch.histogramdd: input tensor and bins tensors should have the "
                              "same dtype, but got input with dtype float and bins for dimension "
                              "0 with dtype double"):
        torch.histogram(x, torch.tensor([0.0, 3.0], dtype=torch.float64), out=double)


def test_what_a_mode_is_handed():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), sorted(kwargs or {})))
            return func(*args, **(kwargs or {}))

    expected = {
        "svd": [("aten._linalg_svd.U", ["S", "U", "Vh"]), ("aten.transpose_.default", [])],
        "qr": [("aten.linalg_qr.out", ["Q", "R"])],
        "triangular_solve": [("aten.triu.default", []), ("aten.triangular_solve.X", ["M", "X"])],
        "lu_unpack": [("aten.lu_unpack.out", ["L", "P", "U"])],
        "histogram": [("aten.histogram.bin_ct_out", ["bin_edges", "hist"])]}
    for name, ops in expected.items():
        call, count, _ = _calls()[name]
        outs = tuple(torch.empty(0) for _ in range(count))
        seen.clear()
        with Seen():
            call(outs)
        assert seen == ops, name
    b, outs = torch.tensor(B), (torch.empty(0), torch.empty(0), torch.empty(0))
    seen.clear()
    with Seen():
        torch.svd(b, compute_uv=False, out=outs)
    assert [op for op, _ in seen] == [
        "aten.empty.memory_format", "aten.empty.memory_format", "aten._linalg_svd.U",
        "aten.resize_.default", "aten.zero_.default", "aten.resize_.default",
        "aten.zero_.default"]


def test_other_arguments_read_first():
    a = torch.eye(2)
    outs = (torch.empty(0), torch.empty(0), torch.empty(0))
    with raises(TypeError, "svd(): argument 'some' (position 2) must be bool, not float"):
        torch.svd(a, 1.5, out=outs)
    with raises(TypeError, "svd(): argument 'compute_uv' (position 3) must be bool, not int"):
        torch.svd(a, True, 2, out=outs)
    with raises(TypeError, "qr(): argument 'some' (position 2) must be bool, not int"):
        torch.qr(a, 2, out=outs[:2])
    with raises(TypeError, "triangular_solve(): argument 'upper' (position 3) must be bool, "
                           "not int"):
        torch.triangular_solve(a, a, 2, out=outs[:2])
    assert type(torch.svd(input=a, out=outs)).__name__ == "svd_out"
