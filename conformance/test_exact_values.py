"""Black-box tests: values that match torch's to the last bit, where the rounding of a
constant or the order of the arithmetic decides the last digit (celu's gradient, and the
float32 softmax family). The same assertions run on torch.
"""

import torch


def test_celu_gradient_divides_by_alpha_rounded_to_float32():
    # the forward divides by alpha in double precision, the gradient by float32(alpha)
    x = torch.tensor([-0.7, -2.3, -0.01, -5.0, 0.4, -1.1], dtype=torch.float64,
                     requires_grad=True)
    y = torch.celu(x, 0.3)
    assert y.tolist() == [-0.27090840964067847, -0.29985954725650416, -0.00983516985539823,
                          -0.29999998266675443, 0.4, -0.2923315400380478]
    y.sum().backward()
    assert x.grad.tolist() == [0.09697197300216467, 0.00046817593567702385,
                               0.9672160633294165, 5.777752116284658e-08, 1.0,
                               0.025561535915104926]
    z = torch.tensor([-0.7, -2.3, -0.01, -5.0, 0.4, -1.1], dtype=torch.float64,
                     requires_grad=True)
    torch.celu(z, 0.7).sum().backward()
    assert z.grad.tolist() == [0.3678794411714423, 0.03741384991088439, 0.9858158589009152,
                               0.0007904902404250111, 1.0, 0.20774818512192617]


def test_celu_gradient_in_float32_and_in_place():
    x = torch.tensor([-0.7, -2.3, 0.4], requires_grad=True)
    torch.celu(x, 0.3).sum().backward()
    assert x.grad.tolist() == [0.09697197377681732, 0.0004681758873630315, 1.0]
    w = torch.tensor([-0.7, -2.3, 0.4], dtype=torch.float64, requires_grad=True)
    r = torch.celu_(w * 1, 0.3)
    assert type(r.grad_fn).__name__ == "CeluBackward1"
    r.sum().backward()
    # the in-place node reads the gradient off the result, with the same rounded inverse
    assert w.grad.tolist() == [0.09697196401108542, 0.0004681757930491441, 1.0]


def test_softmax_scales_by_the_reciprocal_along_the_last_dim_and_divides_along_others():
    x = torch.tensor([[0.0, 0.0], [1.0, 1.5], [3.0, 2.0]])
    # the same numbers, along the last dimension and along the first: the last digits differ
    assert torch.softmax(x.t(), 1).tolist() == [
        [0.04201006516814232, 0.11419519037008286, 0.8437947034835815],
        [0.0776955857872963, 0.3482074439525604, 0.5740970373153687]]
    assert torch.softmax(x, 0).tolist() == [
        [0.04201006516814232, 0.0776955783367157], [0.11419519782066345, 0.3482074439525604],
        [0.8437947034835815, 0.5740970373153687]]
