"""Black-box tests: behaviour the differential fuzzer found in its twelfth round.

soft_margin_loss refuses to save an inference tensor before its kernel checks the
shapes; a mean taken in another dtype divides its gradient before the engine casts it
back; unique_consecutive starts a run at a leading NaN; linalg.solve refuses float16
after comparing dtypes and shapes, and lu_solve compares dtypes before shapes; a write
through a window past its base's elements is refused in backward; var and std of a
float16 inference tensor count no write; entr steps in the tensor's own precision; an
inference tensor given normal data is refused for its missing counter when saved.
The same assertions run on torch.
"""

import math
import re

import pytest
import torch
import torch.nn.functional as F

SAVED = "^Inference tensors cannot be saved for backward. "
NO_COUNTER = "^Inference tensors do not track version counter.$"


def _inference(*shape, dtype=torch.float32):
    with torch.inference_mode():
        return torch.rand(shape).to(dtype)


def _chain(t):
    names, node = [], t.grad_fn
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


@pytest.mark.parametrize("input_shape, target_shape, message", [
    ((1, 2), (2, 3), "^The size of tensor a \\(2\\) must match the size of tensor b \\(3\\)"),
    ((3,), (2, 3), "^output with shape \\[3\\] doesn't match the broadcast shape \\[2, 3\\]$"),
])
def test_soft_margin_loss_refuses_an_inference_save_before_the_shapes(input_shape, target_shape,
                                                                      message):
    x = torch.rand(input_shape, requires_grad=True)
    with pytest.raises(RuntimeError, match=SAVED):
        F.soft_margin_loss(x, _inference(*target_shape))
    with torch.no_grad(), pytest.raises(RuntimeError, match=message):  # not recorded
        F.soft_margin_loss(x, _inference(*target_shape))


@pytest.mark.parametrize("dims, between", [(None, []), (0, ["UnsqueezeBackward0"]),
                                           ((0, 1), ["UnsqueezeBackward0"] * 2)])
def test_a_mean_in_another_dtype_divides_before_the_cast_back(dims, between):
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    m = x.mean(dtype=torch.float16) if dims is None else x.mean(dims, dtype=torch.float16)
    g_out = torch.full(m.shape, 1.0, dtype=torch.float16, requires_grad=True)
    g, = torch.autograd.grad(m, x, g_out, create_graph=True)
    assert _chain(g) == ["ToCopyBackward0", "DivBackward1", "ExpandBackward0", *between,
                         "torch::autograd::AccumulateGrad"]
    count = 6 if dims in (None, (0, 1)) else 2
    assert g.dtype == torch.float32
    assert g[0, 0].item() == torch.tensor(1.0, dtype=torch.float16).div(count).item()


def test_unique_consecutive_starts_a_run_at_a_leading_nan():
    values, inverse, counts = torch.unique_consecutive(
        torch.tensor([math.nan, math.nan, 1.0, 1.0]), return_inverse=True, return_counts=True)
    assert values.shape == (3,) and math.isnan(values[0].item())
    assert inverse.tolist() == [0, 1, 2, 2] and counts.tolist() == [1, 1, 2]
    one, counts = torch.tensor(math.nan).unique_consecutive(return_counts=True)
    assert one.shape == (1,) and counts.tolist() == [1]


@pytest.mark.parametrize("other", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", ["solve", "solve_ex"])
def test_solve_compares_dtypes_before_refusing_float16(name, other):
    with pytest.raises(RuntimeError, match="^linalg.solve: Expected A and B to have the same "
                                           "dtype, but found A of type Half"):
        getattr(torch.linalg, name)(torch.eye(2).half(), torch.rand(2, 1, dtype=other))
    with pytest.raises(RuntimeError, match="^linalg.solve: Incompatible shapes of A and B for "
                                           "the equation XA = B \\(2x2 and 2x1\\)$"):
        torch.linalg.solve(torch.eye(2).half(), torch.rand(2, 1).half(), left=False)


@pytest.mark.parametrize("LU, pivots, B, message", [
    (torch.rand(2), torch.tensor([1, 2], dtype=torch.int32), torch.rand(2, 1).double(),
     "^linalg.lu_solve: Expected LU and B to have the same dtype"),
    (torch.rand(2, 3), torch.tensor([1]), torch.rand(2, 1),
     "^linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32$"),
    (torch.eye(2), torch.tensor([1], dtype=torch.int32), torch.rand(3, 1).double(),
     "^linalg.lu_solve: Expected LU and B to have the same dtype"),
])
def test_lu_solve_checks_dtypes_before_shapes(LU, pivots, B, message):
    with pytest.raises(RuntimeError, match=message):
        torch.linalg.lu_solve(LU, pivots, B)


@pytest.mark.parametrize("size, stride, offset", [((1,), (1,), 1), ((2,), (1,), 0)])
def test_a_write_past_the_bases_elements_is_refused_in_backward(size, stride, offset):
    x = torch.rand(2, requires_grad=True)
    loss = F.mse_loss(x, torch.zeros(2, dtype=torch.float64))  # keeps both losses' memory
    assert loss.untyped_storage().nbytes() == 16
    loss.as_strided(size, stride, offset).mul_(2)
    assert loss.grad_fn.name() == "torch::autograd::CopySlices" and loss._version == 1
    message = (f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
               f"{offset}, and itemsize 8 requiring a storage size of 16 are out of bounds for "
               "storage of size 8")
    with pytest.raises(RuntimeError, match=f"^{re.escape(message)}$"):
        loss.backward()


@pytest.mark.parametrize("shape", [(1,), (5,), (2, 3), ()])
@pytest.mark.parametrize("name", ["var", "std"])
def test_a_float16_spread_of_inference_tensors_is_not_written(name, shape):
    v = _inference(*shape, dtype=torch.float16)
    assert getattr(v, name)(correction=0)._version == 0
    assert getattr(_inference(*shape), name)(correction=0)._version == 1


@pytest.mark.parametrize("dtype, value, expected", [
    (torch.float32, 7.0, -13.621370315551758),  # log rounded, then the product
    (torch.int64, 7, -13.621370315551758),
    (torch.float16, 0.2295, 0.337646484375),  # log rounded to float16 first
    (torch.float16, 1.893, -1.2080078125),
])
def test_entr_steps_in_the_tensors_own_precision(dtype, value, expected):
    assert torch.special.entr(torch.tensor([value], dtype=dtype)).item() == expected


@pytest.mark.parametrize("call", [
    lambda x, frozen: torch.fmax(frozen, x), lambda x, frozen: x * frozen,
    lambda x, frozen: F.huber_loss(x, frozen), lambda x, frozen: F.soft_margin_loss(x, frozen),
])
def test_an_inference_tensor_given_normal_data_has_no_counter_to_save(call):
    x = torch.rand(3, 3, requires_grad=True)
    frozen = _inference(3, 3)
    frozen.data = torch.rand(3, 3)
    assert not frozen.is_inference()
    with pytest.raises(RuntimeError, match=NO_COUNTER):
        call(x, frozen)
