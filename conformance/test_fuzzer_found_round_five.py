"""Behaviour the differential fuzzer found in its fifth round: the layout an elementwise op
gives an out= it resizes, the order of lstsq's dimension checks, and the refusal of an
in-place product into a self of another shape.
The same assertions run on torch.
"""

import math
import warnings

import pytest
import torch


def permuted():
    """A (4, 2, 3) tensor laid out as a permutation of a row-major (2, 3, 4) one."""
    return torch.arange(1.0, 25.0).reshape(2, 3, 4).permute(2, 0, 1) / 30


@pytest.mark.parametrize("op", [
    lambda x, o: torch.exp(x, out=o), lambda x, o: torch.add(x, 1, out=o),
    lambda x, o: torch.mul(x, x, out=o), lambda x, o: torch.gt(x, 0.5, out=o),
    lambda x, o: torch.clamp(x, 0.1, 0.5, out=o), lambda x, o: torch.where(x > 0.3, x, x, out=o),
    lambda x, o: torch.lerp(x, x, 0.3, out=o), lambda x, o: torch.special.erfcx(x, out=o),
    lambda x, o: torch.sort(x, 1, out=(o, torch.zeros(0, dtype=torch.long)))[0],
])
@pytest.mark.parametrize("size", [0, 5])
def test_a_resized_out_takes_the_elementwise_results_layout(op, size):
    x = permuted()
    out = torch.zeros(size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the resize of an out holding elements warns
        op(x, out)
    assert out.shape == (4, 2, 3)
    assert out.stride() == x.stride() == (1, 12, 4)


def test_a_channels_last_input_gives_a_resized_out_its_layout():
    x = torch.arange(12.0).reshape(1, 2, 2, 3).to(memory_format=torch.channels_last)
    out = torch.zeros(0)
    torch.mul(x, 2, out=out)
    assert out.stride() == (12, 1, 6, 2)
    assert out.tolist() == (x * 2).tolist()


def test_sorts_resized_out_takes_the_inputs_strides_even_of_size_one():
    x = torch.tensor([[0.5], [0.25]]).t()  # shape (1, 2), strides (1, 1)
    values, indices = torch.zeros(0), torch.zeros(0, dtype=torch.long)
    torch.sort(x, 0, out=(values, indices))
    assert (values.stride(), torch.sort(x, 0)[0].stride()) == ((1, 1), (1, 1))


def test_an_out_of_the_right_shape_keeps_its_strides():
    x = permuted()
    out = torch.zeros(4, 2, 3)
    torch.exp(x, out=out)
    assert out.stride() == (6, 3, 1)
    kept = torch.zeros(3, 2).t()
    torch.add(torch.ones(2, 3), 1, out=kept)
    assert kept.stride() == (1, 2)


def test_copies_and_row_major_results_resize_row_major():
    x = permuted()
    for call in (lambda o: torch.mvlgamma(x + 1, 1, out=o),
                 lambda o: torch.kron(x[:2, 0], x[:2, 1], out=o),
                 lambda o: torch.cumsum(x, 0, out=o), lambda o: torch.tril(x, out=o)):
        out = torch.zeros(0)
        call(out)
        assert out.is_contiguous()
    assert torch.kron(x[:2, 0], x[:2, 1]).stride() == (1, 4)  # unlike its resized out


def test_lstsq_refuses_a_0d_other_for_its_dimensions_first():
    with pytest.raises(RuntimeError, match="^torch.linalg.lstsq: other must have at least 1 "
                                           "dimension.$"):
        torch.linalg.lstsq(torch.ones(3, 2), torch.tensor(1.0, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="input must have at least 2 dimensions"):
        torch.linalg.lstsq(torch.ones(2), torch.tensor(1.0))
    with pytest.raises(RuntimeError, match=r"input.dim\(\) must be greater or equal"):
        torch.linalg.lstsq(torch.ones(2, 3, 2), torch.ones(3))


def bad(self_shape, out_shape):
    return (f"^Bad in-place call: input tensor size {list(self_shape)} and output tensor size "
            f"{list(out_shape)} should match$".replace("[", r"\[").replace("]", r"\]"))


@pytest.mark.parametrize(("call", "shapes"), [
    (lambda: torch.ones(2, 2).baddbmm_(torch.ones(1, 2, 2), torch.ones(1, 2, 2)),
     ((2, 2), (1, 2, 2))),
    (lambda: torch.ones(2).baddbmm_(torch.ones(1, 2, 2), torch.ones(1, 2, 2)), ((2,), (1, 2, 2))),
    (lambda: torch.ones(2, 2).addmm_(torch.ones(1, 2), torch.ones(2, 2)), ((2, 2), (1, 2))),
    (lambda: torch.ones(3).addmm_(torch.ones(2, 2), torch.ones(2, 2)), ((3,), (2, 2))),
    (lambda: torch.ones(2, 2).addmm_(torch.ones(1, 2), torch.ones(2, 2), beta=0),
     ((2, 2), (1, 2))),
    (lambda: torch.ones(1).addmv_(torch.ones(2, 2), torch.ones(2)), ((1,), (2,))),
    (lambda: torch.ones(1, 2, 2, requires_grad=True).clone().baddbmm_(
        torch.ones(2, 2, 2), torch.ones(2, 2, 2)), ((1, 2, 2), (2, 2, 2))),
    (lambda: torch.ones(1, 2).expand(2, 2).addmm_(torch.ones(1, 2), torch.ones(2, 2)),
     ((2, 2), (1, 2))),
])
def test_an_inplace_product_refuses_a_self_of_another_shape(call, shapes):
    with pytest.raises(RuntimeError, match=bad(*shapes)):
        call()


def test_baddbmm_expands_self_first_and_the_other_refusals_stand():
    with pytest.raises(RuntimeError, match="^The expanded size of the tensor"):
        torch.ones(3, 2, 2).baddbmm_(torch.ones(1, 2, 2), torch.ones(1, 2, 2))
    with pytest.raises(RuntimeError, match="^The expanded size of the tensor"):
        torch.ones(1, 2, 2).expand(2, 2, 2).baddbmm_(torch.ones(1, 2, 2), torch.ones(1, 2, 2))
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element"):
        torch.ones(1, 2).expand(2, 2).addmm_(torch.ones(2, 2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match=r"^mat1 and mat2 shapes cannot be multiplied"):
        torch.ones(2, 2).addmm_(torch.ones(1, 3), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match=r"^size mismatch, got input \(3\)"):
        torch.ones(3).addmv_(torch.ones(2, 2), torch.ones(2))
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad"):
        torch.ones(2, 2, requires_grad=True).baddbmm_(torch.ones(1, 2, 2), torch.ones(1, 2, 2))
    x = torch.ones(2, 2)
    x.addmm_(torch.ones(2, 3), torch.ones(3, 2))  # shapes that agree: written as ever
    assert (x.tolist(), x._version) == ([[4.0, 4.0], [4.0, 4.0]], 1)


def test_renorm_of_inference_tensors_counts_its_scaling():
    with torch.inference_mode():
        x = torch.tensor([[3.0, 4.0], [0.3, 0.4]])
        empty = torch.zeros(0, 2)
    y = torch.renorm(x, 2, 0, 1.0)  # outside inference mode: a normal tensor, written once
    assert (y._version, y.is_inference()) == (1, False)
    assert y.reshape(-1).tolist() == pytest.approx([0.6, 0.8, 0.3, 0.4])
    assert x.renorm(1, 1, 100.0)._version == 1
    assert torch.renorm(empty, 2, 0, 1.0)._version == 1  # even with no rows to scale
    assert torch.renorm(torch.ones(2, 2), 2, 0, 1.0)._version == 0  # a normal input: none


def test_isclose_in_inference_mode_makes_an_inference_tensor():
    flags = torch.tensor([[True, False, True]])
    values = torch.tensor([1.0, float("nan")])
    with torch.inference_mode():
        same = torch.isclose(flags, flags)
        nan_same = torch.isclose(values, values, equal_nan=True)
    assert (same.tolist(), same.is_inference()) == ([[True, True, True]], True)
    assert nan_same.tolist() == [True, True]
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter"):
        same._version  # noqa: B018 - reading it is the refusal


@pytest.mark.parametrize(("method", "kwargs", "expected"), [
    ("div_", {"rounding_mode": "trunc"}, [3, 0, 3, 0, 3, 6]),
    ("div_", {"rounding_mode": "floor"}, [3, 0, 3, 0, 3, 6]),
    ("floor_divide_", {}, [3, 0, 3, 0, 3, 6]),
    ("remainder_", {}, [0, 0, 0, 0, 3, 6]),
    ("fmod_", {}, [0, 0, 0, 0, 3, 6]),
])
def test_an_integer_division_stopped_by_a_zero_keeps_what_it_wrote(method, kwargs, expected):
    numbers = torch.tensor([[6, 0, 3], [0, 3, 6]])
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        getattr(numbers, method)(torch.tensor([[2, 1, 1], [0, 1, 2]]), **kwargs)
    assert (numbers.reshape(-1).tolist(), numbers._version) == (expected, 0)


def test_the_prefix_follows_the_written_tensors_layout():
    numbers = (torch.arange(1, 7) * 10).reshape(3, 2).t()  # walked down its columns' memory
    divisors = torch.tensor([[1, 2, 0], [2, 4, 5]])
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        numbers.floor_divide_(divisors)
    assert numbers.tolist() == [[10, 15, 50], [10, 10, 60]]  # rows first: 20 and 40 kept
    row = torch.tensor([10, 20, 30])
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        row.div_(0, rounding_mode="floor")  # a number zero: nothing written
    assert row.tolist() == [10, 20, 30]
    broadcast = torch.tensor([[10, 20], [30, 40]])
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        broadcast.remainder_(torch.tensor([3, 0]))
    assert broadcast.tolist() == [[1, 20], [30, 40]]


BOOLS = torch.tensor([[True], [False]])
ROW = torch.tensor([[True, False]])


@pytest.mark.parametrize("call", [
    lambda out: torch.mm(BOOLS, ROW, out=out), lambda out: torch.matmul(BOOLS, ROW, out=out),
    lambda out: torch.bmm(BOOLS[None], ROW[None], out=out),
    lambda out: torch.addmm(torch.zeros(2, 2, dtype=torch.bool), BOOLS, ROW, out=out),
    lambda out: torch.baddbmm(torch.zeros(1, 2, 2, dtype=torch.bool), BOOLS[None], ROW[None],
                              out=out),
    lambda out: torch.mv(BOOLS, ROW[0][:1], out=out),
    lambda out: torch.addmv(torch.zeros(2, dtype=torch.bool), BOOLS, ROW[0][:1], out=out),
])
def test_a_product_of_bools_refuses_a_float_out_before_its_kernel(call):
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype bool, but got "
                                           "float instead$"):
        call(torch.zeros(0))


def test_the_bool_products_other_refusals():
    with pytest.raises(RuntimeError, match="^result dtype Float does not match input dtype Bool$"):
        torch.dot(BOOLS[:, 0], BOOLS[:, 0], out=torch.zeros(0))
    with pytest.raises(RuntimeError, match="^self and mat2 must have the same dtype, but got "
                                           "Float and Bool$"):
        torch.addbmm(torch.zeros(2, 2, dtype=torch.bool), BOOLS[None], ROW[None],
                     out=torch.zeros(0))
    with pytest.raises(RuntimeError, match="^addmv input tensors must have the same dtype"):
        torch.mv(BOOLS, ROW[0][:1], out=torch.zeros(2))  # an out of the right size
    with pytest.raises(NotImplementedError, match='"addmm_impl_cpu_" not implemented for'):
        torch.mm(BOOLS, ROW, out=torch.zeros(0, dtype=torch.bool))
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype long int, but "
                                           "got float instead$"):
        torch.mm(BOOLS.long(), ROW.long(), out=torch.zeros(0))


INTS = torch.ones(2, 3, dtype=torch.int32)
LONGS = torch.ones(3, 2, dtype=torch.long)


@pytest.mark.parametrize(("call", "checked", "given"), [
    (lambda out: torch.mm(INTS, LONGS, out=out), "int", torch.float32),
    (lambda out: torch.matmul(INTS, LONGS, out=out), "int", torch.float32),
    (lambda out: torch.mm(INTS.bool(), LONGS, out=out), "bool", torch.float32),
    (lambda out: torch.mm(INTS.float(), LONGS, out=out), "float", torch.int64),
    (lambda out: torch.bmm(INTS[None], LONGS[None], out=out), "long int", torch.float32),
    (lambda out: torch.baddbmm(torch.zeros(1, 2, 2, dtype=torch.int32), INTS[None], LONGS[None],
                               out=out), "long int", torch.float32),  # the second batch's
])
def test_a_product_of_two_dtypes_checks_its_out_first(call, checked, given):
    said = "float" if given == torch.float32 else "long int"
    with pytest.raises(RuntimeError, match=f"^Expected out tensor to have dtype {checked}, but "
                                           f"got {said} instead$"):
        call(torch.zeros(0, dtype=given))


def test_a_product_of_two_dtypes_after_out_and_before_it():
    with pytest.raises(RuntimeError, match="^expected m1 and m2 to have the same dtype, but got: "
                                           "int != long int$"):
        torch.mm(INTS, LONGS, out=torch.zeros(0, dtype=torch.int32))  # out of the first's dtype
    with pytest.raises(RuntimeError, match=r"^mat1 and mat2 shapes cannot be multiplied"):
        torch.mm(INTS, INTS, out=torch.zeros(0))  # the shapes before out
    with pytest.raises(RuntimeError, match="^result dtype Float does not match input dtype Int$"):
        torch.dot(INTS[0], LONGS[:, 0], out=torch.zeros(0))


def test_a_division_of_another_dtype_writes_nothing_before_the_zero():
    numbers = torch.tensor([10, 20, 30], dtype=torch.int32)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        numbers.floor_divide_(torch.tensor([3, 0, 1]))  # an int64 quotient, computed apart
    assert numbers.tolist() == [10, 20, 30]
    longs = torch.tensor([10, 20, 30])
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        longs.remainder_(torch.tensor([3, 0, 1], dtype=torch.int32))
    assert longs.tolist() == [1, 20, 30]


@pytest.mark.parametrize(("call", "expected"), [
    (lambda a, b, out: torch.floor_divide(a, b, out=out), [1, 5, 0, 0, 0, 0]),
    (lambda a, b, out: torch.remainder(a, b, out=out), [1, 0, 0, 0, 0, 0]),
    (lambda a, b, out: torch.fmod(a, b, out=out), [1, 0, 0, 0, 0, 0]),
    (lambda a, b, out: torch.div(a, b, rounding_mode="trunc", out=out), [1, 5, 0, 0, 0, 0]),
])
def test_an_out_division_stopped_by_a_zero_keeps_what_it_wrote(call, expected):
    dividends, divisors = torch.arange(1, 7) * 5, torch.tensor([4, 2, 0, 1, 1, 1])
    out = torch.zeros(6, dtype=torch.long)
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        call(dividends, divisors, out)
    assert (out.tolist(), out._version) == (expected, 0)
    cast = torch.zeros(6, dtype=torch.int32)  # an out of another dtype: nothing copied in
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        call(dividends, divisors, cast)
    assert cast.tolist() == [0] * 6


HALF = torch.tensor([[0.5, 1.0], [2.0, 0.25], [1.0, 1.0]]).half()
FLOAT = torch.tensor([[0.5, 1.0], [2.0, 0.25], [1.0, 1.0]])


@pytest.mark.parametrize(("x1", "x2", "p", "mode", "kind", "message"), [
    (HALF, FLOAT, 1.0, None, NotImplementedError, "\"cdist\" not implemented for 'Half'"),
    (HALF, FLOAT, 2.0, None, NotImplementedError, "\"cdist\" not implemented for 'Half'"),
    (HALF, FLOAT, 0.0, None, NotImplementedError, "\"cdist\" not implemented for 'Half'"),
    (FLOAT, HALF, 1.0, None, RuntimeError, "expected scalar type Float but found Half"),
    (HALF, FLOAT, 2.0, "use_mm_for_euclid_dist", RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: c10::Half != float"),
    (FLOAT, FLOAT.double(), 2.0, "use_mm_for_euclid_dist", RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != double"),
])
def test_cdist_refuses_half_before_two_dtypes_off_the_product_road(x1, x2, p, mode, kind,
                                                                     message):
    kwargs = {} if mode is None else {"compute_mode": mode}
    with pytest.raises(kind, match=f"^{message}$"):
        torch.cdist(x1, x2, p=p, **kwargs)


def test_cdist_multiplies_half_on_the_product_road_and_an_empty_one_asks_nothing():
    result = torch.cdist(HALF, HALF, compute_mode="use_mm_for_euclid_dist")
    assert result.dtype == torch.float16 and result.shape == (3, 3)
    assert torch.cdist(HALF[:0], FLOAT, p=1).shape == (0, 3)
    assert torch.cdist(FLOAT, HALF[:0], p=1).dtype == torch.float32


def test_a_dilated_convolution_refuses_integers_before_two_dtypes():
    ints = torch.tensor([[[1, 2], [3, 4]]], dtype=torch.int32)
    with pytest.raises(NotImplementedError, match="^\"slow_conv_dilated<>\" not implemented "
                                                  "for 'Int'$"):
        torch.nn.functional.conv1d(ints, torch.ones(1, 2, 1), dilation=2)
    with pytest.raises(NotImplementedError, match="for 'Char'$"):
        torch.nn.functional.conv1d(ints.to(torch.int8), ints.to(torch.int8)[:, :, :1], dilation=2)
    with pytest.raises(RuntimeError, match="^expected scalar type Int but found Float$"):
        torch.nn.functional.conv1d(ints, torch.ones(1, 2, 1))  # undilated: dtypes compared
    assert torch.nn.functional.conv1d(ints, ints[:, :, :1]).tolist() == [[[10, 14]]]
    cube = torch.ones(1, 1, 3, 3, 3, dtype=torch.long)  # three dimensions: computed
    assert torch.nn.functional.conv3d(cube, cube[..., :1, :1, :1], dilation=2).dtype == torch.int64


@pytest.mark.parametrize(("name", "versions"), [
    ("isinf", [1, 1, 0, 1]), ("isfinite", [1, 1, 0, 1]), ("isposinf", [1, 1, 0, 1]),
    ("isneginf", [1, 1, 0, 1]), ("signbit", [0, 1, 0, 1]), ("floor", [1, None, 0, 1]),
    ("ceil", [1, None, 0, 1]), ("trunc", [1, None, 0, 1]), ("round", [1, None, 0, 1]),
])
def test_value_tests_and_roundings_of_inference_integers_count_their_fill(name, versions):
    with torch.inference_mode():
        tensors = (torch.tensor([1, 2]), torch.tensor([True, False]),
                   torch.tensor([1.0, float("inf")]), torch.tensor([1, 2], dtype=torch.uint8))
    for t, version in zip(tensors, versions):
        if version is not None:
            assert getattr(torch, name)(t)._version == version
    assert getattr(torch, name)(torch.tensor([1, 2]))._version == 0  # a normal input: none


def test_a_stale_view_of_several_outputs_is_refused_before_a_partial_overlap():
    v1 = torch.ones(3, 3, requires_grad=True) * 1
    v2 = v1.split_with_sizes([1, 2])[1]
    v1.fill_(3)
    with pytest.raises(RuntimeError, match="^Output 1 of SplitWithSizes is a view and its base"):
        v1.add_(v2)
    with torch.no_grad(), pytest.raises(RuntimeError, match="^unsupported operation: some "
                                                            "elements of the input tensor"):
        v1.add_(v2)  # nothing recorded: the overlap is what is refused


def test_ctc_loss_refuses_empty_log_probs_after_its_dtype():
    targets, lengths = torch.tensor([[1]]), (torch.tensor([2]), torch.tensor([1]))
    for empty in (torch.rand(2, 1, 0), torch.rand(2, 0), torch.rand(0, 1, 3)):
        with pytest.raises(RuntimeError, match="^log_probs tensor must not be empty$"):
            torch.nn.functional.ctc_loss(empty, targets, *lengths)
    with pytest.raises(NotImplementedError, match="\"ctc_loss_cpu\" not implemented for 'Long'"):
        torch.nn.functional.ctc_loss(torch.zeros(2, 1, 0, dtype=torch.long), targets, *lengths)


def test_an_lu_of_a_matrix_holding_inf_warns_of_nothing():
    a = torch.tensor([[float("inf"), 1.0], [float("inf"), 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.linalg.lu_factor(a)
        assert math.isnan(torch.linalg.det(a).item())
