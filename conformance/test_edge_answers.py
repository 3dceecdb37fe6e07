"""Black-box tests: answers at the edges of lookups, factories, mixed dtypes and nodes.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

BOOL_SEARCH = '"searchsorted_out_cpu" not implemented for \'Bool\''


@pytest.mark.parametrize("search", [
    lambda: torch.searchsorted(torch.tensor([False, True]), torch.tensor([True])),
    lambda: torch.searchsorted(torch.tensor([False, True]), True),
    lambda: torch.bucketize(torch.tensor([True]), torch.tensor([False, True])),
])
def test_a_search_among_booleans_is_refused(search):
    with raises(NotImplementedError, BOOL_SEARCH):
        search()


def test_a_boolean_beside_integers_is_promoted():
    assert torch.searchsorted(torch.tensor([1, 2]), torch.tensor([True])).tolist() == [0]
    assert torch.searchsorted(torch.tensor([False, True]), torch.tensor([1])).tolist() == [1]
    assert torch.bucketize(torch.tensor([1]), torch.tensor([False, True])).tolist() == [1]
    assert torch.bucketize(True, torch.tensor([1, 2])).item() == 0


@pytest.mark.parametrize("factory", ["ones", "zeros", "empty"])
@pytest.mark.parametrize("size, kind", [(3, "int"), (2.0, "float"), (range(2), "range"),
                                        (True, "bool")])
def test_a_size_given_by_name_must_be_a_sequence(factory, size, kind):
    with raises(TypeError, f"{factory}(): argument 'size' must be tuple of ints, not {kind}"):
        getattr(torch, factory)(size=size)
    assert getattr(torch, factory)(size=[2, 1]).shape == (2, 1)
    assert getattr(torch, factory)(size=torch.Size([2])).shape == (2,)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16, torch.int64])
def test_lerp_reads_a_0d_weight_of_another_dtype_in_the_tensors_dtype(dtype):
    start = torch.tensor([1.0, 2.0], requires_grad=True)
    end = torch.tensor([3.0, 5.0], requires_grad=True)
    weight = torch.tensor(1, dtype=dtype) if dtype == torch.int64 else torch.tensor(
        0.25, dtype=dtype, requires_grad=True)
    result = torch.lerp(start, end, weight)
    assert result.dtype == torch.float32 and result.grad_fn.name() == "LerpBackward1"
    assert result.tolist() == ([3.0, 5.0] if dtype == torch.int64 else [1.5, 2.75])
    result.sum().backward()
    if weight.requires_grad:
        assert weight.grad.dtype == dtype and weight.grad.item() == 5.0
    with raises(RuntimeError, "expected dtype float for `weight` but got dtype double"):
        torch.lerp(start, end, torch.tensor([0.5, 0.5], dtype=torch.float64))


def test_lerp_in_place_and_a_boolean_weight():
    x = torch.tensor([1.0, 2.0])
    assert x.lerp_(torch.tensor([3.0, 5.0]), torch.tensor(0.25, dtype=torch.float64)).tolist() \
        == [1.5, 2.75]
    start = torch.tensor([1.0, 2.0], requires_grad=True)
    result = torch.lerp(start, torch.tensor([3.0, 5.0]), torch.tensor(True))
    assert result.tolist() == [3.0, 5.0]
    with raises(RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not "
                              "supported. Use the `^` or `logical_xor()` operator instead."):
        result.sum().backward()


@pytest.mark.parametrize("divide", [
    lambda h, b: h // b, lambda h, b: torch.floor_divide(h, b),
    lambda h, b: torch.div(h, b, rounding_mode="floor"),
])
def test_float16_floor_division_by_a_number_keeps_the_number_in_float32(divide):
    h = torch.tensor([3.0, 7.0, 1.0, -3.0, 100.0], dtype=torch.float16)
    assert divide(h, 0.1).tolist() == [29.0, 69.0, 9.0, -30.0, 999.0]
    assert divide(h, -0.1).tolist() == [-30.0, -70.0, -10.0, 29.0, -1000.0]
    assert divide(torch.tensor([60000.0], dtype=torch.float16), 70000).tolist() == [0.0]
    in_place = h.clone()
    in_place //= 0.1
    assert in_place.tolist() == [29.0, 69.0, 9.0, -30.0, 999.0]


@pytest.mark.parametrize("fill", [lambda b: b.fill_(2), lambda b: torch.fill(b, 2)])
def test_a_fill_with_a_number_shows_no_saved_value(fill):
    a = torch.ones(3, requires_grad=True)
    filled = fill(a * 1)
    assert not [n for n in dir(filled.grad_fn) if n.startswith("_saved")]
    filled.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("both", [torch.var_mean, torch.std_mean])
def test_the_mean_part_of_a_spread_and_mean_gradient_divides_by_a_number(both):
    x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    _, mean = both(x)
    (g,) = torch.autograd.grad(mean, x, torch.ones((), requires_grad=True), create_graph=True)
    assert g.grad_fn.name() == "DivBackward1"
    assert [(n.name(), i) for n, i in g.grad_fn.next_functions] == [("ExpandBackward0", 0)]
    assert g.tolist() == torch.full((3,), 1 / 3).tolist()


@pytest.mark.parametrize("shape", [(2, 2), (), (0,), (3,), (2, 0, 3)])
def test_nothing_found_by_nonzero_has_torchs_strides(shape):
    found = torch.nonzero(torch.zeros(shape))
    assert found.shape == (0, max(len(shape), 0)) and found.stride() == (1, 0)
    assert torch.argwhere(torch.zeros(shape)).stride() == (1, 0)
    assert all(t.stride() == (1,) for t in torch.nonzero(torch.zeros(shape), as_tuple=True))
    assert torch.nonzero(torch.ones(2, 2)).stride() == (1, 4)


@pytest.mark.parametrize("data, dtype, kind", [
    ([torch.tensor([1, 2]), 3], None, TypeError),
    ([torch.tensor([1.0, 2.0]), 3], None, ValueError),
    ([torch.tensor([1, 2]), 3.0], None, ValueError),
    ([torch.tensor([True, False]), 1], None, TypeError),
    ([torch.tensor([1.0, 2.0]), 1], torch.bool, TypeError),
    ([torch.tensor([1, 2]), 1], torch.float32, ValueError),
])
def test_a_tensor_of_several_elements_in_a_list_is_refused_by_its_reading(data, dtype, kind):
    message = {TypeError: "only integer tensors of a single element can be converted to an "
                          "index",
               ValueError: "only one element tensors can be converted to Python scalars"}[kind]
    with raises(kind, message):
        torch.tensor(data, dtype=dtype)


def test_histc_asks_for_bins_first_then_refuses_booleans_where_it_lays_out_edges():
    with raises(RuntimeError, "torch.histogram(): bins must be > 0, but got 0 for dimension 0"):
        torch.histc(torch.tensor([True]), 0)
    with raises(NotImplementedError, '"linspace_cpu" not implemented for \'Bool\''):
        torch.histc(torch.tensor([True]), 3)
    with raises(NotImplementedError, '"histogram_cpu" not implemented for \'Long\''):
        torch.histc(torch.tensor([1]), 3)


def test_searchsorted_checks_the_sorter_then_a_lone_value_then_the_sequence():
    lone = ("torch.searchsorted(): input value can be a scalar only when boundaries tensor "
            "dimension is 1, but we got boundaries tensor dim({}) and input value's dim(0) "
            "numel(1)")
    with raises(RuntimeError, lone.format(0)):
        torch.searchsorted(torch.tensor(1.0), torch.tensor(1.0))
    with raises(RuntimeError, lone.format(2)):
        torch.searchsorted(torch.tensor([[1.0, 2.0]]), torch.tensor(1.0))
    with raises(RuntimeError, "torch.searchsorted(): boundary and sorter must have the same "
                              "size, but got boundary tensor []and got sorter tensor [1]"):
        torch.searchsorted(torch.tensor(1.0), torch.tensor(1.0), sorter=torch.tensor([0]))
    with raises(RuntimeError, "torch.searchsorted(): boundaries tensor should have positive "
                              "dimension, but got 0 dimension"):
        torch.searchsorted(torch.tensor(1.0), torch.tensor([1.0]))
    assert torch.searchsorted(torch.tensor([1.0, 2.0]), torch.tensor(1.5)).item() == 1


def test_cdist_asks_for_floating_operands_of_one_dtype_before_refusing_float16():
    half, long = torch.ones(1, 2, dtype=torch.float16), torch.ones(1, 2, dtype=torch.int64)
    with raises(RuntimeError, "cdist only supports floating-point dtypes, X2 got: Long"):
        torch.cdist(half, long)
    with raises(RuntimeError, "expected scalar type Float but found Half"):
        torch.cdist(torch.ones(1, 2), half)
    with raises(NotImplementedError, '"cdist" not implemented for \'Half\''):
        torch.cdist(half, half)


def test_setstate_reads_the_two_old_forms_of_a_pickled_tensor():
    x = torch.ones(3)
    x.__setstate__((torch.zeros(3).untyped_storage(), 0, (3,), (1,)))
    assert x.tolist() == [0.0, 0.0, 0.0] and x._version == 1
    y = torch.ones(2)
    y.__setstate__((torch.zeros(2), True, None, False, None))
    assert y.tolist() == [0.0, 0.0] and not y.requires_grad
    y.__setstate__((True, None, None))
    assert y.requires_grad
    with raises(RuntimeError, "__setstate__ can be only called on leaf Tensors"):
        (torch.ones(2, requires_grad=True) * 2).__setstate__((False, None, None))


def test_bincount_of_weights_that_require_grad_records_a_node_that_refuses():
    weights = torch.tensor([1.0, 2.0], requires_grad=True)
    counted = torch.bincount(torch.tensor([0, 1]), weights, minlength=3)
    assert counted.tolist() == [1.0, 2.0, 0.0] and counted.requires_grad
    assert counted.grad_fn.name() == "torch::autograd::NotImplemented"
    assert not [n for n in dir(counted.grad_fn) if n.startswith("_saved")]
    with raises(RuntimeError, "derivative for aten::bincount is not implemented"):
        counted.sum().backward()
    nothing = torch.bincount(torch.tensor([], dtype=torch.int64), torch.tensor([]), 2)
    assert nothing.dtype == torch.int64 and nothing.tolist() == [0, 0]


def test_bincount_refuses_weights_with_a_tangent_before_its_checks():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        for indices in (torch.tensor([0, 1]), torch.tensor([0, -1])):
            with raises(NotImplementedError, "Trying to use forward AD with aten::bincount that "
                                             "does not support it."):
                torch.bincount(indices, dual)


@pytest.mark.parametrize("training, p", [(False, 0.5), (True, 0.0)])
def test_feature_alpha_dropout_hands_back_a_1d_input_when_it_draws_nothing(training, p):
    x = torch.tensor([1.0, 2.0])
    assert torch.nn.functional.feature_alpha_dropout(x, p, training=training) is x
    with raises(RuntimeError, "Feature dropout requires at least 2 dimensions in the input"):
        torch.nn.functional.feature_alpha_dropout(x, 0.5, training=True)


@pytest.mark.parametrize("loss", ["mse_loss", "binary_cross_entropy", "l1_loss", "smooth_l1_loss",
                                  "huber_loss"])
def test_the_mean_loss_of_nothing_is_nan_without_a_warning(loss):
    import math
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = getattr(torch.nn.functional, loss)(torch.zeros(0, 3), torch.zeros(0, 3))
    assert math.isnan(result.item()) and result.dtype == torch.float32
