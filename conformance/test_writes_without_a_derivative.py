"""scatter's reduce= overloads write into out= without a derivative; an empty batch with an
empty kernel fails on the weight's first element; the deprecated cholesky, nuclear_norm and
frobenius_norm warn once per out= overload."""

import os
import subprocess
import sys
import warnings

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import raises, recording_mode

GRAD = ("{}(): functions with out=... arguments don't support automatic differentiation, "
        "but one of the arguments requires grad.")
EMPTY = "select(): index 0 out of range for tensor of size [0] at dimension 0"


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scatter's reduce=, the deprecations, resized outs
        yield


def _index():
    return torch.tensor([2, 0, 1])


@pytest.mark.parametrize("reduce, src, expected", [
    ("add", lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True), [4.0, 5.0, 3.0]),
    ("multiply", lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True), [4.0, 6.0, 2.0]),
    ("add", lambda: 5.0, [7.0, 7.0, 7.0]),
])
def test_scatter_with_reduce_writes_out_and_records_not_implemented(reduce, src, expected):
    x = torch.full((3,), 2.0, requires_grad=True)
    out, given = torch.empty(5), src()
    result = torch.scatter(x, 0, _index(), given, reduce=reduce, out=out)
    assert result is out and out.tolist() == expected and out.shape == (3,)
    assert out.grad_fn.name() == "torch::autograd::NotImplemented" and out._version == 1
    edges = [n for n, _ in out.grad_fn.next_functions]
    assert len(edges) == (2 if isinstance(given, torch.Tensor) else 1)
    assert all(type(n).__name__ == "AccumulateGrad" for n in edges)
    with raises(RuntimeError, "derivative for aten::scatter is not implemented"):
        out.sum().backward()


def test_only_src_requiring_grad_is_enough_for_the_node():
    src = torch.ones(3, requires_grad=True)
    out = torch.empty(3)
    torch.scatter(torch.zeros(3), 0, _index(), src, reduce="add", out=out)
    assert out.requires_grad and out.grad_fn.next_functions[0][0].variable is src


def test_an_out_with_history_is_an_edge_of_the_node():
    out = torch.zeros(3, requires_grad=True) * 1
    torch.scatter(torch.zeros(3), 0, _index(), torch.ones(3), reduce="multiply", out=out)
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["MulBackward0"]


@pytest.mark.parametrize("make_out", [
    lambda: torch.empty(3, requires_grad=True),
    lambda: torch.empty(3, requires_grad=True).view(3),
])
@pytest.mark.parametrize("src", [lambda: torch.ones(3), lambda: 1.0])
def test_a_leaf_out_that_requires_grad_is_refused_in_the_kernels_name(make_out, src):
    out = make_out()
    with raises(RuntimeError, GRAD.format("aten::scatter")):
        torch.scatter(torch.zeros(3), 0, _index(), src(), reduce="add", out=out)
    assert out._version == 0


def test_without_reduce_any_grad_is_still_refused_in_scatters_name():
    with raises(RuntimeError, GRAD.format("scatter")):
        torch.scatter(torch.zeros(3, requires_grad=True), 0, _index(), torch.ones(3),
                      out=torch.empty(3))


def test_an_unknown_reduction_is_refused_by_the_kernel_under_grad():
    with raises(RuntimeError, "reduce argument must be either add or multiply."):
        torch.scatter(torch.zeros(3, requires_grad=True), 0, _index(), 1.0, reduce="max",
                      out=torch.empty(3))


def test_under_no_grad_the_write_has_no_history():
    x, out = torch.zeros(3, requires_grad=True), torch.empty(3)
    with torch.no_grad():
        torch.scatter(x, 0, _index(), torch.ones(3), reduce="add", out=out)
    assert out.tolist() == [1.0, 1.0, 1.0] and out.grad_fn is None and not out.requires_grad


def test_forward_mode_refuses_in_the_kernels_name_before_it_writes():
    out = torch.zeros(3)
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.zeros(3), torch.ones(3))
        with raises(NotImplementedError,
                    "Trying to use forward AD with aten::scatter that does not support it."):
            torch.scatter(x, 0, _index(), torch.ones(3), reduce="add", out=out)
    assert out._version == 0


@pytest.mark.parametrize("conv, input, weight, options", [
    (F.conv2d, (0, 1, 3, 3), (1, 1, 0, 1), {}),
    (F.conv2d, (0, 1, 3, 3), (1, 1, 1, 0), {"dilation": 0}),
    (F.conv2d, (0, 1, 0, 3), (1, 1, 0, 0), {"padding": 1, "stride": 2}),
    (F.conv2d, (0, 2, 3, 3), (2, 1, 0, 1), {"groups": 2}),
    (F.conv1d, (0, 1, 3), (1, 1, 0), {}),
    (F.conv3d, (0, 1, 3, 3, 3), (1, 1, 1, 1, 0), {}),
    (F.conv_transpose1d, (0, 1, 3), (1, 1, 0), {}),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 1, 0, 1), {"output_padding": 3}),
    (F.conv_transpose2d, (0, 2, 3, 3), (2, 1, 0, 1), {"groups": 2, "stride": 2}),
    (F.conv_transpose3d, (0, 1, 3, 3, 3), (1, 1, 0, 1, 1), {"dilation": 0}),
])
def test_an_empty_batch_with_an_empty_kernel_fails_on_the_weights_first_element(
        conv, input, weight, options):
    with raises(IndexError, EMPTY):
        conv(torch.rand(input), torch.zeros(weight), **options)


@pytest.mark.parametrize("kinds", [(torch.float32, torch.float64), (torch.int64, torch.int64),
                                   (torch.float16, torch.float16)])
def test_the_index_error_comes_before_the_kernels_dtype_checks(kinds):
    with raises(IndexError, EMPTY):
        F.conv2d(torch.zeros(0, 1, 3, 3, dtype=kinds[0]), torch.zeros(1, 1, 0, 1, dtype=kinds[1]))


def test_the_shape_and_bias_checks_come_first():
    with raises(RuntimeError, "Input type (float) and bias type (double) should be the same"):
        F.conv2d(torch.rand(0, 1, 3, 3), torch.zeros(1, 1, 0, 1), torch.zeros(1).double())
    with raises(RuntimeError, "Given groups=1, expected weight to be at least 1 at dimension 0, "
                              "but got weight of size [0, 1, 0, 1] instead"):
        F.conv2d(torch.rand(0, 1, 3, 3), torch.zeros(0, 1, 0, 1))


def test_no_input_channels_compute_and_a_batch_reaches_the_kernel():
    assert F.conv2d(torch.rand(0, 0, 3, 3), torch.zeros(1, 0, 0, 1)).shape == (0, 0, 4, 3)
    with raises(RuntimeError, "kernel size should be greater than zero, but got kernel_height: "
                              "0 kernel_width: 1"):
        F.conv2d(torch.rand(1, 1, 3, 3), torch.zeros(1, 1, 0, 1))


def _counted(call):
    """The warnings ``call()`` gives with every once-only warning given each time."""
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                call()
            except RuntimeError:
                pass
    finally:
        torch.set_warn_always(False)
    return ["deprecated" if "deprecated in favor" in str(w.message)
            or "is deprecated and it is just left" in str(w.message)
            else "resized" if "was resized" in str(w.message) else str(w.message)
            for w in caught]


_A = [[4.0, 2.0], [2.0, 3.0]]


@pytest.mark.parametrize("call, expected", [
    (lambda a: torch.cholesky(a), ["deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(0)), ["deprecated", "deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(4, dtype=torch.float64)),
     ["deprecated", "deprecated", "resized"]),
    (lambda a: torch.cholesky(a, out=torch.empty(4, dtype=torch.int64)), ["deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(0, requires_grad=True)), []),
    (lambda a: torch.nuclear_norm(a, out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.nuclear_norm(a, (0, 1), out=torch.empty(0, dtype=torch.float64)),
     ["deprecated"]),
    (lambda a: torch.frobenius_norm(a, (0, 1), out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.frobenius_norm(a, (0, 1), out=torch.empty(0, dtype=torch.float64)),
     ["deprecated"]),
])
def test_each_deprecated_overload_warns_once_in_a_call(call, expected):
    assert _counted(lambda: call(torch.tensor(_A))) == expected


def test_the_cholesky_out_write_with_a_cast_is_resized_once():
    out = torch.empty(4, dtype=torch.float64)
    torch.cholesky(torch.tensor(_A), out=out)
    assert out.dtype == torch.float64 and out.shape == (2, 2)
    assert out[1, 0].item() == 1.0 and out[0, 1].item() == 0.0


_ONCE = """
import warnings
import {module} as torch
a = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
calls = [{calls}]
for call in calls:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    print(sum("deprecated" in str(w.message) for w in caught))
"""


@pytest.mark.parametrize("calls, expected", [
    ("lambda: torch.cholesky(a, out=torch.empty(0)), lambda: torch.cholesky(a), "
     "lambda: torch.cholesky(a, out=torch.empty(0))", ["2", "0", "0"]),
    ("lambda: torch.cholesky(a), lambda: torch.cholesky(a, out=torch.empty(0)), "
     "lambda: torch.cholesky(a)", ["1", "1", "0"]),
    ("lambda: torch.nuclear_norm(a, out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a, True, out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a, (0, 1), out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a, (0, 1), True, out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a), lambda: torch.nuclear_norm(a, (0, 1))",
     ["1", "0", "1", "0", "1", "0"]),
    ("lambda: torch.frobenius_norm(a, (0, 1), out=torch.empty(0)), "
     "lambda: torch.frobenius_norm(a, (0, 1)), "
     "lambda: torch.frobenius_norm(a, 0, out=torch.empty(0))", ["1", "1", "0"]),
])
def test_each_out_overload_warns_once_of_its_own(calls, expected):
    module = torch.__name__  # refgrad, where it stands in for torch
    done = subprocess.run([sys.executable, "-c", _ONCE.format(module=module, calls=calls)],
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.stdout.split() == expected


@pytest.mark.parametrize("conv, input, weight, options, shape", [
    (F.conv2d, (0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0, "padding": 1}, (0, 1, 5, 5)),
    (F.conv1d, (0, 1, 3), (1, 1, 2), {"dilation": 0}, (0, 1, 3)),
    (F.conv3d, (0, 1, 3, 3, 3), (2, 1, 2, 2, 2), {"dilation": (0, 1, 0)}, (0, 2, 3, 2, 3)),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 2, 2, 2), {"output_padding": 3}, (0, 2, 7, 7)),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0}, (0, 1, 3, 3)),
    (F.conv_transpose1d, (0, 1, 3), (1, 1, 2), {"output_padding": 2}, (0, 1, 6)),
    (F.conv_transpose3d, (0, 1, 3, 3, 3), (1, 1, 2, 2, 2), {"output_padding": 2, "stride": 2},
     (0, 1, 8, 8, 8)),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 2, 2, 2), {"padding": 2}, (0, 2, 0, 0)),
])
def test_an_empty_batch_skips_the_kernels_checks_of_dilation_and_output_padding(
        conv, input, weight, options, shape):
    assert conv(torch.rand(input), torch.rand(weight), **options).shape == shape


@pytest.mark.parametrize("conv, input, weight, options, message", [
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 2, 2, 2), {"padding": (0, 3)},
     "invalid shape dimension -2 at index 3 of shape [0, 2, 4, -2]"),
    (F.conv_transpose1d, (0, 1, 3), (1, 2, 2), {"padding": 5},
     "invalid shape dimension -6 at index 3 of shape [0, 2, 1, -6]"),
    (F.conv_transpose3d, (0, 1, 3, 3, 3), (1, 2, 2, 2, 2), {"padding": (0, 5, 0)},
     "invalid shape dimension -6 at index 3 of shape [0, 2, 4, -6, 4]"),
])
def test_an_empty_transposed_result_of_negative_size_is_refused_by_its_view(
        conv, input, weight, options, message):
    with raises(RuntimeError, message):
        conv(torch.rand(input), torch.rand(weight), torch.zeros(2).double(), **options)


@pytest.mark.parametrize("conv, input, weight", [
    (F.conv2d, (1, 1, 3, 3), (1, 1, 2, 2)), (F.conv1d, (1, 1, 3), (1, 1, 2)),
    (F.conv2d, (1, 3, 3), (1, 1, 2, 1)), (F.conv3d, (0, 1, 3, 3, 3), (1, 1, 1, 2, 1)),
])
def test_same_padding_of_an_even_kernel_warns_at_the_callers_line(conv, input, weight):
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            line = sys._getframe().f_lineno + 1
            conv(torch.rand(input), torch.zeros(weight), padding="same")
    finally:
        torch.set_warn_always(False)
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)]
    assert str(caught[0].message).startswith("Using padding='same' with even kernel lengths")


def _channels_last(*shape):
    return torch.rand(shape).contiguous(memory_format=torch.channels_last)


@pytest.mark.parametrize("conv, input, weight, options, strides", [
    (F.conv2d, lambda: torch.rand(0, 1, 3, 3), (1, 1, 1, 1), {}, (9, 0, 3, 1)),
    (F.conv2d, lambda: torch.rand(0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0}, (9, 0, 3, 1)),
    (F.conv2d, lambda: _channels_last(0, 2, 3, 3), (2, 2, 1, 1), {}, (18, 1, 6, 2)),
    (F.conv2d, lambda: _channels_last(0, 2, 3, 3), (3, 2, 1, 1), {}, (27, 9, 3, 1)),
    (F.conv2d, lambda: _channels_last(0, 2, 3, 3), (2, 2, 2, 2), {}, (8, 4, 2, 1)),
    (F.conv2d, lambda: torch.rand(0, 2, 3, 4).transpose(2, 3), (2, 2, 1, 1), {},
     (24, 12, 1, 4)),
    (F.conv1d, lambda: torch.rand(0, 1, 3), (1, 1, 1), {}, (3, 0, 1)),
    (F.conv3d, lambda: torch.rand(0, 1, 3, 3, 3), (1, 1, 1, 1, 1), {}, (27, 0, 9, 3, 1)),
    (F.conv_transpose2d, lambda: _channels_last(0, 2, 3, 3), (2, 2, 1, 1), {}, (18, 1, 6, 2)),
    (F.conv_transpose2d, lambda: torch.rand(0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0},
     (9, 0, 3, 1)),
    (F.conv2d, lambda: torch.rand(2, 0, 3, 3), (2, 0, 1, 1), {}, (9, 9, 3, 1)),
])
def test_an_empty_result_is_laid_out_as_the_product_viewed_to_its_sizes(
        conv, input, weight, options, strides):
    assert conv(input(), torch.rand(weight), **options).stride() == strides


@pytest.mark.parametrize("call, said", [
    (lambda x, s: torch.scatter(x, 0, _index(), torch.ones(3), reduce="add"), "aten::scatter"),
    (lambda x, s: torch.scatter(torch.zeros(3), 0, _index(), s, reduce="add"), "aten::scatter"),
    (lambda x, s: torch.scatter(x, 0, _index(), torch.ones(3), reduce="max"), "aten::scatter"),
    (lambda x, s: torch.scatter(x, 0, _index().float(), 1.0, reduce="add"), "aten::scatter"),
    (lambda x, s: x.scatter(0, _index(), s, reduce="multiply"), "aten::scatter"),
    (lambda x, s: torch.zeros(3).scatter_(0, _index(), s, reduce="add"), "aten::scatter_"),
    (lambda x, s: x.clone().scatter_(0, _index(), 2.0, reduce="multiply"), "aten::scatter_"),
])
def test_forward_mode_refuses_the_reductions_before_their_warning_and_checks(call, said):
    torch.set_warn_always(True)
    try:
        with fwAD.dual_level(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = fwAD.make_dual(torch.zeros(3), torch.ones(3))
            s = fwAD.make_dual(torch.ones(3), torch.ones(3))
            with raises(NotImplementedError,
                        f"Trying to use forward AD with {said} that does not support it."):
                call(x, s)
    finally:
        torch.set_warn_always(False)
    assert caught == []


@pytest.mark.parametrize("x, out, seen", [
    (lambda: torch.zeros(3, requires_grad=True), lambda: torch.empty(3),
     ["aten.scatter.reduce_out"]),
    (lambda: torch.zeros(3), lambda: torch.empty(3, requires_grad=True), []),
])
def test_a_mode_sees_the_write_unless_autograd_refused_it(x, out, seen):
    given, written, index, src = x(), out(), _index(), torch.ones(3)
    with recording_mode()() as mode:
        try:
            torch.scatter(given, 0, index, src, reduce="add", out=written)
        except RuntimeError as error:
            assert str(error) == GRAD.format("aten::scatter")
    assert mode.seen == seen
    assert (written.grad_fn is not None) == bool(seen)


@pytest.mark.parametrize("call, expected", [
    (lambda a: torch.nuclear_norm(a, out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.nuclear_norm(a, (0, 1), True, out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(0)), ["deprecated", "deprecated"]),
    (lambda a: torch.frobenius_norm(a, (0, 1), out=torch.empty(0)), ["deprecated"]),
])
def test_under_a_mode_the_out_forms_warn_as_without(call, expected):
    a = torch.tensor(_A)
    with recording_mode()():
        assert _counted(lambda: call(a)) == expected


@pytest.mark.parametrize("call, message", [
    (lambda a, o: torch.linalg.matrix_norm(a, out=o),
     "linalg.matrix_norm expected out tensor dtype Float but got: Double"),
    (lambda a, o: torch.linalg.norm(a, "nuc", out=o),
     "linalg.norm expected out tensor dtype Float but got: Double"),
    (lambda a, o: torch.nuclear_norm(a, out=o),
     "linalg.matrix_norm expected out tensor dtype Float but got: Double"),
])
def test_under_a_mode_a_norms_out_of_another_dtype_is_refused_before_it_is_resized(
        call, message):
    a, out = torch.tensor(_A), torch.empty(3, dtype=torch.float64)
    with recording_mode()() as mode, raises(RuntimeError, message):
        call(a, out)
    assert out.shape == (3,) and "aten.copy_.default" not in mode.seen


@pytest.mark.parametrize("call, said", [
    (lambda a, o: torch.linalg.cond(a, out=o), "linalg.cond"),
    (lambda a, o: torch.linalg.tensorsolve(a, torch.ones(2), out=o), "tensorsolve"),
])
def test_under_a_mode_cond_and_tensorsolve_cast_into_a_wider_out(call, said):
    a, out = torch.tensor(_A), torch.empty(0, dtype=torch.float64)
    with recording_mode()():
        call(a, out)
    assert out.dtype == torch.float64 and out.numel() >= 1
    with recording_mode()(), raises(RuntimeError, f"{said}: Expected result to be safely "
                                                  "castable from Float dtype, but got result "
                                                  "with dtype Long"):
        call(a, torch.empty(0, dtype=torch.int64))


_NOT_PD = "The factorization could not be completed because the input is not positive-definite"


@pytest.mark.parametrize("A, make_out, shape, resized", [
    (lambda: torch.tensor([[1.0, 2.0], [2.0, 1.0]]), lambda: torch.empty(3), (2, 2), True),
    (lambda: torch.tensor([[1.0, 2.0], [2.0, 1.0]]), lambda: torch.empty(0), (2, 2), False),
    (lambda: torch.tensor([[1.0, 2.0], [2.0, 1.0]]), lambda: torch.empty(2, 2).t(), (2, 2),
     False),
    (lambda: torch.stack([torch.eye(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])]),
     lambda: torch.empty(3), (2, 2, 2), True),
])
@pytest.mark.parametrize("upper", [False, True])
def test_linalg_cholesky_writes_out_before_it_refuses_the_matrix(
        A, make_out, shape, resized, upper):
    out = make_out()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match=_NOT_PD):
            torch.linalg.cholesky(A(), upper=upper, out=out)
    assert out.shape == shape and out._version == 1
    assert [("was resized" in str(w.message)) for w in caught] == ([True] if resized else [])


@pytest.mark.parametrize("make_out, message", [
    (lambda: torch.empty(3, dtype=torch.float64),
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda: torch.empty(3, requires_grad=True),
     GRAD.format("linalg_cholesky_ex")),
])
def test_linalg_cholesky_refuses_out_before_the_matrix(make_out, message):
    out = make_out()
    with raises(RuntimeError, message) as caught:
        torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]), out=out)
    assert out.shape == (3,) and out._version == 0
    error = caught.value
    assert error.__suppress_context__ or error.__context__ is None


def test_under_a_mode_linalg_cholesky_writes_out_once():
    A, out = torch.tensor([[1.0, 2.0], [2.0, 1.0]]), torch.empty(0)
    with recording_mode()() as mode, pytest.raises(RuntimeError, match=_NOT_PD):
        torch.linalg.cholesky(A, out=out)
    assert mode.seen.count("aten.linalg_cholesky_ex.L") == 1 and out._version == 1
