"""Behaviour the differential fuzzer found in its tenth round, among the autograd API's corners.

An output that does not require grad is refused by the engine before it is asked to be a
scalar; a second derivative whose sum met a zero tensor keeps the other term's layout;
float16 gradients of tanh, silu and mish are computed in float32 and rounded once where
torch's kernels do so; pow's gradient refuses a bool exponent; dilated convolutions of
int64 are computed; a reshape of an inference tensor that took normal data copies where
it cannot view. The same assertions run on torch.
"""

import pytest
import torch

NOT_REQUIRED = "^element {} of tensors does not require grad and does not have a grad_fn$"
NOT_SCALAR = "^grad can be implicitly created only for scalar outputs$"


@pytest.mark.parametrize("call", [
    lambda x: torch.autograd.grad(x * 2, x),
    lambda x: (x * 2).backward(),
    lambda x: torch.autograd.backward([x * 2], inputs=[x]),
    lambda x: torch.autograd.grad([x.sum(), x * 2], x),
])
def test_an_output_not_requiring_grad_is_refused_before_its_shape(call):
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match=NOT_REQUIRED.format(0)):
        call(x)


def test_the_refusal_names_the_output_and_a_required_one_is_still_a_scalar():
    x, w = torch.ones(2, 3), torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=NOT_REQUIRED.format(1)):
        torch.autograd.grad([w.sum(), x * 2], w)
    with pytest.raises(RuntimeError, match=NOT_SCALAR):
        torch.autograd.grad([w * 2, x * 2], w)
    with torch.no_grad():
        y = w * 2
    with pytest.raises(RuntimeError, match=NOT_REQUIRED.format(0)):
        torch.autograd.grad(y, w)


def test_batched_gradients_of_such_an_output_are_refused_by_vmap():
    x = torch.ones(2, 3)
    with pytest.raises(ValueError, match="input is of type <class 'NoneType'>. We cannot vmap"):
        torch.autograd.grad(x * 2, x, is_grads_batched=True)


def second_derivative(f, x):
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    return torch.autograd.grad(g.sum(), x)[0]


@pytest.mark.parametrize("f", [lambda x: x.abs() * x, lambda x: x / (x.abs() + 1),
                               lambda x: torch.atan2(x, x.abs() + 1)])
def test_a_sum_with_zeros_keeps_the_other_terms_layout(f):
    x = torch.tensor([[0.5, -1.0, 2.0], [-0.25, 1.5, -3.0]]).t().requires_grad_()
    h = second_derivative(f, x)
    assert h.stride() == (1, 3)
    plain = second_derivative(f, x.detach().contiguous().requires_grad_())
    assert torch.equal(h, plain) and plain.stride() == (2, 1)
    cl = torch.rand(1, 2, 2, 3).to(memory_format=torch.channels_last).requires_grad_()
    assert second_derivative(f, cl).stride() == (12, 1, 6, 2)


def test_abs_alone_gives_row_major_zeros():
    x = torch.tensor([[0.5, -1.0, 2.0], [-0.25, 1.5, -3.0]]).t().requires_grad_()
    h = second_derivative(torch.abs, x)
    assert h.stride() == (2, 1) and not h.any()


HALVES = torch.linspace(-0.999, 0.999, 401).half()


def test_a_float16_tanh_gradient_is_rounded_once():
    x = HALVES.atanh().requires_grad_()
    y = x.tanh()
    g, = torch.autograd.grad(y.sum(), x)
    wide = y.detach().float()
    assert torch.equal(g, (1 - wide * wide).half())
    steps = 1 - y.detach() * y.detach()  # float16 arithmetic rounds each step
    assert not torch.equal(g, steps)


def test_a_float16_tanh_gradient_under_create_graph_too():
    x = HALVES.atanh().requires_grad_()
    y = x.tanh()
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    wide = y.detach().float()
    assert g.grad_fn.name() == "TanhBackwardBackward0"
    assert torch.equal(g.detach(), (1 - wide * wide).half())


X16 = torch.tensor([-1.5, -0.3, 0.25, 2.0, 3.5], dtype=torch.float16)


@pytest.mark.parametrize(("f", "fused", "steps"), [
    (torch.nn.functional.silu, [-0.041290283203125, 0.352294921875, 0.62353515625,
                                1.0908203125, 1.0703125],
     [-0.04132080078125, 0.352294921875, 0.62353515625, 1.0908203125, 1.0703125]),
    (torch.nn.functional.mish, [-0.0640869140625, 0.408447265625, 0.75439453125,
                                1.0693359375, 1.009765625],
     [-0.06396484375, 0.408203125, 0.75390625, 1.068359375, 1.01171875]),
])
def test_float16_silu_and_mish_gradients_without_a_graph_are_one_kernel(f, fused, steps):
    x = X16.clone().requires_grad_()
    plain, = torch.autograd.grad(f(x).sum(), x)
    graphed, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    assert plain.tolist() == fused  # in float32, rounded once
    assert graphed.tolist() == steps and graphed.grad_fn.name() == "MulBackward0"


def test_silu_gradient_without_a_graph_is_the_float32_formula_rounded():
    x = X16.clone().requires_grad_()
    g, = torch.autograd.grad(torch.nn.functional.silu(x).sum(), x)
    wide = X16.float()
    s = torch.sigmoid(wide)
    assert torch.equal(g, (s * (1 + wide * (1 - s))).half())


BOOL_SUB = "^Subtraction, the `-` operator, with a bool tensor is not supported"


def test_pows_base_gradient_refuses_a_bool_exponent():
    x = torch.tensor([[0.5, 2.0], [3.0, 0.25]], requires_grad=True)
    mask = torch.tensor([[True, False], [False, True]])
    y = x.pow(mask)
    assert y.grad_fn.name() == "PowBackward1"
    with pytest.raises(RuntimeError, match=BOOL_SUB):
        torch.autograd.grad(y.sum(), x)
    with pytest.raises(RuntimeError, match=BOOL_SUB):
        (x ** mask).sum().backward()
    assert torch.autograd.grad(x.pow(mask.long()).sum(), x)[0].tolist() == [[1.0, 0.0],
                                                                            [0.0, 1.0]]


def test_a_dilated_convolution_of_int64_is_computed():
    v = torch.arange(-3, 3).reshape(2, 3)
    out = torch.nn.functional.conv1d(v[None], v[None, :, :1], dilation=2)
    assert out.dtype == torch.int64 and out.tolist() == [[[9, 6, 3]]]
    out = torch.nn.functional.conv2d(v[None, None], v[None, None, :1, :2], dilation=2)
    assert out.tolist() == [[[[11], [-4]]]]
    with pytest.raises(NotImplementedError, match="^\"slow_conv_dilated<>\" not implemented "
                                                  "for 'Int'$"):
        torch.nn.functional.conv1d(v[None].int(), v[None, :, :1].int(), dilation=2)
    with pytest.raises(RuntimeError, match="^expected scalar type Long but found Bool$"):
        torch.nn.functional.conv1d(v[None], (v > 0)[None, :, :1], dilation=2)


def test_an_inference_tensor_with_normal_data_reshapes_by_copying():
    with torch.inference_mode():
        t = torch.zeros(3, 2, dtype=torch.float16)
    t.data = torch.arange(6.0).reshape(2, 3).t()
    flat = t.reshape(-1)
    assert flat.tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert t.detach().reshape(-1).tolist() == flat.tolist()
    with pytest.raises(RuntimeError, match="^Inference tensors do not track version counter.$"):
        t.t().reshape(-1)


def test_a_float16_sigmoid_of_a_view_with_gaps():
    u = (torch.arange(6.0).reshape(2, 3) / 5).half()
    part = u[..., :1]  # (2, 1), strides (3, 1): a gap between its rows
    expected = part.float().sigmoid().half()
    assert torch.equal(part.sigmoid(), expected)
    part.sigmoid_()
    assert torch.equal(u[:, 0], expected[:, 0]) and u[0, 1].item() == 0.199951171875
    w = (torch.arange(4.0).reshape(2, 2) / 5).half()
    w.mT.mT[..., :1].sigmoid_()
    assert w[:, 1].tolist() == [0.199951171875, 0.60009765625]


@pytest.mark.parametrize("name", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
def test_the_zero_gradients_of_a_comparison_in_place_are_written(name):
    x, y = torch.rand(2, 3, requires_grad=True), torch.rand(2, 3, requires_grad=True)
    out = getattr(x.clone(), name)(y)
    gx, gy = torch.autograd.grad(out.sum(), (x, y))
    assert gx._version == 1 and gy._version == 1 and not gx.any() and not gy.any()
    getattr(x.clone(), name)(0.5).sum().backward()
    assert x.grad._version == 1


@pytest.mark.parametrize(("shifts", "dims", "strides"), [
    (1, 0, (12, 6, 3, 1)),  # a whole turn of a dimension of one: a row-major copy
    (2, 1, (12, 6, 3, 1)),
    (1, 1, (12, 1, 6, 2)),  # two slices, each channels-last
    ((1, 1), (0, 1), (12, 6, 3, 1)),  # one dimension after another
])
def test_a_roll_is_laid_out_as_its_two_slices_joined(shifts, dims, strides):
    x = torch.arange(12.0).reshape(1, 2, 2, 3).to(memory_format=torch.channels_last)
    rolled = x.roll(shifts, dims)
    assert rolled.stride() == strides
    assert torch.equal(rolled, x.contiguous().roll(shifts, dims))


@pytest.mark.parametrize(("make", "strides"), [
    (lambda: torch.arange(6.0).reshape(2, 3).t(), (1, 3)),
    (lambda: torch.rand(1, 2, 2, 3).to(memory_format=torch.channels_last), (12, 1, 6, 2)),
    (lambda: torch.rand(4, 6)[::2, 1::2], (3, 1)),
    (lambda: torch.rand(0, 3).t(), (1, 3)),
])
def test_takes_gradient_is_laid_out_like_its_input(make, strides):
    x = make().requires_grad_()
    index = torch.tensor([0, 1]) if x.numel() else torch.tensor([], dtype=torch.long)
    g, = torch.autograd.grad((x.take(index) * 2).sum(), x)
    assert g.stride() == strides
    assert g.reshape(-1)[:2].tolist() == ([2.0, 2.0] if x.numel() else [])
    assert g.sum().item() == (4.0 if x.numel() else 0.0)


def test_masked_selects_gradient_is_laid_out_like_its_input():
    x = torch.tensor([[0.1, 0.5, 0.9], [0.7, 0.2, 0.4]]).t().requires_grad_()
    g, = torch.autograd.grad((x.masked_select(x > 0.3) ** 3).sum(), x, create_graph=True)
    assert g.stride() == (1, 3) and g.grad_fn.name() == "MaskedScatterBackward0"
    assert g._version == 1 and g[0, 0].item() == 0.0 and g[1, 0].item() == 0.75
    cl = torch.rand(1, 2, 2, 3).to(memory_format=torch.channels_last).requires_grad_()
    g, = torch.autograd.grad(cl.masked_select(cl > 0.3).sum(), cl)
    assert g.stride() == (12, 1, 6, 2) and torch.equal(g, (cl > 0.3).float())
    wide = torch.rand(2, 3).t().requires_grad_()  # a mask that broadcasts the input
    g, = torch.autograd.grad(wide.masked_select(torch.tensor([True, False])).sum(), wide)
    assert g.stride() == (1, 3) and g.sum().item() == 3.0
