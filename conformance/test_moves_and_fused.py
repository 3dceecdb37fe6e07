"""Black-box tests: flip, roll, tril, triu, diff, lerp, addcmul, addcdiv, nan_to_num,
and the where method. The same assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import raises


def test_moving_elements_and_what_the_nodes_show():
    m = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
    assert m.flip(0).tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    assert torch.flip(m, (0, -1)).tolist() == [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]
    assert m.flip(0).is_contiguous() and m.flip(0)._version == 0
    assert m.roll(1).tolist() == [[5.0, 0.0, 1.0], [2.0, 3.0, 4.0]]
    assert torch.roll(m, (1, 2), (0, 1)).tolist() == [[4.0, 5.0, 3.0], [1.0, 2.0, 0.0]]
    assert m.tril().tolist() == [[0.0, 0.0, 0.0], [3.0, 4.0, 0.0]]
    assert m.triu(1).tolist() == [[0.0, 1.0, 2.0], [0.0, 0.0, 5.0]]
    node = m.flip(0).grad_fn
    assert type(node).__name__ == "FlipBackward0" and node._saved_dims == (0,)
    node = m.roll(1).grad_fn
    assert node._saved_shifts == (1,) and node._saved_dims == ()
    assert type(m.tril(1).grad_fn).__name__ == "TrilBackward0"
    assert m.tril(1).grad_fn._saved_diagonal == 1
    assert torch.tensor([[1, 2], [3, 4]]).flip(1).dtype == torch.int64
    (m.flip(0) * torch.tensor([1.0, 2.0, 3.0]) + m.roll(1, 1).triu()).sum().backward()
    assert m.grad.tolist() == [[2.0, 3.0, 4.0], [2.0, 3.0, 3.0]]


def test_bad_moves():
    m = torch.zeros(2, 3)
    with raises(RuntimeError, "dim 0 appears multiple times in the list of dims"):
        m.flip((0, 0))
    with raises(RuntimeError, "shifts and dimensions must align. shifts: 2, dims:1"):
        torch.roll(m, (1, 2), 0)
    with raises(RuntimeError, "shifts and dimensions must align. shifts: 2, dims:0"):
        torch.roll(m, (1, 2))
    with raises(RuntimeError, "tril: input tensor must have at least 2 dimensions"):
        torch.tril(torch.tensor([1.0, 2.0]))


def test_diff_is_made_of_slices():
    x = torch.tensor([1.0, 4.0, 9.0, 16.0], requires_grad=True)
    d = torch.diff(x)
    assert d.tolist() == [3.0, 5.0, 7.0] and torch.diff(x, n=2).tolist() == [2.0, 2.0]
    assert type(d.grad_fn).__name__ == "SubBackward0"
    assert [type(n).__name__ for n, _ in d.grad_fn.next_functions] == ["SliceBackward0"] * 2
    joined = torch.diff(x, prepend=torch.tensor([0.0]), append=torch.tensor([20.0]))
    assert joined.tolist() == [1.0, 3.0, 5.0, 7.0, 4.0]
    assert torch.diff(torch.tensor([True, False, False])).tolist() == [True, False]
    assert torch.diff(x, n=5).tolist() == []
    with raises(RuntimeError, "diff expects input to be at least one-dimensional"):
        torch.diff(torch.tensor(1.0))


def test_diff_of_order_zero_is_a_copy_of_the_input_alone():
    x = torch.tensor([1.0, 4.0, 9.0], requires_grad=True)
    for same in (torch.diff(x, n=0), torch.diff(x, n=0, prepend=torch.tensor([0.0]))):
        assert same is not x and same.tolist() == [1.0, 4.0, 9.0]
        assert type(same.grad_fn).__name__ == "CopyBackwards" and same._version == 1
        assert same.grad_fn.next_functions[1][0].variable is x  # never the joined tensor
    same.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]
    plain = torch.tensor([True, False])
    copied = torch.diff(plain, n=0)
    assert copied.grad_fn is None and copied.tolist() == [True, False]
    copied[0] = False
    assert plain.tolist() == [True, False]


def test_lerp_blends_without_promoting():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 6.0], requires_grad=True)
    y = torch.lerp(a, b, 0.25)
    assert y.tolist() == [1.5, 3.0] and type(y.grad_fn).__name__ == "LerpBackward0"
    assert y.grad_fn._saved_weight == 0.25 and torch.lerp(a, b, 1.0).tolist() == [3.0, 6.0]
    w = torch.tensor([0.5, 2.0], requires_grad=True)
    z = torch.lerp(a, b, w)
    assert type(z.grad_fn).__name__ == "LerpBackward1" and z.tolist() == [2.0, 10.0]
    z.sum().backward()
    assert a.grad.tolist() == [0.5, -1.0] and b.grad.tolist() == [0.5, 2.0]
    assert w.grad.tolist() == [2.0, 4.0]
    with raises(RuntimeError, "expected dtype float for `end` but got dtype double"):
        torch.lerp(a, b.double(), 0.5)
    with raises(NotImplementedError, "\"lerp_kernel_scalar\" not implemented for 'Long'"):
        torch.lerp(torch.tensor([1]), torch.tensor([2]), 0.5)
    half = torch.lerp(torch.tensor([1.0], dtype=torch.float16),
                      torch.tensor([2.0], dtype=torch.float16), 0.3)
    assert half.item() == pytest.approx(1.2998046875)


def test_what_lerp_saves():
    a, b, w = (torch.tensor([v], requires_grad=True) for v in (1.0, 3.0, 0.5))
    packed = []

    def pack(t):
        packed.append(t.item())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        torch.lerp(a, b, w)
        assert packed == [3.0, 1.0, 0.5]  # end, self, weight
        packed.clear()
        torch.lerp(a, b.detach(), w.detach())
        assert packed == [0.5]


def test_addcmul_and_addcdiv_are_one_node_each():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    t1 = torch.tensor([3.0, 4.0], requires_grad=True)
    t2 = torch.tensor([2.0, 8.0], requires_grad=True)
    y = torch.addcmul(x, t1, t2, value=0.5)
    assert y.tolist() == [4.0, 18.0] and type(y.grad_fn).__name__ == "AddcmulBackward0"
    assert y.grad_fn._saved_value == 0.5 and len(y.grad_fn.next_functions) == 3
    z = torch.addcdiv(x, t1, t2, value=2)
    assert z.tolist() == [4.0, 3.0] and z.grad_fn._saved_value == 2
    (y + z).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    assert t1.grad.tolist() == [1.0 + 1.0, 4.0 + 0.25]
    assert t2.grad.tolist() == [1.5 - 1.5, 2.0 - 0.125]
    assert torch.addcmul(torch.tensor([1.0]), torch.tensor([2]), torch.tensor([3.0]),
                         value=2).tolist() == [13.0]
    with pytest.raises(RuntimeError, match="^Integer division with addcdiv is no longer "):
        torch.addcdiv(torch.tensor([1]), torch.tensor([2]), torch.tensor([3]))


def test_nan_to_num_cleans_and_its_gradient_passes_where_finite():
    x = torch.tensor([1.0, math.nan, math.inf, -math.inf], requires_grad=True)
    y = torch.nan_to_num(x)
    big = 3.4028234663852886e38  # float32's largest finite value
    assert y.tolist() == [1.0, 0.0, big, -big]
    assert torch.nan_to_num(x, nan=1.0, posinf=2.0).tolist() == [1.0, 1.0, 2.0, -big]
    assert type(y.grad_fn).__name__ == "NanToNumBackward0"
    assert [n for n in dir(y.grad_fn) if n.startswith("_saved")] == ["_saved_self"]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 0.0, 0.0]
    half = torch.nan_to_num(torch.tensor([math.nan, math.inf], dtype=torch.float16))
    assert half.tolist() == [0.0, 65504.0]
    assert torch.nan_to_num(torch.tensor([1, 2])).tolist() == [1, 2]


def test_the_where_method_and_in_place_forms():
    m = torch.tensor([[1.0, 3.0], [4.0, 0.5]])
    assert m.where(m > 2, torch.zeros(2, 2)).tolist() == [[0.0, 3.0], [4.0, 0.0]]
    t = m.clone()
    assert t.tril_() is t and t.tolist() == [[1.0, 0.0], [4.0, 0.5]]
    assert m.clone().lerp_(torch.ones(2, 2), 0.5).tolist() == [[1.0, 2.0], [2.5, 0.75]]
    assert m.clone().addcmul_(m, m).tolist() == [[2.0, 12.0], [20.0, 0.75]]
    assert torch.tensor([math.nan]).nan_to_num_().tolist() == [0.0]


def test_sort_argsort_msort_and_topk():
    x = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
    values, indices = torch.sort(x, 1, descending=True)
    assert values.tolist() == [[3.0, 2.0, 1.0], [5.0, 4.0, 0.0]]
    assert indices.tolist() == [[0, 2, 1], [1, 2, 0]] and indices.dtype == torch.int64
    node = values.grad_fn
    assert type(node).__name__ == "SortBackward0" and node._saved_dim == 1
    assert node._saved_indices.tolist() == [[0, 2, 1], [1, 2, 0]]
    assert node._saved_self_sym_sizes == (2, 3)
    assert sorted(n for n in dir(node) if n.startswith("_saved")) == [
        "_saved_dim", "_saved_indices", "_saved_self_sym_sizes"]
    (values * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [[1.0, 3.0, 2.0], [3.0, 1.0, 2.0]]
    assert torch.argsort(x, dim=0).tolist() == [[1, 0, 0], [0, 1, 1]]
    assert torch.msort(x).tolist() == [[0.0, 1.0, 2.0], [3.0, 5.0, 4.0]]
    top = torch.topk(x, 2)
    assert top.values.tolist() == [[3.0, 2.0], [5.0, 4.0]] and top.indices.tolist() == [
        [0, 2], [1, 2]]
    assert type(top.values.grad_fn).__name__ == "TopkBackward0"
    with raises(RuntimeError, "selected index k out of range"):
        torch.topk(x, 4)
    n = torch.tensor([2.0, math.nan, 1.0, math.nan, 2.0])
    assert torch.sort(n).indices.tolist() == [2, 0, 4, 1, 3]  # nan is the largest
    assert torch.sort(n, descending=True).indices.tolist() == [1, 3, 0, 4, 2]
    assert torch.sort(torch.tensor([3, 1, 3]), descending=True, stable=True).indices.tolist() == [
        0, 2, 1]
    assert torch.sort(torch.tensor(3.0)).indices.item() == 0


def test_masked_select_nonzero_and_where_with_a_condition_alone():
    x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
    mask = x.detach() > 0
    packed = []

    def pack(t):
        packed.append(t.tolist())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = torch.masked_select(x, mask)
    assert y.tolist() == [1.0, 3.0, 5.0] and type(y.grad_fn).__name__ == "MaskedSelectBackward0"
    assert packed == [mask.tolist(), x.tolist()] and len(y.grad_fn.next_functions) == 1
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    z = v.masked_select(mask)
    assert z.tolist() == [1.0, 3.0, 2.0]
    z.sum().backward()
    assert v.grad.tolist() == [1.0, 1.0, 1.0]
    with raises(RuntimeError, "masked_select: expected BoolTensor for mask"):
        torch.masked_select(x, x)
    with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
                              "non-singleton dimension 1"):
        torch.masked_select(x, torch.tensor([True, False]))
    assert torch.nonzero(mask).tolist() == [[0, 0], [0, 2], [1, 1]]
    rows, columns = torch.where(mask)
    assert rows.tolist() == [0, 0, 1] and columns.tolist() == [0, 2, 1]
    assert [t.tolist() for t in mask.nonzero(as_tuple=True)] == [[0, 0, 1], [0, 2, 1]]
    assert torch.nonzero(torch.tensor(3.0)).shape == (1, 0)
    assert torch.count_nonzero(x).item() == 6
    assert torch.count_nonzero(mask, dim=1).tolist() == [2, 1]
    with pytest.raises(TypeError, match=r"^where\(\) received an invalid combination"):
        torch.where(mask, x)


@pytest.mark.parametrize("call, sizes", [
    (lambda c, x, y: torch.where(c, x, y), (3, 2)),  # the condition and input agree
    (lambda c, x, y: torch.where(c[:2], x, x), (2, 3)),  # the condition is the odd one
    (lambda c, x, y: x.where(c[:2], y), (2, 3)),  # named first, before input and other
    (lambda c, x, y: torch.where(c, x, torch.ones(4, 1)), None),  # these broadcast
])
def test_where_broadcasts_the_condition_first(call, sizes):
    c, x, y = torch.tensor([True, False, True]), torch.ones(3), torch.ones(2)
    if sizes is None:
        assert call(c, x, y).shape == (4, 3)
        return
    with raises(RuntimeError, f"The size of tensor a ({sizes[0]}) must match the size of tensor "
                              f"b ({sizes[1]}) at non-singleton dimension 0"):
        call(c, x, y)
