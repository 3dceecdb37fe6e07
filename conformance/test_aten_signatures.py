"""Black-box tests: ATen operators that share a name with a torch.nn.functional function take
ATen's parameters when called by that name (a reduction as a number, elu's scales, a pool's
indices always returned), and answer as the functional call that means the same. The same
assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

aten = torch.ops.aten
NAMES = ("none", "mean", "sum")


def _pair():
    x = torch.tensor([[0.2, 0.9, 0.4], [0.7, 0.1, 0.6]], dtype=torch.float64,
                     requires_grad=True)
    return x, torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.3, 0.0]], dtype=torch.float64)


def _classes():
    x = torch.tensor([[0.2, -0.9, 0.4], [0.7, 0.1, -0.6]], dtype=torch.float64,
                     requires_grad=True)
    return x, torch.tensor([2, 0]), torch.tensor([0.5, 2.0, 1.5], dtype=torch.float64)


LOSSES = [
    # (id, the call by ATen name with reduction r, the functional call that means the same)
    ("mse", lambda x, t, r: aten.mse_loss(x, t, r), lambda x, t, n: F.mse_loss(x, t, reduction=n)),
    ("l1", lambda x, t, r: aten.l1_loss(x, t, r), lambda x, t, n: F.l1_loss(x, t, reduction=n)),
    ("soft_margin", lambda x, t, r: aten.soft_margin_loss(x, t, r),
     lambda x, t, n: F.soft_margin_loss(x, t, reduction=n)),
    ("smooth_l1", lambda x, t, r: aten.smooth_l1_loss(x, t, r, 0.25),
     lambda x, t, n: F.smooth_l1_loss(x, t, reduction=n, beta=0.25)),
    ("huber", lambda x, t, r: aten.huber_loss(x, t, r, 0.25),
     lambda x, t, n: F.huber_loss(x, t, reduction=n, delta=0.25)),
    ("bce", lambda x, t, r: aten.binary_cross_entropy(x, t, t + 1, r),
     lambda x, t, n: F.binary_cross_entropy(x, t, t + 1, reduction=n)),
    ("kl_div", lambda x, t, r: aten.kl_div(x, t, r, log_target=True),
     lambda x, t, n: F.kl_div(x, t, reduction=n, log_target=True)),
]
CLASS_LOSSES = [
    ("nll", lambda x, c, w, r: aten.nll_loss(x, c, w, r, 0),
     lambda x, c, w, n: F.nll_loss(x, c, w, ignore_index=0, reduction=n)),
    ("multi_margin", lambda x, c, w, r: aten.multi_margin_loss(x, c, 2, 0.5, w, r),
     lambda x, c, w, n: F.multi_margin_loss(x, c, 2, 0.5, w, reduction=n)),
]


@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides")  # F.kl_div's, not the operator's
@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("by_name, meant", [case[1:] for case in LOSSES],
                         ids=[case[0] for case in LOSSES])
def test_a_loss_reads_its_reduction_as_a_number(by_name, meant, reduction):
    x, t = _pair()
    got, expected = by_name(x, t, reduction), meant(x, t, NAMES[reduction])
    assert torch.equal(got, expected)
    assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__


@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("by_name, meant", [case[1:] for case in CLASS_LOSSES],
                         ids=[case[0] for case in CLASS_LOSSES])
def test_a_class_loss_takes_atens_order(by_name, meant, reduction):
    x, c, w = _classes()
    got, expected = by_name(x, c, w, reduction), meant(x, c, w, NAMES[reduction])
    assert torch.equal(got, expected)
    assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__


def test_defaults_are_atens():
    x, t = _pair()
    assert torch.equal(aten.mse_loss(x, t), F.mse_loss(x, t))
    # torch.kl_div keeps each element by default; the operator by its ATen name takes the mean
    assert aten.kl_div(x, t).dim() == 0 and torch.kl_div(x, t).shape == x.shape
    assert torch.equal(aten.kl_div(x, t), torch.kl_div(x, t).mean())


def test_nll_loss2d_is_the_loss_of_each_pixel():
    scores = torch.linspace(-1, 1, 24, dtype=torch.float64).reshape(1, 3, 2, 4)
    scores.requires_grad_()
    classes = torch.tensor([[[0, 1, 2, 1], [2, 2, 0, 1]]])
    got = aten.nll_loss2d(scores, classes, None, 2)
    assert torch.equal(got, F.nll_loss(scores, classes, reduction="sum"))
    assert type(got.grad_fn).__name__ == "NllLoss2DBackward0"


def test_elu_takes_its_scales_and_writes_nothing():
    x = torch.tensor([-1.0, 0.0, 2.0], dtype=torch.float64)
    got = aten.elu(x, 1.5, 2.0, 0.5)
    expected = torch.where(x > 0, 2.0 * x, 1.5 * 2.0 * torch.expm1(0.5 * x))
    assert torch.allclose(got, expected, rtol=1e-15, atol=0)
    assert x._version == 0 and torch.equal(x, torch.tensor([-1.0, 0.0, 2.0], dtype=torch.float64))


def test_pools_return_their_indices():
    x = torch.arange(32.0).reshape(1, 2, 4, 4).flip(-1)
    values, indices = aten.adaptive_max_pool2d(x, [2, 2])
    assert all(torch.equal(a, b) for a, b in zip(
        (values, indices), F.adaptive_max_pool2d(x, 2, return_indices=True)))
    samples = torch.full((1, 2, 2), 0.5)
    pair = aten.fractional_max_pool2d(x, [2, 2], [2, 2], samples)
    expected = F.fractional_max_pool2d(x, 2, output_size=2, return_indices=True,
                                       _random_samples=samples)
    assert isinstance(pair, tuple) and all(torch.equal(a, b) for a, b in zip(pair, expected))


def test_max_unpool2d_takes_the_output_size():
    values, indices = F.max_pool2d(torch.arange(16.0).reshape(1, 1, 4, 4), 2,
                                   return_indices=True)
    got = aten.max_unpool2d(values, indices, [4, 4])
    assert got.shape == (1, 1, 4, 4)
    assert torch.equal(got, F.max_unpool2d(values, indices, 2, output_size=[4, 4]))
