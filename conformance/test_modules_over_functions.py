"""Softmax2d, RReLU, RMSNorm, LocalResponseNorm, the distances and the margin losses as modules."""

import warnings

import pytest
import torch

from conformance._support import raises

nn = torch.nn
F = torch.nn.functional


def images(requires_grad=False):
    torch.manual_seed(0)
    return torch.randn(2, 3, 4, 4, requires_grad=requires_grad)


def test_softmax2d_is_a_softmax_over_channels():
    assert repr(nn.Softmax2d()) == "Softmax2d()"
    x = images(requires_grad=True)
    out = nn.Softmax2d()(x)
    assert torch.equal(out, F.softmax(x, -3)) and out.grad_fn.name() == "SoftmaxBackward0"
    assert torch.equal(nn.Softmax2d()(x[0]), F.softmax(x[0], -3))
    for shape in ((3,), (1, 2, 3, 4, 5)):
        with raises(ValueError, f"Softmax2d: expected input to be 3D or 4D, got {len(shape)}D "
                    "instead"):
            nn.Softmax2d()(torch.ones(shape))


def test_rrelu_settings_and_modes():
    assert repr(nn.RReLU()) == "RReLU(lower=0.125, upper=0.3333333333333333)"
    assert repr(nn.RReLU(0.5, 2.0)) == "RReLU(lower=0.5, upper=2.0)"
    assert repr(nn.RReLU(0.1, 0.2, True)) == "RReLU(lower=0.1, upper=0.2, inplace=True)"
    x = images()
    assert torch.equal(nn.RReLU(0.1, 0.3).eval()(x), F.rrelu(x, 0.1, 0.3, training=False))
    torch.manual_seed(3)
    drawn = nn.RReLU(0.1, 0.3)(x)
    torch.manual_seed(3)
    assert torch.equal(drawn, F.rrelu(x, 0.1, 0.3, training=True))
    y = x.clone()
    assert nn.RReLU(inplace=True).eval()(y) is y and torch.equal(y, F.rrelu(x))


@pytest.mark.parametrize("args, kwargs, shown", [
    ((4,), {}, "RMSNorm((4,), eps=None, elementwise_affine=True)"),
    (([4, 4],), {"eps": 1e-3}, "RMSNorm((4, 4), eps=0.001, elementwise_affine=True)"),
    ((4,), {"elementwise_affine": False}, "RMSNorm((4,), eps=None, elementwise_affine=False)"),
])
def test_rms_norm(args, kwargs, shown):
    norm = nn.RMSNorm(*args, **kwargs)
    shape = (args[0],) if isinstance(args[0], int) else tuple(args[0])
    assert repr(norm) == shown and norm.normalized_shape == shape
    x = images(requires_grad=True)
    if norm.elementwise_affine:
        assert [name for name, _ in norm.named_parameters()] == ["weight"]
        assert torch.equal(norm.weight, torch.ones(norm.normalized_shape))
    else:
        assert norm.weight is None and list(norm.parameters()) == []
    out = norm(x)
    assert torch.equal(out, F.rms_norm(x, norm.normalized_shape, norm.weight, norm.eps))


def test_rms_norm_builds_its_weight_as_asked_and_refuses_bad_shapes():
    assert nn.RMSNorm((3,), dtype=torch.float64).weight.dtype == torch.float64
    assert nn.RMSNorm(torch.Size([2, 3])).normalized_shape == (2, 3)
    with raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"):
        nn.RMSNorm(-1)
    with raises(TypeError, "'float' object is not iterable"):
        nn.RMSNorm(2.5)
    with raises(TypeError, "RMSNorm.__init__() missing 1 required positional argument: "
                "'normalized_shape'"):
        nn.RMSNorm()


def test_local_response_norm():
    assert repr(nn.LocalResponseNorm(2)) == "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)"
    norm = nn.LocalResponseNorm(3, 0.1, 0.5, 2)
    assert repr(norm) == "LocalResponseNorm(3, alpha=0.1, beta=0.5, k=2)"
    assert list(norm.parameters()) == []
    x = images(requires_grad=True)
    assert torch.equal(norm(x), F.local_response_norm(x, 3, 0.1, 0.5, 2))


def test_distances():
    torch.manual_seed(1)
    a, b = torch.randn(3, 4, requires_grad=True), torch.randn(3, 4)
    cosine, pairwise = nn.CosineSimilarity(), nn.PairwiseDistance()
    assert repr(cosine) == "CosineSimilarity()" and repr(pairwise) == "PairwiseDistance()"
    assert (cosine.dim, cosine.eps) == (1, 1e-8)
    assert (pairwise.norm, pairwise.eps, pairwise.keepdim) == (2.0, 1e-6, False)
    assert torch.equal(cosine(a, b), F.cosine_similarity(a, b))
    assert torch.equal(nn.CosineSimilarity(0, 1e-3)(a, b), F.cosine_similarity(a, b, 0, 1e-3))
    assert torch.equal(pairwise(a, b), F.pairwise_distance(a, b))
    close = nn.PairwiseDistance(p=1, keepdim=True)(a, b)
    assert torch.equal(close, F.pairwise_distance(a, b, 1, keepdim=True)) and close.shape == (3, 1)


def test_margin_ranking_loss():
    torch.manual_seed(2)
    i1, i2 = torch.randn(5, requires_grad=True), torch.randn(5)
    target = torch.tensor([1.0, -1, 1, 1, -1])
    loss = nn.MarginRankingLoss()
    assert repr(loss) == "MarginRankingLoss()" and (loss.margin, loss.reduction) == (0.0, "mean")
    assert torch.equal(loss(i1, i2, target), F.margin_ranking_loss(i1, i2, target))
    summed = nn.MarginRankingLoss(0.5, reduction="none")(i1, i2, target)
    assert torch.equal(summed, F.margin_ranking_loss(i1, i2, target, 0.5, reduction="none"))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert nn.MarginRankingLoss(size_average=False).reduction == "sum"
    assert [str(w.message) for w in seen] == [
        "size_average and reduce args will be deprecated, please use reduction='sum' instead."]


def test_triplet_margin_loss():
    torch.manual_seed(4)
    a, p, n = torch.randn(3, 4, requires_grad=True), torch.randn(3, 4), torch.randn(3, 4)
    loss = nn.TripletMarginLoss()
    assert repr(loss) == "TripletMarginLoss()"
    assert (loss.margin, loss.p, loss.eps, loss.swap, loss.reduction) == (
        1.0, 2.0, 1e-6, False, "mean")
    assert torch.equal(loss(a, p, n), F.triplet_margin_loss(a, p, n))
    other = nn.TripletMarginLoss(2.0, 1, 1e-3, True, reduction="none")
    assert torch.equal(other(a, p, n), F.triplet_margin_loss(a, p, n, 2.0, 1, 1e-3, True,
                                                             reduction="none"))
    for margin in (0, -1.5):
        with raises(ValueError, "TripletMarginLoss: expected margin to be greater than 0, got "
                    f"{margin} instead"):
            nn.TripletMarginLoss(margin=margin)


def test_the_new_names_are_exported():
    names = ["Softmax2d", "RReLU", "RMSNorm", "LocalResponseNorm", "CosineSimilarity",
             "PairwiseDistance", "MarginRankingLoss", "TripletMarginLoss", "ZeroPad2d",
             "ConstantPad3d", "ReflectionPad1d", "ReplicationPad3d", "CircularPad2d"]
    assert all(name in nn.modules.__all__ and hasattr(nn, name) for name in names)
