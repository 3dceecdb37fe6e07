"""Black-box tests of the elementwise, reduction, matrix and indexing operations.

Written against torch's API; they pass on real torch and on refgrad. Expected
node names were recorded from torch 2.13.
"""

import numpy as np
import pytest
import torch


def _leaf(array):
    return torch.tensor(np.asarray(array, dtype=np.float64), requires_grad=True)


def _chain(t):
    names, node = [], t.grad_fn
    while node is not None and type(node).__name__ != "AccumulateGrad":
        names.append(type(node).__name__)
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


def test_mlp_layer_gradient_matches_the_formula():
    rng = np.random.default_rng(0)
    xs, ws = rng.standard_normal((5, 3)), rng.standard_normal((3, 4))
    x, w = _leaf(xs), _leaf(ws)
    (x @ w).relu().mean().backward()
    upstream = (xs @ ws > 0) / 20.0
    np.testing.assert_allclose(w.grad.numpy(), xs.T @ upstream, rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), upstream @ ws.T, rtol=1e-12)


@pytest.mark.parametrize(("left", "right", "chain"), [
    ((3,), (3,), ["DotBackward0"]),
    ((2, 3), (3,), ["MvBackward0"]),
    ((3,), (3, 4), ["SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0"]),
    ((2, 3), (3, 4), ["MmBackward0"]),
    ((2, 2, 3), (3, 4), ["UnsafeViewBackward0", "MmBackward0", "ViewBackward0"]),
    ((2, 2, 3), (2, 3, 4), ["UnsafeViewBackward0", "BmmBackward0", "ViewBackward0",
                            "ExpandBackward0"]),
])
def test_matmul_records_torchs_path(left, right, chain):
    out = _leaf(np.ones(left)) @ _leaf(np.ones(right))
    assert _chain(out) == chain


def test_max_along_a_dimension_is_a_named_pair_with_plain_indices():
    x = _leaf([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]])
    values, indices = result = x.max(1)
    assert result.values is values and result.indices is indices
    assert indices.tolist() == [1, 0]
    assert indices.grad_fn is None and not indices.requires_grad
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]


def test_max_over_everything_shares_ties():
    x = _leaf([3.0, 1.0, 3.0])
    x.max().backward()
    assert x.grad.tolist() == [0.5, 0.0, 0.5]


def test_prod_gradient_with_one_zero_is_the_product_of_the_rest():
    x = _leaf([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0]])
    x.prod(1).sum().backward()
    assert x.grad.tolist() == [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]]


def test_softmax_rows_sum_to_one_and_log_softmax_gradients_sum_to_zero():
    x = _leaf(np.random.default_rng(1).standard_normal((3, 4)))
    np.testing.assert_allclose(x.softmax(1).sum(1).detach().numpy(), np.ones(3))
    x.log_softmax(1)[:, 0].sum().backward()
    np.testing.assert_allclose(x.grad.sum(1).numpy(), np.zeros(3), atol=1e-12)


def test_indexing_adds_the_gradient_of_repeated_picks():
    x = _leaf([1.0, 2.0, 3.0])
    x[torch.tensor([0, 0, 2])].sum().backward()
    assert x.grad.tolist() == [2.0, 0.0, 1.0]


def test_basic_indexing_gives_views_of_the_base():
    x = _leaf(np.arange(12.0).reshape(3, 4))
    assert _chain(x[0, 1:]) == ["SliceBackward0", "SelectBackward0"]
    assert _chain(x[None, ..., 1]) == ["SelectBackward0", "UnsqueezeBackward0"]
    assert _chain(x[0:3, :]) == ["AliasBackward0"]
    assert x[1]._base is x and x[:, ::2]._base is x
    plain = torch.zeros(2, 3)
    plain[1].numpy()[2] = 5.0
    assert plain.tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 5.0]]


def test_reshape_copies_only_when_no_view_fits():
    x = _leaf(np.ones((2, 3)))
    assert _chain(x.reshape(3, 2)) == ["ViewBackward0"]
    assert _chain(x.t().reshape(6)) == ["UnsafeViewBackward0", "CloneBackward0", "TBackward0"]
    assert x.t().reshape(6)._base is None


def test_cat_splits_its_gradient_and_iteration_unbinds():
    a, b = _leaf([1.0, 2.0]), _leaf([[3.0], [4.0]])
    out = torch.cat([a.unsqueeze(1), b], 1)
    (out * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert a.grad.tolist() == [1.0, 3.0] and b.grad.tolist() == [[2.0], [4.0]]
    rows = list(_leaf(np.ones((3, 2))))
    assert len(rows) == 3 and type(rows[0].grad_fn).__name__ == "UnbindBackward0"


def test_clamp_keeps_its_bounds_and_passes_gradient_inside_them():
    x = _leaf([-1.0, 0.5, 2.0])
    y = x.clamp(min=0.0)
    assert y.grad_fn._saved_min == 0.0 and y.grad_fn._saved_max is None
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0]


def test_maximum_splits_ties_in_half():
    a, b = _leaf([1.0, 2.0]), _leaf([1.0, 3.0])
    torch.maximum(a, b).sum().backward()
    assert a.grad.tolist() == [0.5, 0.0] and b.grad.tolist() == [0.5, 1.0]


def test_mean_of_integers_is_refused():
    with pytest.raises(RuntimeError, match="could not infer output dtype"):
        torch.tensor([1, 2]).mean()


def test_equal_and_allclose_answer_with_python_bools():
    assert torch.equal(torch.ones(2), torch.ones(2)) is True
    assert torch.equal(torch.ones(2), torch.ones(3)) is False
    assert torch.equal(torch.ones(2), torch.ones(2, dtype=torch.float64))
    assert torch.allclose(torch.ones(2), torch.ones(2) + 1e-9)
    assert torch.allclose(torch.ones(2), torch.ones(1))
    nan = torch.tensor([float("nan")])
    assert torch.allclose(nan, nan, equal_nan=True) and not torch.allclose(nan, nan)
    with pytest.raises(RuntimeError, match="^Float did not match Double$"):
        torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))
