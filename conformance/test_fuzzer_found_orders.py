"""Black-box tests: orders of torch's checks that random arguments turned up, and what an
in-place op has written when it refuses. The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises
from conformance._warned import caught_always

SHORT = "Number of elements of source < number of ones in mask"
BYTE_MASK = ("masked_scatter_ received a mask with dtype torch.uint8, this behavior is now "
             "deprecated,please use a mask with dtype torch.bool instead.")


def test_masked_scatter_in_place_writes_what_a_short_source_has_before_refusing():
    x = torch.zeros(2, 3)
    mask = torch.tensor([[True, False, True], [True, True, False]])
    with raises(RuntimeError, SHORT):
        x.masked_scatter_(mask, torch.tensor([1.0, 2.0, 3.0]))
    assert x.tolist() == [[1.0, 0.0, 2.0], [3.0, 0.0, 0.0]]
    assert x._version == 0


def test_the_partial_write_follows_the_written_tensors_rows_and_reads_the_source_in_order():
    x = torch.zeros(2, 3).t()  # written in its own row order, not its memory's
    source = torch.arange(8.0)[::2]
    with raises(RuntimeError, SHORT):
        x.masked_scatter_(torch.ones(3, 2, dtype=torch.bool), source)
    assert x.tolist() == [[0.0, 2.0], [4.0, 6.0], [0.0, 0.0]]


def test_an_empty_source_writes_nothing_and_the_function_writes_nothing():
    x = torch.zeros(3, dtype=torch.int32)
    with raises(RuntimeError, SHORT):
        x.masked_scatter_(torch.tensor([False, True, True]), torch.zeros(0, dtype=torch.int32))
    assert x.tolist() == [0, 0, 0]
    y = torch.zeros(3)
    with raises(RuntimeError, SHORT):
        torch.masked_scatter(y, torch.ones(3, dtype=torch.bool), torch.ones(2))
    assert y.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("call, message", [
    # the method: dtypes first, then the mask expanded to self's size, then the mask's dtype
    ("torch.zeros(1).masked_scatter_(torch.ones(4, dtype=torch.bool), torch.arange(2))",
     "masked_scatter: expected self and source to have same dtypes but gotFloat and Long"),
    ("torch.zeros(1).masked_scatter_(torch.ones(4, dtype=torch.bool), torch.arange(2.0))",
     "The expanded size of the tensor (1) must match the existing size (4) at non-singleton "
     "dimension 0.  Target sizes: [1].  Tensor sizes: [4]"),
    ("torch.zeros(4).masked_scatter_(torch.ones(2, 4, dtype=torch.bool), torch.arange(2.0))",
     "expand(CPUBoolType{[2, 4]}, size=[4]): the number of sizes provided (1) must be greater "
     "or equal to the number of dimensions in the tensor (2)"),
    ("torch.zeros(4).masked_scatter_(torch.ones(3), torch.arange(2.0))",
     "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
     "dimension 0.  Target sizes: [4].  Tensor sizes: [3]"),
    ("torch.zeros(4).masked_scatter_(torch.ones(4), torch.arange(2))",
     "masked_scatter: expected self and source to have same dtypes but gotFloat and Long"),
    ("torch.zeros(4).masked_scatter_(torch.ones(4), torch.arange(2.0))",
     "masked_scatter_ only supports boolean masks, but got mask with dtype Float"),
    # the function: shapes broadcast together first, then the dtypes
    ("torch.zeros(4).masked_scatter(torch.ones(3, dtype=torch.bool), torch.arange(4))",
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"),
    ("torch.zeros(4).masked_scatter(torch.ones(4), torch.arange(4))",
     "masked_scatter: expected self and source to have same dtypes but gotFloat and Long"),
    ("torch.zeros(1).masked_scatter(torch.ones(4, dtype=torch.bool), torch.arange(2.0))", SHORT),
])
def test_masked_scatter_checks_in_torchs_order(call, message):
    with raises(RuntimeError, message):
        eval(call)


@pytest.mark.parametrize("in_place", [False, True])
def test_a_uint8_mask_is_refused_after_the_deprecation_warning(in_place):
    x = torch.zeros(4)
    method = x.masked_scatter_ if in_place else x.masked_scatter
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with raises(RuntimeError, "masked_scatter_ only supports boolean masks, but got mask "
                    "with dtype Byte"):
            method(torch.ones(4, dtype=torch.uint8), torch.arange(4.0))
    assert [str(w.message)[:len(BYTE_MASK)] for w in caught] == [BYTE_MASK]
    assert x.tolist() == [0.0] * 4


OVERFLOW = "value cannot be converted to type {} without overflow"


@pytest.mark.parametrize("dtype, value, name", [
    (torch.int8, torch.tensor(300), "int8_t"),
    (torch.uint8, torch.tensor(-0.5), "uint8_t"),
    (torch.uint8, torch.tensor(2.0**40), "uint8_t"),
    (torch.int32, torch.tensor(2**31), "int"),
    (torch.float16, torch.tensor(70000.0), "c10::Half"),
    (torch.float32, torch.tensor(1e300, dtype=torch.float64), "float"),
])
def test_index_fill_checks_a_value_tensor_as_the_number_it_holds(dtype, value, name):
    x = torch.zeros(3, dtype=dtype)
    for call in (lambda: x.index_fill(0, torch.tensor([0, 2]), value),
                 lambda: x.index_fill_(0, torch.tensor([0, 2]), value),
                 lambda: x.index_fill_(0, torch.tensor([7]), value),  # before the bounds
                 lambda: x.index_fill_(0, torch.tensor([], dtype=torch.long), value),
                 lambda: torch.zeros(2, 0, dtype=dtype).index_fill_(0, torch.tensor([0]), value)):
        with raises(RuntimeError, OVERFLOW.format(name)):
            call()
    assert x.tolist() == [0, 0, 0]


def test_a_value_tensor_in_range_wraps_or_converts_as_the_number_does():
    x = torch.zeros(3, dtype=torch.uint8)
    assert x.index_fill(0, torch.tensor([1]), torch.tensor(-5)).tolist() == [0, 251, 0]
    assert x.index_fill(0, torch.tensor([1]), -5).tolist() == [0, 251, 0]
    b = torch.zeros(3, dtype=torch.bool)
    assert b.index_fill(0, torch.tensor([1]), torch.tensor(300)).tolist() == [False, True, False]
    assert b.index_fill(0, torch.tensor([1]), 1e300).tolist() == [False, True, False]


@pytest.mark.parametrize("call, kind, message", [
    ("torch.zeros(3).index_fill(0, torch.tensor([0.0]), torch.tensor([1.0]))", RuntimeError,
     "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 "
     "dimension(s)."),
    ("torch.zeros(3, dtype=torch.int8).index_fill(0, torch.tensor([0.0]), 300)", IndexError,
     "index_fill_(): Expected dtype int64 for index."),
    ("torch.zeros(3, dtype=torch.int8).index_fill(0, torch.tensor([[0]]), torch.tensor(300))",
     RuntimeError, "Index has to be a vector/scalar"),
    ("torch.zeros(3, dtype=torch.int8).index_fill(0, torch.tensor([7]), 300)", RuntimeError,
     OVERFLOW.format("int8_t")),
    ("torch.zeros(3, dtype=torch.int32).index_fill(0, torch.tensor([7]), torch.tensor(3e9))",
     RuntimeError, OVERFLOW.format("int")),
    ("torch.zeros(3, dtype=torch.int32).index_fill(0, torch.tensor([7]), torch.tensor(70000.0))",
     IndexError, "index 7 is out of bounds for dimension 0 with size 3"),
])
def test_index_fill_checks_in_torchs_order(call, kind, message):
    with raises(kind, message):
        eval(call)


@pytest.mark.parametrize("call, message", [
    ("x.add_(2.5, alpha=True)", "result type Float can't be cast to the desired output type Long"),
    ("x.sub_(torch.ones(2), alpha=True)",
     "result type Float can't be cast to the desired output type Long"),
    ("x.subtract_(2.5, alpha=True)",
     "result type Float can't be cast to the desired output type Long"),
    ("b.add_(3, alpha=2.5)", "result type Long can't be cast to the desired output type Bool"),
    ("b.add_(2.5, alpha=True)", "result type Float can't be cast to the desired output type Bool"),
    ("x.add_(torch.ones(3), alpha=True)",
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    ("x.sub_(torch.ones(3, dtype=torch.long), alpha=2.5)",
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    # a result self can hold: alpha's own refusal
    ("x.add_(2, alpha=2.5)",
     "For integral input tensors, argument alpha must not be a floating point number."),
    ("x.sub_(True, alpha=2)", "Subtraction, the `-` operator, with a bool tensor is not "
     "supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator "
     "instead."),
    ("torch.tensor([1, 2], dtype=torch.int8).add_(2, alpha=1000)",
     "value cannot be converted to type int8_t without overflow"),
])
def test_add_and_sub_in_place_check_alpha_after_the_shapes_and_the_cast(call, message):
    x, b = torch.tensor([1, 2]), torch.tensor([True, False])
    with raises(RuntimeError, message):
        eval(call)
    assert x.tolist() == [1, 2] and b.tolist() == [True, False]


@pytest.mark.parametrize("convolve, adds", [
    (lambda w: torch.nn.functional.conv1d(w, w), 1),
    (lambda w: torch.nn.functional.conv1d(w, w, padding=1, stride=2), 1),
    (lambda w: torch.nn.functional.conv_transpose1d(w, w), 1),
    (lambda w: torch.nn.functional.conv1d(w, w, w[0, :, 0]), 2),
    # the first gradient a view of the convolution's, which its other view still holds
    (lambda w: torch.nn.functional.conv2d(w.unsqueeze(0), w.unsqueeze(0)), 0),
    (lambda w: w + w, 0),  # one gradient, handed on twice: shared
    (lambda w: w * w, 1),
])
def test_a_convolution_of_a_weight_by_itself_adds_its_gradients_in_place(convolve, adds):
    w = torch.ones(2, 2, 3, requires_grad=True)
    convolve(w).sum().backward()
    assert w.grad._version == adds  # each add into an unshared first gradient counts


F = torch.nn.functional


@pytest.mark.parametrize("call, dtype, shape", [
    ("F.conv1d(zeros(0, 2, 5, dtype=torch.bool), zeros(3, 2, 2, dtype=torch.bool))", torch.bool,
     (0, 3, 4)),
    ("F.conv2d(zeros(0, 2, 5, 5, dtype=torch.uint8), zeros(3, 2, 2, 2, dtype=torch.uint8), "
     "zeros(3, dtype=torch.uint8))", torch.uint8, (0, 3, 4, 4)),
    ("F.conv3d(zeros(0, 2, 3, 3, 3, dtype=torch.bool), zeros(3, 2, 2, 2, 2, dtype=torch.bool))",
     torch.bool, (0, 3, 2, 2, 2)),
    ("F.conv2d(zeros(0, 2, 5, 5, dtype=torch.int32), zeros(3, 2, 2, 2, dtype=torch.int32), "
     "stride=2, padding=1, dilation=2)", torch.int32, (0, 3, 3, 3)),
    ("F.conv_transpose1d(zeros(0, 2, 5, dtype=torch.int32), zeros(2, 3, 2, dtype=torch.int32))",
     torch.int32, (0, 3, 6)),
    ("F.conv_transpose1d(zeros(0, 2, 5, dtype=torch.bool), zeros(2, 3, 2))", torch.float32,
     (0, 3, 6)),
    # the weight's first element is a 0-d tensor: it widens the input only across kinds
    ("F.conv1d(zeros(0, 2, 5, dtype=torch.float16), zeros(3, 2, 2))", torch.float16, (0, 3, 4)),
    ("F.conv1d(zeros(0, 2, 5), zeros(3, 2, 2, dtype=torch.float64))", torch.float32, (0, 3, 4)),
    ("F.conv1d(zeros(0, 2, 5, dtype=torch.int64), zeros(3, 2, 2))", torch.float32, (0, 3, 4)),
    # no channels: the whole weight, and the usual promotion
    ("F.conv1d(zeros(2, 0, 5, dtype=torch.float16), zeros(3, 0, 2))", torch.float32, (2, 0, 4)),
    ("F.conv1d(zeros(2, 0, 5, dtype=torch.bool), zeros(3, 0, 2, dtype=torch.bool))", torch.bool,
     (2, 0, 4)),
])
def test_a_convolution_of_an_empty_batch_runs_no_kernel(call, dtype, shape):
    out = eval(call, {"F": F, "torch": torch, "zeros": torch.zeros})
    assert out.dtype == dtype and tuple(out.shape) == shape and out.is_contiguous()


def test_an_empty_convolutions_bias_is_added_in_place():
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Int"):
        torch.convolution(torch.zeros(0, 2, 5, dtype=torch.int32),
                          torch.zeros(3, 2, 2, dtype=torch.int32), torch.zeros(3), [1], [0], [1],
                          False, [0], 1)
    with raises(NotImplementedError, "\"slow_conv2d_cpu\" not implemented for 'Bool'"):
        F.conv1d(torch.zeros(1, 2, 5, dtype=torch.bool), torch.zeros(3, 2, 2, dtype=torch.bool))


def test_an_empty_convolution_of_two_dtypes_has_gradients_of_the_weights():
    w = torch.zeros(3, 2, 2, dtype=torch.float64, requires_grad=True)
    y = F.conv1d(torch.zeros(0, 2, 5), w)
    assert y.dtype == torch.float32 and type(y.grad_fn).__name__ == "ConvolutionBackward0"
    y.sum().backward()
    assert w.grad.dtype == torch.float64 and w.grad.tolist() == torch.zeros(3, 2, 2).tolist()


SCATTER_WARNING = ("The reduce argument of torch.scatter with Tensor src is deprecated and will "
                   "be removed in a future PyTorch release. Use torch.scatter_reduce instead for "
                   "more reduction options.")
REDUCE = "reduce argument must be either add or multiply."


@pytest.mark.parametrize("call, kind, message", [
    ("x.scatter(0, i.float(), s, reduce='bad')", RuntimeError,
     "scatter(): Expected dtype int32/int64 for index"),
    ("x.scatter(5, i, s, reduce='sum')", IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
    ("x.scatter(0, torch.zeros(2, 2, 2, dtype=torch.long), s, reduce='bad')", RuntimeError,
     "Index tensor must have the same number of dimensions as self tensor"),
    ("x.scatter(0, i, torch.tensor(2.0), reduce='bad')", RuntimeError,
     "Index tensor must have the same number of dimensions as src tensor"),
    ("x.scatter_(0, i, s.double(), reduce='bad')", RuntimeError,
     "scatter(): Expected self.dtype to be equal to src.dtype"),
    ("x.scatter(0, torch.zeros(5, 2, dtype=torch.long), s, reduce='bad')", RuntimeError,
     "Expected index [5, 2] to be no larger than self [3, 4] apart from dimension 0 and to be no "
     "larger size than src [2, 2]"),
    ("x.scatter(0, torch.tensor([[7, 0]]), s, reduce='bad')", RuntimeError, REDUCE),
    ("x.scatter(0, torch.tensor([[7, 0]]), s, reduce='add')", RuntimeError,
     "index 7 is out of bounds for dimension 0 with size 3"),
])
def test_scatters_older_reductions_warn_first_and_check_reduce_late(call, kind, message):
    x, i, s = torch.zeros(3, 4), torch.tensor([[0, 1], [1, 2]]), torch.ones(2, 2)
    with caught_always(torch) as caught:
        with raises(kind, message):
            eval(call, {"torch": torch, "x": x, "i": i, "s": s})
    assert [str(w.message)[:len(SCATTER_WARNING)] for w in caught] == [SCATTER_WARNING]
    assert x.tolist() == torch.zeros(3, 4).tolist()


@pytest.mark.parametrize("call, kind, message", [
    ("x.scatter(0, i.float(), 2.0, reduce='bad')", RuntimeError,
     "scatter(): Expected dtype int32/int64 for index"),
    ("x.scatter(5, i, 2.0, reduce='bad')", IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
    ("x.scatter(0, torch.zeros(2, 2, 2, dtype=torch.long), 2.0, reduce='bad')", RuntimeError,
     "Index tensor must have the same number of dimensions as self tensor"),
    ("x.scatter(0, i, 1e300, reduce='bad')", RuntimeError, REDUCE),
    ("x.scatter(0, torch.tensor([[7, 0]]), 1e300, reduce='add')", RuntimeError,
     "index 7 is out of bounds for dimension 0 with size 3"),
    ("x.scatter(0, i, 1e300, reduce='add')", RuntimeError,
     "value cannot be converted to type float without overflow"),
])
def test_a_value_with_reduce_is_not_warned_about_and_checked_in_the_same_order(call, kind,
                                                                                message):
    x, i = torch.zeros(3, 4), torch.tensor([[0, 1], [1, 2]])
    with caught_always(torch) as caught:
        with raises(kind, message):
            eval(call, {"torch": torch, "x": x, "i": i})
    assert caught == [] and x.tolist() == torch.zeros(3, 4).tolist()


def test_the_older_reductions_warning_is_given_once():
    x, i, s = torch.zeros(3, 4), torch.tensor([[0, 1], [1, 2]]), torch.ones(2, 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x.scatter(0, i, s, reduce="add")  # warned here, or by an earlier test
        x.scatter(0, i, s, reduce="multiply")
    assert len(caught) <= 1 or torch.is_warn_always_enabled()


def _bits(t) -> bytes:
    return t.detach().numpy().tobytes()


@pytest.mark.parametrize("make", [
    lambda v: v.reshape(2, 4, 7).transpose(0, 1).contiguous().transpose(0, 1),
    lambda v: v.reshape(2, 7, 4).transpose(1, 2),
    lambda v: v.reshape(2, 4, 7)[:, :, ::2],
    lambda v: v.reshape(8, 7),
])
@pytest.mark.parametrize("size", [2, 3, 5, 9])  # 1 is a mean, summed otherwise
def test_adaptive_avg_pool1d_sums_each_window_in_order(make, size):
    values = torch.tensor([(k * 0.37) % 1.9 - 0.71 for k in range(56)])
    x = make(values).requires_grad_()
    y = torch.nn.functional.adaptive_avg_pool1d(x, size)
    # the same windows, summed one element at a time and divided, as torch's kernel does
    length = x.shape[-1]
    expected = []
    for o in range(size):
        start, stop = o * length // size, -(-(o + 1) * length // size)
        total = torch.zeros(x.shape[:-1])
        for k in range(start, stop):
            total = total + x.detach()[..., k]
        expected.append(total / (stop - start))
    assert _bits(y) == _bits(torch.stack(expected, -1))
    y.backward(torch.ones_like(y))
    assert x.grad.shape == x.shape


def test_an_adaptive_mean_of_a_channels_last_input_is_restrided_in_place():
    x = torch.arange(32.0).reshape(2, 4, 4).transpose(1, 2).requires_grad_()
    y = torch.nn.functional.adaptive_avg_pool1d(x, 1)
    assert y.stride() == (4, 1, 4) and y.grad_fn.name() == "SqueezeBackward1"
    assert y.grad_fn.next_functions[0][0].name() == "AsStridedBackward1"
    x4 = torch.arange(32.0).reshape(2, 4, 2, 2).to(memory_format=torch.channels_last)
    assert torch.nn.functional.adaptive_avg_pool2d(x4, 1).stride() == (4, 1, 4, 4)
    x5 = torch.arange(64.0).reshape(2, 4, 2, 2, 2).to(memory_format=torch.channels_last_3d)
    assert torch.nn.functional.adaptive_avg_pool3d(x5, 1).stride() == (4, 1, 4, 4, 4)


OVERLAPPING = "unsupported operation: more than one element of the written-to tensor refers"


@pytest.mark.parametrize(("values", "name"), [([True, False], "Bool"), ([1, 2], "Long")])
def test_random_fills_of_an_expanded_tensor_refuse_dtype_or_overlap_in_torchs_order(values,
                                                                                   name):
    expanded = torch.tensor(values).expand(2, 2)
    with pytest.raises(NotImplementedError, match=f"^\"normal_kernel_cpu\" not implemented "
                                                  f"for '{name}'$"):
        expanded.normal_()
    with pytest.raises(NotImplementedError, match=f"^\"check_uniform_bounds\" not implemented "
                                                  f"for '{name}'$"):
        expanded.uniform_()
    for fill in (lambda t: t.exponential_(), lambda t: t.geometric_(0.5),
                 lambda t: t.log_normal_(), lambda t: t.random_(0, 2)):
        with pytest.raises(RuntimeError, match=f"^{OVERLAPPING}"):
            fill(expanded)
    with pytest.raises(RuntimeError, match="^Cauchy distribution is a continuous"):
        expanded.cauchy_()


@pytest.mark.parametrize(("write", "message"), [
    (lambda t: t.put_(torch.tensor([0]), torch.tensor([9.0]), accumulate=True),
     "put_(): self and source expected to have the same dtype, but got self.dtype = Long and "
     "source.dtype = Float"),
    (lambda t: t.put_(torch.tensor([0.0]), torch.tensor([9])),
     "put_(): Expected a long tensor for index, but got Float"),
    (lambda t: t.scatter_(1, torch.tensor([[0], [0]]), torch.tensor([[9.0], [1.0]])),
     "scatter(): Expected self.dtype to be equal to src.dtype"),
    (lambda t: t.index_add_(1, torch.tensor([0]), torch.tensor([[9.0], [1.0]])),
     "index_add_(): self (Long) and source (Float) must have the same scalar type"),
    (lambda t: t.put_(torch.tensor([0]), torch.tensor([9])), OVERLAPPING),
    (lambda t: t.index_copy_(1, torch.tensor([0]), torch.tensor([[9.0], [1.0]])), OVERLAPPING),
])
def test_indexed_writes_check_their_arguments_before_an_expanded_tensors_overlap(write,
                                                                                 message):
    with raises(RuntimeError, message) if message != OVERLAPPING else pytest.raises(
            RuntimeError, match=f"^{OVERLAPPING}"):
        write(torch.tensor([1, 2, 3]).expand(2, 3))
