"""Black-box tests: out= tensors that torch's kernels size before they refuse their dtype,
how often a resize warns, and the words of some out= refusals. The same assertions run on
torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises

RESIZED = "An output with one or more elements was resized since it had shape"
X = [[0.6, 0.6, 0.6], [1.5, 0.25, -0.75]]
SQ = [[2.0, 0.5, 0.1], [0.5, 3.0, 0.2], [0.1, 0.2, 4.0]]
TRI = [[2.0, 0.0, 0.0], [0.5, 3.0, 0.0], [0.1, 0.2, 4.0]]


def _out(dtype, n=7):
    return (torch.arange(n) + 5).to(dtype)


def _refused(call, kind, message):
    """``call()`` refused with ``message``; the resize warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with raises(kind, message):
            call()
    return [w for w in caught if str(w.message).startswith(RESIZED)]


def _resized(call):
    """The resize warnings ``call()`` gives, succeeding."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [w for w in caught if str(w.message).startswith(RESIZED)]


_CAST = "result type Float can't be cast to the desired output type {}"
_C_NAMES = "Expected out tensor to have dtype float, but got {} instead"
SIZED_THEN_REFUSED = [  # call, out dtype, exception, message, shape out is left with
    (lambda x, o: torch.dot(x[0], x[0], out=o), torch.int64, RuntimeError,
     "result dtype Long does not match input dtype Float", ()),
    (lambda x, o: torch.vdot(x[0], x[0], out=o), torch.float64, RuntimeError,
     "result dtype Double does not match input dtype Float", ()),
    (lambda x, o: torch.std(x, 1, out=o), torch.int64, RuntimeError, _CAST.format("Long"), (2,)),
    (lambda x, o: torch.var(x, 1, out=o), torch.bool, RuntimeError, _CAST.format("Bool"), (2,)),
    (lambda x, o: torch.nansum(x, 1, out=o), torch.int64, NotImplementedError,
     "\"nansum_cpu\" not implemented for 'Long'", (2,)),
    (lambda x, o: torch.nanmean(x, 1, out=o), torch.int64, NotImplementedError,
     "\"nansum_cpu\" not implemented for 'Long'", (2,)),
    (lambda x, o: torch.stack([x, x], out=o), torch.int64, TypeError,
     "torch.cat(): input types can't be cast to the desired output type Long", (2, 2, 3)),
    (lambda x, o: torch.kron(x, x, out=o), torch.int64, RuntimeError, _CAST.format("Long"),
     (4, 9)),
    (lambda x, o: torch.diag(x, out=o), torch.int64, RuntimeError, _C_NAMES.format("long int"),
     (2,)),
    (lambda x, o: torch.diag(x[0], out=o), torch.float64, RuntimeError,
     _C_NAMES.format("double"), (3, 3)),
    (lambda x, o: torch.matrix_power(torch.tensor(SQ), 2, out=o), torch.float64, RuntimeError,
     _C_NAMES.format("double"), (3, 3)),
    (lambda x, o: torch.linalg.matrix_power(torch.tensor(SQ), -1, out=o), torch.float64,
     RuntimeError, _C_NAMES.format("double"), (3, 3)),
    (lambda x, o: torch.linalg.matrix_rank(torch.tensor(SQ), out=o), torch.bool, RuntimeError,
     "torch.linalg.matrix_rank: Expected result to be safely castable from Long dtype, but got "
     "result with dtype Bool", ()),
    (lambda x, o: torch.cumsum(x, 1, out=o), torch.bool, NotImplementedError,
     "\"cumsum_out_cpu\" not implemented for 'Bool'", (2, 3)),
    (lambda x, o: torch.cumprod(x, 1, out=o), torch.bool, NotImplementedError,
     "\"cumprod_out_cpu\" not implemented for 'Bool'", (2, 3)),
]


@pytest.mark.parametrize("call, dtype, kind, message, shape", SIZED_THEN_REFUSED)
def test_a_refused_out_is_left_sized_as_the_result(call, dtype, kind, message, shape):
    o = _out(dtype)
    warned = _refused(lambda: call(torch.tensor(X), o), kind, message)
    assert len(warned) == 1
    assert o.shape == shape and o.dtype == dtype and o._version == 0
    kept = min(o.numel(), 7)
    assert o.flatten()[:kept].tolist() == _out(dtype)[:kept].tolist()  # its first elements kept


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.bool])
def test_mean_leaves_its_sum_in_out_s_dtype_in_a_refused_out(dtype):
    x = torch.tensor(X)
    o = _out(dtype)
    warned = _refused(lambda: torch.mean(x, 1, out=o), RuntimeError,
                      _CAST.format({torch.int64: "Long", torch.int32: "Int",
                                    torch.bool: "Bool"}[dtype]))
    assert len(warned) == 1 and o._version == 0
    assert o.tolist() == x.to(dtype).sum(1, dtype=dtype).tolist()


def test_solve_triangular_leaves_its_right_side_in_a_refused_out():
    b = torch.tensor([[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]])
    o = _out(torch.int64)
    warned = _refused(lambda: torch.linalg.solve_triangular(torch.tensor(TRI), b, upper=False,
                                                            out=o),
                      RuntimeError, "expected scalar type Float but found Long")
    assert len(warned) == 1 and o._version == 0
    assert o.tolist() == b.long().tolist()


@pytest.mark.parametrize("n", [0, 1])
def test_matrix_power_0_and_1_copy_into_an_out_of_another_float_dtype(n):
    a = torch.tensor(SQ)
    o = _out(torch.float64)
    assert len(_resized(lambda: torch.linalg.matrix_power(a, n, out=o))) == 1
    assert o.dtype == torch.float64 and o._version == 1
    assert o.tolist() == torch.linalg.matrix_power(a, n).double().tolist()


def test_matrix_power_refuses_an_out_it_cannot_cast_to_before_sizing_it():
    o = _out(torch.int64)
    assert not _refused(lambda: torch.matrix_power(torch.tensor(SQ), 2, out=o), RuntimeError,
                        "matrix_power: Expected result to be safely castable from Float dtype, "
                        "but got result with dtype Long")
    assert o.shape == (7,)


def test_diag_of_a_vector_refuses_an_out_it_cannot_cast_to_before_sizing_it():
    o = _out(torch.int64)
    assert not _refused(lambda: torch.diag(torch.tensor(X)[0], out=o), RuntimeError,
                        "diag: result type Float can't be cast to the desired out= type Long")
    assert o.shape == (7,)


def test_eigh_sizes_its_eigenvectors_before_refusing_its_eigenvalues():
    w, v = torch.zeros(2, 3, dtype=torch.int64), torch.zeros(7)
    warned = _refused(lambda: torch.linalg.eigh(torch.tensor(SQ), out=(w, v)), RuntimeError,
                      _C_NAMES.format("long int"))
    assert len(warned) == 1
    assert w.shape == (2, 3) and v.shape == (3, 3)


@pytest.mark.parametrize("function", ["max", "min", "sort"])
def test_values_are_sized_before_int32_indices_are_refused(function):
    values, indices = torch.zeros(7), torch.zeros(7, dtype=torch.int32)
    warned = _refused(lambda: getattr(torch, function)(torch.tensor(X), 1, out=(values, indices)),
                      RuntimeError, _C_NAMES.replace("float", "long int").format("int"))
    assert len(warned) == 1
    assert values.shape == ((2, 3) if function == "sort" else (2,)) and indices.shape == (7,)


def test_kthvalue_leaves_refused_indices_values_with_the_dimension_kept():
    values, indices = torch.zeros(7), torch.zeros(7, dtype=torch.int32)
    _refused(lambda: torch.kthvalue(torch.tensor(X), 1, 1, out=(values, indices)), RuntimeError,
             "output indices must be of scalar type Long")
    assert values.shape == (2, 1)


def test_max_of_all_elements_refuses_an_out_it_cannot_cast_to_in_its_own_words():
    o = _out(torch.int64)
    assert not _refused(lambda: torch.max(torch.tensor(X), out=o), RuntimeError,
                        "Expected canCast( typeMetaToScalarType(self.dtype()), "
                        "typeMetaToScalarType(out.dtype())) to be true, but got false.  (Could "
                        "this error message be improved?  If so, please report an enhancement "
                        "request to PyTorch.)")
    o = _out(torch.float64)
    assert len(_resized(lambda: torch.max(torch.tensor(X), out=o))) == 1


@pytest.mark.parametrize("compare", ["eq", "ne", "lt", "le", "gt", "ge", "greater", "not_equal"])
@pytest.mark.parametrize("inputs, dtype, count", [
    (torch.float32, torch.int64, 2), (torch.float32, torch.float32, 1),
    (torch.float32, torch.bool, 1), (torch.float32, torch.float64, 2),
    (torch.int64, torch.int64, 1), (torch.int64, torch.float32, 2)])
def test_a_comparison_warns_twice_resizing_an_out_of_a_third_dtype(compare, inputs, dtype,
                                                                     count):
    x = torch.tensor(X).to(inputs)
    o = _out(dtype)
    assert len(_resized(lambda: getattr(torch, compare)(x, x, out=o))) == count
    assert o.tolist() == getattr(torch, compare)(x, x).to(dtype).tolist()


def test_householder_product_warns_once_resizing_a_float64_out():
    a, tau = torch.tensor(SQ), torch.tensor([0.6, 0.6])
    o = _out(torch.float64)
    assert len(_resized(lambda: torch.linalg.householder_product(a, tau, out=o))) == 1
    assert o.shape == (3, 3)


@pytest.mark.parametrize("call", [lambda x, o: torch.clamp(x, x, x, out=o),
                                  lambda x, o: torch.clamp(x, min=x, out=o),
                                  lambda x, o: torch.clip(x, x, x, out=o),
                                  lambda x, o: torch.clamp_min(x, x, out=o)])
def test_clamp_with_a_tensor_bound_casts_to_out_as_add_does(call):
    x = torch.tensor(X)
    o = torch.zeros(7, dtype=torch.int64)
    assert not _refused(lambda: call(x, o), RuntimeError, _CAST.format("Long"))
    assert o.shape == (7,)
    o = torch.zeros(2, 3, dtype=torch.float64)
    call(x, o)
    assert o.tolist() == x.double().tolist() and o._version == 1


def test_clamp_with_number_bounds_wants_out_of_the_result_s_dtype():
    with raises(RuntimeError, "Found dtype Double but expected Float"):
        torch.clamp(torch.tensor(X), 0.0, 1.0, out=torch.zeros(2, 3, dtype=torch.float64))


@pytest.mark.parametrize("shape, message", [
    ((), "addmv input tensors must have the same dtype, but got Long, Float, and Float"),
    ((1,), "addmv input tensors must have the same dtype, but got Long, Float, and Float"),
    ((2,), "addmv input tensors must have the same dtype, but got Long, Float, and Float"),
    ((3,), "Expected out tensor to have dtype float, but got long int instead"),
    ((1, 1), "Expected out tensor to have dtype float, but got long int instead")])
def test_mv_refuses_an_out_addmv_can_broadcast_in_addmv_s_words(shape, message):
    with raises(RuntimeError, message):
        torch.mv(torch.tensor(X), torch.ones(3), out=torch.zeros(shape, dtype=torch.int64))


@pytest.mark.parametrize("function", ["median", "nanmedian"])
def test_median_names_a_bool_out_s_type_cpubooltype(function):
    x = torch.tensor(X)
    with raises(RuntimeError, "Expected tensor for 'values' to have the same type as tensor for "
                              "argument #2 'self'; but type CPUBoolType does not equal "
                              "torch.FloatTensor (while checking arguments for median)"):
        getattr(torch, function)(x, 1, out=(torch.zeros(7, dtype=torch.bool),
                                            torch.zeros(7, dtype=torch.int64)))
    with raises(RuntimeError, "Expected tensor for argument #1 'indices' to have scalar type "
                              "Long; but got CPUBoolType instead (while checking arguments for "
                              "median)"):
        getattr(torch, function)(x, 1, out=(torch.zeros(7), torch.zeros(7, dtype=torch.bool)))


@pytest.mark.parametrize(("factory", "kernel"), [(torch.linspace, "linspace_cpu"),
                                                 (torch.logspace, "logspace_cpu")])
@pytest.mark.parametrize("n", [7, 5, 0])
def test_spaced_factories_size_a_bool_out_silently_before_refusing_it(factory, kernel, n):
    out = torch.zeros(n, dtype=torch.bool)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Bool'"):
            factory(0, 1, 5, out=out)
    assert (out.shape, out.dtype, out._version) == ((5,), torch.bool, 0)
