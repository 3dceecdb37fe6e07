"""Black-box tests: the place in torch's sources more C++ warnings end with, torch.lu_solve's
out=, and the names resolve_name gives Tensor's other methods and torch's mm. The same
assertions run on torch.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import OUT_GRAD, raises
from conformance._warned import caught_always

PLACE = " (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/{}.)"
FREEDOM = ("{}(): degrees of freedom is <= 0. Correction should be strictly less than the "
           "reduction factor (input numel divided by output numel).")
COV = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number "
       "of observations.")


@pytest.mark.parametrize("name", ["std", "var", "std_mean", "var_mean"])
def test_no_degrees_of_freedom_warning_ends_with_torchs_place(name):
    with caught_always(torch) as caught:
        line = __import__("inspect").currentframe().f_lineno + 1
        getattr(torch, name)(torch.ones(1))
    assert [str(w.message) for w in caught] == [
        FREEDOM.format(name) + PLACE.format("ReduceOps.cpp:1861")]
    assert (caught[0].filename, caught[0].lineno) == (__file__, line)


def test_a_reduced_dimension_of_one_warns_the_same_through_the_method():
    with caught_always(torch) as caught:
        assert torch.ones(1, 3).std(0).isnan().all()
    assert str(caught[0].message) == FREEDOM.format("std") + PLACE.format("ReduceOps.cpp:1861")


def _cov_of_one_observation():
    return torch.cov(torch.ones(3, 1))


def test_cov_warning_ends_with_torchs_place_at_the_callers_line():
    with caught_always(torch) as caught:
        line = __import__("inspect").currentframe().f_lineno + 1
        torch.ones(3, 1).cov()
        _cov_of_one_observation()
    assert [str(w.message) for w in caught] == [COV + PLACE.format("Correlation.cpp:129")] * 2
    assert [w.lineno for w in caught] == [line, _cov_of_one_observation.__code__.co_firstlineno
                                          + 1]
    assert {w.filename for w in caught} == {__file__}


def test_corrcoef_warns_cov_in_torchs_words():
    with caught_always(torch) as caught:
        torch.corrcoef(torch.ones(3, 1))
    assert [str(w.message) for w in caught] == [COV + PLACE.format("Correlation.cpp:129")]


@pytest.mark.parametrize("conv, n", [(F.conv1d, 1), (F.conv2d, 2), (torch.conv3d, 3)])
def test_same_padding_of_an_even_kernel_warning_ends_with_torchs_place(conv, n):
    with caught_always(torch) as caught:
        out = conv(torch.ones((1, 1) + (5,) * n), torch.ones((1, 1) + (2,) * n), padding="same")
    assert tuple(out.shape) == (1, 1) + (5,) * n
    assert [str(w.message) for w in caught] == [
        "Using padding='same' with even kernel lengths and odd dilation may require a "
        "zero-padded copy of the input be created" + PLACE.format("Convolution.cpp:1101")]
    assert caught[0].filename == __file__


def _factored():
    a = torch.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    b = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    lu, pivots = torch.linalg.lu_factor(a)
    return b, lu, pivots


def test_lu_solve_writes_its_out():
    b, lu, pivots = _factored()
    out = torch.empty(3, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = torch.lu_solve(b, lu, pivots, out=out)
        expected = torch.lu_solve(b, lu, pivots)
    assert result is out
    assert torch.allclose(out, expected) and out.stride() == (2, 1)


def test_lu_solve_out_warns_its_own_deprecation_from_its_own_place():
    b, lu, pivots = _factored()
    with caught_always(torch) as caught:
        torch.lu_solve(b, lu, pivots, out=torch.empty(3, 2))
    message = str(caught[0].message)
    assert message.startswith("torch.lu_solve is deprecated in favor of torch.linalg.lu_solve")
    assert message.endswith(PLACE.format("BatchLinearAlgebra.cpp:2242"))
    assert caught[0].filename == __file__


@pytest.mark.parametrize("dtype, words", [(torch.float64, "double"), (torch.int64, "long int")])
def test_lu_solve_out_of_another_dtype_is_refused_as_linalg_refuses_it(dtype, words):
    b, lu, pivots = _factored()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(RuntimeError, f"Expected out tensor to have dtype float, but got {words} "
                                  "instead"):
            torch.lu_solve(b, lu, pivots, out=torch.empty(3, 2, dtype=dtype))


def test_lu_solve_out_refuses_grad_in_linalgs_name():
    b, lu, pivots = _factored()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(RuntimeError, OUT_GRAD.format("linalg_lu_solve")):
            torch.lu_solve(b.requires_grad_(), lu, pivots, out=torch.empty(3, 2))


def test_lu_solve_out_of_a_list_is_refused_by_the_parser():
    b, lu, pivots = _factored()
    with raises(TypeError, "lu_solve(): argument 'out' must be Tensor, not list"):
        torch.lu_solve(b, lu, pivots, out=[torch.empty(3, 2)])


def test_a_mode_sees_lu_solve_once_with_its_out():
    seen = []

    class Seen(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append((func.__name__, sorted(kwargs or {})))
            return func(*args, **(kwargs or {}))

    b, lu, pivots = _factored()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with Seen():
            torch.lu_solve(b, lu, pivots, out=torch.empty(3, 2))
    assert [s for s in seen if s[0] == "lu_solve"] == [("lu_solve", ["out"])]


def test_mm_is_named_as_torchs_last_name_for_it():
    assert torch.overrides.resolve_name(torch.mm) == "torch.spmm"
    assert torch.spmm == torch.mm and torch.dsmm == torch.mm


def test_spmm_and_dsmm_of_dense_matrices_are_mm():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    for product in (torch.spmm(a, a), torch.dsmm(a, a)):
        assert product.tolist() == [[7.0, 10.0], [15.0, 22.0]]
        assert type(product.grad_fn).__name__ == "MmBackward0"


@pytest.mark.parametrize("name", ["as_subclass", "__repr__", "__iter__", "__deepcopy__",
                                  "__reduce_ex__", "_is_view", "_make_subclass",
                                  "__torch_function__", "__setstate__"])
def test_tensors_methods_no_handler_is_asked_for_are_named(name):
    assert torch.overrides.resolve_name(getattr(torch.Tensor, name)) == f"torch.Tensor.{name}"


def test_tensors_str_is_objects_and_unnamed_where_as_subclass_is_named():
    assert torch.overrides.resolve_name(torch.Tensor.__str__) is None
    assert torch.overrides.resolve_name(torch.Tensor.as_subclass) == "torch.Tensor.as_subclass"


def _pair(values_dtype, indices_dtype):
    return torch.empty(0, dtype=values_dtype), torch.empty(0, dtype=indices_dtype)


@pytest.mark.parametrize("dim", [5, -3, 2])
def test_mode_refuses_its_values_out_before_a_dimension_out_of_range(dim):
    with raises(RuntimeError, "expected scalar type 'Float' but got 'Long' for values output"):
        torch.mode(torch.ones(2, 3), dim, out=_pair(torch.int64, torch.int64))
    with raises(RuntimeError, "expected scalar type 'Long' but got 'Float' for indices output"):
        torch.mode(torch.ones(2, 3), dim, out=_pair(torch.float32, torch.float32))
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            f"got {dim})"):  # outs of the right dtypes: the dimension's turn
        torch.mode(torch.ones(2, 3), dim, out=_pair(torch.float32, torch.int64))


def test_mode_refuses_its_outs_before_an_empty_dimension():
    with raises(RuntimeError, "expected scalar type 'Long' but got 'Bool' for values output"):
        torch.mode(torch.ones(0, 3, dtype=torch.int64), 0, out=_pair(torch.bool, torch.int64))


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_of_bools_refuses_its_outs_before_the_dtype(name):
    bools = torch.ones(2, 3, dtype=torch.bool)
    with raises(RuntimeError, "Expected tensor for 'values' to have the same type as tensor for "
                              "argument #2 'self'; but type torch.FloatTensor does not equal "
                              "CPUBoolType (while checking arguments for median)"):
        getattr(torch, name)(bools, 0, out=_pair(torch.float32, torch.int64))
    with raises(RuntimeError, "Expected tensor for argument #1 'indices' to have scalar type "
                              "Long; but got torch.FloatTensor instead (while checking arguments "
                              "for median)"):
        getattr(torch, name)(bools, 0, out=_pair(torch.bool, torch.float32))
    with raises(NotImplementedError, '"median_out" not implemented for \'Bool\''):
        getattr(torch, name)(bools, 0, out=_pair(torch.bool, torch.int64))


def test_kthvalue_of_bools_refuses_its_outs_before_the_dtype():
    bools = torch.ones(2, 3, dtype=torch.bool)
    with raises(RuntimeError, "output values must be of same type as input"):
        torch.kthvalue(bools, 1, 0, out=_pair(torch.int64, torch.int64))
    with raises(RuntimeError, "output indices must be of scalar type Long"):
        torch.kthvalue(bools, 1, 0, out=_pair(torch.bool, torch.float32))


@pytest.mark.parametrize("name, extra", [("mode", {}), ("kthvalue", {"k": 2})])
def test_a_named_input_writes_the_outs(name, extra):
    values, indices = torch.empty(4), torch.empty(4, dtype=torch.int64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = getattr(torch, name)(input=torch.tensor([[1.0, 2.0], [1.0, 3.0]]), dim=0,
                                      **extra, out=(values, indices))
    assert result.values is values and result.indices is indices
    assert values.tolist() == ([1.0, 2.0] if name == "mode" else [1.0, 3.0])
    assert len(caught) == 2 and all("was resized" in str(w.message) for w in caught)
