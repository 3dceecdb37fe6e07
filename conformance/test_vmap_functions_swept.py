"""Functions under vmap where torch's batching rules answer otherwise than a loop of slices
would: found by the sweep of conformance/oracle/test_vmap_sweep_oracle.py."""

import re

import numpy as np
import pytest
import torch

F = torch.nn.functional
DATA = np.arange(1.0, 13.0, dtype=np.float32).reshape(3, 4)
INSIDE = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent "
          "control flow.")


def x():
    return torch.tensor(DATA)


def refused(error, text, call):
    with pytest.raises(error, match="^" + re.escape(text)):
        call()


def test_tril_and_triu_of_a_batched_vector_are_rows_of_the_batch_triangle():
    rows, cols = np.indices((3, 4))
    assert np.array_equal(torch.vmap(torch.tril)(x()).numpy(), np.where(cols <= rows, DATA, 0))
    upper = torch.vmap(lambda v: torch.triu(v, 1), in_dims=1)(x().T)
    assert np.array_equal(upper.numpy(), np.where(cols >= rows + 1, DATA, 0))


def test_nested_slices_take_the_row_of_the_innermost_batch():
    data = np.arange(1.0, 25.0, dtype=np.float32).reshape(2, 3, 4)
    found = torch.vmap(torch.vmap(lambda v: torch.tril(v, -1)))(torch.tensor(data))
    _, rows, cols = np.indices(data.shape)
    assert np.array_equal(found.numpy(), np.where(cols <= rows - 1, data, 0))


def test_tril_of_a_batched_number_and_of_an_unbatched_vector_are_refused():
    refused(RuntimeError, "tril: The input tensor must have at least 2 dimensions.",
            lambda: torch.vmap(torch.tril)(torch.ones(3)))
    refused(RuntimeError, "triu: input tensor must have at least 2 dimensions",
            lambda: torch.vmap(lambda v: torch.triu(torch.ones(4)))(x()))


def test_slice_inverse_and_a_batched_mask_are_refused_by_vmap():
    refused(RuntimeError, "Batching rule not implemented for aten::slice_inverse; the fallback"
            " path doesn't work on out= or view ops.",
            lambda: torch.vmap(torch.slice_inverse, in_dims=(None, 0))(torch.ones(4), x()))
    refused(RuntimeError, "vmap: Attempted to vmap over `mask` in torch.masked_select(self, "
            "mask)", lambda: torch.vmap(torch.masked_select)(x(), x()))


def test_comparisons_handed_straight_to_vmap_are_refused():
    refused(RuntimeError, "Batching rule not implemented for aten::equal.",
            lambda: torch.vmap(torch.equal)(x(), x()))
    refused(RuntimeError, "vmap over torch.allclose isn't supported yet.",
            lambda: torch.vmap(torch.allclose, in_dims=(0, None))(x(), torch.ones(4)))


@pytest.mark.parametrize(("function", "name"), [
    (torch.clamp_, "aten::clamp_"), (torch.xlogy_, "aten::xlogy_"),
    (torch.ldexp_, "aten::ldexp_")])
def test_in_place_functions_handed_straight_to_vmap_refuse_a_batched_value(function, name):
    refused(RuntimeError, f"vmap: {name}(self, *extra_args) is not possible",
            lambda: torch.vmap(function, in_dims=(None, 0))(torch.ones(4), x()))


def test_the_truth_of_a_batched_tensor_read_inside_a_function_is_control_flow():
    refused(RuntimeError, INSIDE, lambda: torch.vmap(F.relu)(x(), x()))
    refused(RuntimeError, INSIDE, lambda: torch.vmap(F.hardtanh, in_dims=(None, 0))(
        torch.ones(4), x()))


@pytest.mark.parametrize(("function", "dims"), [
    (torch.mm, "a has dim 1and b has dim 2but expected them to have dim 2 and dim 2"),
    (torch.bmm, "a has dim 1and b has dim 2but expected them to have dim 3 and dim 3"),
    (torch.mv, "a has dim 1and b has dim 2but expected them to have dim 2 and dim 1")])
def test_products_of_wrong_dims_are_refused_by_the_rule(function, dims):
    name = function.__name__
    refused(RuntimeError, f"Shape mismatch: Got incorrect dims for {name}(a, b). {dims}",
            lambda: torch.vmap(function, in_dims=(0, None))(x(), torch.ones(4, 4)))


def test_dot_and_vdot_of_matrices_are_wrong_shapes():
    for function in (torch.dot, torch.vdot):
        refused(RuntimeError, "Got wrong shapes for dot",
                lambda f=function: torch.vmap(f, in_dims=(0, None))(x(), torch.ones(4, 4)))


@pytest.mark.parametrize(("function", "text"), [
    (torch.inverse, "linalg.inv_ex: The input tensor A must have at least 2 dimensions."),
    (torch.linalg.inv, "linalg.inv_ex: The input tensor A must have at least 2 dimensions."),
    (torch.matrix_exp, "torch.matrix_exp: The input tensor A must have at least 2 dimensions."),
    (torch.geqrf, "geqrf: The input tensor A must have at least 2 dimensions."),
    (torch.linalg.pinv, "linalg.pinv: The input tensor input must have at least 2 dimensions."),
    (torch.rot90, "Dimension out of range (expected to be in range of [-1, 0], but got 1)")])
def test_one_matrix_functions_of_a_batched_vector_are_refused_by_the_rule(function, text):
    error = IndexError if function is torch.rot90 else RuntimeError
    refused(error, text, lambda: torch.vmap(function)(x()))


def test_the_rule_s_words_go_no_further_than_the_rule():
    refused(RuntimeError, "linalg.inv_ex: The input tensor A must have at least 2 dimensions.",
            lambda: torch.vmap(torch.linalg.inv)(x()))
    refused(RuntimeError, "linalg.inv: A must be batches of square matrices, but they are 4 by"
            " 5 matrices", lambda: torch.vmap(torch.linalg.inv)(torch.ones(3, 4, 5)))
    refused(RuntimeError, "linalg.pinv: The input tensor input must have at least 2",
            lambda: torch.vmap(torch.linalg.pinv)(x()))
    refused(RuntimeError, "linalg.pinv(Float{[4]}): expected a tensor with 2 or more dimensions",
            lambda: torch.vmap(torch.linalg.pinv)(x(), x()))  # a tensor rcond has no rule


def test_triangular_solve_names_its_operands_as_the_rule_does():
    square = torch.eye(4)
    refused(RuntimeError, "triangular_solve: The input tensor A must have at least 2 dimensions",
            lambda: torch.vmap(torch.triangular_solve, in_dims=(0, None))(x(), square))
    refused(RuntimeError, "triangular_solve: The input tensor B must have at least 2 dimensions",
            lambda: torch.vmap(torch.triangular_solve, in_dims=(None, 0))(square, x()))


def test_rules_that_print_the_whole_batch():
    refused(RuntimeError, "b should have at least 2 dimensions, but has 2 dimensions instead",
            lambda: torch.vmap(torch.cholesky_solve)(x(), x()))
    refused(RuntimeError, "linalg.cross: inputs dimension 1 must have length 3. Got 4 and 4",
            lambda: torch.vmap(torch.linalg.cross)(x(), x()))
    refused(RuntimeError, "bucketize: boundaries tensor must be 1 dimension, but got dim(2)",
            lambda: torch.vmap(torch.bucketize, in_dims=(0, None))(x(), torch.ones(4, 4)))


def test_nested_rules_count_the_batch_dimensions_they_see():
    nested = torch.ones(2, 3, 4)
    refused(RuntimeError, "b should have at least 2 dimensions, but has 2 dimensions instead",
            lambda: torch.vmap(torch.vmap(torch.cholesky_solve))(nested, nested))
    refused(RuntimeError, "linalg.cross: inputs dimension 2 must have length 3. Got 4 and 4",
            lambda: torch.vmap(torch.vmap(torch.linalg.cross))(nested, nested))


def test_one_hot_under_vmap_compares_each_index_with_every_class():
    index = torch.tensor([[0, 3, -1, 1]])
    found = torch.vmap(lambda i: F.one_hot(i, 2))(index)
    assert found.dtype == torch.int64
    assert found.tolist() == [[[1, 0], [0, 0], [0, 0], [0, 1]]]


def test_one_hot_under_vmap_asks_for_the_classes_and_an_index():
    refused(RuntimeError, "When vmap-ing torch.nn.functional.one_hot, please provide an "
            "explicit positive num_classes argument.",
            lambda: torch.vmap(F.one_hot)(torch.tensor([[0, 1]])))
    refused(RuntimeError, "one_hot is only applicable to index tensor.",
            lambda: torch.vmap(lambda i: F.one_hot(i, 3))(torch.tensor([[0]], dtype=torch.int32)))


def test_fill_with_a_batched_value_copies_each_slice_s_value_in():
    rows = torch.vmap(torch.Tensor.fill_)(torch.zeros(3, 4, 4), x())
    assert np.array_equal(rows.numpy(), np.broadcast_to(DATA[:, None, :], (3, 4, 4)))
    refused(RuntimeError, "output with shape [3, 1, 4] doesn't match the broadcast shape "
            "[3, 4, 4]", lambda: torch.vmap(torch.fill_)(torch.zeros(3, 4), torch.ones(3, 4, 4)))
    refused(RuntimeError, "The size of tensor a (4) must match the size of tensor b (2) at "
            "non-singleton dimension 1", lambda: torch.vmap(torch.fill_, in_dims=(0, 1))(
                torch.zeros(3, 4), torch.ones(2, 3)))
