"""A convolution's tangent under forward-mode AD follows torch's formula: the input's tangent
through the weight, plus the input through the weight's tangent with the bias's tangent as its
bias. A missing input or weight tangent is real zeros, convolved as any tensor is, so an
infinite input meets a zero weight tangent as nan; the sum records an AddBackward0."""

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape))


def names(node):
    return [None if n is None else type(n).__name__ for n, _ in node.next_functions]


@pytest.mark.parametrize("dual", ["input", "weight", "bias", "all"])
def test_the_tangent_of_a_layer_that_learns_is_an_add_of_two_convolutions(dual):
    x, w, b = numbers(2, 2, 5, 5, seed=1), numbers(3, 2, 3, 3, seed=2), numbers(3, seed=3)
    w.requires_grad_()
    b.requires_grad_()
    xt, wt, bt = numbers(2, 2, 5, 5, seed=4), numbers(3, 2, 3, 3, seed=5), numbers(3, seed=6)
    with fwAD.dual_level():
        xd = fwAD.make_dual(x, xt) if dual in ("input", "all") else x
        wd = fwAD.make_dual(w, wt) if dual in ("weight", "all") else w
        bd = fwAD.make_dual(b, bt) if dual in ("bias", "all") else b
        out = F.conv2d(xd, wd, bd, padding=1)
        t = fwAD.unpack_dual(out).tangent
    assert type(out.grad_fn).__name__ == "ConvolutionBackward0"
    assert type(t.grad_fn).__name__ == "AddBackward0" and t.requires_grad
    assert names(t.grad_fn) == ["ConvolutionBackward0", None]
    first = t.grad_fn.next_functions[0][0]
    assert names(first) == [None, "CppFunction", None]
    assert first.next_functions[1][0].name() == "torch::autograd::Identity"
    want = torch.zeros(2, 3, 5, 5, dtype=torch.float64)
    if dual in ("input", "all"):
        want = want + F.conv2d(xt, w.detach(), padding=1)
    if dual in ("weight", "all"):
        want = want + F.conv2d(x, wt, padding=1)
    if dual in ("bias", "all"):
        want = want + bt.reshape(3, 1, 1)
    torch.testing.assert_close(t.detach(), want)


def test_an_infinite_input_meets_the_missing_weight_tangent_as_nan():
    x = torch.ones(1, 1, 3, 3, dtype=torch.float64)
    x[0, 0, 0, 0] = float("inf")
    w = torch.ones(1, 1, 2, 2, dtype=torch.float64)
    with fwAD.dual_level():
        t = fwAD.unpack_dual(F.conv2d(fwAD.make_dual(x, torch.ones_like(x)), w)).tangent
    assert t.grad_fn is None
    assert t.isnan().tolist() == [[[[True, False], [False, False]]]]
    assert t[0, 0, 1].tolist() == [4.0, 4.0] and t[0, 0, 0, 1].item() == 4.0


def test_a_bias_tangent_alone_still_convolves_the_input_with_zeros():
    x = torch.ones(1, 1, 3, 3, dtype=torch.float64)
    x[0, 0, 2, 2] = float("-inf")
    w, b = torch.ones(1, 1, 2, 2, dtype=torch.float64), torch.zeros(1, dtype=torch.float64)
    with fwAD.dual_level():
        t = fwAD.unpack_dual(F.conv2d(x, w, fwAD.make_dual(b, torch.ones(1).double()))).tangent
    assert t.isnan().tolist() == [[[[False, False], [False, True]]]]
    assert t[0, 0, 0].tolist() == [1.0, 1.0]


def test_an_infinite_weight_with_a_tangent_of_the_input_alone_stays_infinite():
    x = torch.ones(1, 1, 3, 3, dtype=torch.float64)
    w = torch.ones(1, 1, 2, 2, dtype=torch.float64)
    w[0, 0, 0, 0] = float("inf")
    with fwAD.dual_level():
        t = fwAD.unpack_dual(F.conv2d(fwAD.make_dual(x, torch.ones_like(x)), w)).tangent
    assert t.isinf().all() and (t > 0).all()


@pytest.mark.parametrize("transposed", [False, True])
def test_plain_tensors_give_a_tangent_with_no_graph(transposed):
    x, w = numbers(1, 2, 4, 4, seed=7), numbers(2, 2, 3, 3, seed=8)
    xt = numbers(1, 2, 4, 4, seed=9)
    conv = F.conv_transpose2d if transposed else F.conv2d
    with fwAD.dual_level():
        t = fwAD.unpack_dual(conv(fwAD.make_dual(x, xt), w, stride=2)).tangent
    assert t.grad_fn is None and not t.requires_grad
    torch.testing.assert_close(t, conv(xt, w, stride=2))


def test_a_transposed_layer_that_learns_records_the_same_add():
    x, w = numbers(1, 2, 4, 4, seed=7), numbers(2, 3, 3, 3, seed=8).requires_grad_()
    with fwAD.dual_level():
        out = F.conv_transpose2d(fwAD.make_dual(x, numbers(1, 2, 4, 4, seed=9)), w)
        t = fwAD.unpack_dual(out).tangent
    assert type(out.grad_fn).__name__ == "ConvolutionBackward0"
    assert type(t.grad_fn).__name__ == "AddBackward0"
    assert names(t.grad_fn) == ["ConvolutionBackward0", None]
