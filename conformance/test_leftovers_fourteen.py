"""Black-box tests: a padded convolution's gradient by an infinite weight, and other
leftovers. The same assertions run on torch.
"""

import math
import re

import pytest
import torch
import torch.nn.functional as F


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("stride, padding", [(1, 0), (1, 1), (2, 1)])
def test_conv_input_gradient_never_multiplies_padding(batch, dtype, stride, padding):
    x = torch.arange(batch * 2 * 5, dtype=dtype).reshape(batch, 2, 5).requires_grad_()
    w = torch.tensor([[[1.0, 0.5, float("inf")], [0.5, 2.0, -1.0]]], dtype=dtype)
    F.conv1d(x, w, stride=stride, padding=padding).sum().backward()
    assert not x.grad.isnan().any()
    assert x.grad[:, 0].isinf().any()


def test_conv1d_same_even_kernel_gradient_seed_476709():
    v0 = torch.tensor([[-1.5, 0.0], [2.0, float("inf")]]).requires_grad_(True)
    with pytest.warns(UserWarning, match="even kernel lengths"):
        v1 = F.conv1d(v0.unsqueeze(0), v0.unsqueeze(0)[..., :2], padding="same")
    (v1 * v0).sum().backward()
    grad = v0.grad.flatten().tolist()
    assert math.isnan(grad[0]) and math.isnan(grad[1]) and math.isnan(grad[3])
    assert grad[2] == math.inf


def test_conv2d_input_gradient_by_an_infinite_weight():
    x = torch.ones(1, 1, 3, 3, requires_grad=True)
    w = torch.tensor([[[[1.0, 1.0], [1.0, float("inf")]]]])
    F.conv2d(x, w).sum().backward()
    assert x.grad[0, 0, 0].tolist() == [1.0, 2.0, 1.0]
    assert x.grad[0, 0, 1:, 1:].isinf().all() and not x.grad.isnan().any()


def _refusal(function, *args):
    with pytest.raises((RuntimeError, NotImplementedError)) as info:
        function(*args)
    return type(info.value).__name__, str(info.value)


_MIXED = "expected m1 and m2 to have the same dtype, but got: "


@pytest.mark.parametrize("a, b, size, expected", [
    (torch.float16, torch.int32, 8, _MIXED + "c10::Half != int"),
    (torch.int32, torch.float32, 8, "expected scalar type Float but found Int"),
    (torch.float32, torch.float64, 8, "expected scalar type Double but found Float"),
    (torch.int64, torch.complex64, 8, "expected scalar type ComplexFloat but found Long"),
    (torch.float64, torch.uint8, 8, _MIXED + "double != unsigned char"),
    (torch.bool, torch.bool, 8, "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
    (torch.bool, torch.float32, 8, "expected scalar type Float but found Bool"),
])
def test_bmm_of_two_dtypes_refused_by_the_path_its_size_takes(a, b, size, expected):
    x, y = torch.ones(2, size, size, dtype=a), torch.ones(2, size, size, dtype=b)
    assert _refusal(torch.bmm, x, y)[1] == expected


def test_bmm_of_items_neither_by_rows_nor_by_columns_goes_through_addmm():
    a = torch.ones(2, 8, 8, dtype=torch.int32)
    b = torch.ones(2, 8, 16)[..., ::2]
    assert _refusal(torch.bmm, a, b)[1] == _MIXED + "int != float"
    assert _refusal(torch.bmm, a, b.contiguous())[1] == "expected scalar type Float but found Int"
    assert _refusal(torch.bmm, a, b.contiguous().transpose(1, 2))[1] == (
        "expected scalar type Float but found Int")
    # below 400 multiply-adds, torch's own loop reads both as batch1's dtype
    small = torch.ones(2, 7, 7)
    assert _refusal(torch.bmm, small, small.int())[1] == "expected scalar type Float but found Int"
    assert _refusal(torch.bmm, small.bool(), small)[1] == "\"bmm\" not implemented for 'Bool'"


@pytest.mark.parametrize("b, expected", [
    (torch.int32, "mat1 and mat2 must have the same dtype, but got Float and Int"),
    (torch.float64, "expected scalar type Double but found Float"),
])
def test_baddbmm_of_two_dtypes_refused_by_the_path_its_size_takes(b, expected):
    batch2 = torch.ones(1, 8, 8, dtype=b)
    assert _refusal(torch.baddbmm, torch.ones(1, 8, 8), torch.ones(1, 8, 8), batch2)[1] == (
        expected)
    out = torch.empty(1, 8, 8)
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype"):
        torch.baddbmm(torch.ones(1, 8, 8), torch.ones(1, 8, 8), batch2, out=out)


_INFERENCE = "Inference tensors cannot be saved for backward"


@pytest.mark.parametrize("solve", [torch.linalg.solve, torch.linalg.solve_ex])
@pytest.mark.parametrize("a_shape, b_shape", [
    ((2, 3), (3,)),  # not square
    ((3, 3), (2,)),  # shapes that do not fit
    ((3,), (3,)),  # a vector
    ((2, 3, 3), (4, 3, 1)),  # batches that do not broadcast
])
def test_solve_saves_an_inference_A_before_its_kernel_checks_it(solve, a_shape, b_shape):
    with torch.inference_mode():
        A = torch.ones(a_shape)
    B = torch.ones(b_shape, requires_grad=True)
    with pytest.raises(RuntimeError, match=_INFERENCE):
        solve(A, B)
    with pytest.raises(RuntimeError, match="linalg.solve: Expected A and B to have the same"):
        solve(A, B.detach().double())  # nothing requires grad: nothing is saved
    with torch.inference_mode():
        B = torch.ones(b_shape)
    with pytest.raises(RuntimeError) as info:
        solve(torch.ones(a_shape, requires_grad=True), B)  # B is not saved
    assert _INFERENCE not in str(info.value)


_UNALLOCATED = "tolist() shouldn't be called on a tensor with unallocated storage"


@pytest.mark.parametrize("view", [
    lambda g: g.detach().reshape(-1), lambda g: g.view(3, 2), lambda g: g[0],
    lambda g: g.t(), lambda g: g.flatten(), lambda g: g.unsqueeze(0).expand(2, 2, 3)])
def test_sgn_backward_under_inference_mode_leaves_a_zero_tensor_and_its_views(view):
    x = torch.randn(2, 3).requires_grad_(True)
    y = x.sgn()
    with torch.inference_mode():
        y.backward(torch.ones_like(y), retain_graph=True)
    assert x.grad.is_inference() and x.grad._is_zerotensor()
    seen = view(x.grad)
    assert seen._is_zerotensor()
    with pytest.raises(RuntimeError, match=re.escape(_UNALLOCATED)):
        seen.tolist()
    assert x.grad.clone().tolist() == [[0.0] * 3] * 2


_NO_CONVERGENCE = ("The algorithm failed to converge because the input matrix contained "
                   "non-finite values.")


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (2, 5), (6, 4)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_singular_values_of_a_matrix_holding_an_inf_are_nan(shape, dtype):
    A = torch.arange(math.prod(shape), dtype=dtype).reshape(shape) - 2
    A[-1, 0] = -math.inf
    assert torch.linalg.svdvals(A).isnan().all()
    assert torch.linalg.matrix_norm(A, "nuc").isnan()
    assert torch.linalg.matrix_norm(A, 2).isnan()
    # with the vectors, LAPACK may fail to converge instead, as the matrix falls
    A[0, -1] = math.nan  # a nan is refused, alone or in a batch
    with pytest.raises(torch.linalg.LinAlgError, match="^linalg.svd: " + _NO_CONVERGENCE):
        torch.linalg.svdvals(A)


@pytest.mark.parametrize("function", [
    torch.linalg.svdvals, lambda A: torch.linalg.matrix_norm(A, "nuc"),
    torch.linalg.matrix_rank, torch.linalg.pinv])
def test_a_batch_holding_a_nan_is_refused_naming_its_matrix(function):
    A = torch.eye(3).expand(2, 3, 3, 3).clone()
    A[0, 1, 0, 0] = math.inf
    A[1, 0, 2, 1] = math.nan
    A[1, 2, 0, 0] = math.nan
    with pytest.raises(torch.linalg.LinAlgError) as info:
        function(A)
    assert str(info.value) == "linalg.svd: (Batch element 3): " + _NO_CONVERGENCE


@pytest.mark.parametrize("rows", [0, 2])
def test_a_saved_view_whose_base_was_written_is_named_by_its_regenerated_node(rows):
    v0 = torch.rand(3, 3).requires_grad_(True)
    v1 = torch.zeros(rows, 3)
    v1.addr_(v1[:, 0], v0[0])  # the view is saved, and no one asks it for its grad_fn
    with pytest.raises(RuntimeError) as info:
        v1.sum().backward()
    assert f"[torch.FloatTensor [{rows}]], which is output 0 of AsStrided, is at version 1;" in (
        str(info.value))
