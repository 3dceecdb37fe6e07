"""Black-box tests: median, nanmedian, kthvalue, mode, aminmax, quantile and nanquantile.
The same assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import graph_nodes, raises

NAN = math.nan


def _saved(node):
    return sorted(n for n in dir(node) if n.startswith("_saved_"))


def _names(t):
    """The class names of every node of ``t``'s graph."""
    names, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            names.add(type(node).__name__)
            stack.extend(n for n, _ in node.next_functions)
    return names


def _lower_middle(values):
    """The element torch's median picks: the middle of the (value, position) order."""
    ordered = sorted((v, i) for i, v in enumerate(values))
    return ordered[(len(values) - 1) // 2]


def test_median_of_everything_shares_its_gradient_among_ties():
    x = torch.tensor([3.0, 1.0, 2.0, 1.0, 3.0, 2.0], requires_grad=True)
    m = x.median()
    assert m.item() == 2.0 and type(m.grad_fn).__name__ == "MedianBackward0"
    assert _saved(m.grad_fn) == ["_saved_result", "_saved_self"]
    m.backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.5, 0.0, 0.0, 0.5]
    assert torch.median(torch.tensor([4, 1, 3, 2])).item() == 2  # the lower middle value
    assert torch.tensor([1.0, NAN, 2.0]).median().isnan()
    assert torch.tensor([]).median().isnan()


def test_median_along_a_dimension_picks_the_middle_of_value_then_position():
    rows = [[1.0, 5.0, 1.0, 5.0], [2.0, 2.0, 2.0, 2.0], [4.0, 3.0, 3.0, 4.0], [3.0, 1.0, 2.0, 1.0]]
    x = torch.tensor(rows, requires_grad=True)
    out = x.median(1)
    assert type(out).__name__ == "median" and repr(out).startswith("torch.return_types.median(")
    assert (type(out).n_fields, out.n_sequence_fields, out.n_unnamed_fields) == (2, 2, 0)
    expected = [_lower_middle(r) for r in rows]
    assert out.values.tolist() == [v for v, _ in expected]
    assert out.indices.tolist() == [i for _, i in expected] == [2, 1, 2, 3]
    node = out.values.grad_fn
    assert type(node).__name__ == "MedianBackward1"
    assert (node._saved_dim, node._saved_keepdim, tuple(node._saved_self_sym_sizes)) == (
        1, False, (4, 4))
    assert node._saved_indices.tolist() == out.indices.tolist()
    out.values.sum().backward()
    assert x.grad.tolist() == [[float(j == i) for j in range(4)] for _, i in expected]
    kept = torch.median(x, 0, True)
    assert kept.values.shape == (1, 4) and kept.indices.shape == (1, 4)


def test_median_takes_the_first_nan_and_nanmedian_leaves_nans_out():
    x = torch.tensor([[1.0, NAN, 2.0, NAN], [NAN, NAN, NAN, NAN], [5.0, 1.0, 3.0, NAN]])
    m = x.median(1)
    assert m.indices.tolist() == [1, 0, 3] and m.values.isnan().all()
    n = x.nanmedian(1)
    assert type(n).__name__ == "nanmedian"
    assert n.values[0].item() == 1.0 and n.values[1].isnan() and n.values[2].item() == 3.0
    assert n.indices.tolist() == [0, 2, 2]  # a row of nan alone: where torch's select left it
    assert [torch.full((k,), NAN).nanmedian(0).indices.item() for k in range(1, 9)] == [
        0, 0, 0, 2, 2, 3, 5, 6]
    assert torch.tensor([1.0, NAN, 2.0, 3.0]).nanmedian().item() == 2.0
    y = torch.tensor([1.0, NAN, NAN], requires_grad=True)
    y.nanmedian().backward()
    assert y.grad.tolist() == [1.0, 0.0, 0.0]
    z = torch.tensor([1.0, NAN, NAN], requires_grad=True)
    z.median().backward()
    assert z.grad.tolist() == [0.0, 0.5, 0.5]
    assert type(torch.nanmedian(y, 0).values.grad_fn).__name__ == "NanmedianBackward1"


def test_kthvalue_and_mode_choose_torchs_element_on_ties():
    x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [2.0, 2.0, 5.0, 0.0]], requires_grad=True)
    k = x.kthvalue(2, 1)
    assert type(k).__name__ == "kthvalue"
    assert k.values.tolist() == [1.0, 2.0] and k.indices.tolist() == [3, 0]
    node = k.values.grad_fn
    assert type(node).__name__ == "KthvalueBackward0"
    assert _saved(node) == ["_saved_dim", "_saved_indices", "_saved_keepdim",
                            "_saved_self_sym_sizes"]
    k.values.sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]]
    m = x.mode(1)
    assert type(m).__name__ == "mode" and type(m.values.grad_fn).__name__ == "ModeBackward0"
    assert m.values.tolist() == [1.0, 2.0] and m.indices.tolist() == [3, 1]
    assert torch.tensor([1, 2, 2, 3, 3, 1]).mode().indices.item() == 5  # smallest, last seen
    long = torch.tensor([float((i * 7) % 5) for i in range(40)])
    assert long.mode().values.item() == 0.0 and long.mode().indices.item() == 0
    assert long.kthvalue(9).indices.item() == 28 and long.kthvalue(20).indices.item() == 11
    assert torch.tensor([1.0, NAN, 0.5]).kthvalue(3).values.isnan()
    assert torch.tensor([True, False, True]).mode().indices.item() == 2


def test_aminmax_shares_each_gradient_among_ties():
    x = torch.tensor([[3.0, 1.0, 3.0, 0.0], [2.0, 2.0, 5.0, 5.0]], requires_grad=True)
    both = x.aminmax()
    assert type(both).__name__ == "aminmax" and both.min is both[0] and both.max is both[1]
    assert (both.min.item(), both.max.item()) == (0.0, 5.0)
    node = both.min.grad_fn
    assert node is both.max.grad_fn and type(node).__name__ == "AminmaxBackward0"
    assert _saved(node) == ["_saved_dim", "_saved_keepdim", "_saved_max", "_saved_min",
                            "_saved_self"]
    assert node._saved_dim is None and node._saved_self is x
    (both.min + both.max * 10).backward()
    assert x.grad.tolist() == [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 5.0, 5.0]]
    rows = torch.aminmax(x, dim=1, keepdim=True)
    assert rows.min.tolist() == [[0.0], [2.0]] and rows.max.tolist() == [[3.0], [5.0]]
    assert torch.tensor([1, 5, 2]).aminmax().max.dtype == torch.int64





@pytest.mark.parametrize("dim", [None, 1])
def test_aminmax_with_one_result_used_adds_no_zeros_in_its_double_backward(dim):
    x = torch.tensor([[1.0, 5.0, 3.0], [2.0, 0.0, 4.0]], requires_grad=True)
    share = ["MulBackward0", "DivBackward0", "ViewBackward0", "MulBackward0", None,
             "MulBackward1", "PowBackward0", "AminmaxBackward0", "AccumulateGrad", None, None]
    depths = [0, 1, 2, 3, 4, 4, 5, 6, 7, 2, 1]
    for which in (0, 1):
        used = torch.aminmax(x, dim=dim)[which]
        (g,) = torch.autograd.grad((used**2).sum(), x, create_graph=True)
        assert graph_nodes(g) == list(zip(depths, share))
    both = torch.aminmax(x, dim=dim)
    (g,) = torch.autograd.grad((both.min**2 + both.max**3).sum(), x, create_graph=True)
    graph = graph_nodes(g)
    assert graph[0] == (0, "AddBackward0")
    assert [name for _, name in graph[1:]] == share * 2
    expected = [[2.0, 75.0, 0.0], [0.0, 0.0, 48.0]] if dim else [[0.0, 75.0, 0.0], [0.0] * 3]
    assert g.tolist() == expected


def _linear_quantile(values, q):
    ordered = sorted(values)
    rank = q * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (rank - low) * (ordered[high] - ordered[low])


def test_quantile_interpolates_and_splits_its_gradient():
    rows = [[3.0, 1.0, 2.0, 7.0, 4.0], [0.5, -1.0, 6.0, 2.0, 2.5]]
    x = torch.tensor(rows, dtype=torch.float64, requires_grad=True)
    q = torch.quantile(x, 0.3, dim=1)
    assert q.tolist() == pytest.approx([_linear_quantile(r, 0.3) for r in rows])
    assert type(q.grad_fn).__name__ == "SqueezeBackward4"
    assert type(q.grad_fn.next_functions[0][0]).__name__ == "LerpBackward1"
    q.sum().backward()
    # rank 1.2: the second smallest gets 0.8 of the gradient, the third 0.2
    expected = [[0.2, 0.0, 0.8, 0.0, 0.0], [0.8, 0.0, 0.0, 0.2, 0.0]]
    assert [pytest.approx(row) for row in expected] == x.grad.tolist()
    modes = {m: torch.quantile(x, 0.3, dim=1, interpolation=m).tolist()
             for m in ("lower", "higher", "midpoint", "nearest")}
    assert modes == {"lower": [2.0, 0.5], "higher": [3.0, 2.0], "midpoint": [2.5, 1.25],
                     "nearest": [2.0, 0.5]}


def test_quantile_shapes_and_the_gradient_of_q():
    x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [2.0, 2.0, 5.0, 0.0]], requires_grad=True)
    qs = torch.tensor([0.25, 0.5], requires_grad=True)
    out = x.quantile(qs, dim=1, keepdim=True)
    assert out.shape == (2, 2, 1)
    assert torch.quantile(x, qs, dim=0).shape == (2, 4)
    assert torch.quantile(x, 0.5, keepdim=True).shape == (1, 1)
    assert torch.quantile(torch.tensor(2.0), 0.5).shape == ()
    whole = torch.quantile(x, qs)
    assert whole.tolist() == [1.0, 2.0]
    whole[0].backward()
    # rank 0.25 * 7 = 1.75 of [0, 1, 1, 2, 2, 2, 3, 5]: moving q by 1 moves the rank by 7
    assert qs.grad.tolist() == [0.0, 0.0]  # both neighbours are 1
    ys = torch.tensor([0.75], requires_grad=True)
    torch.quantile(torch.tensor([0.0, 1.0, 3.0]), ys).sum().backward()
    assert ys.grad.tolist() == [4.0]  # rank 1.5, between 1 and 3: (3 - 1) * 2 per unit of q
    assert "MulBackward1" in _names(torch.quantile(torch.tensor([0.0, 1.0]), ys))
    assert torch.quantile(torch.tensor([1.0, NAN, 3.0]), 0.5).isnan()
    assert torch.nanquantile(torch.tensor([1.0, NAN, 3.0]), 0.5).item() == 2.0
    assert torch.nanquantile(torch.tensor([NAN, NAN]), 0.5).isnan()


def test_errors():
    x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [2.0, 2.0, 5.0, 0.0]])
    with raises(NotImplementedError, "\"median_cpu\" not implemented for 'Bool'"):
        torch.tensor([True, False]).median()
    with raises(NotImplementedError, "\"median_out\" not implemented for 'Bool'"):
        torch.tensor([True, False]).nanmedian(0)
    with raises(IndexError, "median(): Expected reduction dim 0 to have non-zero size."):
        torch.zeros(0, 3).median(0)
    assert torch.zeros(0, 3).median(1).values.shape == (0,)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            "got 2)"):
        x.median(2)
    with raises(TypeError, "kthvalue(): argument 'k' (position 1) must be int, not float"):
        x.kthvalue(1.5)
    with raises(RuntimeError, "kthvalue(): selected number k out of range for dimension 1"):
        x.kthvalue(5, 1)
    with raises(RuntimeError, "kthvalue(): selected number k out of range for dimension 0"):
        torch.tensor(3.0).kthvalue(2)
    with raises(NotImplementedError, "\"kthvalue_cpu\" not implemented for 'Bool'"):
        torch.tensor([True]).kthvalue(1)
    with raises(IndexError, "mode(): Expected reduction dim 0 to have non-zero size."):
        torch.zeros(0, 3).mode(0)
    with raises(RuntimeError, "aminmax(): cannot compute aminmax over an empty dimension as "
                              "the operation has no identity."):
        torch.tensor([]).aminmax()
    with raises(IndexError, "aminmax: Expected reduction dim 0 to have non-zero size."):
        torch.zeros(0, 3).aminmax(dim=0)


def test_quantile_errors_come_in_torchs_order():
    x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [2.0, 2.0, 5.0, 0.0]])
    ints, empty = torch.tensor([1, 2, 3]), torch.tensor([])
    with raises(RuntimeError, "quantile() interpolation must be one of linear, lower, higher, "
                              "midpoint or nearest, but got foo"):
        torch.quantile(empty, 0.5, interpolation="foo")
    with raises(RuntimeError, "quantile() q must be in the range [0, 1] but got 1.5"):
        torch.quantile(ints, 1.5)
    with raises(RuntimeError, "quantile() input tensor must be non-empty"):
        torch.quantile(empty, torch.tensor([[0.5]]))
    with raises(RuntimeError, "quantile() q must be a scalar or 1D tensor"):
        torch.quantile(ints, torch.tensor([[0.5]]))
    with raises(RuntimeError, "quantile() input tensor must be either float or double dtype"):
        torch.quantile(ints, 0.5)
    with raises(RuntimeError, "quantile() q tensor must be same dtype as the input tensor"):
        torch.quantile(x, torch.tensor([0.5], dtype=torch.float64), dim=5)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            "got 5)"):
        torch.quantile(x, torch.tensor([1.5]), dim=5)
    with raises(RuntimeError, "quantile() q values must be in the range [0, 1]"):
        torch.quantile(x, torch.tensor([1.5]))
    assert torch.quantile(x, torch.tensor([]), dim=1).shape == (0, 2)


def test_argwhere_searchsorted_and_bucketize():
    x = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]], requires_grad=True)
    assert x.argwhere().tolist() == [[0, 1], [1, 0], [1, 2]]
    assert torch.argwhere(torch.tensor(3)).shape == (1, 0)
    sequence = torch.tensor([1.0, 3.0, 3.0, 5.0, 7.0])
    values = torch.tensor([[3.0, 6.0, 9.0], [0.0, 1.0, NAN]])
    left = torch.searchsorted(sequence, values)
    assert left.tolist() == [[1, 4, 5], [0, 0, 5]] and left.dtype == torch.int64
    assert torch.searchsorted(sequence, values, side="right").tolist() == [[3, 4, 5], [0, 1, 5]]
    assert torch.searchsorted(sequence, values, right=True, out_int32=True).dtype == torch.int32
    assert torch.searchsorted(sequence, 3.0).shape == ()
    rows = torch.tensor([[1, 3, 5], [2, 4, 6]])
    assert torch.searchsorted(rows, torch.tensor([[3], [3]])).tolist() == [[1], [1]]
    unsorted = torch.tensor([5.0, 1.0, 3.0])
    assert torch.searchsorted(unsorted, torch.tensor([2.0, 4.0]),
                              sorter=torch.tensor([1, 2, 0])).tolist() == [1, 2]
    assert torch.bucketize(values, sequence).tolist() == left.tolist()
    assert torch.bucketize(values, sequence, right=True).tolist() == [[3, 4, 5], [0, 1, 5]]
    with raises(RuntimeError, "torch.searchsorted(): side can only be 'left' or 'right' but got "
                              "middle"):
        torch.searchsorted(sequence, values, side="middle")
    with raises(RuntimeError, "torch.searchsorted(): side and right can't be set to opposites, "
                              "got side of left while right was True"):
        torch.searchsorted(sequence, values, side="left", right=True)
    with raises(RuntimeError, "torch.searchsorted(): boundaries tensor should be 1 dimension or "
                              "the first N-1 dimensions of boundaries tensor and input value "
                              "tensor must match, but we got boundaries tensor [2, 3] and input "
                              "value tensor [1, 2]"):
        torch.searchsorted(rows, torch.tensor([[3, 1]]))
    with raises(RuntimeError, "boundaries tensor must be 1 dimension, but got dim(2)"):
        torch.bucketize(values, rows)


def test_isin():
    found = torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4, 6]))
    assert found.tolist() == [False, True, False, True] and found.dtype == torch.bool
    assert torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4]), invert=True).tolist() == [
        True, False, True, False]
    assert torch.isin(torch.tensor([1.0, 2.5]), 2.5).tolist() == [False, True]
    assert torch.isin(2, torch.tensor([2, 4])).item() is True
    assert torch.isin(torch.tensor([NAN]), torch.tensor([NAN])).tolist() == [False]
    with pytest.raises(TypeError, match=r"^isin\(\) received an invalid combination of "
                                        r"arguments - got \(int, int\)"):
        torch.isin(2, 3)


@pytest.mark.parametrize("call", [
    "torch.isin(torch.tensor([True]), torch.tensor([False]))",
    "torch.isin(torch.tensor([True]), torch.tensor([1.0]), invert=True)",
    "torch.isin(torch.tensor([1, 2]), torch.tensor([], dtype=torch.bool))",
    "torch.isin(torch.tensor([1, 2]), True)", "torch.isin(True, torch.tensor([1, 2]))",
    "torch.isin(torch.tensor([True]), 1)",
])
def test_isin_takes_no_booleans(call):
    with raises(RuntimeError, "Unsupported input type encountered for isin(): Bool"):
        eval(call)


def test_unique_and_unique_consecutive():
    a = torch.tensor([3, 1, 2, 3, 1, 1, 5])
    assert torch.unique(a).tolist() == [1, 2, 3, 5]
    values, inverse, counts = a.unique(return_inverse=True, return_counts=True)
    assert inverse.tolist() == [2, 0, 1, 2, 0, 0, 3] and counts.tolist() == [3, 1, 2, 1]
    assert [values[i].item() for i in inverse.tolist()] == a.tolist()
    assert len(torch.unique(a, return_counts=True)) == 2
    m = torch.tensor([[1, 2], [0, 5], [1, 2], [0, 1]])
    rows, inverse, counts = torch.unique(m, dim=0, return_inverse=True, return_counts=True)
    assert rows.tolist() == [[0, 1], [0, 5], [1, 2]]
    assert inverse.tolist() == [2, 1, 2, 0] and counts.tolist() == [1, 1, 2]
    nans = torch.unique(torch.tensor([1.0, NAN, NAN, 0.0]), return_counts=True)
    assert nans[0][:2].tolist() == [0.0, 1.0] and nans[0][2:].isnan().all()
    assert nans[1].tolist() == [1, 1, 1, 1]
    single = torch.unique(torch.tensor(3), return_inverse=True)
    assert single[0].tolist() == [3] and single[1].shape == ()
    runs = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
    values, inverse, counts = torch.unique_consecutive(runs, return_inverse=True,
                                                       return_counts=True)
    assert values.tolist() == [1, 2, 3, 1, 2] and counts.tolist() == [2, 2, 1, 2, 1]
    assert inverse.tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    assert torch.unique_consecutive(m, dim=0, return_counts=True)[1].tolist() == [1, 1, 1, 1]
    square = torch.unique_consecutive(torch.tensor([[1, 1], [1, 1]]), return_inverse=True)
    assert square[1].tolist() == [[0, 0], [0, 0]]
    with raises(RuntimeError, "There are 0 sized dimensions, and they aren't selected, so "
                              "unique cannot be applied"):
        torch.unique(torch.zeros(0, 3), dim=1)


@pytest.mark.parametrize(("call", "node", "op"), [
    (lambda x: x.unique(), "Unique2Backward0", "_unique2"),
    (lambda x: torch.unique(x, sorted=False, return_inverse=True), "Unique2Backward0",
     "_unique2"),
    (lambda x: torch.unique(x, dim=0, return_counts=True), "UniqueDimBackward0", "unique_dim"),
    (lambda x: torch.unique_consecutive(x, return_inverse=True, return_counts=True),
     "UniqueConsecutiveBackward0", "unique_consecutive"),
    (lambda x: x.unique_consecutive(dim=1), "UniqueConsecutiveBackward0", "unique_consecutive"),
])
def test_unique_of_a_tensor_that_requires_grad_records_a_node_that_refuses(call, node, op):
    x = torch.tensor([[3.0, 1.0], [3.0, 1.0], [2.0, 2.0]], requires_grad=True)
    out = call(x)
    values, rest = (out[0], out[1:]) if isinstance(out, tuple) else (out, ())
    assert values.requires_grad and not values.is_leaf and type(values.grad_fn).__name__ == node
    assert values.grad_fn.next_functions[0][0].variable is x and _saved(values.grad_fn) == []
    assert all(t.dtype == torch.int64 and not t.requires_grad and t.is_leaf for t in rest)
    with pytest.raises(NotImplementedError, match=f"^the derivative for '{op}' is not "
                                                  r"implemented\.$"):
        (values * 2).sum().backward()
    assert x.grad is None
    with torch.no_grad():
        again = call(x)
    assert not (again[0] if isinstance(again, tuple) else again).requires_grad


def test_bincount_and_histc():
    a = torch.tensor([3, 1, 2, 3, 1, 1, 5])
    assert a.bincount().tolist() == [0, 3, 1, 2, 0, 1]
    assert torch.bincount(a, minlength=8).tolist() == [0, 3, 1, 2, 0, 1, 0, 0]
    weights = torch.tensor([0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0])
    summed = torch.bincount(a, weights=weights)
    assert summed.tolist() == [0.0, 3.0, 1.0, 1.5, 0.0, 2.0] and summed.dtype == torch.float32
    assert torch.bincount(a, weights=torch.ones(7, dtype=torch.int64)).dtype == torch.float64
    with raises(NotImplementedError, "\"bincount_cpu\" not implemented for 'Float'"):
        torch.bincount(torch.tensor([1.0]), minlength=-1)
    with raises(RuntimeError, "minlength should be >= 0"):
        torch.bincount(torch.tensor([-1]), minlength=-1)
    with raises(RuntimeError, "bincount only supports 1-d non-negative integral inputs."):
        torch.bincount(torch.tensor([-1, 2]))
    with raises(RuntimeError, "weights should be 1-d and have the same length as input"):
        torch.bincount(a, weights=torch.tensor([1.0]))
    data = torch.tensor([1.0, 2.0, 1.0, 4.0])
    assert torch.histc(data, bins=4, min=0, max=3).tolist() == [0.0, 2.0, 1.0, 0.0]
    assert data.histc(bins=4).tolist() == [2.0, 1.0, 0.0, 1.0]  # from 1 to 4
    assert torch.histc(data).shape == (100,)
    assert torch.histc(torch.tensor([2.0, 2.0]), bins=3).tolist() == [0.0, 2.0, 0.0]
    thirds = torch.tensor([0.1, 0.2, 0.3, 0.7, 1.0], dtype=torch.float64)
    assert torch.histc(thirds, bins=3, min=0, max=1).tolist() == [3.0, 0.0, 2.0]
    with raises(NotImplementedError, "\"histogram_cpu\" not implemented for 'Long'"):
        torch.histc(torch.tensor([1, 2]))
    with raises(RuntimeError, "torch.histogram(): bins must be > 0, but got 0 for dimension 0"):
        torch.histc(data, bins=0)
    with raises(RuntimeError, "torch.histc: max must be larger than min"):
        torch.histc(data, bins=2, min=3, max=1)
    with raises(RuntimeError, "torch.histc: range of [0, inf] is not finite"):
        torch.histc(data, bins=2, min=0, max=math.inf)


DD = "torch.histogramdd: "


def test_histogram_with_a_count_of_bins():
    x = torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5, 0.0])
    h = torch.histogram(x, bins=4)
    assert type(h) is torch.return_types.histogram and len(h) == 2 and h[0] is h.hist
    assert h.hist.tolist() == [1.0, 2.0, 2.0, 1.0] and h.bin_edges.tolist() == [0, 1, 2, 3, 4]
    assert repr(h).startswith("torch.return_types.histogram(\nhist=tensor([1., 2., 2., 1.]),")
    hist, edges = x.histogram(4, range=(0, 3))
    assert hist.tolist() == [1.0, 2.0, 1.0, 1.0] and edges.tolist() == [0.0, 0.75, 1.5, 2.25, 3.0]
    assert torch.histogram(x).hist.shape == (100,) and hist.dtype == torch.float32
    assert torch.histogram(torch.tensor([3.0, 3.0]), 4).bin_edges.tolist() == [
        2.5, 2.75, 3.0, 3.25, 3.5]
    assert torch.histogram(torch.tensor([]), 2).bin_edges.tolist() == [0.0, 0.5, 1.0]
    assert torch.histogram(torch.tensor(2.5), 2, range=(2.0, 3.0)).hist.tolist() == [0.0, 1.0]
    # the edges decide: scaling alone would put 0.3 (float32) in the third tenth
    tenths = torch.tensor([0.1, 0.2, 0.3, 0.7, 1.0, 0.9999999])
    assert torch.histogram(tenths, 10).hist.tolist() == [1, 1, 1, 0, 0, 0, 1, 0, 0, 2]
    even = torch.histogram(torch.linspace(0, 1, 1000), 7)
    assert even.hist.tolist() == [143.0, 143.0, 143.0, 142.0, 143.0, 143.0, 143.0]


def test_histogram_with_edges_weights_and_density():
    x = torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5, 0.0], dtype=torch.float64)
    edges = torch.tensor([0.0, 1.0, 3.5, 5.0], dtype=torch.float64)
    assert torch.histogram(x, edges).hist.tolist() == [1.0, 4.0, 1.0]
    weighted = torch.histogram(x, edges, weight=torch.arange(6.0, dtype=torch.float64))
    assert weighted.hist.tolist() == [5.0, 7.0, 3.0] and weighted.bin_edges.tolist() == [
        0.0, 1.0, 3.5, 5.0]
    assert weighted.bin_edges.data_ptr() != edges.data_ptr()
    outside = torch.histogram(torch.tensor([-1.0, 5.0, 0.0, 3.0]), torch.tensor([0.0, 1.0, 3.0]))
    assert outside.hist.tolist() == [1.0, 1.0]
    dense = torch.histogram(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), 3, density=True)
    assert dense.hist.tolist() == [0.5000000000000001, 0.4999999999999998, 0.5000000000000001]
    assert torch.histogram(x.float(), 2, range=(1.0, 2.0), weight=torch.ones(6),
                           density=True).hist.tolist() == [1.3333333730697632, 0.6666666865348816]
    flat = torch.histogram(x.reshape(2, 3), 3, weight=torch.arange(6.0, dtype=torch.float64))
    assert flat.hist.tolist() == [7.0, 5.0, 3.0]
    assert torch.isnan(torch.histogram(x, 2, range=(5.0, 6.0), density=True).hist).all()


def test_histogram_searches_edges_that_do_not_increase_as_torch_does():
    x = torch.tensor([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, NAN, math.inf, -math.inf])
    cases = [([0.0, NAN, 4.0], [0.0, 4.0]), ([0.0, NAN, NAN, 3.0, 6.0], [0.0, 0.0, 3.0, 3.0]),
             ([0.0, 3.0, NAN, 6.0], [0.0, 0.0, 6.0]), ([0.0, 5.0, 1.0, 2.0, 6.0], [1, 0, 1, 4]),
             ([NAN, 1.0, 6.0], [0.0, 0.0]), ([0.0, 2.0, NAN], [0.0, 0.0]), ([NAN, NAN], [0.0])]
    for edges, counts in cases:
        h = torch.histogram(x, torch.tensor(edges))
        assert h.hist.tolist() == counts
        assert torch.equal(torch.isnan(h.bin_edges), torch.isnan(torch.tensor(edges)))
    # infinite edges are edges: the elements between them count, and the width is infinite
    assert torch.histogram(x, torch.tensor([-math.inf, 2.0, math.inf])).hist.tolist() == [3, 5]
    dense = torch.histogram(x.double(), torch.tensor([0.0, 2.0, math.inf], dtype=torch.float64),
                            density=True)
    assert dense.hist.tolist() == [0.14285714285714285, 0.0]


@pytest.mark.parametrize(("low", "high", "shown"), [
    (0.0, NAN, "[0, nan]"), (NAN, 4.0, "[nan, 4]"), (-math.inf, 4.0, "[-inf, 4]"),
    (0.5, math.inf, "[0.5, inf]"), (NAN, NAN, "[nan, nan]"), (math.inf, math.inf, "[inf, inf]"),
])
def test_histogram_refuses_a_range_that_is_not_finite(low, high, shown):
    x = torch.tensor([1.0, 2.0, 3.0])
    for weight in (None, torch.ones(3)):
        with raises(RuntimeError, f"{DD}dimension 0's range {shown} is not finite"):
            torch.histogram(x, 3, range=(low, high), weight=weight)
    with raises(RuntimeError, f"{DD}dimension 0's range {shown} is not finite"):
        x.double().histogram(2, range=(low, high), density=True)


def test_histogram_leaves_out_elements_that_are_not_finite_within_a_range():
    x = torch.tensor([1.0, NAN, math.inf, -math.inf, 0.5])
    assert torch.histogram(x, 2, range=(0.0, 2.0)).hist.tolist() == [1.0, 1.0]
    assert torch.histogram(x, torch.tensor([0.0, 1.0, 2.0])).hist.tolist() == [1.0, 1.0]
    with raises(RuntimeError, f"{DD}dimension 0's range [-inf, inf] is not finite"):
        torch.histogram(x[2:], 2)


def test_histogram_records_a_node_without_a_derivative():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = torch.histogram(a, 2)
    assert h.hist.grad_fn is h.bin_edges.grad_fn and h.bin_edges.requires_grad
    assert type(h.hist.grad_fn).__name__ == "NotImplemented"
    with raises(RuntimeError, "derivative for aten::histogram is not implemented"):
        h.hist.sum().backward()
    w = torch.ones(2, requires_grad=True)
    assert len(torch.histogram(torch.ones(2), 2, weight=w).hist.grad_fn.next_functions) == 1
    b = torch.tensor([0.0, 1.0, 3.0], requires_grad=True)
    assert len(torch.histogram(a, b, weight=w).hist.grad_fn.next_functions) == 3
    with torch.no_grad():
        assert not torch.histogram(a, 2).hist.requires_grad


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda x: torch.histogram(x, 0), RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda x: torch.histogram(x, 0, range=(3.0, 1.0)), RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda x: torch.histogram(x, 4, range=(3.0, 1.0)), RuntimeError,
     f"{DD}min should not exceed max, but got min 3 max 1 for dimension 0"),
    (lambda x: torch.histogram(x, 4, range=(0.0, 3.0, 4.0)), RuntimeError,
     f"{DD}for a 1-dimensional histogram range should have 2 elements, but got 3"),
    (lambda x: torch.histogram(x, 4, range=(math.inf, 1.0)), RuntimeError,
     f"{DD}dimension 0's range [inf, 1] is not finite"),
    (lambda x: torch.histogram(torch.tensor([1.0, math.nan]), 4), RuntimeError,
     f"{DD}dimension 0's range [nan, nan] is not finite"),
    (lambda x: torch.histogram(x, 2, range=(3.0, 1.0), weight=torch.ones(2)), RuntimeError,
     f"{DD}min should not exceed max, but got min 3 max 1 for dimension 0"),
    (lambda x: torch.histogram(x, 3, weight=torch.ones(5)), RuntimeError,
     f"{DD}if weight tensor is provided it should have the same shape as the input tensor "
     "excluding its innermost dimension, but got input with shape [6, 1] and weight with "
     "shape [5]"),
    (lambda x: torch.histogram(x, 3, weight=torch.ones(6, dtype=torch.float64)), RuntimeError,
     f"{DD}if weight tensor is provided, input tensor and weight tensor should have the same "
     "dtype, but got input(float), and weight(double)"),
    (lambda x: torch.histogram(x, torch.tensor([0, 1, 3])), RuntimeError,
     f"{DD}input tensor and bins tensors should have the same dtype, but got input with dtype "
     "float and bins for dimension 0 with dtype long int"),
    (lambda x: torch.histogram(x, torch.tensor([[1]])), RuntimeError,
     f"{DD}input tensor and bins tensors should have the same dtype, but got input with dtype "
     "float and bins for dimension 0 with dtype long int"),
    (lambda x: torch.histogram(x, torch.tensor([[1.0]]), weight=torch.ones(2)), RuntimeError,
     f"{DD}bins tensor should have one dimension, but got 2 dimensions in the bins tensor for "
     "dimension 0"),
    (lambda x: torch.histogram(x, torch.tensor([])), RuntimeError,
     f"{DD}bins tensor should have at least 1 element, but got 0 elements in the bins tensor "
     "for dimension 0"),
    (lambda x: torch.histogram(x, torch.tensor([1.0]), weight=torch.ones(2)), RuntimeError,
     f"{DD}if weight tensor is provided it should have the same shape as the input tensor "
     "excluding its innermost dimension, but got input with shape [6, 1] and weight with "
     "shape [2]"),
    (lambda x: torch.histogram(x, torch.tensor([3.0])), RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda x: torch.histogram(torch.tensor([1, 2]), 2, weight=torch.ones(3)),
     NotImplementedError, "\"histogramdd\" not implemented for 'Long'"),
    (lambda x: torch.histogram(x.half(), 2), NotImplementedError,
     "\"histogramdd\" not implemented for 'Half'"),
    (lambda x: torch.histogram(torch.tensor([1, 2]), torch.tensor([1, 2])), NotImplementedError,
     "\"histogram_cpu\" not implemented for 'Long'"),
])
def test_histogram_refusals(call, kind, message):
    with raises(kind, message):
        call(torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5, 0.0]))


def test_histogram_argument_errors():
    x = torch.tensor([1.0, 2.0])
    listed = ("\n * (Tensor input, Tensor bins, *, Tensor weight = None, bool density = False, "
              "tuple of Tensors out = None)\n * (Tensor input, int bins = 100, *, tuple of floats "
              "range = None, Tensor weight = None, bool density = False, tuple of Tensors out = "
              "None)\n")
    for call, got in ((lambda: torch.histogram(x, 3.0), "(Tensor, float)"),
                      (lambda: torch.histogram(x, True), "(Tensor, bool)"),
                      (lambda: torch.histogram(x, bins=None), "(Tensor, bins=NoneType)"),
                      (lambda: torch.histogram(x, 2, density=None),
                       "(Tensor, int, density=NoneType)"),
                      (lambda: torch.histogram(x, torch.tensor([0.0, 1.0]), range=(0.0, 1.0)),
                       "(Tensor, Tensor, range=tuple)")):
        with raises(TypeError, "histogram() received an invalid combination of arguments - "
                               f"got {got}, but expected one of:{listed}"):
            call()
    with raises(TypeError, "histogram() received an invalid combination of arguments - got "
                           "(float), but expected one of:\n * (Tensor bins, *, Tensor weight = "
                           "None, bool density = False)\n * (int bins = 100, *, tuple of floats "
                           "range = None, Tensor weight = None, bool density = False)\n"):
        x.histogram(3.0)


@pytest.mark.parametrize("unique", [torch.unique, torch.unique_consecutive])
@pytest.mark.parametrize("shape, dim, strides", [
    ((0, 2), 0, (2, 1)), ((0,), 0, (1,)), ((2, 0), 1, (1, 1)), ((3, 0, 2), 1, (2, 2, 1)),
])
def test_unique_along_an_empty_dimension_is_empty(unique, shape, dim, strides):
    values, inverse, counts = unique(torch.ones(*shape), dim=dim, return_inverse=True,
                                     return_counts=True)
    assert values.shape == shape and values.stride() == strides
    assert inverse.shape == (0,) and counts.shape == (0,) and counts.dtype == torch.int64
    assert unique(torch.ones(*shape), dim=dim).shape == shape
