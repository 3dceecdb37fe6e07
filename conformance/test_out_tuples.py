"""out= for the functions returning several tensors: a tuple in, torch's named tuple out."""

import warnings

import pytest
import torch

from conformance._out_calls import LINALG_SEVERAL, SEVERAL
from conformance._support import raises

RESIZED = "An output with one or more elements was resized since it had shape"


def _call(name):
    args, kwargs = SEVERAL[name](torch)
    function = getattr(torch, name)
    return function, args, kwargs, function(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(SEVERAL))
def test_each_result_is_written_into_its_out_and_the_outs_come_back_named(name):
    function, args, kwargs, expected = _call(name)
    outs = tuple(torch.full_like(r, 3) for r in expected)
    written = function(*args, **kwargs, out=outs)
    assert type(written) is getattr(torch.return_types, name + "_out")
    fields = {"aminmax": ("min", "max"), "slogdet": ("sign", "logabsdet")}.get(
        name, ("values", "indices"))
    assert written.n_fields == len(outs) == 2
    for field, out, value in zip(fields, outs, expected):
        assert getattr(written, field) is out and getattr(expected, field) is value
        assert out.dtype == value.dtype and torch.equal(out, value)
        assert out._version == 1
    listed = [torch.empty(0, dtype=r.dtype) for r in expected]  # a list is taken as well
    assert all(a is b for a, b in zip(function(*args, **kwargs, out=listed), listed))


@pytest.mark.parametrize("name", ["topk", "kthvalue", "cummax", "aminmax", "median"])
def test_an_out_of_the_wrong_kind_is_refused_before_anything_is_written(name):
    function, args, kwargs, expected = _call(name)
    kept = torch.zeros(expected[0].shape)
    with raises(TypeError, f"{name}(): argument 'out' must be tuple of Tensors, not Tensor"):
        function(*args, **kwargs, out=kept)
    three = (kept, torch.zeros(1), torch.zeros(1))
    with raises(TypeError, "expected tuple of 2 elements but got 3"):
        function(*args, **kwargs, out=three)
    assert kept._version == 0 and not kept.any()


def test_a_tuple_for_a_function_of_one_result_is_refused():
    with raises(TypeError, "exp(): argument 'out' must be Tensor, not tuple"):
        torch.exp(torch.ones(2), out=(torch.empty(2),))


@pytest.mark.parametrize("name, dtypes, message", [
    ("max", (torch.float64, torch.int64),
     "Expected out tensor to have dtype float, but got double instead"),
    ("sort", (torch.float32, torch.int32),
     "Expected out tensor to have dtype long int, but got int instead"),
    ("cummax", (torch.float32, torch.int32), "expected scalar_type Long but found Int"),
    ("kthvalue", (torch.float16, torch.int64), "output values must be of same type as input"),
    ("mode", (torch.float32, torch.int16),
     "expected scalar type 'Long' but got 'Short' for indices output"),
    # median checks its indices before its values
    ("median", (torch.float64, torch.int32), "Expected tensor for argument #1 'indices' to have "
                                             "scalar type Long; but got torch.IntTensor instead "
                                             "(while checking arguments for median)"),
    ("median", (torch.float64, torch.int64), "Expected tensor for 'values' to have the same type "
                                             "as tensor for argument #2 'self'; but type "
                                             "torch.DoubleTensor does not equal "
                                             "torch.FloatTensor (while checking arguments for "
                                             "median)"),
])
def test_each_out_must_have_its_results_dtype(name, dtypes, message):
    function, args, kwargs, expected = _call(name)
    outs = tuple(torch.zeros(r.shape, dtype=d) for r, d in zip(expected, dtypes))
    with raises(RuntimeError, message):
        function(*args, **kwargs, out=outs)
    assert all(o._version == 0 and not o.any() for o in outs)


def test_each_out_of_another_shape_is_resized_with_its_own_warning():
    function, args, kwargs, expected = _call("topk")
    outs = (torch.zeros(5), torch.zeros(5, dtype=torch.int64))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        function(*args, **kwargs, out=outs)
    assert [str(w.message)[:len(RESIZED)] for w in caught] == [RESIZED] * 2
    assert all(w.filename == __file__ for w in caught)
    assert [o.shape for o in outs] == [r.shape for r in expected]


@pytest.mark.parametrize("name, refused_as", [("max", "max"), ("sort", "sort"),
                                              ("slogdet", "_linalg_slogdet")])
def test_an_input_that_requires_grad_is_refused(name, refused_as):
    function, args, kwargs, expected = _call(name)
    needing = (args[0].detach().requires_grad_(), *args[1:])
    outs = tuple(torch.zeros(r.shape, dtype=r.dtype) for r in expected)
    with raises(RuntimeError, f"{refused_as}(): functions with out=... arguments don't support "
                              "automatic differentiation, but one of the arguments requires "
                              "grad."):
        function(*needing, **kwargs, out=outs)
    with torch.no_grad():
        function(*needing, **kwargs, out=outs)
    assert all(torch.equal(o, r) for o, r in zip(outs, expected))


def test_max_and_min_of_one_result_take_one_tensor():
    x = torch.tensor([[0.1, 0.5], [0.3, 0.2]])
    out = torch.empty((), dtype=torch.float64)
    assert torch.max(x, out=out) is out and out.item() == pytest.approx(0.5)
    pair = torch.zeros(2, 2)
    assert torch.min(x, x.flip(0), out=pair) is pair
    assert pair.tolist() == torch.minimum(x, x.flip(0)).tolist()


@pytest.mark.parametrize("name", sorted(LINALG_SEVERAL))
def test_torch_linalg_factorizations_write_each_result_into_its_out(name):
    args, kwargs = LINALG_SEVERAL[name](torch)
    function = getattr(torch.linalg, name)
    expected = function(*args, **kwargs)
    outs = tuple(torch.full_like(r, 3) for r in expected)
    written = function(*args, **kwargs, out=outs)
    assert type(written) is getattr(torch.return_types, f"linalg_{name}_out")
    assert len(written) == len(expected) == len(outs)
    for got, out, value in zip(written, outs, expected):
        assert got is out and out._version == 1
        assert out.dtype == value.dtype and torch.allclose(out, value)


@pytest.mark.parametrize("name, at, message", [
    ("qr", 1, "Expected out tensor to have dtype float, but got double instead"),
    ("inv_ex", 1, "Expected out tensor to have dtype int, but got double instead"),
    ("svd", 2, "Expected out tensor to have dtype float, but got double instead"),
])
def test_torch_linalg_factorizations_want_each_results_dtype(name, at, message):
    args, kwargs = LINALG_SEVERAL[name](torch)
    function = getattr(torch.linalg, name)
    outs = tuple(torch.zeros(r.shape, dtype=torch.float64 if i == at else r.dtype)
                 for i, r in enumerate(function(*args, **kwargs)))
    with raises(RuntimeError, message):
        function(*args, **kwargs, out=outs)
    assert all(o._version == 0 for o in outs)


def test_torch_linalg_factorizations_are_refused_for_grad_under_their_kernels_names():
    a = torch.tensor([[2.0, 0.5], [0.3, 1.5]], requires_grad=True)
    outs = tuple(torch.zeros(r.shape, dtype=r.dtype) for r in torch.linalg.lu_factor(a.detach()))
    with raises(RuntimeError, "linalg_lu_factor_ex(): functions with out=... arguments don't "
                              "support automatic differentiation, but one of the arguments "
                              "requires grad."):
        torch.linalg.lu_factor(a, out=outs)
