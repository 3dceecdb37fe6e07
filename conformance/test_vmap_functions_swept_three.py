"""Functions under vmap that torch's batching rules hand to another function, or run as a
decomposition: chapter 19ig_functions_under_vmap_three."""


import numpy as np
import pytest
import torch

from conformance._vmap_refusals import IN_BMM, ones, refused

F = torch.nn.functional
ADDMV = "addmv input tensors must have the same dtype, but got {}, {}, and {}"


@pytest.mark.parametrize("function", [torch.dot, torch.vdot])
@pytest.mark.parametrize(("sizes", "dtypes", "error", "text"), [
    ((4, 5), (torch.float32, torch.long), RuntimeError,
     "size mismatch, got input (3), mat (3x4), vec (5)"),
    ((4, 4), (torch.float32, torch.long), RuntimeError, ADDMV.format("Long", "Float", "Long")),
    ((4, 4), (torch.long, torch.float64), RuntimeError, ADDMV.format("Double", "Long", "Double")),
    ((4, 4), (torch.bool, torch.bool), NotImplementedError,
     "\"addmv_impl_cpu\" not implemented for 'Bool'")])
def test_dot_of_a_batched_first_vector_is_refused_in_mv_words(function, sizes, dtypes, error,
                                                                text):
    refused(error, text, lambda: torch.vmap(function, in_dims=(0, None))(
        ones(3, sizes[0], dtype=dtypes[0]), ones(sizes[1], dtype=dtypes[1])))


@pytest.mark.parametrize("function", [torch.dot, torch.vdot])
@pytest.mark.parametrize(("sizes", "dtypes", "error", "text"), [
    ((5, 4), (torch.float32, torch.long), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (1x5 and 4x3)"),
    ((4, 4), (torch.long, torch.float32), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: long int != float"),
    ((4, 4), (torch.bool, torch.bool), NotImplementedError,
     "\"addmm_impl_cpu_\" not implemented for 'Bool'")])
def test_dot_of_a_batched_second_vector_is_refused_in_mm_words(function, sizes, dtypes, error,
                                                                 text):
    refused(error, text, lambda: torch.vmap(function, in_dims=(None, 0))(
        ones(sizes[0], dtype=dtypes[0]), ones(3, sizes[1], dtype=dtypes[1])))


def test_nested_dots_of_one_batched_vector_multiply_the_batches_or_call_bmm():
    refused(RuntimeError, "size mismatch, got input (6), mat (6x4), vec (5)", lambda: torch.vmap(
        torch.vmap(torch.dot, in_dims=(0, None)), in_dims=(0, None))(ones(2, 3, 4), ones(5)))
    refused(RuntimeError, IN_BMM.format([2, 5], [2, 4]), lambda: torch.vmap(
        torch.vmap(torch.dot, in_dims=(None, 0)), in_dims=(None, 0))(ones(5), ones(2, 3, 4)))


def test_dot_of_one_batched_vector_that_fits_runs():
    found = torch.vmap(torch.dot, in_dims=(None, 0))(torch.arange(4), torch.arange(12).view(3, 4))
    assert found.dtype == torch.int64 and found.tolist() == [14, 38, 62]


@pytest.mark.parametrize(("in_dims", "input", "target", "text"), [
    (0, ones(3, 2, 4), torch.tensor([[0, 1], [2, 5], [1, 7]]), "index 5 is out of bounds for "
     "dimension 2 with size 4"),
    ((None, 0), ones(2, 4), torch.tensor([[0, 1], [-1, 6]]), "index -1 is out of bounds for "
     "dimension 2 with size 4"),
    ((0, None), ones(3, 4), torch.tensor(-101), "index -101 is out of bounds for dimension 1 "
     "with size 4")])
def test_nll_loss_under_vmap_refuses_targets_out_of_range_as_gather(in_dims, input, target,
                                                                     text):
    refused(RuntimeError, text, lambda: torch.vmap(F.nll_loss, in_dims=in_dims)(input, target))


def test_nll_loss_under_vmap_gathers_no_ignored_target_and_counts_nested_batches():
    found = torch.vmap(lambda a, t: F.nll_loss(a, t, ignore_index=-1))(
        ones(3, 4), torch.tensor([0, -1, 3]))
    assert found.tolist()[0] == -1.0 and found.tolist()[2] == -1.0
    refused(RuntimeError, "index -2 is out of bounds for dimension 1 with size 4",
            lambda: torch.vmap(lambda a, t: F.nll_loss(a, t, ignore_index=-1))(
                ones(3, 4), torch.tensor([0, -1, -2])))
    refused(RuntimeError, "index 4 is out of bounds for dimension 3 with size 4",
            lambda: torch.vmap(torch.vmap(F.nll_loss))(ones(2, 3, 2, 4),
                                                       torch.full((2, 3, 2), 4)))


SCORES = np.arange(24).reshape(3, 2, 4)
TARGETS = [[0, 1], [2, 3], [1, -100]]


@pytest.mark.parametrize(("dtype", "reduction", "want_dtype", "want"), [
    (torch.long, "mean", torch.float32, [-2.5, -12.5, -17.0]),
    (torch.long, "sum", torch.int64, [-5, -25, -17]),
    (torch.long, "none", torch.int64, [[0, -5], [-10, -15], [-17, 0]]),
    (torch.int32, "sum", torch.int64, [-5, -25, -17]),
    (torch.int32, "none", torch.int32, [[0, -5], [-10, -15], [-17, 0]]),
    (torch.uint8, "mean", torch.float32, [125.5, 243.5, 239.0])])
def test_nll_loss_of_integers_under_vmap_runs_as_its_decomposition(dtype, reduction,
                                                                   want_dtype, want):
    found = torch.vmap(lambda a, t: F.nll_loss(a, t, reduction=reduction))(
        torch.tensor(SCORES).to(dtype), torch.tensor(TARGETS))
    assert found.dtype == want_dtype
    assert found.tolist() == want


def test_nll_loss_of_integers_under_vmap_weighs_in_the_weight_s_dtype():
    for weight, want in ((torch.arange(4), [-5, -65, -17]), (torch.ones(4), [-5.0, -25.0,
                                                                              -17.0])):
        found = torch.vmap(lambda a, t, w=weight: F.nll_loss(a, t, w, reduction="sum"))(
            torch.tensor(SCORES), torch.tensor(TARGETS))
        assert found.dtype == weight.dtype and found.tolist() == want


def test_nll_loss_of_bools_under_vmap_is_refused_where_it_is_negated():
    refused(RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported. If you "
            "are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            lambda: torch.vmap(F.nll_loss)(torch.tensor(SCORES) > 3, torch.tensor(TARGETS)))


def counted(*shape):
    return torch.arange(float(np.prod(shape))).reshape(shape)


@pytest.mark.parametrize("in_dims", [0, (0, None), (None, 0)])
@pytest.mark.parametrize(("first", "second"), [((2, 2, 4), (1, 4, 5)), ((1, 2, 4), (2, 4, 5))])
def test_bmm_under_vmap_broadcasts_the_slices_batches(in_dims, first, second):
    a = counted(3, *first) if in_dims in (0, (0, None)) else counted(*first)
    b = counted(3, *second) if in_dims in (0, (None, 0)) else counted(*second)
    found = torch.vmap(torch.bmm, in_dims=in_dims)(a, b)
    assert tuple(found.shape) == (3, 2, 2, 5)
    assert np.allclose(found.numpy(), torch.vmap(torch.matmul, in_dims=in_dims)(a, b).numpy())


def test_bmm_under_vmap_refuses_batches_that_do_not_broadcast_then_the_folded_sizes():
    refused(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
            "non-singleton dimension 1", lambda: torch.vmap(torch.bmm)(ones(3, 2, 2, 4),
                                                                       ones(3, 3, 4, 5)))
    refused(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
            "non-singleton dimension 1", lambda: torch.vmap(torch.vmap(torch.bmm))(
                ones(2, 3, 2, 2, 4), ones(2, 3, 3, 4, 5)))
    refused(RuntimeError, IN_BMM.format([6, 4], [6, 3]), lambda: torch.vmap(
        torch.bmm, in_dims=(0, None))(ones(3, 2, 2, 4), ones(1, 3, 5)))
    refused(RuntimeError, "expected scalar type Long but found Float", lambda: torch.vmap(
        torch.bmm)(ones(3, 2, 2, 4, dtype=torch.long), ones(3, 1, 4, 5)))


def test_bmm_of_broadcast_batches_under_vmap_passes_the_gradient_back():
    a, b = counted(3, 2, 2, 4).requires_grad_(), counted(3, 1, 4, 5).requires_grad_()
    torch.vmap(torch.vmap(torch.bmm))(a[None], b[None]).sum().backward()
    assert np.allclose(b.grad.numpy(), np.broadcast_to(
        a.detach().numpy().sum((1, 2))[:, None, :, None], (3, 1, 4, 5)))
    assert np.allclose(a.grad.numpy(), np.broadcast_to(
        b.detach().numpy().sum(3)[:, :, None, :], (3, 2, 2, 4)))


FILL_INTO_NONE = ("vmap: fill_(self, *extra_args) is not possible because there exists a Tensor "
                  "`other` in extra_args that has more elements than `self`. This happened due "
                  "to `other` being vmapped over but `self` not being vmapped over in a vmap. "
                  "Please try to use out-of-place operators instead of fill_. If said operator "
                  "is being called inside the PyTorch framework, please file a bug report "
                  "instead.")


def test_jacfwd_of_fill_into_a_tensor_with_no_tangent_is_refused():
    refused(RuntimeError, FILL_INTO_NONE, lambda: torch.func.jacfwd(
        lambda v: torch.zeros(3).fill_(v))(torch.tensor(2.0)))
    refused(RuntimeError, FILL_INTO_NONE, lambda: torch.func.jacfwd(
        lambda v: torch.zeros(3, 2).fill_(v.sum()))(torch.ones(2)))


def test_jvp_of_fill_under_vmap_of_batched_tangents_is_refused():
    def column(t):
        return torch.func.jvp(lambda v: torch.zeros(3).fill_(v), (torch.tensor(2.0),), (t,))[1]

    refused(RuntimeError, FILL_INTO_NONE, lambda: torch.vmap(column)(torch.ones(2)))


def test_jacfwd_of_fill_into_a_tensor_with_a_batched_tangent_takes_the_fill():
    found = torch.func.jacfwd(lambda v: (v * 1).fill_(v[0]))(torch.ones(2))
    assert found.tolist() == [[1.0, 0.0], [1.0, 0.0]]
    found = torch.func.jvp(lambda v: torch.zeros(3).fill_(v), (torch.tensor(2.0),),
                           (torch.tensor(1.0),))[1]
    assert found.tolist() == [1.0, 1.0, 1.0]


EXPANDED = ("The expanded size of the tensor ({}) must match the existing size ({}) at "
            "non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}")
COUNTED = ("expand: the number of sizes provided (1) must be greater or equal to the number of "
           "dimensions in the tensor (2)")
INDEX = ("Expected index {} to be no larger than self {} apart from dimension {} and to be no "
         "larger size than src {}")


@pytest.mark.parametrize(("function", "in_dims", "shape", "text"), [
    (lambda t: t.expand(4, 5), 0, (3, 3), EXPANDED.format(5, 3, 2, [3, 4, 5], [3, 1, 3])),
    (lambda t: t.expand(2, 5), 1, (3, 3), EXPANDED.format(5, 3, 2, [3, 2, 5], [3, 1, 3])),
    (lambda t: t.expand(-1, 2, 3), 0, (3, 4, 1),
     EXPANDED.format(2, 4, 2, [3, -1, 2, 3], [3, 1, 4, 1])),
    (lambda t: t.expand(5), 0, (3, 2, 3), COUNTED)])
def test_expand_under_vmap_is_refused_in_the_batch_s_sizes(function, in_dims, shape, text):
    refused(RuntimeError, text, lambda: torch.vmap(function, in_dims=in_dims)(ones(*shape)))


def test_nested_expands_hold_every_batch_and_an_unbatched_one_its_own_sizes():
    refused(RuntimeError, EXPANDED.format(5, 3, 3, [2, 3, 4, 5], [2, 3, 1, 3]), lambda: torch.vmap(
        torch.vmap(lambda t: t.expand(4, 5)))(ones(2, 3, 3)))
    refused(RuntimeError, EXPANDED.format(5, 3, 1, [4, 5], [2, 3]), lambda: torch.vmap(
        lambda t: ones(2, 3).expand(4, 5))(ones(3, 1)))
    assert tuple(torch.vmap(lambda t: t.expand(2, 4))(ones(3, 1)).shape) == (3, 2, 4)


@pytest.mark.parametrize(("dim", "in_dims", "shapes", "text"), [
    (0, 0, ((3, 4), (3, 2)), COUNTED),
    (0, 0, ((3, 4, 5), (3, 4)), EXPANDED.format(5, 4, 2, [3, 4, 5], [3, 1, 4])),
    (1, 0, ((3, 4, 5), (3, 5)), EXPANDED.format(4, 5, 1, [3, 4, 5], [3, 5, 1])),
    (1, (0, None), ((3, 4, 5), (5,)), EXPANDED.format(4, 5, 0, [4, 5], [5, 1]))])
def test_select_scatter_under_vmap_expands_its_source_as_its_decomposition(dim, in_dims, shapes,
                                                                           text):
    refused(RuntimeError, text, lambda: torch.vmap(
        lambda a, b: torch.select_scatter(a, b, dim, 0), in_dims=in_dims)(
            *(ones(*s) for s in shapes)))


def test_select_scatter_under_vmap_broadcasts_a_source_of_ones():
    found = torch.vmap(lambda a, b: torch.select_scatter(a, b, 0, 1))(
        counted(3, 4, 5), counted(3, 1))
    want = counted(3, 4, 5).numpy().copy()
    want[:, 1, :] = np.arange(3.0)[:, None]
    assert np.array_equal(found.numpy(), want)


@pytest.mark.parametrize(("function", "in_dims", "shapes", "text"), [
    (torch.slice_scatter, 0, ((3, 4), (3, 3)), INDEX.format([3, 4], [3, 4], 1, [3, 3])),
    (torch.slice_scatter, (0, None), ((3, 4), (3,)), INDEX.format([3, 4], [3, 4], 1, [3, 3])),
    (lambda a, b: torch.slice_scatter(a, b, 1), 0, ((3, 4, 5), (3, 4, 2)),
     INDEX.format([3, 4, 5], [3, 4, 5], 2, [3, 4, 2])),
    (lambda a, b: torch.slice_scatter(a, b, 0, 0, 4, 2), 0, ((3, 4), (3, 1)),
     INDEX.format([3, 2], [3, 4], 1, [3, 1]))])
def test_slice_scatter_under_vmap_refuses_a_smaller_source_as_scatter(function, in_dims, shapes,
                                                                      text):
    refused(RuntimeError, text, lambda: torch.vmap(function, in_dims=in_dims)(
        *(ones(*s) for s in shapes)))


def test_slice_scatter_under_vmap_of_a_source_of_fewer_dimensions_is_out_of_range():
    refused(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
            lambda: torch.vmap(torch.slice_scatter)(ones(3, 4, 5), ones(3, 4)))
    refused(RuntimeError, INDEX.format([2, 3, 4], [2, 3, 4], 2, [2, 3, 3]), lambda: torch.vmap(
        torch.vmap(torch.slice_scatter))(ones(2, 3, 4), ones(2, 3, 3)))


def test_slice_scatter_under_vmap_writes_the_leading_part_of_a_larger_source():
    found = torch.vmap(lambda a, b: torch.slice_scatter(a, b, 0, 1, 3))(counted(3, 4),
                                                                        counted(3, 3))
    assert found.tolist() == [[0.0, 0.0, 1.0, 3.0], [4.0, 3.0, 4.0, 7.0], [8.0, 6.0, 7.0, 11.0]]
    found = torch.vmap(lambda a, b: torch.slice_scatter(a, b, 0, 0, 4, 2))(counted(3, 4),
                                                                           counted(3, 3))
    assert found.tolist() == [[0.0, 1.0, 1.0, 3.0], [3.0, 5.0, 4.0, 7.0], [6.0, 9.0, 7.0, 11.0]]


@pytest.mark.parametrize(("in_dims", "shape", "k", "dim", "text_dim"), [
    (0, (3,), 2, -1, 1), (0, (3, 4), 5, -1, 1), (1, (4, 3), 5, 0, 1), (0, (2, 3, 4), 5, -2, 1)])
def test_kthvalue_under_vmap_names_the_dimension_past_the_batch(in_dims, shape, k, dim,
                                                                 text_dim):
    refused(RuntimeError, f"kthvalue(): selected number k out of range for dimension {text_dim}",
            lambda: torch.vmap(lambda t: torch.kthvalue(t, k, dim), in_dims=in_dims)(
                ones(*shape)))


def test_nested_kthvalue_counts_the_batches_and_an_unbatched_one_its_own():
    refused(RuntimeError, "kthvalue(): selected number k out of range for dimension 2",
            lambda: torch.vmap(torch.vmap(lambda t: torch.kthvalue(t, 5)))(ones(2, 3, 4)))
    refused(RuntimeError, "kthvalue(): selected number k out of range for dimension 0",
            lambda: torch.vmap(lambda t: torch.kthvalue(ones(4), 5))(ones(3, 4)))


@pytest.mark.parametrize(("function", "shape", "text"), [
    (lambda t: F.adaptive_avg_pool2d(t, 2), (3, 4),
     "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [12]"),
    (lambda t: F.adaptive_avg_pool3d(t, 2), (3, 4),
     "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [12]"),
    (lambda t: F.adaptive_max_pool2d(t, 2), (3, 4, 4),
     "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [12, 4]"),
    (lambda t: F.adaptive_max_pool3d(t, 2), (3, 4, 4),
     "adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: [12, 4]"),
    (lambda t: F.adaptive_max_pool1d(t, -1), (3, 4, 4),
     "Trying to create tensor with negative dimension -1: [12, 1, -1]"),
    (lambda t: F.channel_shuffle(t, 2), (3, 4, 4),
     "channel_shuffle expects input with > 2 dims, but got input with sizes [12, 4]"),
    (lambda t: F.channel_shuffle(t, 2), (2, 3, 4),
     "channel_shuffle expects input with > 2 dims, but got input with sizes [6, 4]")])
def test_rules_that_fold_the_batch_into_the_first_dimension_print_it_folded(function, shape,
                                                                             text):
    refused(RuntimeError, text, lambda: torch.vmap(function)(ones(*shape)))


def test_nested_folds_multiply_every_batch_into_the_first_dimension():
    refused(RuntimeError, "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [24, 4]",
            lambda: torch.vmap(torch.vmap(lambda t: F.adaptive_max_pool2d(t, 2)))(
                ones(2, 3, 4, 4)))
    refused(RuntimeError, "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [4]",
            lambda: torch.vmap(lambda t: F.adaptive_max_pool2d(ones(4), 2))(ones(3, 4)))


NO_RULE = "Batching rule not implemented for aten::{}. We could not generate a fallback."


@pytest.mark.parametrize(("function", "overload"), [
    (lambda t: torch.split_copy(t, 2), "split_copy.Tensor"),
    (lambda t: torch.split_copy(t, 2, 5), "split_copy.Tensor"),
    (lambda t: torch.histogramdd(t.view(2, 2), 3), "histogramdd.int_bins"),
    (lambda t: torch.histogramdd(t.view(2, 2), [3, 3]), "histogramdd"),
    (lambda t: torch.histogramdd(t.view(2, 2), [torch.arange(3.0), torch.arange(3.0)]),
     "histogramdd.TensorList_bins"),
    (lambda t: torch.histogramdd(t.int().view(2, 2), 3), "histogramdd.int_bins"),
    (lambda t: torch.histogramdd(ones(4, 2), 3, weight=t), "histogramdd.int_bins")])
def test_operators_with_no_rule_and_no_fallback_are_refused(function, overload):
    refused(RuntimeError, NO_RULE.format(overload), lambda: torch.vmap(function)(ones(3, 4)))


def test_operators_with_no_rule_run_on_tensors_no_vmap_batches():
    found = torch.vmap(lambda t: torch.split_copy(ones(4), 2)[0] * t)(ones(3, 2))
    assert tuple(found.shape) == (3, 2)
    refused(TypeError, "split_copy(): argument 'split_size' (position 2) must be int, not float",
            lambda: torch.vmap(lambda t: torch.split_copy(t, 2.5))(ones(3, 4)))
