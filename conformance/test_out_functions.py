"""out= across torch's namespace: the value written, the dtypes taken, resizes, grad, versions."""

import warnings

import pytest
import torch

from conformance._out_calls import CALLS, LINALG, SPECIAL
from conformance._support import raises

NEEDS_GRAD = ("{}(): functions with out=... arguments don't support automatic differentiation, "
              "but one of the arguments requires grad.")
RESIZED = "An output with one or more elements was resized since it had shape"


def _call(name, **extra):
    args, kwargs = CALLS[name](torch)
    return getattr(torch, name), args, dict(kwargs, **extra)


def _same(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and bool(
        torch.equal(a, b) or torch.allclose(a, b, equal_nan=True))


@pytest.mark.filterwarnings("ignore:torch.ger is deprecated")
@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_function_writes_its_result_into_out_and_returns_it(name):
    function, args, kwargs = _call(name)
    expected = function(*args, **kwargs)
    out = torch.full_like(expected, 3)
    assert function(*args, **kwargs, out=out) is out
    assert _same(out, expected)
    assert out._version == {"kron": 0, "nanmean": 2}.get(name, 1)


@pytest.mark.parametrize("name, dtype, values", [
    ("exp2", torch.float64, [2.0, 4.0]),  # the elementwise kernels cast
    ("mean", torch.float16, [1.0, 2.0]),
    ("sum", torch.bool, [True, True]),  # sum and prod cast to anything
    ("cumsum", torch.int64, [0, 1]),
    ("cat", torch.float64, [0.0, 1.0]),
    ("eq", torch.float32, [0.0, 0.0]),  # a bool result goes into any out
    ("all", torch.uint8, [0, 1]),
])
def test_an_out_of_another_dtype_takes_the_result_where_torch_casts(name, dtype, values):
    function = getattr(torch, name)
    x = torch.tensor([[0.0, 1.0]])
    args = {"exp2": (x + 1,), "mean": (torch.cat([x + 1, x + 1]), 0), "sum": (x + 1, 0),
            "cumsum": (x, 1), "cat": ([x],), "eq": (x, x + 1), "all": (x, 0)}[name]
    out = torch.zeros(function(*args).shape, dtype=dtype)
    assert function(*args, out=out) is out and out.dtype == dtype
    assert out.flatten().tolist() == values and out._version == 1


@pytest.mark.parametrize("name, dtype, kind, message", [
    ("exp2", torch.int64, RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
    ("floor", torch.float64, RuntimeError, "Found dtype Double but expected Float"),
    ("mm", torch.float64, RuntimeError,
     "Expected out tensor to have dtype float, but got double instead"),
    ("argmax", torch.int32, RuntimeError,
     "Expected out tensor to have dtype long int, but got int instead"),
    ("amax", torch.float16, RuntimeError, "Expected the dtype for input and out to match, but "
                                          "got Float for input's dtype and Half for out's dtype."),
    ("where", torch.float64, RuntimeError, "Expected out type to be Float but got Double"),
    ("cat", torch.int64, TypeError,
     "torch.cat(): input types can't be cast to the desired output type Long"),
    ("hstack", torch.bool, TypeError,
     "torch.cat(): input types can't be cast to the desired output type Bool"),
    ("cumsum", torch.bool, NotImplementedError, "\"cumsum_out_cpu\" not implemented for 'Bool'"),
    ("nansum", torch.int64, NotImplementedError, "\"nansum_cpu\" not implemented for 'Long'"),
    ("all", torch.float32, RuntimeError, "all only supports bool tensor for result, got: Float"),
    ("isin", torch.uint8, RuntimeError,
     "Expected out tensor to have dtype bool, but got unsigned char instead"),
    ("signbit", torch.int64, RuntimeError, "signbit does not support non-boolean outputs."),
    ("nonzero", torch.int32, RuntimeError,
     "nonzero: Expected out tensor to have scalar type Long but got scalar typeInt"),
    ("float_power", torch.float32, RuntimeError, "the output given to float_power has dtype "
                                                 "Float but the operation's result requires "
                                                 "dtype Double"),
    ("take", torch.float64, RuntimeError, "take(): self and out expected to have the same dtype, "
                                          "but got self.dtype = Float and out.dtype = Double"),
    ("quantile", torch.float64, RuntimeError,
     "quantile() out tensor must be same dtype as the input tensor"),
    ("logsumexp", torch.int32, RuntimeError,
     "logsumexp(): Expected floating point type for result tensor, but got: Int"),
    ("cholesky_solve", torch.int64, RuntimeError, "cholesky_solve: Expected result to be safely "
                                                  "castable from Float dtype, but got result "
                                                  "with dtype Long"),
    ("searchsorted", torch.float32, RuntimeError,
     "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
     "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's "
     "dtype Float and out_int32 flag is False"),
])
def test_an_out_of_a_dtype_the_kernel_does_not_take_is_refused_and_left_alone(
        name, dtype, kind, message):
    function, args, kwargs = _call(name)
    # torch resizes before its dispatch finds no kernel; refgrad refuses first (the chapter)
    shape = function(*args, **kwargs).shape if kind is NotImplementedError else (7,)
    out = torch.zeros(shape, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # refused before any resize
        with raises(kind, message):
            function(*args, **kwargs, out=out)
    assert out.shape == shape and out._version == 0 and not out.any()


@pytest.mark.parametrize("name, dtype, times", [
    ("floor", torch.float32, 1), ("exp2", torch.float32, 1),
    ("exp2", torch.float64, 2),  # computed into a temporary, then copied: two resizes
    ("mean", torch.float64, 1), ("cat", torch.float64, 1), ("lt", torch.float32, 1),
    ("mm", torch.float32, 1), ("narrow_copy", torch.float32, 0), ("addbmm", torch.float32, 0),
])
def test_an_out_of_another_shape_is_resized_with_torchs_warnings(name, dtype, times):
    function, args, kwargs = _call(name)
    out = torch.zeros(7, dtype=dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        function(*args, **kwargs, out=out)
    assert [str(w.message)[:len(RESIZED)] for w in caught] == [RESIZED] * times
    assert all(w.filename == __file__ for w in caught)
    assert _same(out, function(*args, **kwargs).to(dtype))
    empty = torch.zeros(0, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an empty out is resized silently
        function(*args, **kwargs, out=empty)


@pytest.mark.parametrize("name, refused_as", [
    ("mean", "mean"), ("negative", "neg"), ("arccos", "acos"), ("square", "pow"),
    ("hstack", "cat"), ("outer", "mul"), ("norm", "linalg_vector_norm"),
    ("take_along_dim", "gather"), ("matmul", "matmul"), ("where", "where"),
])
def test_an_argument_that_requires_grad_is_refused_in_torchs_words(name, refused_as):
    function, args, kwargs = _call(name)
    needing = [a.requires_grad_() if isinstance(a, torch.Tensor) and a.is_floating_point()
               else [t.requires_grad_() for t in a] if isinstance(a, list) else a for a in args]
    out = torch.zeros(function(*args, **kwargs).shape)
    with raises(RuntimeError, NEEDS_GRAD.format(refused_as)):
        function(*needing, **kwargs, out=out)
    assert out._version == 0
    with torch.no_grad():
        assert function(*needing, **kwargs, out=out) is out


def test_an_out_that_requires_grad_is_refused_even_where_the_inputs_may():
    x = torch.tensor([[0.5, 2.0]], requires_grad=True)
    out = torch.zeros(1, 2)
    torch.softmax(x, 1, out=out)  # no derivative for the kernel: inputs are not asked
    assert torch.allclose(out, torch.softmax(x.detach(), 1))
    with raises(RuntimeError, NEEDS_GRAD.format("aten::softmax")):
        torch.softmax(x.detach(), 1, out=torch.zeros(1, 2, requires_grad=True))
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        torch.quantile(x, 0.5, 1, out=torch.zeros(1, requires_grad=True))


def test_comparisons_write_even_into_an_out_that_requires_grad():
    x = torch.tensor([0.5, 2.0], requires_grad=True)
    out = torch.zeros(2, requires_grad=True)
    assert torch.gt(x, 1, out=out) is out and out.tolist() == [0.0, 1.0]
    assert out._version == 1 and out.grad_fn is None


@pytest.mark.parametrize("namespace, name", [("special", n) for n in sorted(SPECIAL)]
                         + [("linalg", n) for n in sorted(LINALG)])
def test_torch_special_and_linalg_write_into_out(namespace, name):
    args, kwargs = {"special": SPECIAL, "linalg": LINALG}[namespace][name](torch)
    function = getattr(getattr(torch, namespace), name)
    expected = function(*args, **kwargs)
    out = torch.full_like(expected, 3)
    assert function(*args, **kwargs, out=out) is out
    assert _same(out, expected) and out._version == 1


@pytest.mark.parametrize("name, refused_as", [("expit", "sigmoid"), ("gammaln", "lgamma"),
                                              ("entr", "special_entr"), ("erf", "erf")])
def test_torch_special_is_refused_under_its_kernels_name(name, refused_as):
    args, kwargs = SPECIAL[name](torch)
    with raises(RuntimeError, NEEDS_GRAD.format(refused_as)):
        getattr(torch.special, name)(args[0].requires_grad_(), *args[1:], **kwargs,
                                     out=torch.zeros(2, 3))


def test_torch_special_round_wants_the_results_dtype():
    with raises(RuntimeError, "Found dtype Double but expected Float"):
        torch.special.round(torch.ones(2), out=torch.zeros(2, dtype=torch.float64))


@pytest.mark.parametrize("name, dtype, message", [
    ("inv", torch.float64, "Expected out tensor to have dtype float, but got double instead"),
    ("multi_dot", torch.float16, "multi_dot(): expected out tensor to have dtype float but got "
                                 "c10::Half"),
    ("norm", torch.float64, "linalg.norm expected out tensor dtype Float but got: Double"),
    ("vecdot", torch.int64, "linalg.vecdot: Expected out of dtypeFloat but found Long"),
    ("pinv", torch.int32, "linalg.pinv: Expected result to be safely castable from Float dtype, "
                          "but got result with dtype Int"),
    ("matrix_rank", torch.bool, "torch.linalg.matrix_rank: Expected result to be safely "
                                "castable from Long dtype, but got result with dtype Bool"),
])
def test_torch_linalg_refuses_an_out_of_another_dtype_in_its_words(name, dtype, message):
    args, kwargs = LINALG[name](torch)
    function = getattr(torch.linalg, name)
    out = torch.zeros(function(*args, **kwargs).shape, dtype=dtype)
    with raises(RuntimeError, message):
        function(*args, **kwargs, out=out)
    assert out._version == 0


@pytest.mark.parametrize("name, refused_as", [("inv", "linalg_inv_ex"), ("det", "_linalg_det"),
                                              ("multi_dot", "mm"), ("vecdot", "vdot")])
def test_torch_linalg_is_refused_under_its_kernels_name(name, refused_as):
    args, kwargs = LINALG[name](torch)
    function = getattr(torch.linalg, name)
    out = torch.zeros(function(*args, **kwargs).shape)
    needing = [a.requires_grad_() if isinstance(a, torch.Tensor) else
               [t.requires_grad_() for t in a] if isinstance(a, list) else a for a in args]
    with raises(RuntimeError, NEEDS_GRAD.format(refused_as)):
        function(*needing, **kwargs, out=out)


def test_torch_linalg_composites_take_inputs_that_require_grad():
    a = torch.tensor([[2.0, 0.5], [0.3, 1.5]], requires_grad=True)
    out = torch.zeros(())
    assert torch.linalg.norm(a, out=out) is out
    assert torch.allclose(out, torch.linalg.norm(a.detach()))
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        torch.linalg.cond(a.detach(), out=torch.zeros((), requires_grad=True))
