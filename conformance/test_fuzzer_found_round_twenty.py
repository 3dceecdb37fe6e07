"""Black-box tests: behaviour the differential fuzzer found in its twentieth round.

isfinite of a float tensor is laid out as torch's composite lays out (x == x) times
(x.abs() != inf): a mask laid out row-major but for its size-one dimensions is written
row-major. isinf and isfinite of an integer or bool tensor are zeros_like or ones_like,
which keep a dense input's strides. The zeros nextafter and copysign give other are made
in other's sizes and dtype by the node (version 1), not cast or summed by the engine
(version 0). logaddexp2 fuses its last multiply-add, so logaddexp2(x, x) is x + 1
rounded once from a little less. float16 scatter_reduce's "prod" and scatter's older
reduce="add" and "multiply" combine in float32 and round once; bfloat16 scatter_reduce
rounds its sum once before "mean" divides it. embedding_bag checks its indices in
torch's own loop, not FBGEMM's, off the fast path. The same assertions run on torch.
"""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode


def test_isfinite_of_a_row_whose_size_one_dimension_has_an_odd_stride():
    row = torch.randn(3, 3).t().narrow(0, 0, 1)
    assert row.stride() == (1, 3)
    assert row.isfinite().stride() == (3, 1)
    assert row.isinf().stride() == (1, 1)  # one comparison, with a number
    assert row.isfinite().tolist() == [[True, True, True]]


def test_isfinite_of_a_channels_last_slice():
    x = torch.arange(48.0).reshape(2, 3, 4, 2).contiguous(memory_format=torch.channels_last)
    part = x[:, :1]
    assert part.isfinite().stride() == (8, 8, 2, 1)
    assert part.isinf().stride() == (8, 1, 2, 1)


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool])
def test_isinf_and_isfinite_of_integers_keep_a_dense_inputs_strides(dtype):
    column = torch.arange(6).reshape(3, 2).t()[:, :1].to(dtype)
    assert column.stride() == (1, 2)
    assert column.isinf().stride() == (1, 2) and column.isfinite().stride() == (1, 2)
    rows = torch.arange(8).reshape(2, 4).to(dtype)[:, None, :].transpose(0, 1)
    assert rows.stride() == (4, 4, 1)
    assert rows.isinf().stride() == (4, 4, 1) and rows.isfinite().stride() == (4, 4, 1)
    assert rows.isfinite().all() and not rows.isinf().any()


@pytest.mark.parametrize("op", [torch.nextafter, torch.copysign])
@pytest.mark.parametrize("other_dtype", [torch.float32, torch.float16])
def test_others_zeros_in_others_dtype(op, other_dtype):
    other = torch.rand(3, dtype=other_dtype).requires_grad_(True)
    out = op(torch.rand(2, 3, dtype=torch.float64), other)
    seen = []
    out.grad_fn.register_hook(lambda gi, go: seen.append((gi[1].dtype, gi[1]._version)))
    out.sum().backward()
    assert seen == [(other_dtype, 1)]
    assert other.grad.dtype == other_dtype and other.grad._version == 1
    assert other.grad.tolist() == [0.0, 0.0, 0.0]


def test_copysigns_zeros_of_a_broadcast_other_are_its_size():
    other = torch.rand(3, dtype=torch.float64).requires_grad_(True)
    out = torch.copysign(torch.rand(2, 3, dtype=torch.float64), other)
    (grad,) = torch.autograd.grad(out.sum(), other)
    assert grad.shape == (3,) and grad._version == 1


def test_a_mode_sees_zeros_of_others_sizes_and_dtype():
    class Calls(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.zeros = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func is torch.ops.aten.zeros.default:
                self.zeros.append((list(args[0]), kwargs["dtype"]))
            return func(*args, **(kwargs or {}))

    other = torch.rand(3).requires_grad_(True)
    out = torch.copysign(torch.rand(2, 3, dtype=torch.float64), other)
    with Calls() as calls:
        out.sum().backward()
    assert calls.zeros == [([3], torch.float32)]


def test_logaddexp2_of_equal_inputs_rounds_once_from_a_little_less_than_one_more():
    x = torch.tensor([0.7682217955589294, 0.6340786814689636, 1.0, -2.5])
    assert torch.logaddexp2(x, x).tolist() == [
        1.7682217359542847, 1.6340786218643188, 2.0, -1.5]
    assert torch.logaddexp2(x[0], x[0]).item() == 1.7682217359542847  # 0-d too
    assert torch.logaddexp2(x.double(), x.double()).tolist() == [
        1.7682217955589294, 1.6340786814689636, 2.0, -1.5]
    inf, nan = float("inf"), float("nan")  # the edges stay as they were
    a = torch.tensor([inf, -inf, inf, -2.5, nan])
    b = torch.tensor([inf, -inf, -inf, -inf, 1.0])
    out = torch.logaddexp2(a, b)
    assert out[:4].tolist() == [inf, -inf, inf, -2.5] and out[4].isnan()


DEPRECATED = "ignore:The reduce argument of torch.scatter with Tensor src is deprecated"


@pytest.mark.filterwarnings(DEPRECATED)
def test_float16_scatter_products_and_sums_round_once():
    def scattered(reduce):
        out = torch.tensor([3.0], dtype=torch.float16)
        src = torch.tensor([1.6, 2.2], dtype=torch.float16)
        index = torch.zeros(2, dtype=torch.int64)
        if reduce == "prod":
            return out.scatter_reduce(0, index, src, "prod").item()
        return out.scatter_(0, index, src, reduce=reduce).item()

    assert scattered("multiply") == 10.5546875  # each float16 step: 10.546875
    assert scattered("prod") == 10.5546875
    assert scattered("add") == 6.796875  # each float16 step: 6.80078125


def test_float16_scatter_add_of_a_number_rounds_once():
    out = torch.full((1, 3), 1.1, dtype=torch.float16)
    out.scatter_(0, torch.zeros(5, 3, dtype=torch.int64), 1.1, reduce="add")
    assert out.tolist() == [[6.59765625] * 3]


def test_bfloat16_scatter_mean_rounds_its_sum_before_dividing():
    out = torch.tensor([1.3], dtype=torch.bfloat16)
    src = torch.tensor([0.5, 0.9], dtype=torch.bfloat16)
    mean = out.scatter_reduce(0, torch.zeros(2, dtype=torch.int64), src, "mean")
    assert mean.item() == 0.89453125
    amax = out.scatter_reduce(0, torch.zeros(2, dtype=torch.int64), src, "amax",
                              include_self=False)
    assert amax.item() == 0.8984375


@pytest.mark.parametrize("case", ["strided weights", "padding_idx", "strided table"])
def test_embedding_bag_checks_indices_in_its_own_loop_off_the_fast_path(case):
    table = torch.randn(2, 6)[:1] if case != "strided table" else torch.randn(1, 6)[:, ::2]
    weights = torch.rand(4)[::2] if case == "strided weights" else torch.rand(2)
    padding = 0 if case == "padding_idx" else None
    with pytest.raises(RuntimeError, match=r"^embedding_bag: Expected idx >= 0 && idx < "
                                           r"num_embeddings but found idx to be 1$"):
        torch.nn.functional.embedding_bag(torch.tensor([0, 1]), table, torch.tensor([0]),
                                          per_sample_weights=weights, mode="sum",
                                          padding_idx=padding)

