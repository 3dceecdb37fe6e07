"""AccumulateGrad takes the first gradient without a copy only when nobody else holds it."""

import pytest

import refgrad as torch
from conformance._warned import always_warned
from refgrad.autograd import _accumulate


def _fresh_through_hook(leaf, keep=None):
    seen = {}

    def hook(g):
        fresh = g * 1
        seen["array"] = id(fresh._data)
        if keep is not None:
            keep.append(fresh)
        return fresh

    leaf.register_hook(hook)
    return seen


def test_a_gradient_nobody_holds_becomes_grad_without_a_copy():
    if not _accumulate._COUNTS_KNOWN:  # other interpreters always copy: see the copy test
        assert _accumulate.sole_holder([torch.ones(1)], 0, 0) is False
        return
    x = torch.ones(3, requires_grad=True)
    seen = _fresh_through_hook(x)
    (x * 2).sum().backward()
    assert id(x.grad._data) == seen["array"]
    assert x.grad.tolist() == [2.0, 2.0, 2.0] and x.grad._version == 0


def test_a_gradient_someone_keeps_is_copied():
    x = torch.ones(3, requires_grad=True)
    kept = []
    _fresh_through_hook(x, keep=kept)
    (x * 2).sum().backward()
    assert x.grad._data is not kept[0]._data
    x.grad.add_(1)
    assert kept[0].tolist() == [2.0, 2.0, 2.0]


def test_the_callers_gradient_is_copied():
    g = torch.ones(3)
    x = torch.ones(3, requires_grad=True)
    (x + 0).backward(g)
    x.grad.add_(1)
    assert g.tolist() == [1.0, 1.0, 1.0]


def test_one_gradient_sent_to_two_leaves_is_not_shared():
    a = torch.ones(3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    (a + b).sum().backward()
    a.grad.add_(1)
    assert b.grad.tolist() == [1.0, 1.0, 1.0]


def test_a_view_is_copied_not_stolen():
    x = torch.ones(3, requires_grad=True)
    x.sum().backward()  # SumBackward0 hands over an expanded view
    assert x.grad._data.base is None and x.grad._data.flags.c_contiguous


def test_create_graph_always_copies():
    x = torch.ones(3, requires_grad=True)
    seen = _fresh_through_hook(x)
    with always_warned(torch):
        with pytest.warns(UserWarning, match="reference cycle"):
            (x * 2).sum().backward(create_graph=True)
    assert id(x.grad._data) != seen["array"]


def test_a_partial_sum_someone_holds_is_not_added_into():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    a, b = y * 2, y * 3
    kept = []
    for node in (a.grad_fn, b.grad_fn):
        node.register_hook(lambda grad_inputs, grad_outputs: kept.append(grad_inputs[0]))
    (a + b).sum().backward()
    assert sorted(k.tolist()[0] for k in kept) == [2.0, 3.0]
    assert x.grad.tolist() == [5.0, 5.0, 5.0]


def test_three_contributions_sum_correctly_in_place():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x.sin() * x + x.exp()).sum().backward()
    expected = (x.cos() * x + x.sin() + x.exp()).detach()
    assert torch.allclose(x.grad, expected)


def test_inside_inference_mode_copies_and_partial_sums_count_no_writes():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    total = (y * 2 + y * 3).sum()  # two gradients meet in y's buffer, added in place
    g = torch.ones(())
    with torch.inference_mode():
        total.backward(g)  # the caller's gradient: the first .grad is a copy
    assert x.grad.tolist() == [5.0, 5.0] and x.grad._version_counter is None
    assert _accumulate._copy(torch.ones(2), x, shared=True)._version_counter.value == 1


def _strided_chain(keep):
    """A gradient whose array ends a chain of views (a reshape, then two as_strided), with
    the link named by ``keep`` also held outside; that link, or None."""
    import numpy as np

    from refgrad._tensor import make_tensor

    owner = np.ones((1, 3, 1))
    links = {"owner": owner}
    links["reshaped"] = owner.reshape(3, 1, 1, 1, 1, 1)
    links["strided"] = np.lib.stride_tricks.as_strided(links["reshaped"], (1, 1, 1, 3),
                                                      (24, 24, 24, 8))
    data = np.lib.stride_tricks.as_strided(links["strided"], (1, 1, 3), (24, 24, 8))
    kept = links.get(keep)
    del owner, links
    return [make_tensor(data)], kept


@pytest.mark.parametrize("keep", [None, "owner", "reshaped", "strided"])
def test_a_view_chain_is_added_into_only_when_no_link_is_held_elsewhere(keep):
    holder, kept = _strided_chain(keep)
    alone = _accumulate._COUNTS_KNOWN and keep is None
    assert _accumulate.sole_holder(holder, 0, 0) is alone
    assert kept is None or kept.base is not None or keep == "owner"
