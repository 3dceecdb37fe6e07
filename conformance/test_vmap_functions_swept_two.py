"""Functions under vmap whose refusals torch's batching rules word with the batch's sizes, or
in the words of the function a rule calls: found by the sweep of
conformance/oracle/test_vmap_sweep_oracle.py (chapter 19if_functions_under_vmap_two)."""

import warnings

import numpy as np
import pytest
import torch

from conformance._vmap_refusals import IN_BMM, ones, refused

F = torch.nn.functional
LU_TWO = "torch.lu_factor_ex: Expected tensor with 2 or more dimensions. Got size: {} instead"
SAID = "torch.linalg.householder_product: "
SCATTER = "expected src to have a size equal to the slice of self. src size = {}, slice size = {}"
OUT_OF_RANGE = "Dimension out of range (expected to be in range of [-1, 0], but got 1)"


@pytest.mark.parametrize("function", [torch.lu, torch.linalg.lu_factor,
                                      torch.linalg.lu_factor_ex])
def test_lu_of_a_batched_vector_prints_the_batch_laid_out_as_given(function):
    warnings.simplefilter("ignore", UserWarning)  # torch.lu's deprecation, warned once
    refused(RuntimeError, LU_TWO.format([4, 3]), lambda: torch.vmap(function, in_dims=1)(
        ones(4, 3)))
    refused(RuntimeError, LU_TWO.format([3, 4]), lambda: torch.vmap(torch.vmap(function))(
        ones(2, 3, 4)))
    refused(RuntimeError, LU_TWO.format([3, 4]), lambda: torch.vmap(
        lambda a: function(a * 2), in_dims=1)(ones(4, 3)))
    refused(RuntimeError, "linalg.lu: Expected tensor with 2 or more dimensions. Got size: [4]"
            " instead", lambda: torch.vmap(torch.linalg.lu)(ones(3, 4)))  # no rule: its own


@pytest.mark.parametrize(("in_dims", "shapes", "text"), [
    (0, ((3, 4), (3, 4)), "input.shape[-2] must be greater than or equal to input.shape[-1]"),
    ((None, 0), ((4,), (3, 4)), "input.shape[-2] must be greater than or equal to "
                                "input.shape[-1]"),
    ((0, None), ((3, 4, 4), (4, 3)), "Expected tau to have one dimension less than input, but "
                                     "got tau.ndim equal to 3 and input.ndim is equal to 3"),
    ((0, None), ((3, 2, 4, 4), (5, 4)), "Expected batch dimensions of tau to be equal to "
                                        "input.shape[:-2], but got [3, 5]")])
@pytest.mark.parametrize("function", [torch.linalg.householder_product, torch.orgqr])
def test_householder_product_checks_sizes_with_the_batch(function, in_dims, shapes, text):
    refused(RuntimeError, SAID + text, lambda: torch.vmap(function, in_dims=in_dims)(
        *(ones(*s) for s in shapes)))


def test_householder_product_of_fitting_slices_runs_and_of_numbers_is_refused():
    found = torch.vmap(torch.linalg.householder_product, in_dims=(1, None))(
        ones(4, 3, 4), ones(4))
    assert tuple(found.shape) == (3, 4, 4)
    refused(RuntimeError, SAID + "input.shape[-2] must be greater than or equal to input.shape"
            "[-1]", lambda: torch.vmap(torch.linalg.householder_product, in_dims=(0, None))(
                ones(3, 5), ones(())))


def test_diagonal_scatter_prints_the_batches_before_both_sizes():
    refused(RuntimeError, SCATTER.format([3, 4, 4], [3, 4]), lambda: torch.vmap(
        torch.diagonal_scatter, in_dims=(2, None))(ones(4, 4, 3), ones(4, 4)))
    refused(RuntimeError, SCATTER.format([2, 3, 4, 4], [2, 3, 4]), lambda: torch.vmap(
        torch.vmap(torch.diagonal_scatter))(ones(2, 3, 4, 4), ones(2, 3, 4, 4)))


def test_embedding_of_a_batched_vector_weight_cannot_fold_the_batch():
    indices = torch.zeros(4, dtype=torch.long)
    refused(IndexError, OUT_OF_RANGE, lambda: torch.vmap(F.embedding, in_dims=(None, 0))(
        indices, ones(3, 4)))
    refused(IndexError, OUT_OF_RANGE, lambda: torch.vmap(
        lambda i, w: F.embedding(i, w, padding_idx=1), in_dims=(None, 0))(indices, ones(3, 4)))
    refused(IndexError, OUT_OF_RANGE, lambda: torch.vmap(torch.embedding, in_dims=(0, None))(
        ones(3), indices))
    refused(RuntimeError, "'weight' must be 2-D", lambda: torch.vmap(F.embedding)(
        torch.zeros(3, 4, dtype=torch.long), ones(3, 4)))


@pytest.mark.parametrize(("target", "error", "text"), [
    (ones(3, 2, 2, dtype=torch.long), AssertionError,
     "0D or 1D target tensor expected, multi-target not supported, got 2D"),
    (ones(3, 1, dtype=torch.long), RuntimeError,
     "size mismatch (got input: torch.Size([4]), target: torch.Size([1]))"),
    (ones(3), RuntimeError, "gather(): Expected dtype int32/int64 for index"),
    (ones(3, dtype=torch.uint8), RuntimeError, "gather(): Expected dtype int32/int64 for index")])
def test_nll_loss_under_vmap_refuses_as_its_decomposition(target, error, text):
    refused(error, text, lambda: torch.vmap(F.nll_loss)(ones(3, 4), target))


def test_nll_loss_of_a_vector_of_targets_for_a_vector_of_classes_is_refused_by_gather():
    refused(RuntimeError, "Index tensor must have the same number of dimensions as input tensor",
            lambda: torch.vmap(F.nll_loss)(ones(3, 4), torch.zeros(3, 4, dtype=torch.long)))


def test_nll_loss_under_vmap_checks_the_weight_as_its_decomposition():
    refused(AssertionError, "weight tensor should be defined either for all 4 classes or no "
            "classes but got weight tensor of shape: torch.Size([3])", lambda: torch.vmap(
                lambda a, t: F.nll_loss(a, t, ones(3)))(ones(3, 2, 4), ones(3, 2)))


def test_nll_loss_under_vmap_takes_an_int32_target():
    data = torch.tensor(np.linspace(-2, 0, 24, dtype=np.float32).reshape(3, 2, 4))
    target = torch.tensor([[0, 1], [2, 3], [1, 1]])
    found = torch.vmap(F.nll_loss)(data, target.int())
    assert np.allclose(found.numpy(), torch.vmap(F.nll_loss)(data, target).numpy())


def sample(input, grid):
    return F.grid_sample(input, grid, align_corners=False)


def test_grid_sample_prints_the_sizes_its_rule_folds_the_batches_into():
    grid = ones(3, 1, 5, 5, 1)
    refused(RuntimeError, "grid_sampler(): expected grid to have size 2 in last dimension, but "
            "got grid with sizes [3, 5, 5, 1]", lambda: torch.vmap(sample)(ones(3, 1, 2, 4, 4),
                                                                          grid))
    refused(RuntimeError, "grid_sampler(): expected grid to have size 2 in last dimension, but "
            "got grid with sizes [1, 15, 5, 1]", lambda: torch.vmap(sample, in_dims=(None, 0))(
                ones(1, 2, 4, 4), grid))
    refused(RuntimeError, "grid_sampler(): expected grid and input to have same batch size, but"
            " got input with sizes [3, 2, 4, 4] and grid with sizes [6, 5, 5, 2]",
            lambda: torch.vmap(sample)(ones(3, 1, 2, 4, 4), ones(3, 2, 5, 5, 2)))


def test_grid_sample_of_a_batched_vector_cannot_fold_the_batch():
    refused(IndexError, OUT_OF_RANGE, lambda: torch.vmap(sample, in_dims=(0, None))(
        ones(3, 4), ones(4)))
    refused(RuntimeError, "grid_sampler(): expected grid to have size -1 in last dimension, but "
            "got grid with sizes [12]", lambda: torch.vmap(sample)(ones(3, 4), ones(3, 4)))


@pytest.mark.parametrize(("function", "in_dims", "shapes", "text"), [
    (torch.mm, 0, ((3, 2, 4), (3, 3, 5)), IN_BMM.format([3, 4], [3, 3])),
    (torch.mm, (None, 0), ((2, 4), (3, 3, 5)), IN_BMM.format([3, 4], [3, 3])),
    (torch.mm, (0, None), ((3, 2, 4), (3, 5)),
     "mat1 and mat2 shapes cannot be multiplied (6x4 and 3x5)"),
    (torch.matmul, 0, ((3, 4), (3, 3, 5)), IN_BMM.format([3, 4], [3, 3])),
    (torch.mv, 0, ((3, 2, 4), (3, 3)), IN_BMM.format([3, 4], [3, 3])),
    (torch.mv, (0, None), ((3, 2, 4), (3,)), "size mismatch, got input (6), mat (6x4), vec (3)"),
    (torch.mv, (None, 0), ((2, 4), (3, 3)),
     "mat1 and mat2 shapes cannot be multiplied (2x4 and 3x3)"),
    (torch.bmm, (0, None), ((3, 2, 2, 4), (2, 3, 5)), IN_BMM.format([6, 4], [6, 3]))])
def test_products_that_do_not_fit_are_refused_by_the_function_the_rule_calls(
        function, in_dims, shapes, text):
    refused(RuntimeError, text, lambda: torch.vmap(function, in_dims=in_dims)(
        *(ones(*s) for s in shapes)))


def test_nested_products_that_do_not_fit_print_the_batches_multiplied():
    refused(RuntimeError, IN_BMM.format([6, 4], [6, 3]), lambda: torch.vmap(torch.vmap(
        torch.mm), in_dims=(0, None))(ones(2, 3, 2, 4), ones(3, 3, 5)))


def test_a_gradient_through_fill_with_a_batched_value_reaches_the_value():
    value = torch.ones(2, 3, requires_grad=True)
    start = torch.zeros(2, 3, 3, requires_grad=True)
    torch.vmap(torch.Tensor.fill_)(start.clone(), value).sum().backward()
    assert np.array_equal(value.grad.numpy(), np.full((2, 3), 3.0, dtype=np.float32))
    assert np.array_equal(start.grad.numpy(), np.zeros((2, 3, 3), dtype=np.float32))


def test_a_gradient_through_fill_under_grad_of_vmap_reaches_the_value():
    found = torch.func.grad(lambda v: torch.vmap(torch.Tensor.fill_)(
        torch.zeros(2, 3, 3), v).sum())(torch.ones(2, 3))
    assert np.array_equal(found.numpy(), np.full((2, 3), 3.0, dtype=np.float32))


@pytest.mark.parametrize(("function", "shapes", "dtypes", "error", "text"), [
    (torch.dot, ((3, 4), (3, 4)), (torch.long, torch.float32), RuntimeError,
     "expected scalar type Long but found Float"),
    (torch.vdot, ((3, 4), (3, 4)), (torch.float32, torch.long), RuntimeError,
     "expected scalar type Float but found Long"),
    (torch.dot, ((3, 4), (3, 5)), (torch.float64, torch.float32), RuntimeError,
     IN_BMM.format([3, 4], [3, 5])),
    (torch.dot, ((3, 4), (3, 4)), (torch.bool, torch.bool), NotImplementedError,
     "\"bmm\" not implemented for 'Bool'"),
    (torch.mm, ((3, 2, 4), (3, 4, 5)), (torch.long, torch.float32), RuntimeError,
     "expected scalar type Long but found Float"),
    (torch.mv, ((3, 2, 4), (3, 4)), (torch.long, torch.float32), RuntimeError,
     "expected scalar type Long but found Float")])
def test_products_of_two_batched_operands_are_refused_in_bmm_words(
        function, shapes, dtypes, error, text):
    refused(error, text, lambda: torch.vmap(function)(
        *(ones(*s, dtype=d) for s, d in zip(shapes, dtypes))))


def test_linalg_solve_under_vmap_counts_the_dimensions_of_a_before_its_dtype():
    refused(RuntimeError, "linalg.solve: The input tensor A must have at least 2 dimensions.",
            lambda: torch.vmap(torch.linalg.solve, in_dims=(None, 0))(
                ones(4, dtype=torch.long), ones(3, 4)))


@pytest.mark.parametrize("function", [
    torch.slice_scatter, lambda a, b: torch.slice_scatter(a, b, 0, 1, 3),
    lambda a, b: torch.select_scatter(a, b[0], 0, 0)])
def test_scatters_under_vmap_refuse_two_dtypes_before_the_sizes(function):
    refused(RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype",
            lambda: torch.vmap(function)(ones(3, 4), ones(3, 3, dtype=torch.long)))
