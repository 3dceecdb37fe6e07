"""Black-box tests: addmm, addmv, baddbmm, addbmm, vdot, trace, cross, kron, tensordot,
inner, einsum, diag,
diag_embed, tile, repeat_interleave, tensor_split, unflatten, rot90, fliplr, flipud and
meshgrid. The same assertions run on torch.
"""

import math
import warnings

import pytest
import torch

from conformance._support import first_edges, raises
from conformance._warned import always_warned


def _names(t):
    return [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions]


def test_addmm_scales_adds_and_shows_its_factors():
    bias = torch.tensor([1.0, -1.0], requires_grad=True)
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    w = torch.tensor([[1.0, 0.0], [0.0, 2.0]], requires_grad=True)
    y = torch.addmm(bias, x, w, beta=2, alpha=0.5)
    assert y.tolist() == [[2.5, 0.0], [3.5, 2.0], [4.5, 4.0]]
    node = y.grad_fn
    assert type(node).__name__ == "AddmmBackward0" and _names(y) == ["AccumulateGrad"] * 3
    assert (node._saved_beta, node._saved_alpha) == (2, 0.5)
    assert node._saved_mat1_sym_sizes == (3, 2) and node._saved_mat2_sym_strides == (2, 1)
    assert node._saved_mat1.tolist() == x.tolist() and node._saved_mat2.tolist() == w.tolist()
    y.sum().backward()
    assert bias.grad.tolist() == [6.0, 6.0]  # beta times the rows summed
    assert x.grad.tolist() == [[0.5, 1.0]] * 3
    assert w.grad.tolist() == [[4.5, 4.5], [6.0, 6.0]]


def test_what_addmm_keeps_when_a_factor_needs_no_gradient():
    x = torch.ones(2, 3)
    w = torch.ones(3, 2, requires_grad=True)
    node = torch.addmm(torch.zeros(2), x, w).grad_fn
    assert node._saved_mat2 is None and node._saved_mat1.shape == (2, 3)
    assert node._saved_mat1_sym_strides == () and node._saved_mat2_sym_strides == (2, 1)
    assert _names(torch.addmm(torch.zeros(2), x, w)) == [None, None, "AccumulateGrad"]


def test_a_zero_factor_drops_its_term():
    nan = torch.full((2, 2), math.nan)
    m = torch.eye(2)
    assert torch.addmm(nan, m, m, beta=0).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert torch.addmm(m, torch.full((2, 2), math.inf), m, alpha=0).tolist() == m.tolist()
    assert torch.addmv(torch.tensor([math.nan]), torch.ones(1, 1), torch.ones(1),
                       beta=0).tolist() == [1.0]
    assert torch.baddbmm(nan, torch.ones(1, 2, 1), torch.ones(1, 1, 2), beta=0).tolist() == [
        [[1.0, 1.0], [1.0, 1.0]]]
    assert torch.addmm(torch.full((1, 1), math.nan), torch.ones(1, 1), torch.ones(1, 1),
                       beta=1e-300).tolist() == [[1.0]]  # zero in float32


def test_integer_results_truncate_the_factors():
    ones = torch.ones(2, 2, dtype=torch.int64)
    y = torch.addmm(ones, ones, ones, beta=2.5, alpha=1.5)
    assert y.dtype == torch.int64 and y.tolist() == [[4, 4], [4, 4]]


def test_addmv_baddbmm_and_addbmm():
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = torch.tensor([1.0, -1.0], requires_grad=True)
    y = torch.addmv(torch.tensor([10.0, 20.0]), m, v, alpha=2)
    assert y.tolist() == [8.0, 18.0] and type(y.grad_fn).__name__ == "AddmvBackward0"
    assert y.grad_fn._saved_mat.tolist() == m.tolist() and y.grad_fn._saved_beta == 1
    y.sum().backward()
    assert m.grad.tolist() == [[2.0, -2.0], [2.0, -2.0]] and v.grad.tolist() == [8.0, 12.0]
    b1 = torch.ones(3, 2, 4, requires_grad=True)
    b2 = torch.ones(3, 4, 5, requires_grad=True)
    z = torch.baddbmm(torch.zeros(5), b1, b2, alpha=0.5)
    assert z.shape == (3, 2, 5) and z[0, 0, 0].item() == 2.0
    assert type(z.grad_fn).__name__ == "BaddbmmBackward0"
    s = torch.addbmm(torch.ones(2, 5), b1, b2, beta=3)
    assert s.shape == (2, 5) and s[1, 4].item() == 15.0
    node = s.grad_fn
    assert type(node).__name__ == "AddbmmBackward0"
    assert (node._saved_batch1_sym_argsize_0, node._saved_batch1_sym_argsize_1,
            node._saved_batch2_sym_argsize_2) == (3, 2, 5)
    s.sum().backward()
    assert b1.grad.tolist() == [[[5.0] * 4] * 2] * 3 and b2.grad[0, 0].tolist() == [2.0] * 5


def test_in_place_forms_record_the_same_nodes():
    a = torch.zeros(2, 2, requires_grad=True) * 1
    out = a.addmm_(torch.eye(2, requires_grad=True), torch.ones(2, 2))
    assert out is a and a._version == 1 and type(a.grad_fn).__name__ == "AddmmBackward0"
    v = torch.zeros(2, requires_grad=True) * 1
    assert type(v.addmv_(torch.ones(2, 2), torch.ones(2, requires_grad=True),
                         beta=0).grad_fn).__name__ == "AddmvBackward0"
    assert v.tolist() == [2.0, 2.0]
    c = torch.zeros(2, 2)
    assert c.addbmm_(torch.ones(3, 2, 1), torch.ones(3, 1, 2)).tolist() == [[3.0, 3.0]] * 2
    batch = torch.zeros(1, 2, 2)
    assert batch.baddbmm_(torch.ones(1, 2, 1), torch.ones(1, 1, 2)).tolist() == [[[1.0] * 2] * 2]
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        torch.zeros(2, 2, requires_grad=True).addmm_(torch.eye(2), torch.eye(2))


def test_the_products_check_their_operands():
    with raises(RuntimeError, "mat1 must be a matrix, got 1-D tensor"):
        torch.addmm(torch.ones(2, 3), torch.ones(4), torch.ones(4, 3))
    with raises(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x4 and 3x3)"):
        torch.addmm(torch.ones(2, 3), torch.ones(2, 4), torch.ones(3, 3))
    with raises(RuntimeError, "self and mat2 must have the same dtype, but got Double and "
                              "Float"):
        torch.addmm(torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 4), torch.ones(4, 3))
    with raises(RuntimeError, "mat1 and mat2 must have the same dtype, but got Double and "
                              "Float"):
        torch.addmm(torch.ones(2, 3), torch.ones(2, 4, dtype=torch.float64), torch.ones(4, 3))
    with raises(RuntimeError, "The expanded size of the tensor (2) must match the existing "
                              "size (5) at non-singleton dimension 0.  Target sizes: [2, 3].  "
                              "Tensor sizes: [5, 3]"):
        torch.addmm(torch.ones(5, 3), torch.ones(2, 4), torch.ones(4, 3))
    with raises(NotImplementedError, "\"addmm_impl_cpu_\" not implemented for 'Bool'"):
        b = torch.ones(2, 2, dtype=torch.bool)
        torch.addmm(b, b, b)
    with raises(RuntimeError, "vector + matrix @ vector expected, got 1, 2, 2"):
        torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(3, 1))
    with raises(RuntimeError, "size mismatch, got input (5), mat (2x3), vec (3)"):
        torch.addmv(torch.ones(5), torch.ones(2, 3), torch.ones(3))
    with raises(RuntimeError, "addmv input tensors must have the same dtype, but got Double, "
                              "Float, and Float"):
        torch.addmv(torch.ones(2, dtype=torch.float64), torch.ones(2, 3), torch.ones(3))
    with raises(RuntimeError, "Input dtypes must be the same, got: input double, batch1: "
                              "float, batch2: float"):
        torch.baddbmm(torch.ones(2, 3, dtype=torch.float64), torch.ones(5, 2, 4),
                      torch.ones(5, 4, 3))
    with raises(RuntimeError, "batch1 and batch2 must have same number of batches, got 5 and "
                              "4"):
        torch.addbmm(torch.ones(2, 3), torch.ones(5, 2, 4), torch.ones(4, 4, 3))
    with raises(RuntimeError, "Incompatible matrix sizes for bmm (2x4 and 3x3)"):
        torch.addbmm(torch.ones(2, 3), torch.ones(5, 2, 4), torch.ones(5, 3, 3))


def test_matrix_products_name_dtypes_as_torch_does():
    with raises(RuntimeError, "expected scalar type Float but found Double"):
        torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 3, 2, dtype=torch.float64))
    with raises(RuntimeError, "dot : expected both vectors to have same dtype, but found Float "
                              "and Double"):
        torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64))
    with raises(RuntimeError, "addmv input tensors must have the same dtype, but got Float, "
                              "Long, and Float"):
        torch.mv(torch.ones(2, 3, dtype=torch.int64), torch.ones(3))


def test_vdot_trace_and_cross():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    d = torch.vdot(a, b)
    assert d.item() == 32.0 and type(d.grad_fn).__name__ == "VdotBackward0"
    assert d.grad_fn._saved_other.tolist() == [4.0, 5.0, 6.0]
    d.backward()
    assert a.grad.tolist() == [4.0, 5.0, 6.0] and b.grad.tolist() == [1.0, 2.0, 3.0]
    m = torch.arange(12.0).reshape(3, 4).requires_grad_()
    t = m.trace()
    assert t.item() == 15.0 and type(t.grad_fn).__name__ == "TraceBackward0"
    assert t.grad_fn._saved_self_sym_sizes == (3, 4)
    t.backward()
    assert m.grad.tolist() == [[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]]
    assert torch.trace(torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)).dtype == torch.int64
    with raises(RuntimeError, "trace: expected a matrix, but got tensor with dim 1"):
        torch.trace(a)
    with raises(NotImplementedError, "\"trace\" not implemented for 'Bool'"):
        torch.trace(torch.ones(2, 2, dtype=torch.bool))
    x = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], requires_grad=True)
    y = torch.tensor([[0.0, 1.0, 0.0]], requires_grad=True)
    c = torch.linalg.cross(x, y)
    assert c.tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    assert type(c.grad_fn).__name__ == "LinalgCrossBackward0"
    assert c.grad_fn._saved_self.tolist() == x.tolist()
    c.sum().backward()  # y x (1, 1, 1) for each row of x; (1, 1, 1) x x summed for y
    assert x.grad.tolist() == [[1.0, 0.0, -1.0]] * 2 and y.grad.tolist() == [[-1.0, 1.0, 0.0]]
    assert x.cross(y.expand(2, 3), dim=1).grad_fn._saved_dim == 1


def test_cross_without_a_dim_warns_and_takes_the_first_of_length_three():
    x = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    with always_warned(torch):
        with pytest.warns(UserWarning, match="Using torch.cross without specifying the dim arg"):
            c = torch.cross(x, torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]]))
    assert c.tolist() == [[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]]
    assert c.stride() == (2, 1) and c.view(-1).shape == (6,)
    with raises(RuntimeError, "linalg.cross: inputs dimension -1 must have length 3. Got 2 "
                              "and 2"):
        torch.linalg.cross(x, x)
    with raises(RuntimeError, "linalg.cross: inputs must have the same number of dimensions."):
        torch.linalg.cross(x.t(), torch.ones(3))
    with raises(RuntimeError, "expected scalar type Double but found Float"):
        torch.linalg.cross(torch.ones(3, dtype=torch.float64), torch.ones(3))


def test_kron_is_made_of_views_and_a_product():
    a = torch.tensor([[1.0, 2.0]], requires_grad=True)
    b = torch.tensor([[0.0, 1.0], [1.0, 0.0]], requires_grad=True)
    k = torch.kron(a, b)
    assert k.tolist() == [[0.0, 1.0, 0.0, 2.0], [1.0, 0.0, 2.0, 0.0]]
    assert type(k.grad_fn).__name__ == "UnsafeViewBackward0" and _names(k) == ["MulBackward0"]
    assert k.grad_fn._saved_self_sym_sizes == (1, 2, 2, 2)
    assert [type(n).__name__ for n, _ in k.grad_fn.next_functions[0][0].next_functions] == [
        "UnsafeViewBackward0", "UnsafeViewBackward0"]
    k.sum().backward()
    assert a.grad.tolist() == [[2.0, 2.0]] and b.grad.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert torch.kron(torch.tensor([1, 2]), torch.tensor([[1], [10]])).tolist() == [
        [1, 2], [10, 20]]
    with raises(TypeError, "kron(): argument 'other' (position 2) must be Tensor, not int"):
        torch.kron(a, 2)
    assert torch.kron(torch.arange(6.0).reshape(2, 3)[:, :2], torch.ones(1)).shape == (2, 2)


def test_diag_both_ways_and_diag_embed():
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.diag(v, 1)
    assert m.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]
    assert type(m.grad_fn).__name__ == "DiagEmbedBackward0" and m.grad_fn._saved_offset == 1
    back = torch.diag(m, 1)
    assert back.tolist() == [1.0, 2.0] and back._base is None
    assert type(back.grad_fn).__name__ == "DiagonalBackward0_copy"
    assert (back.grad_fn._saved_offset, back.grad_fn._saved_dim1, back.grad_fn._saved_dim2,
            back.grad_fn._saved_self_sym_sizes) == (1, 0, 1, (3, 3))
    (back * torch.tensor([3.0, 4.0])).sum().backward()
    assert v.grad.tolist() == [3.0, 4.0]
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    e = torch.diag_embed(x, 0, 0, 2)
    assert e.shape == (2, 2, 2) and e[:, 1, :].tolist() == [[3.0, 0.0], [0.0, 4.0]]
    assert (e.grad_fn._saved_dim1, e.grad_fn._saved_dim2) == (0, 2)
    e.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with raises(RuntimeError, "diag(): Supports 1D or 2D tensors. Got 3D"):
        torch.diag(torch.ones(2, 2, 2))
    with raises(RuntimeError, "diagonal dimensions cannot be identical 1, 1"):
        torch.diag_embed(x, 0, 1, 1)


def test_tile_and_repeat_interleave():
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    t = x.tile(2)
    assert t.tolist() == [[1.0, 2.0, 1.0, 2.0]] and type(t.grad_fn).__name__ == "RepeatBackward0"
    assert t.grad_fn._saved_repeats == (1, 2)
    assert torch.tile(x, (2, 1, 1)).shape == (2, 1, 2)
    r = x.repeat_interleave(2)
    assert r.tolist() == [1.0, 1.0, 2.0, 2.0]
    chain, node = [], r.grad_fn
    while type(node).__name__ != "AccumulateGrad":
        chain.append(type(node).__name__)
        node = node.next_functions[0][0]
    assert chain == ["ViewBackward0", "CloneBackward0", "ExpandBackward0",
                     "UnsqueezeBackward0", "ViewBackward0"]
    r.sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0]]
    counts = x.repeat_interleave(torch.tensor([0, 3]), dim=1)
    assert counts.tolist() == [[2.0, 2.0, 2.0]]
    assert type(counts.grad_fn).__name__ == "IndexSelectBackward0"
    assert counts.grad_fn._saved_index.tolist() == [1, 1, 1]
    assert torch.repeat_interleave(torch.tensor([1, 0, 2])).tolist() == [0, 2, 2]
    with raises(RuntimeError, "repeats must have the same size as input along dim, but got "
                              "repeats.size(0) = 3 and input.size(1) = 2"):
        x.repeat_interleave(torch.tensor([1, 2, 3]), dim=1)
    with raises(RuntimeError, "Repeats must be non-negative"):
        x.repeat_interleave(-1)
    with raises(RuntimeError, "repeats can not be negative"):
        torch.repeat_interleave(torch.tensor([1, -1]))
    with raises(RuntimeError, "repeat_interleave only accept 1D vector as repeat"):
        torch.repeat_interleave(torch.tensor([[1]]))
    with raises(NotImplementedError, "\"repeat_interleave_cpu\" not implemented for 'Float'"):
        torch.repeat_interleave(torch.tensor([1.0]))


def test_tensor_split_makes_slices_and_unflatten_a_view():
    x = torch.arange(10.0).requires_grad_()
    pieces = torch.tensor_split(x, 3)
    assert [p.tolist() for p in pieces] == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0,
                                                                                   9.0]]
    assert {type(p.grad_fn).__name__ for p in pieces} == {"SliceBackward0"}
    assert pieces[0].grad_fn is not pieces[1].grad_fn and pieces[1]._base is x
    at = x.tensor_split([2, 12, 5])
    assert [p.shape[0] for p in at] == [2, 8, 0, 5]
    assert (at[2].grad_fn._saved_start, at[2].grad_fn._saved_end) == (12, 5)
    assert [p.shape[0] for p in torch.tensor_split(x, torch.tensor([4]))] == [4, 6]
    with raises(RuntimeError, "number of sections must be larger than 0, got 0"):
        torch.tensor_split(x, 0)
    with raises(RuntimeError, "tensor_split expected at least a 1-dimensional tensor, but got "
                              "a tensor with 0 dims"):
        torch.tensor_split(torch.tensor(1.0), 2)
    u = x.unflatten(0, (2, -1))
    assert u.shape == (2, 5) and type(u.grad_fn).__name__ == "ViewBackward0" and u._base is x
    with raises(RuntimeError, "unflatten: Provided sizes [3, 3] don't multiply up to the size "
                              "of dim 0 (10) in the input tensor"):
        x.unflatten(-1, (3, 3))
    with raises(RuntimeError, "unflatten: sizes must be non-empty"):
        x.unflatten(0, ())


def test_turns_and_flips():
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    r = torch.rot90(m)
    assert r.tolist() == [[2.0, 4.0], [1.0, 3.0]] and not r.is_contiguous()
    assert r.stride() == (1, 2) and m.rot90(2).is_contiguous()
    assert type(r.grad_fn).__name__ == "Rot90Backward0"
    assert (r.grad_fn._saved_k, r.grad_fn._saved_dims) == (1, (0, 1))
    assert m.rot90(3, [1, 0]).tolist() == r.tolist() and m.rot90(4).tolist() == m.tolist()
    (r * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert m.grad.tolist() == [[3.0, 1.0], [4.0, 2.0]]
    assert m.fliplr().tolist() == [[2.0, 1.0], [4.0, 3.0]]
    assert torch.flipud(m).tolist() == [[3.0, 4.0], [1.0, 2.0]]
    assert m.fliplr().grad_fn._saved_dims == (1,)
    with raises(RuntimeError, "expected total rotation dims == 2, but got dims = 1"):
        torch.rot90(m, 1, [0])
    with raises(RuntimeError, "expected total dims >= 2, but got total dims = 1"):
        torch.rot90(torch.ones(3))
    with raises(RuntimeError, "expected rotation dims to be different, but got dim0 = 0 and "
                              "dim1 = 0"):
        torch.rot90(m, 1, [0, 0])
    with raises(RuntimeError, "Input must be >= 2-d."):
        torch.fliplr(torch.ones(3))
    with raises(RuntimeError, "Input must be >= 1-d."):
        torch.flipud(torch.tensor(1.0))


def test_meshgrid():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([10.0, 20.0], requires_grad=True)
    rows, cols = torch.meshgrid(a, b, indexing="ij")
    assert rows.tolist() == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    assert cols.tolist() == [[10.0, 20.0]] * 3
    assert type(rows.grad_fn).__name__ == "ExpandBackward0" and _names(rows) == ["ViewBackward0"]
    assert rows.grad_fn._saved_self_sym_sizes == (3, 1)
    (rows * cols).sum().backward()
    assert a.grad.tolist() == [30.0] * 3 and b.grad.tolist() == [6.0, 6.0]
    xs, ys = torch.meshgrid([a, b], indexing="xy")
    assert xs.shape == ys.shape == (2, 3) and xs[1].tolist() == [1.0, 2.0, 3.0]
    assert xs.grad_fn._saved_self_sym_sizes == (1, 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.meshgrid(a, b)
    assert [str(w.message).split(" (Triggered")[0] for w in caught] == [
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
        "argument."]
    with raises(RuntimeError, 'torch.meshgrid: indexing must be one of "xy" or "ij", but '
                              "received: ab"):
        torch.meshgrid(a, indexing="ab")
    with raises(RuntimeError, "meshgrid expects a non-empty TensorList"):
        torch.meshgrid(indexing="ij")
    with raises(RuntimeError, "meshgrid expects all tensors to have the same dtype"):
        torch.meshgrid(a, b.double(), indexing="ij")


def test_tensordot_and_inner_are_made_of_permutes_reshapes_and_mm():
    a = torch.arange(6.0).reshape(2, 3).requires_grad_()
    b = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
    y = torch.tensordot(a, b, 1)
    assert y.tolist() == [[2.0, 3.0], [8.0, 9.0]]
    assert first_edges(y) == ["ViewBackward0", "MmBackward0", "ViewBackward0", "PermuteBackward0"]
    y.sum().backward()
    assert a.grad.tolist() == [[1.0, 1.0, 2.0]] * 2 and b.grad.tolist() == [[3.0] * 2, [5.0] * 2,
                                                                          [7.0] * 2]
    c = torch.tensordot(a, b.t().contiguous(), ([1], [1]))  # its permute is a transpose
    assert c.tolist() == y.tolist()
    mm = c.grad_fn.next_functions[0][0]
    assert [type(n).__name__ for n, _ in mm.next_functions] == ["ViewBackward0",
                                                                 "ReshapeAliasBackward0"]
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    d = torch.inner(v, v)
    assert d.item() == 14.0 and first_edges(d) == ["ViewBackward0", "DotBackward0",
                                              "PermuteBackward0"]
    assert torch.inner(a, v).tolist() == [8.0, 26.0]
    assert type(torch.inner(a, torch.tensor(2.0)).grad_fn).__name__ == "MulBackward0"
    assert torch.tensordot(torch.ones(2, 1), torch.ones(3, 4), ([1], [0])).tolist() == [
        [3.0] * 4] * 2
    with raises(RuntimeError, "contracted dimensions need to match, but first has size 3 in "
                              "dim -1 and second has size 2 in dim 0"):
        torch.tensordot(a, torch.ones(2, 3), 1)
    with raises(RuntimeError, "both dimension lists should have same length"):
        torch.tensordot(a, b, ([0], [0, 1]))
    with raises(RuntimeError, "tensordot expects dims >= 0, but got dims=-1"):
        torch.tensordot(a, b, -1)
    with raises(RuntimeError, "tensordot expects dims < ndim_a or ndim_b, but got dims=3"):
        torch.tensordot(a, b, 3)
    with raises(RuntimeError, "both inputs should have same dtype"):
        torch.tensordot(a, b.double(), 1)
    with raises(RuntimeError, "inner() the last dimension must match on both input tensors "
                              "but got shapes [2, 3] and [2]"):
        torch.inner(a, torch.ones(2))


def test_einsum_is_made_of_permutes_and_bmm():
    a = torch.arange(6.0).reshape(2, 3).requires_grad_()
    b = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], requires_grad=True)
    y = torch.einsum("ij,jk->ik", a, b)
    assert y.tolist() == [[2.0, 3.0], [8.0, 9.0]]
    assert first_edges(y) == ["ViewBackward0", "PermuteBackward0", "ViewBackward0", "BmmBackward0",
                         "ViewBackward0", "PermuteBackward0", "PermuteBackward0",
                         "UnsqueezeBackward0"]
    y.sum().backward()
    assert a.grad.tolist() == [[1.0, 1.0, 2.0]] * 2
    assert torch.einsum("ij->ji", a).tolist() == a.t().tolist()
    assert type(torch.einsum("ij->ji", a).grad_fn).__name__ == "PermuteBackward0"
    assert torch.einsum("ij", a).tolist() == a.tolist()
    assert torch.einsum("ii", torch.eye(3) * 2).item() == 6.0
    assert first_edges(torch.einsum("ij->", a)) == ["SumBackward1", "PermuteBackward0"]
    assert torch.einsum("i,j", torch.tensor([1.0, 2.0]), torch.tensor([3.0])).tolist() == [
        [3.0], [6.0]]
    assert torch.einsum("...i,i", a, torch.ones(3)).tolist() == [3.0, 12.0]
    assert torch.einsum(" i j , j k -> i k ", [a, b]).tolist() == y.tolist()
    assert torch.einsum("iij->ji", torch.arange(8.0).reshape(2, 2, 2)).tolist() == [
        [0.0, 6.0], [1.0, 7.0]]
    empty = torch.einsum("ij,jk->ik", torch.ones(2, 0, requires_grad=True), torch.ones(0, 4))
    assert empty.tolist() == [[0.0] * 4] * 2


def test_einsum_of_empty_operands_keeps_the_graph():
    z = torch.zeros(0, requires_grad=True)
    total = torch.einsum("i->", z)
    assert total.item() == 0.0 and type(total.grad_fn).__name__ == "SumBackward1"
    total.backward()
    assert z.grad.shape == (0,)
    a, b = torch.zeros(2, 0, requires_grad=True), torch.zeros(0, 3, requires_grad=True)
    y = torch.einsum("ij,jk->ik", a, b)
    assert y.tolist() == [[0.0] * 3] * 2 and type(y.grad_fn).__name__ == "ViewBackward0"
    y.sum().backward()
    assert a.grad.shape == (2, 0) and b.grad.shape == (0, 3)
    c = torch.zeros(0, 3, requires_grad=True)
    cols = torch.einsum("ij->j", c)
    assert cols.tolist() == [0.0] * 3 and type(cols.grad_fn).__name__ == "SumBackward1"
    assert torch.einsum("ij,ij->ij", c, c).requires_grad
    ints = torch.einsum("ij,jk->ik", torch.zeros(2, 0, dtype=torch.int64),
                        torch.zeros(0, 3, dtype=torch.int64))
    assert ints.dtype == torch.int64 and ints.grad_fn is None


def test_einsum_checks_the_equation():
    a = torch.ones(2, 3)
    with raises(RuntimeError, "einsum(): fewer operands were provided than specified in the "
                              "equation"):
        torch.einsum("ij,jk", a)
    with raises(RuntimeError, "einsum(): more operands were provided than specified in the "
                              "equation"):
        torch.einsum("ij", a, a)
    with raises(RuntimeError, "einsum(): the number of subscripts in the equation (2) does not "
                              "match the number of dimensions (1) for operand 0 and no ellipsis "
                              "was given"):
        torch.einsum("ij", torch.ones(3))
    with raises(RuntimeError, "einsum(): invalid subscript given at index 1 in the equation "
                              "string, subscripts must be in [a-zA-Z]"):
        torch.einsum("i1->", torch.ones(2))
    with raises(RuntimeError, "einsum(): subscript j has size 4 for operand 1 which does not "
                              "broadcast with previously seen size 3"):
        torch.einsum("ij,jk->ik", a, torch.ones(4, 4))
    with raises(RuntimeError, "einsum(): subscript i is repeated for operand 0 but the sizes "
                              "don't match, 3 != 2"):
        torch.einsum("ii->i", a)
    with raises(RuntimeError, "einsum(): output subscript k does not appear in the equation "
                              "for any input operand"):
        torch.einsum("ij->k", a)
    with raises(RuntimeError, "einsum(): output subscript i appears more than once in the "
                              "output"):
        torch.einsum("ij->ii", a)
    with raises(RuntimeError, "einsum(): found '.' for operand 0 that is not part of any "
                              "ellipsis"):
        torch.einsum("..i.->", torch.ones(2))


def test_results_laid_out_as_torch_lays_them_out():
    a = torch.arange(6.0).reshape(2, 3).requires_grad_()
    b = torch.arange(12.0).reshape(3, 4).requires_grad_()
    turned = torch.einsum("ij,jk->ki", a, b)
    assert turned.stride() == (2, 1) and turned.tolist() == (a @ b).t().tolist()
    assert turned.view(-1).shape == (8,)
    batches = torch.einsum("bij,bjk->bki", torch.ones(5, 2, 3), torch.ones(5, 3, 4))
    assert batches.stride() == (8, 2, 1) and batches.view(-1).shape == (40,)
    assert torch.einsum("bij,bjk->kbi", torch.ones(5, 2, 3), torch.ones(5, 3, 4)).stride() == (
        2, 8, 1)
    x = torch.arange(6.0).reshape(3, 2).requires_grad_()
    y = torch.ones(3, 2)
    along_rows = torch.linalg.cross(x, y, dim=0)
    assert along_rows.stride() == (2, 1) and along_rows.view(-1).shape == (6,)
    assert torch.linalg.cross(torch.ones(4, 3, 5), torch.ones(4, 3, 5), dim=1).stride() == (
        15, 5, 1)
    t = torch.arange(6.0).reshape(3, 2).t()
    repeated = t.repeat_interleave(2, dim=0)
    assert repeated.stride() == (3, 1) and repeated.view(-1).shape == (12,)
    assert repeated.tolist() == [[0.0, 2.0, 4.0]] * 2 + [[1.0, 3.0, 5.0]] * 2


def test_shapes_taken_by_torch_keyword_names():
    x = torch.arange(6.0)
    assert [p.tolist() for p in torch.tensor_split(x, indices=[2])] == [
        [0.0, 1.0], [2.0, 3.0, 4.0, 5.0]]
    assert [len(p) for p in x.tensor_split(sections=2)] == [3, 3]
    assert [len(p) for p in torch.tensor_split(x, tensor_indices_or_sections=torch.tensor([2]))
            ] == [2, 4]
    assert [len(p) for p in x.tensor_split(tensor_indices_or_sections=torch.tensor(3))] == [
        2, 2, 2]
    assert x.tile(dims=(2,)).shape == (12,) and torch.tile(input=x, dims=(2, 1)).shape == (2, 6)
    assert x.reshape(shape=(2, 3)).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert torch.reshape(input=x, shape=(3, -1)).shape == (3, 2)
    assert torch.repeat_interleave(repeats=torch.tensor([1, 2])).tolist() == [0, 1, 1]


def test_unflatten_infers_from_the_dimension_it_cuts():
    assert torch.zeros(0, 6).unflatten(1, (2, -1)).shape == (0, 2, 3)
    assert torch.zeros(2, 0).unflatten(1, (3, -1)).shape == (2, 3, 0)
    with raises(RuntimeError, "unflatten: Provided sizes [4, -1] don't multiply up to the size "
                              "of dim 1 (6) in the input tensor"):
        torch.zeros(0, 6).unflatten(1, (4, -1))


def test_products_refuse_bools_and_factors_that_are_not_numbers():
    flags = torch.ones(2, 2, dtype=torch.bool)
    line = torch.ones(2, dtype=torch.bool)
    cases = [("dot", lambda: torch.vdot(line, line)), ("dot", lambda: torch.inner(line, line)),
             ("addmm_impl_cpu_", lambda: torch.inner(flags, flags)),
             ("addmm_impl_cpu_", lambda: torch.tensordot(flags, flags, dims=1)),
             ("bmm", lambda: torch.einsum("ij,jk->ik", flags, flags)),
             ("baddbmm", lambda: torch.baddbmm(flags[None], flags[None], flags[None])),
             ("addmv_impl_cpu", lambda: torch.addmv(line, flags, line)),
             ("addmv_impl_cpu", lambda: torch.mv(flags, line))]
    for kernel, call in cases:
        with raises(NotImplementedError, f'"{kernel}" not implemented for \'Bool\''):
            call()
    m = torch.ones(2, 2)
    with pytest.raises(TypeError, match=r"addmm\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, Tensor, Tensor, "
                                        r"beta=NoneType\)"):
        torch.addmm(m, m, m, beta=None)
    with raises(TypeError, "addmv(): argument 'alpha' must be Number, not NoneType"):
        torch.addmv(torch.ones(2), m, torch.ones(2), alpha=None)
    with raises(TypeError, "addbmm(): argument 'beta' must be Number, not NoneType"):
        torch.addbmm(m, m[None], m[None], beta=None)
    with raises(RuntimeError, "vector + matrix @ vector expected, got 2, 2, 1"):
        torch.addmv(torch.ones(1, 2), m, torch.ones(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(RuntimeError, "no dimension of size 3 in input"):
            torch.cross(m, m)
