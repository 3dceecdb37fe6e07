"""The loss modules that hold the rest of torch.nn.functional's losses: each gives its
function's value and gradient for its settings, keeps its settings and class weights as torch
does, prints as torch prints it, warns and refuses as torch does. The same assertions run on
torch."""

import warnings

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from conformance._support import raises

NLL2D_WARNING = ("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in "
                 "replacement and see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss "
                 "for more details.")


def _inputs():
    torch.manual_seed(0)
    x = torch.randn(4, 3, requires_grad=True)
    t = torch.randn(4, 3)
    return x, t


def _cases(red):
    x, t = _inputs()
    y = torch.tensor([0, 2, 1, 2])
    labels = torch.tensor([[0, 1, -1], [2, -1, 0], [1, 2, 0], [0, -1, 1]])
    w = torch.tensor([1.0, 2.0, 3.0])
    sign = torch.tensor([1.0, -1.0, 1.0, -1.0])
    dist = lambda a, b: (a - b).abs().sum(-1)  # noqa: E731
    return x, [
        (nn.PoissonNLLLoss(reduction=red), (x, t.abs()),
         lambda: F.poisson_nll_loss(x, t.abs(), reduction=red)),
        (nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-3, reduction=red),
         (x.abs(), t.abs()),
         lambda: F.poisson_nll_loss(x.abs(), t.abs(), log_input=False, full=True, eps=1e-3,
                                    reduction=red)),
        (nn.GaussianNLLLoss(full=True, eps=0.5, reduction=red), (x, t, torch.full((4, 3), 0.2)),
         lambda: F.gaussian_nll_loss(x, t, torch.full((4, 3), 0.2), full=True, eps=0.5,
                                     reduction=red)),
        (nn.HingeEmbeddingLoss(margin=0.5, reduction=red), (x, t.sign()),
         lambda: F.hinge_embedding_loss(x, t.sign(), margin=0.5, reduction=red)),
        (nn.MultiLabelMarginLoss(reduction=red), (x, labels),
         lambda: F.multilabel_margin_loss(x, labels, reduction=red)),
        (nn.SoftMarginLoss(reduction=red), (x, t.sign()),
         lambda: F.soft_margin_loss(x, t.sign(), reduction=red)),
        (nn.MultiLabelSoftMarginLoss(weight=w, reduction=red), (x, (t > 0).float()),
         lambda: F.multilabel_soft_margin_loss(x, (t > 0).float(), weight=w, reduction=red)),
        (nn.CosineEmbeddingLoss(margin=0.1, reduction=red), (x, t, sign),
         lambda: F.cosine_embedding_loss(x, t, sign, margin=0.1, reduction=red)),
        (nn.MultiMarginLoss(p=2, margin=0.7, weight=w, reduction=red), (x, y),
         lambda: F.multi_margin_loss(x, y, p=2, margin=0.7, weight=w, reduction=red)),
        (nn.TripletMarginWithDistanceLoss(swap=True, reduction=red), (x, t, 2 * t),
         lambda: F.triplet_margin_with_distance_loss(x, t, 2 * t, swap=True, reduction=red)),
        (nn.TripletMarginWithDistanceLoss(distance_function=dist, margin=2.0, reduction=red),
         (x, t, 2 * t),
         lambda: F.triplet_margin_with_distance_loss(x, t, 2 * t, distance_function=dist,
                                                     margin=2.0, reduction=red)),
    ]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_each_module_gives_its_functions_value_and_gradient(reduction):
    x, cases = _cases(reduction)
    for module, args, function in cases:
        got, want = module(*args), function()
        assert got.grad_fn.name() == want.grad_fn.name()
        assert torch.equal(got, want) and got.shape == want.shape
        g1, = torch.autograd.grad(got.sum(), x)
        g2, = torch.autograd.grad(want.sum(), x)
        assert torch.equal(g1, g2)


def test_nll_loss_2d_is_nll_loss_under_an_old_name(warn_always):
    x, _ = _inputs()
    with pytest.warns(FutureWarning) as caught:
        loss = nn.NLLLoss2d(weight=torch.tensor([1.0, 2.0, 3.0]), ignore_index=1)
    assert [str(w.message) for w in caught] == [NLL2D_WARNING]
    assert caught[0].filename == __file__
    assert isinstance(loss, nn.NLLLoss) and loss.ignore_index == 1 and repr(loss) == "NLLLoss2d()"
    assert list(loss.state_dict()) == ["weight"]
    y = torch.tensor([0, 2, 1, 2])
    assert torch.equal(loss(x.log_softmax(1), y),
                       F.nll_loss(x.log_softmax(1), y, weight=loss.weight, ignore_index=1))


def test_a_subclass_of_nll_loss_2d_warns_when_defined_not_when_made(warn_always):
    with pytest.warns(FutureWarning) as caught:
        class Mine(nn.NLLLoss2d):
            pass
    assert [str(w.message) for w in caught] == [NLL2D_WARNING]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Mine().reduction == "mean"


NAMES = ["PoissonNLLLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "MultiLabelMarginLoss",
         "SoftMarginLoss", "MultiLabelSoftMarginLoss", "CosineEmbeddingLoss", "MultiMarginLoss",
         "TripletMarginWithDistanceLoss"]
CONSTANTS = [["log_input", "full", "eps", "reduction"], ["full", "eps", "reduction"],
             ["margin", "reduction"], ["reduction"], ["reduction"], ["reduction"],
             ["margin", "reduction"], ["p", "margin", "reduction"], ["margin", "swap", "reduction"]]


@pytest.mark.parametrize("name, constants", list(zip(NAMES, CONSTANTS)))
def test_where_each_lives_and_what_it_holds(name, constants):
    cls = getattr(nn, name)
    assert cls is getattr(torch.nn.modules.loss, name) is getattr(torch.nn.modules, name)
    assert cls.__module__ == f"{torch.__name__}.nn.modules.loss"
    assert cls.__constants__ == constants
    module = cls()
    assert module.reduction == "mean" and list(module.state_dict()) == []
    weighted = name in ("MultiLabelSoftMarginLoss", "MultiMarginLoss")
    assert isinstance(module, torch.nn.modules.loss._WeightedLoss) == weighted
    if name != "TripletMarginWithDistanceLoss":
        assert repr(module) == f"{name}()"


def test_settings_kept_and_the_weight_a_buffer():
    loss = nn.PoissonNLLLoss(False, True, None, 1e-3)
    assert (loss.log_input, loss.full, loss.eps) == (False, True, 1e-3)
    assert (nn.GaussianNLLLoss(full=True, eps=0.1).full, nn.GaussianNLLLoss(eps=0.1).eps) == (
        True, 0.1)
    assert nn.HingeEmbeddingLoss(2.0).margin == 2.0 and nn.CosineEmbeddingLoss(0.3).margin == 0.3
    multi = nn.MultiMarginLoss(2, 0.5, torch.ones(3)).double()
    assert (multi.p, multi.margin) == (2, 0.5) and multi.weight.dtype == torch.float64
    assert list(dict(multi.named_buffers())) == ["weight"]
    soft = nn.MultiLabelSoftMarginLoss(torch.ones(3))
    assert list(soft.state_dict()) == ["weight"] and list(soft.parameters()) == []
    assert nn.MultiLabelSoftMarginLoss().weight is None


def test_the_triplet_distance_default_is_a_child_module():
    loss = nn.TripletMarginWithDistanceLoss(margin=0.5, swap=True)
    assert isinstance(loss.distance_function, nn.PairwiseDistance)
    assert (loss.margin, loss.swap) == (0.5, True)
    assert repr(loss) == ("TripletMarginWithDistanceLoss(\n  (distance_function): "
                          "PairwiseDistance()\n)")
    own = nn.TripletMarginWithDistanceLoss(distance_function=torch.dist)
    assert own.distance_function is torch.dist and repr(own) == "TripletMarginWithDistanceLoss()"
    with raises(TypeError, "TripletMarginWithDistanceLoss.__init__() takes 1 positional "
                           "argument but 2 were given"):
        nn.TripletMarginWithDistanceLoss(None)
    with raises(TypeError, "GaussianNLLLoss.__init__() takes 1 positional argument but 2 were "
                           "given"):
        nn.GaussianNLLLoss(True)


@pytest.mark.parametrize("margin", [0, -1.5])
def test_a_triplet_margin_not_above_zero_is_refused(margin):
    with raises(ValueError, "TripletMarginWithDistanceLoss: expected margin to be greater than "
                            f"0, got {margin} instead"):
        nn.TripletMarginWithDistanceLoss(margin=margin)


def test_multi_margin_refuses_a_power_or_a_weight_it_cannot_use():
    with raises(ValueError, "only p == 1 and p == 2 supported"):
        nn.MultiMarginLoss(p=3)
    with raises(ValueError, "MultiMarginLoss: expected weight to be None or 1D tensor, got 2D "
                            "instead"):
        nn.MultiMarginLoss(weight=torch.ones(2, 2))


@pytest.mark.parametrize("kwargs, reduction", [
    ({"size_average": False}, "sum"), ({"reduce": False}, "none"),
    ({"size_average": True, "reduce": True}, "mean"),
])
def test_the_old_reduction_arguments_warn_and_still_work(kwargs, reduction, warn_always):
    for cls in (nn.PoissonNLLLoss, nn.HingeEmbeddingLoss, nn.MultiLabelMarginLoss,
                nn.SoftMarginLoss, nn.MultiLabelSoftMarginLoss, nn.CosineEmbeddingLoss,
                nn.MultiMarginLoss):
        with pytest.warns(UserWarning) as caught:
            loss = cls(**kwargs)
        assert [str(w.message) for w in caught] == [
            f"size_average and reduce args will be deprecated, please use "
            f"reduction='{reduction}' instead."]
        assert loss.reduction == reduction
