"""Black-box tests: where autograd is out of the way, a dispatch mode is handed torch's
nn.functional composites whole (linear, softmax, log_softmax, nll_loss_nd,
cross_entropy_loss, layer_norm), their arguments bound by torch's schema; with autograd
on, a 4-d nll_loss is nll_loss2d_forward and its gradient nll_loss2d_backward, every
argument by position. The same assertions run on torch."""

import pytest
import torch
import torch.nn.functional as F

from conformance._mode_support import tagged_mode
from conformance._support import calling_mode

Calls = calling_mode()


def _inputs():
    return (torch.arange(6.0).reshape(2, 3) / 4, torch.ones(4, 3), torch.ones(4),
            torch.tensor([0, 2]))


CASES = {
    "linear": (lambda a, w, b, t: F.linear(a, w), [("aten.linear.default", ("T", "T"))]),
    "linear_bias": (lambda a, w, b, t: F.linear(a, w, b),
                    [("aten.linear.default", ("T", "T", "T"))]),
    "softmax": (lambda a, w, b, t: a.softmax(0), [("aten.softmax.int", ("T", 0))]),
    "softmax_dtype": (lambda a, w, b, t: F.softmax(a, 1, dtype=torch.float64),
                      [("aten.softmax.int", ("T", 1, torch.float64))]),
    "log_softmax": (lambda a, w, b, t: a.log_softmax(-1),
                    [("aten.log_softmax.int", ("T", -1))]),
    "log_softmax_dtype": (lambda a, w, b, t: F.log_softmax(a, 1, dtype=torch.float64),
                          [("aten.log_softmax.int", ("T", 1, torch.float64))]),
    "nll_loss": (lambda a, w, b, t: F.nll_loss(a, t), [("aten.nll_loss_nd.default", ("T", "T"))]),
    "nll_loss_sum": (lambda a, w, b, t: F.nll_loss(a, t, b[:3], reduction="sum"),
                     [("aten.slice.Tensor", ("T", 0, 0, 3)),
                      ("aten.nll_loss_nd.default", ("T", "T", "T", 2))]),
    "nll_loss_ignore": (lambda a, w, b, t: F.nll_loss(a, t, ignore_index=2),
                        [("aten.nll_loss_nd.default", ("T", "T", None, 1, 2))]),
    "nll_loss_4d": (lambda a, w, b, t: F.nll_loss(a.view(2, 3, 1, 1), t.view(2, 1, 1)),
                    [("aten.view.default", ("T", [2, 3, 1, 1])),
                     ("aten.view.default", ("T", [2, 1, 1])),
                     ("aten.nll_loss_nd.default", ("T", "T"))]),
    "cross_entropy": (lambda a, w, b, t: F.cross_entropy(a, t),
                      [("aten.cross_entropy_loss.default", ("T", "T"))]),
    "cross_entropy_none": (lambda a, w, b, t: F.cross_entropy(a, t, reduction="none"),
                           [("aten.cross_entropy_loss.default", ("T", "T", None, 0))]),
    "cross_entropy_smoothing": (
        lambda a, w, b, t: F.cross_entropy(a, t, label_smoothing=0.25),
        [("aten.cross_entropy_loss.default", ("T", "T", None, 1, -100, 0.25))]),
    "cross_entropy_probabilities": (lambda a, w, b, t: F.cross_entropy(a, a.softmax(1)),
                                    [("aten.softmax.int", ("T", 1)),
                                     ("aten.cross_entropy_loss.default", ("T", "T"))]),
    "layer_norm": (lambda a, w, b, t: F.layer_norm(a, (3,)),
                   [("aten.layer_norm.default", ("T", [3]))]),
    "layer_norm_affine": (lambda a, w, b, t: F.layer_norm(a, [3], b[:3], b[:3], 1e-3),
                          [("aten.slice.Tensor", ("T", 0, 0, 3)),
                           ("aten.slice.Tensor", ("T", 0, 0, 3)),
                           ("aten.layer_norm.default", ("T", [3], "T", "T", 0.001))]),
    "mse_loss": (lambda a, w, b, t: F.mse_loss(a, a),
                 [("aten.broadcast_tensors.default", (["T", "T"],)),
                  ("aten.mse_loss.default", ("T", "T"))]),
    "l1_loss": (lambda a, w, b, t: F.l1_loss(a, a, reduction="sum"),
                [("aten.broadcast_tensors.default", (["T", "T"],)),
                 ("aten.l1_loss.default", ("T", "T", 2))]),
    "huber_loss": (lambda a, w, b, t: F.huber_loss(a, a),
                   [("aten.broadcast_tensors.default", (["T", "T"],)),
                    ("aten.huber_loss.default", ("T", "T"))]),
    "smooth_l1_loss_beta_0": (lambda a, w, b, t: F.smooth_l1_loss(a, a, beta=0.0),
                              [("aten.broadcast_tensors.default", (["T", "T"],)),
                               ("aten.l1_loss.default", ("T", "T"))]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_functional_composite_goes_to_the_mode_whole_in_inference_mode(name):
    call, expected = CASES[name]
    inputs = _inputs()
    with torch.inference_mode(), Calls() as mode:
        out = call(*inputs)
    assert [(f, a) for f, a, k in mode.seen] == expected
    assert all(k == {} for _, _, k in mode.seen)
    plain = call(*inputs)
    assert out.dtype == plain.dtype and torch.allclose(out, plain)


def test_inference_tensors_go_whole_outside_inference_mode_too():
    with torch.inference_mode():
        a, w, b, t = _inputs()
    with Calls() as mode:
        F.linear(a, w, b)
        F.cross_entropy(a, t)
    assert [f for f, _, _ in mode.seen] == ["aten.linear.default",
                                           "aten.cross_entropy_loss.default"]


def test_with_autograd_on_the_mode_sees_the_steps():
    a, w, b, t = _inputs()
    with Calls() as mode:
        F.linear(a, w)
        F.cross_entropy(a, t)
    assert [f for f, _, _ in mode.seen] == [
        "aten.t.default", "aten.mm.default", "aten._log_softmax.default",
        "aten.nll_loss_forward.default"]


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_a_4d_nll_loss_is_nll_loss2d_forward_and_its_gradient_by_position(reduction):
    x = torch.arange(6.0).reshape(2, 3, 1, 1).requires_grad_()
    t = torch.tensor([0, 2]).view(2, 1, 1)
    code = {"mean": 1, "none": 0}[reduction]
    with Calls() as mode:
        loss = F.nll_loss(x, t, reduction=reduction)
        loss.sum().backward()
    seen = {f: (a, k) for f, a, k in mode.seen}
    assert seen["aten.nll_loss2d_forward.default"] == (("T", "T", None, code, -100), {})
    assert seen["aten.nll_loss2d_backward.default"] == (
        ("T", "T", "T", None, code, -100, "T"), {})
    picked = -1.0 / (2 if reduction == "mean" else 1)
    assert x.grad.view(2, 3).tolist() == [[picked, 0.0, 0.0], [0.0, 0.0, picked]]


@pytest.mark.parametrize("shape, rows", [((3,), 1), ((2, 2, 3), 4)])
def test_linear_with_a_bias_views_the_input_as_its_number_of_rows(shape, rows):
    x, w, b = torch.ones(shape), torch.ones(4, 3), torch.ones(4)
    with Calls() as mode:
        F.linear(x, w, b)
    assert mode.seen[0] == ("aten.view.default", ("T", [rows, 3]), {})


def test_a_profile_alone_in_inference_mode_still_shows_the_steps_inside():
    a, w, b, t = _inputs()
    with torch.inference_mode(), torch.profiler.profile() as profile:
        F.linear(a, w, b)
        F.softmax(a, 1)
    names = [e.name for e in profile.events()]
    assert "aten::linear" in names and "aten::addmm" in names
    assert names.index("aten::softmax") < names.index("aten::_softmax")


def test_nested_modes_each_see_the_composite_inner_first():
    seen = []
    Tagged = tagged_mode(seen)
    a, w, b, t = _inputs()
    with torch.inference_mode(), Tagged("outer"), Tagged("inner"):
        F.l1_loss(a, a)
        F.cross_entropy(a, t)
    assert seen == [("inner", "aten.broadcast_tensors.default"),
                    ("outer", "aten.broadcast_tensors.default"),
                    ("inner", "aten.l1_loss.default"), ("outer", "aten.l1_loss.default"),
                    ("inner", "aten.cross_entropy_loss.default"),
                    ("outer", "aten.cross_entropy_loss.default")]


def test_a_modes_own_code_hands_the_composites_whole_to_the_mode_outside_it():
    from torch.utils._python_dispatch import TorchDispatchMode

    a, w, b, t = _inputs()

    class Body(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if str(func) == "aten.neg.default":
                F.linear(args[0], w)
                F.log_softmax(args[0], 1)
                F.nll_loss(args[0], t)
            return out

    with Calls() as mode, Body():
        a.neg()
    assert [f for f, _, _ in mode.seen] == [
        "aten.neg.default", "aten.linear.default", "aten.log_softmax.int",
        "aten.nll_loss_nd.default"]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_a_smoothed_cross_entropy_shows_its_steps_in_torchs_order(weighted, reduction):
    x = torch.arange(12.0).reshape(2, 3, 2).requires_grad_()
    t = torch.tensor([[0, 2], [1, 2]])
    w = torch.tensor([1.0, 2.0, 3.0]) if weighted else None
    with Calls() as mode:
        loss = F.cross_entropy(x, t, weight=w, ignore_index=2, reduction=reduction,
                               label_smoothing=0.25)
    seen = [(f, a) for f, a, _ in mode.seen]
    steps = [("aten.sum.dim_IntList", ("T", [1])), ("aten.neg.default", ("T",)),
             ("aten.eq.Scalar", ("T", 2)), ("aten.masked_fill_.Scalar", ("T", "T", 0.0))]
    if weighted:
        steps = [("aten.view.default", ("T", [1, 3, 1])), ("aten.mul.Tensor", ("T", "T"))] + steps
    if reduction == "none":  # the losses viewed back to the targets' shape
        steps = [("aten.view.default", ("T", [2, 2]))] + steps
    if reduction == "mean" and weighted:
        steps += [("aten.masked_fill.Scalar", ("T", "T", 0)), ("aten.view.default", ("T", [4])),
                  ("aten.gather.default", ("T", 0, "T")), ("aten.view.default", ("T", [4])),
                  ("aten.masked_fill_.Scalar", ("T", "T", 0)), ("aten.sum.default", ("T",))]
    elif reduction == "mean":
        steps += [("aten.bitwise_not.default", ("T",)), ("aten.sum.default", ("T",))]
    if reduction != "none":
        steps += [("aten.sum.default", ("T",))]
    if reduction == "mean":
        steps += [("aten.div.Tensor", ("T", "T"))]
    steps += [("aten.mul.Scalar", ("T", 0.25 / 3)), ("aten.mul.Scalar", ("T", 0.75)),
              ("aten.add.Tensor", ("T", "T"))]
    start = next(i for i, (f, _) in enumerate(seen) if f.startswith("aten.nll_loss2d_forward"))
    assert seen[start + 1:] == steps
    plain = F.cross_entropy(x.detach(), t, weight=w, ignore_index=2, reduction=reduction,
                            label_smoothing=0.25)
    assert torch.allclose(loss.detach(), plain)


def test_a_weight_not_one_per_class_is_refused_with_probabilities_for_targets():
    with pytest.raises(RuntimeError) as info:
        F.cross_entropy(torch.ones(2, 3), torch.ones(2, 3), weight=torch.ones(4))
    assert str(info.value) == ("cross_entropy: weight tensor should be defined either for all 3 "
                               "classes or no classes but got weight tensor of shape: [4]")


def test_a_profile_shows_the_broadcast_and_l1_loss_as_events():
    x = torch.ones(2, 3)
    with torch.profiler.profile(record_shapes=True) as profile:
        F.l1_loss(x, x)
    events = [(e.name, e.input_shapes) for e in profile.events()]
    assert events[:3] == [("aten::broadcast_tensors", [[]]),
                          ("aten::l1_loss", [[2, 3], [2, 3], []]),
                          ("aten::sub", [[2, 3], [2, 3], []])]
