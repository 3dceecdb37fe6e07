"""F.linear_cross_entropy, LinearCrossEntropyOptions and LinearCrossEntropyLoss: the loss is
cross entropy of the linear layer's logits, on the reference path and on the chunked one (with
its operator's node), checked and refused in torch's words. The same assertions run on
torch."""

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from conformance._support import raises

CHUNKED = "GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_defaultBackward"
CHUNKED_NONE = ("GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_no_reduction_"
                "defaultBackward")


def _inputs():
    torch.manual_seed(0)
    x = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(7, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(7, dtype=torch.float64, requires_grad=True)
    return x, w, b, torch.tensor([0, 3, 6, 1, 2]), torch.rand(7, dtype=torch.float64)


@pytest.mark.parametrize("options", [None, "chunked"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("extra", ["plain", "bias", "weighted"])
def test_it_is_cross_entropy_of_the_logits(options, reduction, extra):
    x, w, b, t, cw = _inputs()
    kw = {"bias": {"linear_bias": b}, "weighted": {"weight": cw, "ignore_index": 3}}.get(extra, {})
    opts = nn.LinearCrossEntropyOptions() if options else None
    got = F.linear_cross_entropy(x, w, t, reduction=reduction, options=opts, **kw)
    want = F.cross_entropy(F.linear(x, w, kw.get("linear_bias")), t, weight=kw.get("weight"),
                           ignore_index=kw.get("ignore_index", -100), reduction=reduction)
    names = {None: "NllLossBackward0", "chunked": CHUNKED_NONE if reduction == "none" else CHUNKED}
    assert got.grad_fn.name() == names[options] and got.shape == want.shape
    torch.testing.assert_close(got, want)
    leaves = [x, w, b] if extra == "bias" else [x, w]
    grad = torch.rand_like(got, dtype=torch.float64)
    for g, e in zip(torch.autograd.grad(got, leaves, grad),
                    torch.autograd.grad(want, leaves, grad)):
        torch.testing.assert_close(g, e)


@pytest.mark.parametrize("options", [None, "chunked"])
def test_an_unbatched_row_and_inputs_without_gradients(options):
    x, w, b, t, _ = _inputs()
    opts = nn.LinearCrossEntropyOptions() if options else None
    one = F.linear_cross_entropy(x[0], w, t[0], options=opts)
    assert one.shape == ()
    torch.testing.assert_close(one, F.cross_entropy(F.linear(x[0], w), t[0]))
    only_x = F.linear_cross_entropy(x, w.detach(), t, options=opts)
    g, = torch.autograd.grad(only_x, x)
    torch.testing.assert_close(g, torch.autograd.grad(F.cross_entropy(x @ w.detach().T, t), x)[0])
    nothing = F.linear_cross_entropy(x.detach(), w.detach(), t, options=opts)
    assert nothing.grad_fn is None and not nothing.requires_grad


def test_a_k_dimensional_weight_and_probability_targets():
    x, _, _, _, _ = _inputs()
    torch.manual_seed(1)
    wk = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
    bk = torch.randn(3, 2, dtype=torch.float64)
    tk = torch.randint(0, 3, (5, 2))
    got = F.linear_cross_entropy(x, wk, tk, linear_bias=bk)
    logits = (F.linear(x, wk.reshape(6, 4), bk.reshape(6))).reshape(5, 3, 2)
    torch.testing.assert_close(got, F.cross_entropy(logits, tk))
    probs = torch.rand(5, 7, dtype=torch.float64)
    _, w, _, _, _ = _inputs()
    torch.testing.assert_close(F.linear_cross_entropy(x, w, probs, label_smoothing=0.1),
                               F.cross_entropy(F.linear(x, w), probs, label_smoothing=0.1))


@pytest.mark.parametrize("kwargs, got", [
    ({"label_smoothing": 0.2}, "reduction='mean', label_smoothing=0.2, target.dtype=torch.int64, "
                               "out_features=(), tracing=False, linear_bias.shape=None."),
    ({"reduction": "sum", "weight_shape": (3, 2, 4)},
     "reduction='sum', label_smoothing=0.0, target.dtype=torch.int64, out_features=(2,), "
     "tracing=False, linear_bias.shape=None."),
])
def test_options_it_cannot_use_are_ignored_with_a_warning(kwargs, got, warn_always):
    x, w, _, t, _ = _inputs()
    shape = kwargs.pop("weight_shape", None)
    if shape is not None:
        w, t = torch.randn(*shape, dtype=torch.float64), torch.zeros(5, 2, dtype=torch.int64)
    with pytest.warns(UserWarning) as caught:
        loss = F.linear_cross_entropy(x, w, t, options=nn.LinearCrossEntropyOptions(), **kwargs)
    assert [str(c.message) for c in caught] == [
        "linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
        "{'mean','sum','none'}, label_smoothing == 0, target.dtype == int64, "
        "out_features == (). Got " + got]
    assert caught[0].filename == __file__
    assert loss.grad_fn.name() != CHUNKED


def test_the_checks_in_torchs_words():
    x, w, _, t, _ = _inputs()
    cases = [
        ((x[0, 0], w, t), {}, "expected input with dimensionality 1 or 2, got 0"),
        ((x, w[0], t), {}, "expected linear_weight with dimensionality at least 2, got 1"),
        ((x, w[:, :3], t), {}, "expected equal input and linear_weight last dimensions "
                               "(in_features), got 4 and 3, respectively"),
        ((x, w, t), {"linear_bias": torch.zeros(3)}, "expected linear_bias shape (7,), got (3,)"),
        ((x[0], w.reshape(7, 1, 4), t), {}, "K-dimensional loss defined by linear_weight shape "
         "(7, 1, 4) requires batched input, (N, 4), got unbatched input with shape (4,)"),
        ((x, w, torch.rand(5, 7)), {"ignore_index": 3},
         "ignore_index cannot be specified when target contains probabilities"),
    ]
    for args, kwargs, message in cases:
        with raises(RuntimeError, message):
            F.linear_cross_entropy(*args, **kwargs)


def test_the_options_are_a_checked_frozen_dataclass():
    o = nn.LinearCrossEntropyOptions()
    assert repr(o) == ("LinearCrossEntropyOptions(allow_retain_graph=False, "
                       "batch_chunk_size=None, chunking_method='auto', acc_policy='auto', "
                       "acc_dtype=None)")
    assert o == nn.LinearCrossEntropyOptions() and not hasattr(o, "__dict__")
    assert nn.LinearCrossEntropyOptions is torch.nn.modules.LinearCrossEntropyOptions
    assert torch.nn.modules.linear_cross_entropy_options.__all__ == ["LinearCrossEntropyOptions"]
    with pytest.raises(AttributeError):
        o.acc_policy = "compact"
    for method in ["aspect_ratio", "aspect_ratio:2", None]:
        assert nn.LinearCrossEntropyOptions(chunking_method=method).chunking_method == method
    for method in ["aspect_ratio:0", "x", "aspect_ratio:a"]:
        with raises(ValueError, f"invalid chunking_method: {method!r}"):
            nn.LinearCrossEntropyOptions(chunking_method=method)
    with raises(ValueError, "invalid acc_policy: 'x'"):
        nn.LinearCrossEntropyOptions(acc_policy="x")
    for size in [0, -1, 2.0]:
        with raises(ValueError, f"batch_chunk_size must be positive int or None, got {size!r}"):
            nn.LinearCrossEntropyOptions(batch_chunk_size=size)
    with raises(ValueError, "acc_dtype must be one of {None, torch.float16, torch.bfloat16, "
                            "torch.float32, torch.float64}, got torch.int32. Pass acc_dtype=None "
                            "to let the op pick automatically."):
        nn.LinearCrossEntropyOptions(acc_dtype=torch.int32)
    assert nn.LinearCrossEntropyOptions(acc_dtype=torch.float16).acc_dtype == torch.float16


def test_the_loss_module_holds_a_linear_layer():
    torch.manual_seed(0)
    loss = nn.LinearCrossEntropyLoss(4, 7, reduction="sum")
    torch.manual_seed(0)
    layer = nn.Linear(4, 7, bias=False)
    assert torch.equal(loss.linear.weight, layer.weight) and list(loss.state_dict()) == [
        "linear.weight"]
    assert repr(loss) == (
        "LinearCrossEntropyLoss(\n  in_features=4, num_classes=7, out_features=(), bias=False, "
        "reduction=sum, ignore_index=None, label_smoothing=0.0, options=None\n  (linear): "
        "Linear(in_features=4, out_features=7, bias=False)\n)")
    x, t = torch.randn(5, 4), torch.tensor([0, 3, 6, 1, 2])
    torch.testing.assert_close(loss(x, t), F.cross_entropy(layer(x), t, reduction="sum"))
    assert loss.__constants__ == ["num_classes", "out_features", "reduction", "ignore_index",
                                  "label_smoothing"]
    assert nn.LinearCrossEntropyLoss.__module__ == f"{torch.__name__}.nn.modules.loss"
    assert isinstance(loss, torch.nn.modules.loss._WeightedLoss)


def test_the_loss_module_with_more_dimensions_a_bias_and_a_weight():
    torch.manual_seed(0)
    loss = nn.LinearCrossEntropyLoss(4, 3, out_features=(2,), bias=True,
                                     weight=torch.tensor([1.0, 2.0, 0.5]), ignore_index=1)
    assert loss.linear.weight.shape == (6, 4) and loss.linear.bias.shape == (6,)
    assert list(loss.state_dict()) == ["weight", "linear.weight", "linear.bias"]
    x, t = torch.randn(5, 4), torch.randint(0, 3, (5, 2))
    want = F.cross_entropy(loss.linear(x).reshape(5, 3, 2), t, weight=loss.weight,
                           ignore_index=1)
    torch.testing.assert_close(loss(x, t), want)
    with raises(RuntimeError, "expected weight shape to be (7,), got (3,)"):
        nn.LinearCrossEntropyLoss(4, 7, weight=torch.ones(3))
    for smoothing in [1.5, -0.1]:
        with raises(RuntimeError, f"expected label_smoothing to be in range [0, 1], got "
                                  f"{smoothing}"):
            nn.LinearCrossEntropyLoss(4, 7, label_smoothing=smoothing)


TWICE = ("linear_cross_entropy chunked backward called twice; retain_graph=True / double "
         "backward are not supported.")


def test_the_chunked_backward_runs_once_unless_told_to_keep_its_gradients():
    x, w, _, t, _ = _inputs()
    loss = F.linear_cross_entropy(x, w, t, options=nn.LinearCrossEntropyOptions())
    first, = torch.autograd.grad(loss, x, retain_graph=True)
    with raises(RuntimeError, TWICE):
        torch.autograd.grad(loss, x)
    kept = F.linear_cross_entropy(x, w, t,
                                  options=nn.LinearCrossEntropyOptions(allow_retain_graph=True))
    a, = torch.autograd.grad(kept, x, torch.tensor(2.0, dtype=torch.float64), retain_graph=True)
    b, = torch.autograd.grad(kept, x)
    torch.testing.assert_close(a, 2 * b)
    torch.testing.assert_close(b, first)
    rows = F.linear_cross_entropy(x, w, t, reduction="none",
                                  options=nn.LinearCrossEntropyOptions())
    c, = torch.autograd.grad(rows.sum(), x, retain_graph=True)
    d, = torch.autograd.grad(rows.sum(), x)
    assert torch.equal(c, d)


def test_the_chunked_path_picks_class_weights_then_checks_targets():
    x, w, _, _, _ = _inputs()
    opts = nn.LinearCrossEntropyOptions()
    for bad, first in [([0, 3, -5, 1, 2], -5), ([0, 8, 9, 1, 2], 8)]:
        with raises(RuntimeError, f"index {first} is out of bounds for dimension 1 with size 7"):
            F.linear_cross_entropy(x, w, torch.tensor(bad), options=opts)
    short = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)
    with raises(IndexError, "index out of range in self"):
        F.linear_cross_entropy(x, w, torch.tensor([0, 3, 9, 1, 2]), options=opts, weight=short)
    t = torch.tensor([0, 1, 2, 1, -100])
    got = F.linear_cross_entropy(x, w, t, options=opts, weight=short)
    rows = F.cross_entropy(F.linear(x, w), t, reduction="none")
    picked = short[t[:4]]
    torch.testing.assert_close(got, (rows[:4] * picked).sum() / picked.sum())
    with raises(RuntimeError, "weight tensor should be defined either for all 7 classes or no "
                              "classes but got weight tensor of shape: [3]"):
        F.linear_cross_entropy(x, w, t, weight=short)
    nothing = F.linear_cross_entropy(x, w, torch.full((5,), -100), options=opts)
    assert nothing.isnan()
