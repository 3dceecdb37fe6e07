"""Behaviour the differential fuzzer found: the layout of ldexp's result where torch multiplies
by a power of two it computes first; the steps float16 and bfloat16 softmaxes round, which
depend on the processor's vector width and torch's threads; the products and
quotients a zero gradient meets in the formulas of mul and div; the layouts of unreduced
huber_loss and binary_cross_entropy_with_logits. The same assertions
run on torch.
"""

import numpy as np
import pytest
import torch


def _transposed(dtype):
    return torch.arange(6, dtype=torch.float64).reshape(2, 3).t().to(dtype)


@pytest.mark.parametrize(("dtype", "other_dtype", "shape", "strides"), [
    (torch.float32, torch.float32, (), (2, 1)),
    (torch.float32, torch.float32, (1, 2), (2, 1)),
    (torch.float32, torch.float64, (), (2, 1)),
    (torch.int64, torch.int64, (), (2, 1)),
    (torch.int32, torch.float16, (1, 2), (2, 1)),
    (torch.bool, torch.int32, (), (2, 1)),
    (torch.float64, torch.float32, (), (1, 3)),  # a 0-d 2.0 of the input's dtype
    (torch.float16, torch.float16, (1, 2), (1, 3)),
    (torch.float32, torch.int64, (), (1, 3)),  # torch's own kernel
    (torch.float32, torch.int32, (1, 2), (1, 3)),
])
def test_ldexp_is_laid_out_as_its_product(dtype, other_dtype, shape, strides, recwarn):
    result = torch.ldexp(torch.ones(shape, dtype=dtype), _transposed(other_dtype))
    assert result.shape == (3, 2)
    assert result.stride() == strides
    assert torch.equal(result, torch.pow(2.0, _transposed(torch.float64)).to(result.dtype))


def test_ldexp_of_a_0d_input_and_a_permuted_exponent():
    other = torch.ones(2, 3, 4).permute(2, 0, 1)
    assert torch.ldexp(torch.tensor(0.5), other).stride() == (6, 3, 1)
    assert torch.ldexp(torch.ones(4, 1, 3), other).stride() == (6, 3, 1)
    assert torch.ldexp(other, other).stride() == (1, 12, 4)


def _bits(a):
    return np.asarray(a, np.float16).view(np.uint16).tolist()


def _halved(a):
    return a.astype(np.float16).astype(np.float32)


def _expected_log_softmax(x, axis):
    """float32 steps; along the last dim the sum and its logarithm rounded to float16."""
    a = x.astype(np.float32)
    shifted = a - a.max(axis=axis, keepdims=True)
    total = np.exp(shifted).sum(axis=axis, keepdims=True)
    if axis == x.ndim - 1:
        return shifted - _halved(np.log(_halved(total)))
    return shifted - np.log(total)


def _loop_tails(shape, axis):
    """The positions torch's softmax along an inner ``axis`` of a two-byte dtype computes one
    at a time, found by walking its loop: the positions shared among its threads in equal
    parts, each part taken a vector at a time where a whole one fits in the rest of the part
    and of the row."""
    inner = int(np.prod(shape[axis + 1:]))
    count = int(np.prod(shape[:axis])) * inner
    width = 32 if torch.backends.cpu.get_cpu_capability() == "AVX512" else 16
    threads = torch.get_num_threads() if count > 1 else 1
    part = -(-count // threads)
    tails = np.zeros(count, dtype=bool)
    for begin in range(0, count, max(part, 1)):
        end, idx = min(begin + part, count), begin
        while idx < end:
            row_end = idx - idx % inner + inner
            if idx + width <= min(end, row_end):
                idx += width
            else:
                tail = end - idx if idx + width > end else row_end - idx
                tails[idx:idx + tail] = True
                idx += tail
    return tails.reshape(shape[:axis] + (1,) + shape[axis + 1:])


def _expected_softmax(x, axis):
    """float32 steps; along another dim the exponentials of the scalar loop's positions
    rounded to float16 first."""
    e = np.exp(x.astype(np.float32) - x.astype(np.float32).max(axis=axis, keepdims=True))
    total = e.sum(axis=axis, keepdims=True)
    if axis == x.ndim - 1:
        return e * (1 / total)
    return np.where(_loop_tails(x.shape, axis), _halved(e), e) / total


def test_float16_log_softmax_rounds_its_log_sum():
    x = torch.tensor([0.0, 1.0, 0.0]).half().requires_grad_()
    y = x.log_softmax(-1)
    assert y.tolist() == [-1.55078125, -0.55126953125, -1.55078125]
    y.backward(torch.tensor([1.0, 0.0, 0.0]).half())
    assert x.grad.tolist() == [0.7880859375, -0.576171875, -0.2120361328125]


@pytest.fixture(params=[1, 2], ids=["one thread", "two threads"])
def threads(request):
    before = torch.get_num_threads()
    torch.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before)


@pytest.mark.parametrize("shape", [(7,), (4, 5), (3, 4, 5), (2, 40), (5, 33), (2, 3, 70)])
def test_float16_softmaxes_round_torchs_steps(shape, threads):
    rng = np.random.default_rng(7)
    for scale in (0.5, 3.0, 20.0):
        x = (rng.standard_normal(shape) * scale).astype(np.float16)
        for dim in range(len(shape)):
            t = torch.tensor(x)
            log_expected = _bits(_expected_log_softmax(x, dim))
            expected = _bits(_expected_softmax(x, dim))
            assert _bits(t.log_softmax(dim).numpy()) == log_expected
            assert _bits(t.softmax(dim).numpy()) == expected
            wide = torch.tensor(x.astype(np.float32))
            assert _bits(torch.log_softmax(wide, dim, dtype=torch.float16).numpy()) == log_expected
            assert _bits(torch.softmax(wide, dim, dtype=torch.float16).numpy()) == expected


@pytest.mark.parametrize(("shape", "dim"), [((2, 40), 0), ((5, 33), 0), ((4, 3, 17), 1),
                                            ((3, 70), 0), ((2, 20), 0)])
def test_bfloat16_softmax_along_an_inner_dim_rounds_its_scalar_loops_exponentials(
        shape, dim, threads):
    x = torch.tensor(np.random.default_rng(3).standard_normal(shape) * 4).to(torch.bfloat16)
    a = x.float().numpy()
    e = np.exp(a - a.max(axis=dim, keepdims=True))
    rounded = torch.tensor(e).to(torch.bfloat16).float().numpy()
    expected = np.where(_loop_tails(shape, dim), rounded, e) / e.sum(axis=dim, keepdims=True)
    assert torch.equal(x.softmax(dim), torch.tensor(expected).to(torch.bfloat16))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_float16_softmax_into_float32_is_the_float32_softmax_of_the_converted_input(dim):
    x = torch.tensor(np.random.default_rng(9).standard_normal((3, 5, 6)).astype(np.float16))
    for function in (torch.softmax, torch.log_softmax):
        into = function(x, dim, dtype=torch.float32)
        assert into.dtype == torch.float32
        wide = function(x.float(), dim)
        assert into.numpy().view(np.uint32).tolist() == wide.numpy().view(np.uint32).tolist()


def _leaf():
    return torch.tensor([[0.3], [-0.7]]).t().requires_grad_()


def _signs(t):
    return [str(float(value)) for value in t.detach().flatten()]


@pytest.mark.parametrize("anomaly", [False, True])
def test_a_quotients_zero_gradient_adds_nothing(anomaly):
    v = _leaf()
    y = (v / v).sgn().sum()
    if anomaly:
        with pytest.warns(UserWarning), torch.autograd.detect_anomaly(check_nan=False):
            y.backward()
    else:
        y.backward()
    assert _signs(v.grad) == ["-0.0", "0.0"]  # the denominator's -g * (v / v / v) alone
    assert v.grad._version == 0
    assert v.grad.stride() == (2, 1)
    assert not v.grad._is_zerotensor()


def test_products_and_quotients_of_a_zero_gradient_are_zero_tensors():
    v = _leaf()
    (v * v).sgn().sum().backward()
    assert v.grad._is_zerotensor()
    assert v.grad._version == 0
    for made in (lambda t: t * -3, lambda t: t / 3, lambda t: t * t.detach()):
        v = _leaf()
        (grad,) = torch.autograd.grad(made(v).sgn().sum(), v)
        assert grad._is_zerotensor()
    v = _leaf()
    (grad,) = torch.autograd.grad((3 / v).sgn().sum(), v)  # -g * ...: a plain -0.0
    assert not grad._is_zerotensor()
    assert _signs(grad) == ["-0.0", "-0.0"]


def test_a_zero_gradient_under_create_graph():
    v = _leaf()
    (grad,) = torch.autograd.grad((v / v).sgn().sum(), v, create_graph=True)
    assert _signs(grad) == ["-0.0", "0.0"]
    assert type(grad.grad_fn).__name__ == "AddBackward0"
    v = _leaf()
    (grad,) = torch.autograd.grad((v * v).sgn().sum(), v, create_graph=True)
    assert grad._is_zerotensor()
    assert grad.requires_grad


def _operands():
    transposed = torch.rand(2, 3).t()
    return {"transposed": transposed, "rows": torch.rand(3, 2),
            "expanded": torch.tensor(0.5).expand(3, 2), "row": torch.rand(1, 2).expand(3, 2)}


@pytest.mark.parametrize(("input", "target", "strides"), [
    ("expanded", "transposed", (2, 1)), ("row", "transposed", (2, 1)),
    ("rows", "transposed", (2, 1)), ("transposed", "expanded", (1, 3)),
])
def test_an_unreduced_huber_loss_is_made_like_its_input(input, target, strides):
    made = _operands()
    loss = torch.nn.functional.huber_loss(made[input], made[target], reduction="none")
    assert loss.stride() == strides


@pytest.mark.parametrize(("input", "target", "strides"), [
    ("expanded", "transposed", (1, 3)), ("rows", "transposed", (1, 3)),
    ("transposed", "rows", (2, 1)), ("transposed", "expanded", (2, 1)),
    ("transposed", "row", (2, 1)),
])
@pytest.mark.parametrize("weights", [{}, {"weight": torch.rand(2)}, {"pos_weight": torch.rand(2)}])
def test_an_unreduced_loss_with_logits_is_laid_out_as_its_target(input, target, strides, weights):
    made = _operands()
    loss = torch.nn.functional.binary_cross_entropy_with_logits(
        made[input], made[target], reduction="none", **weights)
    assert loss.stride() == strides
