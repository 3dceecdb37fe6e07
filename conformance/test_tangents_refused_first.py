"""Black-box tests: rows with no tangent formula refuse a tangent before the checks their
kernels make: margin losses, index_reduce, igamma and igammac."""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import forward_ad_refusal as _refusal
from conformance._support import raises

D = torch.float64


CALLS = {  # the call, given a dual (2, 3) tensor d, and the row it names
    "multi_margin target out of range": (
        lambda d: F.multi_margin_loss(d, torch.tensor([0, 5])), "multi_margin_loss"),
    "multi_margin target size": (
        lambda d: F.multi_margin_loss(d, torch.tensor([0, 1, 2])), "multi_margin_loss"),
    "multi_margin weight": (
        lambda d: F.multi_margin_loss(torch.ones(2, 3, dtype=D), torch.tensor([0, 1]),
                                      weight=d[0]), "multi_margin_loss"),
    "multilabel_margin target size": (
        lambda d: F.multilabel_margin_loss(d, torch.tensor([[0, 1]])),
        "multilabel_margin_loss_forward"),
    "multilabel_margin fine": (
        lambda d: F.multilabel_margin_loss(d, torch.tensor([[0, -1, 1], [1, -1, 0]])),
        "multilabel_margin_loss_forward"),
    "index_reduce dim": (
        lambda d: d.index_reduce(5, torch.tensor([0]), torch.ones(1, 3, dtype=D), "prod"),
        "index_reduce"),
    "index_reduce reduce": (
        lambda d: d.index_reduce(0, torch.tensor([0]), torch.ones(1, 3, dtype=D), "foo"),
        "index_reduce"),
    "index_reduce source": (
        lambda d: torch.ones(2, 3, dtype=D).index_reduce(0, torch.tensor([0]), d[:1], "amax"),
        "index_reduce"),
    "igamma shapes": (lambda d: torch.igamma(d, torch.ones(2, dtype=D)), "igamma"),
    "igammac shapes": (lambda d: torch.igammac(torch.ones(2, dtype=D), d), "igammac"),
    "gammainc shapes": (lambda d: torch.special.gammainc(d, torch.ones(2, dtype=D)), "igamma"),
    "gammaincc": (lambda d: torch.special.gammaincc(d, d), "igammac"),
    "igamma method": (lambda d: d.igamma(torch.ones(3, dtype=D)), "igamma"),
}


@pytest.mark.parametrize("case", CALLS)
def test_a_tangent_is_refused_first(case):
    call, row = CALLS[case]
    fwad = torch.autograd.forward_ad
    with fwad.dual_level():
        d = fwad.make_dual(torch.ones(2, 3, dtype=D), torch.ones(2, 3, dtype=D))
        with raises(NotImplementedError, _refusal(row)):
            call(d)


def test_the_python_wrappers_checks_come_before():
    fwad = torch.autograd.forward_ad
    with fwad.dual_level():
        d = fwad.make_dual(torch.ones(2, 3, dtype=D), torch.ones(2, 3, dtype=D))
        with raises(ValueError, "only p == 1 and p == 2 supported"):
            F.multi_margin_loss(d, torch.tensor([0, 1]), p=3)
        with raises(ValueError, "bad is not a valid value for reduction"):
            F.multilabel_margin_loss(d, torch.tensor([[0, 1, 2]] * 2), reduction="bad")


def test_in_place_igamma_checks_the_broadcast_first():
    fwad = torch.autograd.forward_ad
    with fwad.dual_level():
        d = fwad.make_dual(torch.ones(3, dtype=D), torch.ones(3, dtype=D)).clone()
        with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) "
                                  "at non-singleton dimension 0"):
            d.igamma_(torch.ones(2, dtype=D))
        with raises(NotImplementedError, IN_PLACE_REFUSAL.format("igamma_")):
            d.igamma_(torch.ones(3, dtype=D))


# an in-place op's refusal asks for less
IN_PLACE_REFUSAL = ("Trying to use forward AD with {} that does not support it because it has not "
                    "been implemented yet.\nPlease file an issue to PyTorch at https://github.com/"
                    "pytorch/pytorch/issues/new?template=feature-request.yml so that we can "
                    "prioritize its implementation.")


@pytest.mark.parametrize("name", ["igamma_", "igammac_", "index_reduce_", "set_", "rrelu"])
def test_an_in_place_refusal(name):
    fwad = torch.autograd.forward_ad
    calls = {
        "igamma_": lambda d: d.igamma_(torch.ones(3, dtype=D)),
        "igammac_": lambda d: d.igammac_(torch.ones(3, dtype=D)),
        "index_reduce_": lambda d: d.index_reduce_(0, torch.tensor([0]), torch.ones(1, dtype=D),
                                                   "prod"),
        "set_": lambda d: d.set_(torch.ones(3, dtype=D)),
        "rrelu": lambda d: F.rrelu(d, training=True, inplace=True),
    }
    row = {"rrelu": "rrelu_with_noise_"}.get(name, name)
    with fwad.dual_level(), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # index_reduce's beta warning
        d = fwad.make_dual(torch.ones(3, dtype=D), torch.ones(3, dtype=D)).clone()
        with raises(NotImplementedError, IN_PLACE_REFUSAL.format(row)):
            calls[name](d)
