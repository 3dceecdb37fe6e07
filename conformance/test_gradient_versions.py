"""The version counters of the gradients autograd makes: a leaf's first .grad, and the
gradients formulas write into zeros in place. The same assertions run on torch.
"""

import warnings

import pytest
import torch


def _grad(make, leaf, create_graph=False):
    (g,) = torch.autograd.grad(make(leaf).sum(), leaf, create_graph=create_graph)
    return g


def test_a_first_grad_under_create_graph_is_a_copy_at_version_1():
    a = torch.ones(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reference-cycle warning
        (a * 2).sum().backward(create_graph=True)
        assert a.grad._version == 1 and a.grad.grad_fn is None
        b = torch.ones(3, requires_grad=True)
        b.exp().sum().backward(create_graph=True)
        assert b.grad._version == 1 and b.grad.grad_fn.name() == "torch::autograd::CopyBackwards"
        b.exp().sum().backward(create_graph=True)  # the sum is out of place: a new tensor
        assert b.grad._version == 0 and type(b.grad.grad_fn).__name__ == "AddBackward0"


def test_a_leaf_that_is_not_dense_gets_a_clone_under_create_graph():
    base = torch.ones(3, 4)
    a = base[:, ::2].detach().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a.exp().sum().backward(create_graph=True)
    assert a.grad._version == 0 and type(a.grad.grad_fn).__name__ == "CloneBackward0"
    assert a.grad.is_contiguous()


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize(("make", "version"), [
    (lambda t: t.max(), 1),
    (lambda t: t.min(), 1),
    (lambda t: t.median(), 1),
    (lambda t: t.nanmedian(), 1),
    (lambda t: t.max(0)[0], 2),
    (lambda t: t.min(1, keepdim=True)[0], 2),
    (lambda t: t.kthvalue(1, 0)[0], 2),
    (lambda t: t.mode(0)[0], 2),
    (lambda t: t.median(0)[0], 2),
    (lambda t: t.sort(0)[0], 2),
    (lambda t: t.topk(1, 1)[0], 2),
    (lambda t: t.cummax(0)[0], 2),
    (lambda t: t.cummin(1)[0], 2),
    (lambda t: t.trace(), 2),
    (lambda t: t.gather(0, torch.zeros(2, 3, dtype=torch.int64)), 1),
    (lambda t: t.index_select(0, torch.tensor([0, 0])), 1),
    (lambda t: t.take(torch.tensor([0, 4])), 1),
    (lambda t: t.masked_select(t > 0.5), 1),
    (lambda t: t[torch.tensor([1, 1])], 1),
    (lambda t: t[t > 0.5], 1),
    (lambda t: t.exp(), 0),
])
def test_gradients_written_into_zeros_count_torchs_writes(make, version, create_graph):
    t = torch.tensor([[0.3, 0.9, 0.5], [0.7, 0.1, 0.8]], requires_grad=True)
    assert _grad(make, t, create_graph)._version == version
    make(t).sum().backward()
    assert t.grad._version == version  # taken over by .grad, count and all


def test_maximum_and_minimum_fill_in_both_gradients():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([3.0, 2.0, 1.0], requires_grad=True)
    for f in (torch.maximum, torch.minimum):
        assert [g._version for g in torch.autograd.grad(f(a, b).sum(), (a, b))] == [1, 1]


def test_maximum_lays_both_gradients_out_after_its_inputs():
    a = torch.ones(2, 3).t().requires_grad_()
    b = torch.ones(3, 2).requires_grad_()
    torch.maximum(a, b * 2).sum().backward()
    assert (a.grad._version, a.grad.stride()) == (1, (1, 3))  # taken over, count and all
    assert (b.grad._version, b.grad.stride()) == (1, (2, 1))  # transposed: copied into
    torch.maximum(a, b * 2).sum().backward()
    assert (a.grad._version, b.grad._version) == (2, 2)
    assert torch.equal(b.grad, torch.full((3, 2), 4.0))


def test_a_transposed_gradient_made_row_by_row_is_added_into_in_place():
    a = torch.rand(2, 3).t().requires_grad_()
    torch.maximum(a, a).sum().backward()  # two halves, each written once, the second added
    assert (a.grad._version, a.grad.stride()) == (2, (1, 3))
    a.grad = None
    (a.flip(0) * a.flip(0)).sum().backward()  # flip's transposed copies, summed in place
    assert (a.grad._version, a.grad.stride()) == (1, (1, 3))


def test_a_write_through_a_view_of_a_transposed_tensor_hands_on_its_layout():
    a = torch.rand(2, 3).t().requires_grad_()
    b = a + a
    b.diagonal().zero_()
    seen = []
    b.grad_fn.register_hook(lambda grads, _: seen.append((grads[0].stride(), grads[0]._version)))
    b.sum().backward(retain_graph=True)
    assert seen == [((1, 3), 2)]  # the base's strides, written twice
    assert (a.grad._version, a.grad.stride()) == (0, (1, 3))  # summed, then taken over
    b.sum().backward()
    assert a.grad._version == 1
    assert torch.equal(a.grad, torch.full((3, 2), 4.0) * (1 - torch.eye(3, 2)))


def test_a_grad_taken_over_from_a_view_keeps_its_count():
    a = torch.tensor([0.3, 0.5, 0.7], requires_grad=True)
    a.as_strided((1,), (1,)).norm().backward()  # the gradient views a zeroed storage
    assert a.grad._version == 1


def test_under_a_dispatch_mode_formulas_and_buffers_count_no_writes():
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        t = torch.tensor([[0.3, 0.9, 0.5], [0.7, 0.1, 0.8]], requires_grad=True)
        assert [_grad(f, t)._version for f in (
            lambda t: t.max(), lambda t: t.sort(0)[0], lambda t: t.trace(),
            lambda t: t[torch.tensor([1, 1])], lambda t: t * t)] == [0, 0, 0, 0, 0]
        other = t.detach() * 0 + 0.5
        assert _grad(lambda t: torch.maximum(t, other), t)._version == 1  # still in place
        assert _grad(lambda t: t.as_strided((1,), (1,)), t)._version == 1
        a = torch.tensor([0.3, 0.5, 0.7], requires_grad=True)
        (a * a).sum().backward()  # two terms, summed out of place
        assert a.grad._version == 0
        (a * a).sum().backward()  # .grad itself is still added into
        assert a.grad._version == 1


def test_a_gradient_handed_on_unchanged_is_added_into_in_place():
    x = torch.tensor([0.3, 0.5, 0.7], requires_grad=True)
    x.addcmul(x, x).exp().sum().backward()  # three terms, one buffer: two in-place adds
    assert x.grad._version == 2
    (g,) = torch.autograd.grad(x.addcmul(x, x).exp().sum(), x)
    assert g._version == 2
    (g,) = torch.autograd.grad(x.addcmul(x, x).sum(), x)  # the first term is expanded:
    assert g._version == 1  # the second makes a new sum, the third is added into it


@pytest.mark.parametrize("check_nan", [True, False])
def test_anomaly_mode_adds_in_place_as_the_plain_engine_does(check_nan):
    x = torch.tensor([0.3, 0.5, 0.7], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the mode's warning that it is on
        with torch.autograd.detect_anomaly(check_nan=check_nan):
            x.addcmul(x, x).exp().sum().backward()
            (g,) = torch.autograd.grad(x.addcmul(x, x).exp().sum(), x)
    assert x.grad._version == 2 and g._version == 2
