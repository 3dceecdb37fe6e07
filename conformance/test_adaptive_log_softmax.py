"""AdaptiveLogSoftmaxWithLoss: torch's seeded layers, each row's log-probability of its target
and their mean loss, the full table of log_prob, predict, and the refusals of its constructor
and its call. The same assertions run on torch."""

import pytest
import torch
import torch.nn as nn

from conformance._support import raises

CUTOFFS = ("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
           "order, where each value is between 1 and n_classes-1")


def _model():
    torch.manual_seed(0)
    return nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 6], div_value=2.0)


def test_layers_are_made_head_first_then_each_cluster():
    model = _model()
    torch.manual_seed(0)
    head, a1, a2, b1, b2 = (nn.Linear(8, 5, bias=False), nn.Linear(8, 4, bias=False),
                            nn.Linear(4, 3, bias=False), nn.Linear(8, 2, bias=False),
                            nn.Linear(2, 4, bias=False))
    state = model.state_dict()
    assert list(state) == ["head.weight", "tail.0.0.weight", "tail.0.1.weight",
                           "tail.1.0.weight", "tail.1.1.weight"]
    for got, layer in zip(state.values(), (head, a1, a2, b1, b2)):
        assert torch.equal(got, layer.weight)
    assert (model.cutoffs, model.shortlist_size, model.n_clusters, model.head_size) == (
        [3, 6, 10], 3, 2, 5)
    assert repr(model).startswith("AdaptiveLogSoftmaxWithLoss(\n  (head): Linear(in_features=8, "
                                  "out_features=5, bias=False)\n  (tail): ModuleList(")
    assert nn.AdaptiveLogSoftmaxWithLoss(8, 10, (2,), head_bias=True).head.bias.shape == (3,)


def test_each_row_gets_its_targets_log_probability():
    model = _model()
    torch.manual_seed(1)
    x = torch.randn(6, 8, requires_grad=True)
    target = torch.tensor([0, 4, 9, 2, 7, 5])
    result = model(x, target)
    assert type(result).__name__ == "_ASMoutput" and result._fields == ("output", "loss")
    assert result.output.grad_fn.name() == "AddBackward0"
    assert result.loss.grad_fn.name() == "MeanBackward0"
    table = model.log_prob(x)
    torch.testing.assert_close(result.output, table[torch.arange(6), target])
    torch.testing.assert_close(result.loss, -table[torch.arange(6), target].mean())
    got = torch.autograd.grad(result.loss, [x, *model.parameters()])
    want = torch.autograd.grad(-table[torch.arange(6), target].mean(), [x, *model.parameters()])
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w)


def test_one_unbatched_row_and_a_batch_of_one():
    model = _model()
    torch.manual_seed(1)
    x = torch.randn(6, 8)
    one = model(x[0], torch.tensor(4))
    assert one.output.shape == () and one.loss.shape == ()
    torch.testing.assert_close(one.output, model.log_prob(x[:1])[0, 4])
    batch_of_one = model(x[:1], torch.tensor([7]))
    assert batch_of_one.output.shape == (1,)


def test_log_prob_sums_to_one_and_predict_takes_the_best():
    model = _model()
    torch.manual_seed(3)
    x = torch.randn(40, 8) * 3
    table = model.log_prob(x)
    assert table.shape == (40, 10) and table.grad_fn.name() == "torch::autograd::CopySlices"
    torch.testing.assert_close(table.exp().sum(1), torch.ones(40))
    best = model.predict(x)
    assert best.dtype == torch.int64 and torch.equal(best, table.argmax(1))
    assert torch.equal(model.predict(x[:3]), table[:3].argmax(1))


@pytest.mark.parametrize("cutoffs", [[6, 3], [0, 3], [3, 10], [3, 3], [2.5, 4]])
def test_cutoffs_are_checked(cutoffs):
    with raises(ValueError, CUTOFFS):
        nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs)


def test_no_cutoffs_are_refused():
    with raises(ValueError, "cutoffs should be a sequence of length larger than 0"):
        nn.AdaptiveLogSoftmaxWithLoss(8, 10, [])


def test_calls_that_are_refused():
    model = _model()
    x, target = torch.randn(6, 8), torch.tensor([0, 4, 9, 2, 7, 5])
    with raises(RuntimeError, "Target values should be in [0, 9], but values in range [0, 10] "
                              "were found. "):
        model(x, torch.tensor([0, 1, 2, 3, 4, 10]))
    with raises(RuntimeError, "Target values should be in [0, 9], but values in range [-1, 4] "
                              "were found. "):
        model(x, torch.tensor([0, 1, 2, 3, 4, -1]))
    with raises(RuntimeError, "Input and target should have the same size in the batch "
                              "dimension."):
        model(x, target[:5])
    with raises(RuntimeError, "1D target tensor expects 2D input tensors, but found inputs with "
                              "size torch.Size([1, 6, 8])"):
        model(x[None], torch.zeros(1, dtype=torch.int64))
    with raises(RuntimeError, "0D or 1D target tensor expected, multi-target not supported"):
        model(x, target[None])
    with raises(RuntimeError, "0D target tensor expects 1D input tensors, but found inputs with "
                              "size torch.Size([6, 8])"):
        model(x, target[0])
