"""Black-box tests: bfloat16 rows that round between their steps (logit, xlogy, logsumexp,
log_softmax and the losses made of them). The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import recording_mode

B = torch.bfloat16


def _probabilities():
    torch.manual_seed(0)
    return (torch.rand(6, 37) * 0.98 + 0.01).to(B)


def _scores():
    torch.manual_seed(1)
    return (torch.randn(6, 37) * 3).to(B)


def test_logit_rounds_every_step_in_bfloat16():
    p = _probabilities()
    assert torch.logit(p).tolist() == (p / (1 - p)).log().tolist()
    clamped = p.clamp(0.25, 1 - torch.tensor(0.25, dtype=B).item())
    assert torch.logit(p, 0.25).tolist() == (clamped / (1 - clamped)).log().tolist()
    edges = torch.tensor([0.0, 1.0, -1.0, 2.0, float("nan")], dtype=B)
    assert str(torch.logit(edges).tolist()) == "[-inf, inf, nan, nan, nan]"


def test_xlogy_rounds_the_logarithm_before_the_product():
    p, q = _probabilities(), _probabilities().flip(1)
    assert torch.xlogy(p, q).tolist() == (p * q.log()).tolist()
    tenth = torch.tensor(0.1, dtype=B)  # the number is a bfloat16 first
    assert torch.xlogy(p, 0.1).tolist() == (p * tenth.log()).tolist()
    assert torch.xlogy(0.1, q).tolist() == (tenth * q.log()).tolist()
    zeros = torch.xlogy(torch.zeros(2, dtype=B), torch.tensor([0.0, float("nan")], dtype=B))
    assert str(zeros.tolist()) == "[0.0, nan]"


def test_xlogy_beside_a_wider_float_converts_first():
    p = _probabilities()
    got, wide = torch.xlogy(p, p.double()), torch.xlogy(p.double(), p.double())
    assert got.dtype is torch.float64 and got.tolist() == wide.tolist()


@pytest.mark.parametrize("dim", [0, 1, (0, 1)])
def test_logsumexp_rounds_each_of_its_ops(dim):
    x = _scores()
    top = x.amax(dim, keepdim=True)
    total = (x - top).exp().sum(dim, keepdim=True)  # a bfloat16 sum adds in float32
    expected = total.log() + top
    assert torch.logsumexp(x, dim, keepdim=True).tolist() == expected.tolist()


def test_log_softmax_along_the_last_dim_rounds_the_sum_and_its_logarithm():
    x = _scores()
    shifted = x.float() - x.float().amax(1, keepdim=True)
    total = shifted.exp().sum(1, keepdim=True).to(B).float()
    expected = (shifted - total.log().to(B).float()).to(B)
    assert torch.log_softmax(x, 1).tolist() == expected.tolist()
    assert torch.log_softmax(x, 0).tolist() == torch.log_softmax(x.float(), 0).to(B).tolist()


def test_nll_loss_adds_its_losses_in_bfloat16():
    torch.manual_seed(2)
    values = (torch.rand(15) * 30).to(B)
    losses = torch.nn.functional.nll_loss(values[:, None].neg(), torch.zeros(15, dtype=torch.long),
                                          reduction="sum")
    # torch's cascade: the first loss moves up a level, the rest add in turn, then the levels
    total = torch.tensor(0.0, dtype=B)
    for v in values[1:]:
        total = total + v
    assert losses.item() == (total + values[0]).item()
    assert losses.item() != values.float().sum().to(B).item()  # not added in float32


def test_cross_entropy_in_bfloat16():
    x, target = _scores().requires_grad_(), torch.arange(6)
    loss = torch.nn.functional.cross_entropy(x, target)
    picked = torch.log_softmax(x.detach(), 1)[torch.arange(6), target]
    total = torch.tensor(0.0, dtype=B)
    for v in picked:
        total = total - v
    assert loss.dtype is B and loss.item() == (total / 6).item()
    (grad,) = torch.autograd.grad(loss, x)
    assert grad.dtype is B


def test_label_smoothing_scales_by_numbers_read_in_float32():
    x, target = _scores(), torch.arange(6)
    nll = torch.nn.functional.cross_entropy(x, target)
    smooth = -torch.log_softmax(x, 1).sum(1)
    expected = nll * 0.9 + smooth.sum() / 6 * (0.1 / 37)  # t * number: float32's number
    got = torch.nn.functional.cross_entropy(x, target, label_smoothing=0.1)
    assert got.item() == expected.item()


def test_histc_counts_bfloat16():
    torch.manual_seed(3)
    x = (torch.randn(500) * 3).to(B)
    got = torch.histc(x, 7, -2.0, 2.0)
    edge, last = torch.tensor(-2.0, dtype=B), torch.tensor(2.0, dtype=B)
    kept = x[(x >= edge) & (x <= last)]
    place = ((kept - edge) * 7 / (last - edge)).long().clamp(max=6)  # each step in bfloat16
    assert got.dtype is B and got.tolist() == torch.bincount(place, minlength=7).tolist()
    with pytest.raises(RuntimeError, match=r"range of \[nan, nan\] is not finite"):
        torch.histc(torch.tensor([0.0, float("nan")], dtype=B))


@pytest.mark.parametrize("dtype, threads, counts", [
    (torch.bfloat16, 1, [0, 256, 256]), (torch.bfloat16, 2, [0, 512, 256]),
    (torch.bfloat16, 3, [0, 768, 256]), (torch.float16, 2, [0, 4096, 2048]),
    (torch.float16, 3, [0, 5096, 2048]), (torch.float32, 2, [0, 9000, 3000]),
])
def test_histc_counts_in_the_input_dtype_thread_by_thread(dtype, threads, counts):
    # each thread counts its share of the elements in the input's dtype: in bfloat16 a
    # count stops at 256, as 256 + 1 rounds back to 256; the shares are added at the end
    x = torch.cat([torch.zeros(9000), torch.full((3000,), 0.7)]).to(dtype)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        got = torch.histc(x, 3, -1, 1)
    finally:
        torch.set_num_threads(before)
    assert got.tolist() == counts


def _bce_into_a_smaller_out():
    p = torch.rand(2, 3, dtype=torch.float64)
    torch._C._nn.binary_cross_entropy(p, p, torch.ones(3, dtype=torch.float64), 0,
                                      out=torch.zeros(2, dtype=torch.float64))


def test_a_warning_made_an_error_does_not_replace_the_kernels_refusal(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeError, match="The size of tensor a"):
            _bce_into_a_smaller_out()
    assert capsys.readouterr().err.startswith("UserWarning: An output with one or more "
                                              "elements was resized")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="The size of tensor a"):
            _bce_into_a_smaller_out()
    assert [w.filename for w in caught] == [__file__]


def _flags(func, args, kwargs):
    return str(func), args[3:], dict(kwargs or {})


@pytest.mark.parametrize("flags, shown", [
    ({}, ()), ({"accumulate": True}, (True,)), ({"unsafe": True}, (False, True)),
    ({"accumulate": False, "unsafe": False}, ()),
])
def test_index_put_impl_is_shown_to_a_mode_by_its_own_name(flags, shown):
    y = torch.zeros(4, requires_grad=True).clone()
    index, values = torch.tensor([0, 2]), torch.ones(2)
    mode = recording_mode(_flags, with_arguments=True)()
    with mode:
        out = torch._index_put_impl_(y, (index,), values, **flags)
    assert mode.seen == [("aten._index_put_impl_.default", shown, {})]
    assert out.grad_fn.name() == "IndexPutImplBackward0" and out.tolist() == [1, 0, 1, 0]


NAN = float("nan")
GRID_2D = [[[[NAN, 0.2], [0.3, NAN], [NAN, NAN], [1e30, 0.5], [-1e30, 0.1], [0.3, 1e30]]]]


@pytest.mark.parametrize("padding_mode", ["border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_grid_sample_2d_takes_a_nan_coordinate_to_zero(padding_mode, align_corners, mode):
    x = torch.arange(16.0).reshape(1, 1, 4, 4)
    got = torch.nn.functional.grid_sample(x, torch.tensor(GRID_2D), mode=mode,
                                          padding_mode=padding_mode,
                                          align_corners=align_corners).flatten()
    first_column = torch.nn.functional.grid_sample(
        x, torch.tensor([[[[-5.0, 0.2], [0.3, -5.0], [-5.0, -5.0]]]]), mode=mode,
        padding_mode="border", align_corners=align_corners).flatten()
    assert got[:3].tolist() == first_column.tolist()


@pytest.mark.parametrize("align_corners, expected", [(False, [10.0, 6.8, 2.1]),
                                                     (True, [9.0, 6.6, 1.95])])
def test_grid_sample_2d_reflects_huge_coordinates_in_float32(align_corners, expected):
    x = torch.arange(16.0).reshape(1, 1, 4, 4)
    got = torch.nn.functional.grid_sample(x, torch.tensor(GRID_2D)[:, :, 3:],
                                          padding_mode="reflection",
                                          align_corners=align_corners).flatten()
    assert got.tolist() == pytest.approx(expected, abs=1e-5)


def test_grid_sample_3d_takes_a_nan_coordinate_to_the_last_pixel():
    x = torch.arange(64.0).reshape(1, 1, 4, 4, 4)
    grid = torch.tensor([[[[[NAN, 0.2, 0.1], [5.0, 0.2, 0.1]]]]])
    got = torch.nn.functional.grid_sample(x, grid, padding_mode="border", align_corners=False)
    assert got.flatten()[0].item() == got.flatten()[1].item()
