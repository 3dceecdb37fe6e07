"""Black-box tests: scatter, scatter_add, scatter_reduce, index_add, index_copy, index_fill,
masked_scatter, take and take_along_dim, and their in-place forms. The same assertions run
on torch.
"""

import math

import pytest
import torch

from conformance._support import raises
from conformance._warned import always_warned


def _names(node):
    return [None if n is None else type(n).__name__ for n, _ in node.next_functions]


def test_scatter_writes_and_reads_back_where_it_wrote():
    x = torch.zeros(3, 4, requires_grad=True)
    src = torch.arange(1.0, 9.0).reshape(2, 4).requires_grad_()
    index = torch.tensor([[0, 1, 2, 0], [0, 0, 0, 0]])
    y = x.scatter(0, index, src)
    assert y.tolist() == [[5.0, 6.0, 7.0, 8.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 3.0, 0.0]]
    node = y.grad_fn
    assert type(node).__name__ == "ScatterBackward0" and _names(node) == ["AccumulateGrad"] * 2
    assert node._saved_dim == 0 and node._saved_index.tolist() == index.tolist()
    y.backward(torch.arange(12.0).reshape(3, 4))
    # the places written lose x's gradient; every source element reads its place's, the
    # one overwritten at (0, 0) included
    assert x.grad.tolist() == [[0.0, 0.0, 0.0, 0.0], [4.0, 0.0, 6.0, 7.0], [8.0, 9.0, 0.0, 11.0]]
    assert src.grad.tolist() == [[0.0, 5.0, 10.0, 3.0], [0.0, 1.0, 2.0, 3.0]]


def test_scatter_of_a_number_and_scatter_add():
    x = torch.ones(2, 3, requires_grad=True)
    y = torch.scatter(x, 1, torch.tensor([[2], [0]]), value=-1.0)
    assert y.tolist() == [[1.0, 1.0, -1.0], [-1.0, 1.0, 1.0]]
    assert type(y.grad_fn).__name__ == "ScatterBackward1" and _names(y.grad_fn) == [
        "AccumulateGrad"]
    assert torch.zeros(3, dtype=torch.long).scatter(0, torch.tensor([0]), 1.5).tolist() == [
        1, 0, 0]
    src = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    z = x.scatter_add(1, torch.tensor([[0, 0, 2]]), src)
    assert z.tolist() == [[4.0, 1.0, 4.0], [1.0, 1.0, 1.0]]
    assert type(z.grad_fn).__name__ == "ScatterAddBackward0"
    z.backward(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    assert x.grad.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert src.grad.tolist() == [[1.0, 1.0, 3.0]]
    empty = torch.zeros(1, 0, dtype=torch.long)
    assert torch.zeros(2, 3).scatter(0, empty, torch.ones(1, 2)).tolist() == [[0.0] * 3] * 2


def test_bad_scatters():
    x = torch.zeros(3, 4)
    with raises(RuntimeError, "scatter(): Expected dtype int32/int64 for index"):
        x.scatter(0, torch.tensor([[0.0]]), torch.ones(1, 1))
    with raises(RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype"):
        x.scatter_add(0, torch.tensor([[0]]), torch.ones(1, 1, dtype=torch.float64))
    with raises(RuntimeError, "Index tensor must have the same number of dimensions as self "
                              "tensor"):
        x.scatter(0, torch.tensor([0]), torch.ones(1, 1))
    with raises(RuntimeError, "Index tensor must have the same number of dimensions as src "
                              "tensor"):
        x.scatter(0, torch.tensor([[0]]), torch.tensor(1.0))
    with raises(RuntimeError, "Expected index [1, 5] to be no larger than self [3, 4] apart "
                              "from dimension 0 and to be no larger size than src [1, 5]"):
        x.scatter(0, torch.tensor([[0, 1, 2, 0, 0]]), torch.ones(1, 5))
    with raises(RuntimeError, "Expected index [1, 5] to be no larger than self [3, 4] apart "
                              "from dimension 0"):
        x.scatter(0, torch.tensor([[0, 1, 2, 0, 0]]), 2.0)
    with raises(RuntimeError, "index 3 is out of bounds for dimension 0 with size 3"):
        x.scatter(0, torch.tensor([[3]]), torch.ones(1, 1))
    with raises(RuntimeError, "index -1 is out of bounds for dimension 0 with size 3"):
        x.scatter_add(0, torch.tensor([[-1]]), torch.ones(1, 1))
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            "got 2)"):
        x.scatter(2, torch.tensor([[0]]), torch.ones(1, 1))
    with raises(RuntimeError, "value cannot be converted to type int8_t without overflow"):
        torch.zeros(3, dtype=torch.int8).scatter(0, torch.tensor([0]), 300)


def test_index_add_and_what_it_keeps():
    table = torch.zeros(4, 2, requires_grad=True)
    rows = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    out = table.index_add(0, torch.tensor([1, 3, 1]), rows, alpha=2)
    assert out.tolist() == [[0.0, 0.0], [12.0, 16.0], [0.0, 0.0], [6.0, 8.0]]
    node = out.grad_fn
    assert type(node).__name__ == "IndexAddBackward0"
    assert (node._saved_alpha, node._saved_dim, node._saved_source_dim) == (2, 0, 2)
    assert node._saved_source.tolist() == rows.tolist()
    out.backward(torch.arange(8.0).reshape(4, 2))
    assert table.grad.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]
    assert rows.grad.tolist() == [[4.0, 6.0], [12.0, 14.0], [4.0, 6.0]]  # 2 * index_select
    ints = torch.zeros(3, dtype=torch.long).index_add(0, torch.tensor([0]), torch.tensor([5]),
                                                      alpha=2)
    assert ints.tolist() == [10, 0, 0]


def test_index_copy_and_index_fill():
    x = torch.zeros(3, 2, requires_grad=True)
    source = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.index_copy(0, torch.tensor([2, 0]), source)
    assert y.tolist() == [[3.0, 4.0], [0.0, 0.0], [1.0, 2.0]]
    assert type(y.grad_fn).__name__ == "IndexCopyBackward0" and y.grad_fn._saved_source_dim == 2
    y.backward(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert x.grad.tolist() == [[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]]
    assert source.grad.tolist() == [[5.0, 6.0], [1.0, 2.0]]
    m = torch.ones(2, 3, requires_grad=True)
    filled = m.index_fill(1, torch.tensor([0, -1]), 7.0)
    assert filled.tolist() == [[7.0, 1.0, 7.0], [7.0, 1.0, 7.0]]
    assert type(filled.grad_fn).__name__ == "IndexFillBackward0"
    value = torch.tensor(2.0, requires_grad=True)
    by_tensor = torch.index_fill(m, 1, torch.tensor([0, 0, 2]), value)
    assert type(by_tensor.grad_fn).__name__ == "IndexFillBackward1"
    by_tensor.backward(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    assert value.grad.item() == 14.0  # each filled column counted once
    assert m.grad.tolist() == [[0.0, 2.0, 0.0], [0.0, 5.0, 0.0]]


def test_bad_slice_writes():
    x = torch.zeros(3, 4)
    with raises(RuntimeError, "index_add_(): self (Float) and source (Double) must have the "
                              "same scalar type"):
        x.index_add(0, torch.tensor([0]), torch.ones(1, 4, dtype=torch.float64))
    with raises(IndexError, "index_add_(): Index is supposed to be a vector, but got dim: 2 "
                            "with type: Long and size: [1, 1]"):
        x.index_add(0, torch.tensor([[0]]), torch.ones(1, 4))
    with raises(RuntimeError, "index_add_(): Number of indices (1) should be equal to "
                              "source.size(dim): (2), for dim: 0"):
        x.index_add(0, torch.tensor([0]), torch.ones(2, 4))
    with raises(RuntimeError, "source tensor shape must match self tensor shape, excluding the "
                              "specified dimension. Got self.shape = [3, 4] source.shape = "
                              "[1, 3]"):
        x.index_add(0, torch.tensor([0]), torch.ones(1, 3))
    with raises(RuntimeError, "index 5 is out of bounds for dimension 0 with size 3"):
        x.index_add(0, torch.tensor([5]), torch.ones(1, 4))
    with raises(RuntimeError, "index_copy_(): Expected a long tensor for index, but got Int"):
        x.index_copy(0, torch.tensor([0], dtype=torch.int32), torch.ones(1, 4))
    with raises(IndexError, "index_copy_(): index 5 is out of bounds for dimension 0 with "
                            "size 3"):
        x.index_copy(0, torch.tensor([5]), torch.ones(1, 4))
    with raises(RuntimeError, "index_copy_(): Source/destination tensor must have same slice "
                              "shapes. Destination slice shape: 3 2 at dimension 1 and source "
                              "slice shape: 3 3 at dimension 0."):
        torch.zeros(3, 4, 2).index_copy(1, torch.tensor([0]), torch.ones(3, 1, 3))
    with raises(IndexError, "index_fill_(): Expected dtype int64 for index."):
        x.index_fill(0, torch.tensor([0], dtype=torch.int32), 1.0)
    with raises(IndexError, "index -4 is out of bounds for dimension 0 with size 3"):
        x.index_fill(0, torch.tensor([-4]), 1.0)
    with raises(RuntimeError, "index_fill_ only supports a 0-dimensional value tensor, but got "
                              "tensor with 1 dimension(s)."):
        x.index_fill(0, torch.tensor([0]), torch.ones(1))


def test_masked_scatter_fills_in_order():
    x = torch.zeros(2, 4, requires_grad=True)
    source = torch.arange(1.0, 8.0).requires_grad_()
    y = x.masked_scatter(torch.tensor([True, False, True, True]), source)
    assert y.tolist() == [[1.0, 0.0, 2.0, 3.0], [4.0, 0.0, 5.0, 6.0]]
    node = y.grad_fn
    assert type(node).__name__ == "MaskedScatterBackward0"
    assert node._saved_source_sym_sizes == (7,) and node._saved_mask.tolist() == [
        True, False, True, True]
    y.backward(torch.arange(8.0).reshape(2, 4))
    assert x.grad.tolist() == [[0.0, 1.0, 0.0, 0.0], [0.0, 5.0, 0.0, 0.0]]
    assert source.grad.tolist() == [0.0, 2.0, 3.0, 4.0, 6.0, 7.0, 0.0]  # the last unused
    with raises(RuntimeError, "Number of elements of source < number of ones in mask"):
        torch.zeros(3).masked_scatter(torch.tensor([True, True, True]), torch.ones(2))
    with raises(RuntimeError, "masked_scatter_ only supports boolean masks, but got mask with "
                              "dtype Byte"):
        torch.zeros(3).masked_scatter(torch.ones(3, dtype=torch.uint8), torch.ones(3))


def test_take_and_take_along_dim():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    t = x.take(torch.tensor([[0, 5], [-1, 0]]))
    assert t.tolist() == [[0.0, 5.0], [5.0, 0.0]]
    assert type(t.grad_fn).__name__ == "TakeBackward0"
    assert t.grad_fn._saved_self.tolist() == x.tolist()
    t.backward(torch.ones(2, 2))
    assert x.grad.tolist() == [[2.0, 0.0, 0.0], [0.0, 0.0, 2.0]]
    with raises(IndexError, "out of range: tried to access index 6 on a tensor of 6 elements."):
        x.take(torch.tensor([6]))
    picked = torch.take_along_dim(x, torch.tensor([[2], [0]]), 1)
    assert picked.tolist() == [[2.0], [3.0]]
    assert type(picked.grad_fn).__name__ == "GatherBackward0"
    assert _names(picked.grad_fn) == ["ExpandBackward0"]
    flat = x.take_along_dim(torch.tensor([4, 1]))
    assert flat.tolist() == [4.0, 1.0] and _names(flat.grad_fn) == ["ViewBackward0"]
    with raises(RuntimeError, "torch.take_along_dim(): dtype of indices should be Long but got "
                              "Int"):
        x.take_along_dim(torch.tensor([[0]], dtype=torch.int32), 0)
    with raises(RuntimeError, "torch.take_along_dim(): input and indices should have the same "
                              "number of dimensions, but got 2 dimensions for input, and 1 "
                              "dimensions for indices"):
        x.take_along_dim(torch.tensor([0]), 0)


@pytest.mark.parametrize(("reduce", "include_self", "value", "self_grad", "src_grad"), [
    ("sum", True, [8.0, 6.0, 2.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]),
    ("prod", True, [18.0, 0.0, 2.0], [6.0, 5.0, 1.0], [6.0, 9.0, 0.0, 0.0]),
    ("mean", False, [2.5, 3.0, 2.0], [0.0, 0.0, 1.0], [0.5, 0.5, 0.5, 0.5]),
    ("amax", True, [3.0, 5.0, 2.0], [0.5, 0.0, 1.0], [0.5, 0.0, 0.0, 1.0]),
    ("amin", False, [2.0, 1.0, 2.0], [0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]),
])
def test_scatter_reduce(reduce, include_self, value, self_grad, src_grad):
    x = torch.tensor([3.0, 0.0, 2.0], requires_grad=True)
    src = torch.tensor([3.0, 2.0, 1.0, 5.0], requires_grad=True)
    y = x.scatter_reduce(0, torch.tensor([0, 0, 1, 1]), src, reduce, include_self=include_self)
    assert y.tolist() == value
    node = y.grad_fn
    assert type(node).__name__ == "ScatterReduceBackward0"
    assert (node._saved_reduce, node._saved_include_self) == (reduce, include_self)
    y.backward(torch.ones(3))
    assert x.grad.tolist() == self_grad and src.grad.tolist() == src_grad
    with raises(RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, "
                              "got median"):
        x.scatter_reduce(0, torch.tensor([0]), src, "median")


def test_in_place_forms_record_the_same_nodes():
    h = torch.zeros(2, 3, requires_grad=True) * 1
    assert h.scatter_(1, torch.tensor([[0], [2]]), 5.0) is h and h._version == 1
    assert type(h.grad_fn).__name__ == "ScatterBackward1"
    h.index_add_(1, torch.tensor([1]), torch.ones(2, 1), alpha=3)
    assert type(h.grad_fn).__name__ == "IndexAddBackward0"
    h.masked_scatter_(torch.tensor([False, False, True]), torch.tensor([7.0, 8.0]))
    assert h.tolist() == [[5.0, 3.0, 7.0], [0.0, 3.0, 8.0]]
    h.scatter_reduce_(1, torch.tensor([[0, 0]]), torch.tensor([[2.0, 4.0]]), "mean")
    assert h.tolist()[0] == [pytest.approx(11 / 3), 3.0, 7.0] and h._version == 4
    assert type(h.grad_fn).__name__ == "ScatterReduceBackward0"
    assert _names(h.grad_fn) == ["MaskedScatterBackward0", None]
    leaf = torch.zeros(3, requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        leaf.index_fill_(0, torch.tensor([0]), 1.0)


def test_two_zeros_in_a_product_refuse_a_second_derivative():
    a = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.0, 0.0, 4.0], dtype=torch.float64, requires_grad=True)
    r = a.scatter_reduce(0, torch.tensor([0, 0, 1]), b, "prod")
    (g,) = torch.autograd.grad(r.sum(), b, create_graph=True)
    assert g.tolist() == [0.0, 0.0, 3.0]
    with raises(RuntimeError, "scatter_reduce(): Double backward is unsupported for src when "
                              ">1 zeros in src are scattered to the same position in self"):
        torch.autograd.grad(g.sum(), b)
    one = torch.tensor([0.0, 5.0, 4.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(a.scatter_reduce(0, torch.tensor([0, 0, 1]), one, "prod").sum(),
                               one, create_graph=True)
    (second,) = torch.autograd.grad(g[0], one)
    assert g.tolist() == [10.0, 0.0, 3.0] and second.tolist() == [0.0, 2.0, 0.0]


def test_scatter_with_the_older_reductions_has_no_derivative():
    x = torch.ones(3, requires_grad=True)
    with always_warned(torch):
        with pytest.warns(UserWarning, match="^The reduce argument of torch.scatter with Tensor "
                                             "src is deprecated and will be removed in a future "
                                             "PyTorch release. Use torch.scatter_reduce instead "
                                             "for more reduction options."):
            y = x.scatter(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]),
                          reduce="multiply")
    assert y.tolist() == [6.0, 1.0, 4.0]
    assert y.grad_fn.name() == "torch::autograd::NotImplemented"
    assert _names(y.grad_fn) == ["AccumulateGrad"]  # no edge for the source, which needs none
    with raises(RuntimeError, "derivative for aten::scatter is not implemented"):
        y.sum().backward()
    ints = torch.zeros(3, dtype=torch.long).scatter(0, torch.tensor([0, 0]), 2.5, reduce="add")
    assert ints.tolist() == [4, 0, 0]
    h = x * 1
    h.scatter_(0, torch.tensor([1]), 5.0, reduce="add")
    assert h.tolist() == [1.0, 6.0, 1.0]
    with raises(RuntimeError, "derivative for aten::scatter_ is not implemented"):
        h.sum().backward()
    with raises(RuntimeError, "reduce argument must be either add or multiply."):
        x.scatter(0, torch.tensor([0]), 1.0, reduce="sum")


@pytest.mark.parametrize("number, kind", [(2.0, "float"), (2, "int")])
def test_a_number_is_no_source(number, kind):
    x, index = torch.tensor([1.0]), torch.tensor([0])
    with raises(TypeError, f"scatter_add(): argument 'src' (position 4) must be Tensor, not "
                           f"{kind}"):
        torch.scatter_add(x, 0, index, number)
    with raises(TypeError, f"scatter_reduce(): argument 'src' (position 4) must be Tensor, not "
                           f"{kind}"):
        torch.scatter_reduce(x, 0, index, number, "sum")
    with raises(TypeError, f"masked_scatter(): argument 'source' (position 3) must be Tensor, "
                           f"not {kind}"):
        torch.masked_scatter(x, torch.tensor([True]), number)


def test_take_along_dim_wants_a_dimension_to_take_along():
    for dim in (0, -1):
        with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
            torch.take_along_dim(torch.tensor(3.0), torch.tensor(0), dim)
    assert torch.take_along_dim(torch.tensor(3.0), torch.tensor(0)).tolist() == [3.0]


def test_take_from_an_empty_tensor():
    with raises(IndexError, "take(): tried to take from an empty tensor"):
        torch.take(torch.zeros(0), torch.tensor([0]))
    with raises(IndexError, "take(): tried to take from an empty tensor"):
        torch.take(torch.zeros(2, 0), torch.tensor([5]))
    assert torch.take(torch.zeros(0), torch.tensor([], dtype=torch.int64)).shape == (0,)


def test_index_add_compares_whole_shapes_beside_a_scalar():
    for index in (torch.tensor(1), torch.tensor([1])):
        with raises(RuntimeError, "source tensor shape must match self tensor shape, excluding "
                                  "the specified dimension. Got self.shape = [3] source.shape = "
                                  "[]"):
            torch.index_add(torch.tensor([1.0, 2.0, 3.0]), 0, index, torch.tensor(5.0))
    with raises(RuntimeError, "index_add_(): Indexing dim 1 is out of bounds of the source "
                              "tensor with dim 1"):
        torch.index_add(torch.zeros(2, 3), 1, torch.tensor([1]), torch.ones(2))
    assert torch.index_add(torch.tensor(1.0), 0, torch.tensor(0), torch.tensor(5.0)).item() == 6
    added = torch.index_add(torch.tensor([1.0, 2.0, 3.0]), 0, torch.tensor(1), torch.tensor([5.0]))
    assert added.tolist() == [1.0, 7.0, 3.0]


def test_index_copy_wants_matching_dimensionality():
    for index, source, n in ((torch.tensor(0), torch.ones(3), 1),
                             (torch.tensor([0]), torch.ones(3), 1),
                             (torch.tensor([0]), torch.ones(1, 1, 3), 3)):
        with raises(IndexError, "index_copy_(): When source and destination are not scalars, "
                                f"their dimensionality must match. Source dimensionality ({n}), "
                                "destination dimensionality (2)"):
            torch.index_copy(torch.zeros(2, 3), 0, index, source)
    copied = torch.index_copy(torch.tensor([1.0, 2.0, 3.0]), 0, torch.tensor(1), torch.tensor(5.0))
    assert copied.tolist() == [1.0, 5.0, 3.0]


def test_scatter_reduce_takes_no_mean_of_bools():
    x, src = torch.tensor([True, False]), torch.tensor([True])
    for include_self in (True, False):
        with raises(NotImplementedError, "\"scatter_gather_tensor_cpu_reduce_mean\" not "
                                         "implemented for 'Bool'"):
            torch.scatter_reduce(x, 0, torch.tensor([0]), src, "mean", include_self=include_self)
    with raises(NotImplementedError, "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented "
                                     "for 'Bool'"):
        x.clone().scatter_reduce_(0, torch.tensor([0]), src, "mean")
    with raises(NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'"):
        torch.scatter_reduce(x, 0, torch.tensor([], dtype=torch.int64),
                             torch.tensor([], dtype=torch.bool), "mean")
    assert torch.scatter_reduce(x, 0, torch.tensor([1]), src, "amax").tolist() == [True, True]


def _extreme(self_values, src_values, index, reduce, include_self):
    a = torch.tensor(self_values, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(src_values, dtype=torch.float64, requires_grad=True)
    r = a.scatter_reduce(0, torch.tensor(index), b, reduce, include_self=include_self)
    return a, b, r


@pytest.mark.parametrize("reduce", ["amax", "amin"])
def test_a_tie_keeps_the_value_already_there_and_nan_wins(reduce):
    _, _, r = _extreme([0.0, -0.0, 1.0], [-0.0, 0.0, float("nan")], [0, 1, 2], reduce, True)
    assert [math.copysign(1.0, v) for v in r.tolist()[:2]] == [1.0, -1.0]
    assert math.isnan(r[2].item())
    _, _, r = _extreme([5.0, 5.0], [-0.0, 0.0], [0, 1], reduce, False)
    assert [math.copysign(1.0, v) for v in r.tolist()] == [-1.0, 1.0]


@pytest.mark.parametrize("include_self", [True, False])
def test_extreme_gradients_share_among_ties_and_skip_places_not_written(include_self):
    a, b, r = _extreme([4.0, 5.0, 0.0, 3.0], [4.0, 4.0, 5.0, 5.0], [0, 0, 1, 1], "amax",
                       include_self)
    assert r.tolist() == [4.0, 5.0, 0.0, 3.0]
    r.backward(torch.tensor([3.0, 6.0, 1.0, 2.0], dtype=torch.float64))
    # self ties at both written places and counts in the share even when left out
    assert a.grad.tolist() == ([1.0, 2.0, 1.0, 2.0] if include_self else [0.0, 0.0, 1.0, 2.0])
    assert b.grad.tolist() == [1.0, 1.0, 2.0, 2.0]


@pytest.mark.parametrize("reduce, expected", [("max", [4.0, 7.0, 0.0]), ("min", [1.0, 2.0, 0.0])])
def test_max_and_min_combine_like_amax_and_amin_but_have_no_derivative(reduce, expected):
    a, b, r = _extreme([1.0, 5.0, 0.0], [4.0, 4.0, 2.0, 7.0], [0, 0, 1, 1], reduce, True)
    assert r.tolist() == expected and r.grad_fn._saved_reduce == reduce
    twin = a.scatter_reduce(0, torch.tensor([0, 0, 1, 1]), b, "a" + reduce, include_self=False)
    assert a.scatter_reduce(0, torch.tensor([0, 0, 1, 1]), b, reduce,
                            include_self=False).tolist() == twin.tolist()
    with raises(RuntimeError, "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                              f"'amin' but got {reduce}."):
        r.sum().backward()
    assert a.grad is None and b.grad is None
    ints = torch.tensor([1, 5, 0]).scatter_reduce(0, torch.tensor([0, 0, 1, 1]),
                                                  torch.tensor([4, 4, 2, 7]), reduce)
    assert ints.tolist() == [int(v) for v in expected]
    inplace = torch.tensor([1.0, 2.0], requires_grad=True).clone()
    inplace.scatter_reduce_(0, torch.tensor([0]), torch.tensor([3.0]), reduce,
                            include_self=False)
    assert inplace.tolist() == [3.0, 2.0]
    assert type(inplace.grad_fn).__name__ == "ScatterReduceBackward0"


def _tangent(self_values, src_values, index, reduce, include_self, self_tangent=True):
    fwad = torch.autograd.forward_ad
    with fwad.dual_level():
        a = torch.tensor(self_values, dtype=torch.float64)
        if self_tangent:
            a = fwad.make_dual(a, torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64))
        b = fwad.make_dual(torch.tensor(src_values, dtype=torch.float64),
                           torch.tensor([10.0, 20.0, 30.0, 40.0], dtype=torch.float64))
        r = a.scatter_reduce(0, torch.tensor(index), b, reduce, include_self=include_self)
        tangent = fwad.unpack_dual(r).tangent
        return None if tangent is None else tangent.tolist()


def test_extreme_tangents_count_self_only_when_it_is_included():
    values, src, index = [4.0, 5.0, 0.0], [4.0, 1.0, 5.0, 2.0], [0, 0, 1, 2]
    assert _tangent(values, src, index, "amax", True) == [5.5, 16.0, 40.0]
    assert _tangent(values, src, index, "amax", False) == [10.0, 30.0, 40.0]
    assert _tangent(values, src, index, "amax", True, self_tangent=False) == [5.0, 15.0, 40.0]
    assert _tangent(values, src, index, "amin", True) == [20.0, 16.0, 3.0]
    assert _tangent(values, src, index, "amin", False) == [20.0, 30.0, 40.0]
    nan = float("nan")
    found = _tangent([nan, 5.0, 0.0], [4.0, nan, 5.0, 2.0], [0, 1, 1, 2], "amax", False)
    assert found[0] == 10.0 and math.isnan(found[1]) and found[2] == 40.0


def test_linear_reductions_reduce_the_tangents_and_the_rest_have_none():
    values, src, index = [4.0, 5.0, 0.0], [4.0, 1.0, 5.0, 2.0], [0, 0, 1, 2]
    assert _tangent(values, src, index, "sum", False) == [30.0, 30.0, 40.0]
    assert _tangent(values, src, index, "mean", True) == [31.0 / 3.0, 16.0, 21.5]
    for reduce in ("prod", "max", "min"):
        assert _tangent(values, src, index, reduce, True) is None


def test_take_along_dim_takes_its_index_modulo_the_size_along_dim():
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    picked = torch.take_along_dim(x, torch.tensor([[-1, 2], [4, -6]]), 1)
    assert picked.tolist() == [[3.0, 3.0], [5.0, 4.0]]
    picked.sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0, 2.0], [1.0, 1.0, 0.0]]
    assert torch.take_along_dim(x, torch.tensor([[-1, 0, 3]]), 0).tolist() == [[4.0, 2.0, 6.0]]
    with raises(RuntimeError, "index -1 is out of bounds for dimension 0 with size 6"):
        torch.take_along_dim(x, torch.tensor([-1, 0]))  # flattened: no wrapping
    with raises(RuntimeError, "ZeroDivisionError"):
        torch.take_along_dim(torch.ones(2, 0), torch.zeros(2, 1, dtype=torch.long), 1)
    assert torch.take_along_dim(torch.ones(2, 0), torch.zeros(2, 0, dtype=torch.long), 1).shape \
        == (2, 0)


def test_take_along_dim_saves_a_fresh_index_and_a_mode_sees_the_steps():
    from conformance._support import recording_mode

    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    with torch.inference_mode():
        index = torch.tensor([[0, 2], [1, 1]])
    y = x.take_along_dim(index, 1)  # the wrapped index is no inference tensor
    assert not y.grad_fn._saved_index.is_inference()
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]]
    plain, wrapped = x.detach(), torch.tensor([[-1], [0]])
    with recording_mode()() as mode:
        torch.take_along_dim(plain, wrapped, 1)
    assert mode.seen == ["aten.expand.default", "aten.expand.default", "aten.remainder.Scalar",
                         "aten.gather.default"]
