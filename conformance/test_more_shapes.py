"""Black-box tests: hsplit, vsplit, dsplit, dstack, column_stack, row_stack, diagflat, the
conjugate identities, select_scatter, slice_scatter, diagonal_scatter, narrow_copy, fmax,
fmin, copysign, ldexp, var_mean, std_mean, cov, corrcoef, trapezoid, cumulative_trapezoid,
pairwise_distance, cosine_similarity, renorm, selu, celu, threshold and hardshrink. The same
assertions run on torch.
"""

import math
import warnings

import pytest
import torch

from conformance._support import first_edges, raises


def _edges(t):
    node = getattr(t, "grad_fn", t)  # a tensor's node, or a node
    return [None if n is None else type(n).__name__ for n, _ in node.next_functions]


def test_directional_splits_are_slices_along_their_dimension():
    x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
    assert [p.shape for p in torch.hsplit(x, 3)] == [(2, 1, 4)] * 3
    assert [p.shape for p in torch.vsplit(x, [1])] == [(1, 3, 4), (1, 3, 4)]
    assert [p.shape for p in x.dsplit([1, 10])] == [(2, 3, 1), (2, 3, 3), (2, 3, 0)]
    assert [p.tolist() for p in torch.hsplit(torch.arange(4), 2)] == [[0, 1], [2, 3]]
    pieces = torch.dsplit(x, 2)
    assert [type(p.grad_fn).__name__ for p in pieces] == ["SliceBackward0"] * 2
    pieces[1].sum().backward()
    assert x.grad[..., 2:].sum().item() == 12 and x.grad[..., :2].sum().item() == 0


def test_directional_splits_refuse_what_torch_refuses():
    with raises(RuntimeError, "torch.hsplit requires a tensor with at least 1 dimension, but "
                              "got a tensor with 0 dimensions!"):
        torch.hsplit(torch.tensor(1.0), 2)
    with raises(RuntimeError, "torch.vsplit requires a tensor with at least 2 dimension, but "
                              "got a tensor with 1 dimensions!"):
        torch.vsplit(torch.ones(4), 2)
    with raises(RuntimeError, "torch.dsplit attempted to split along dimension 2, but the size "
                              "of the dimension 8 is not divisible by the split_size 3!"):
        torch.dsplit(torch.ones(1, 1, 8), 3)
    with raises(RuntimeError, "torch.hsplit attempted to split along dimension 1, but the size "
                              "of the dimension 4 is not divisible by the split_size 0!"):
        torch.hsplit(torch.ones(3, 4), 0)
    with raises(RuntimeError, "number of sections must be larger than 0, got -1"):
        torch.hsplit(torch.ones(3, 4), -1)


def test_stacks_grow_their_pieces_as_torch_does():
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.ones(2, 2, requires_grad=True)
    d = torch.dstack([v, v * 0])
    assert d.shape == (1, 2, 2) and d[0, :, 0].tolist() == [1.0, 2.0]
    assert _edges(d) == ["UnsqueezeBackward0", "UnsqueezeBackward0"]
    assert first_edges(d) == ["CatBackward0", "UnsqueezeBackward0", "UnsqueezeBackward0"]
    assert first_edges(torch.dstack([m, m])) == ["CatBackward0", "UnsqueezeBackward0"]
    assert torch.dstack([torch.tensor(1.0), torch.tensor(2.0)]).shape == (1, 1, 2)
    c = torch.column_stack([v, m, torch.tensor([5.0, 6.0])])
    assert c.tolist() == [[1.0, 1.0, 1.0, 5.0], [2.0, 1.0, 1.0, 6.0]]
    assert _edges(c) == ["ViewBackward0", "AccumulateGrad", None]
    assert torch.column_stack([torch.tensor(1.0), torch.tensor(2.0)]).shape == (1, 2)
    r = torch.row_stack([v, m])
    assert r.shape == (3, 2) and _edges(r) == ["UnsqueezeBackward0", "AccumulateGrad"]
    assert torch.atleast_3d(torch.ones(3)).shape == (1, 3, 1)
    for name, stack in (("dstack", torch.dstack), ("column_stack", torch.column_stack),
                        ("vstack", torch.row_stack)):
        with raises(RuntimeError, f"{name} expects a non-empty TensorList"):
            stack([])


def test_diagflat_is_diag_embed_of_a_flat_view_and_conj_is_the_tensor_itself():
    m = torch.arange(4.0).reshape(2, 2).requires_grad_()
    d = torch.diagflat(m, 1)
    assert d.shape == (5, 5) and d.diagonal(1).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert first_edges(d) == ["DiagEmbedBackward0", "ViewBackward0"]
    assert first_edges(m.t().diagflat()) == [
        "DiagEmbedBackward0", "ViewBackward0", "CloneBackward0", "TBackward0"]
    assert torch.diagflat(torch.tensor(3.0)).tolist() == [[3.0]]
    assert torch.conj(m) is m and m.resolve_conj() is m and torch.resolve_neg(m) is m
    assert not m.is_conj() and not m.is_neg()


def test_select_scatter_writes_a_slice_into_a_copy_and_splits_the_gradient():
    base = torch.zeros(2, 3, requires_grad=True)
    row = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = torch.select_scatter(base, row, 0, -1)
    assert out.tolist() == [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]
    assert type(out.grad_fn).__name__ == "SelectScatterBackward0"
    assert out.grad_fn._saved_dim == 0
    (out * torch.arange(6.0).reshape(2, 3)).sum().backward()
    assert base.grad.tolist() == [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0]]
    assert row.grad.tolist() == [3.0, 4.0, 5.0]
    cast = torch.select_scatter(torch.zeros(2, 2), torch.ones(2, dtype=torch.float64), 1, 0)
    assert cast.dtype == torch.float32 and cast.tolist() == [[1.0, 0.0], [1.0, 0.0]]
    with raises(RuntimeError, "expected src to have a size equal to the slice of self. src "
                              "size = [3], slice size = [2]"):
        torch.select_scatter(torch.zeros(2, 3), row, 1, 0)
    with raises(IndexError, "select(): index 5 out of range for tensor of size [2, 3] at "
                            "dimension 0"):
        torch.select_scatter(torch.zeros(2, 3), row, 0, 5)


def test_slice_and_diagonal_scatter_keep_the_numbers_that_name_the_piece():
    base = torch.zeros(3, 4, requires_grad=True)
    piece = torch.ones(3, 2, requires_grad=True)
    out = torch.slice_scatter(base, piece, 1, 1, None, 2)
    assert out[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    node = out.grad_fn
    assert type(node).__name__ == "SliceScatterBackward0"
    assert (node._saved_dim, node._saved_start, node._saved_end, node._saved_step) == (
        1, 1, None, 2)
    out.backward(torch.arange(12.0).reshape(3, 4))
    assert piece.grad.tolist() == [[1.0, 3.0], [5.0, 7.0], [9.0, 11.0]]
    assert base.grad[0].tolist() == [0.0, 0.0, 2.0, 0.0]
    whole = torch.slice_scatter(torch.zeros(2, 3), torch.ones(2, 3), 1, -10, 100)
    assert whole.sum().item() == 6
    with raises(RuntimeError, "slice step must be positive"):
        torch.slice_scatter(torch.zeros(2, 3), torch.ones(2, 0), 1, 0, 2, 0)
    diag = torch.diagonal_scatter(base, torch.ones(3, requires_grad=True), 1)
    assert diag.diagonal(1).tolist() == [1.0, 1.0, 1.0] and diag[0, 0].item() == 0
    assert type(diag.grad_fn).__name__ == "DiagonalScatterBackward0"
    assert (diag.grad_fn._saved_offset, diag.grad_fn._saved_dim1) == (1, 0)
    with raises(RuntimeError, "expected src to have a size equal to the slice of self. src "
                              "size = [4], slice size = [3]"):
        torch.diagonal_scatter(base, torch.ones(4))
    with raises(RuntimeError, "diagonal dimensions cannot be identical 1, 1"):
        torch.diagonal_scatter(base, torch.ones(3), 0, 1, 1)


def test_narrow_copy_is_a_fresh_tensor_with_its_own_node():
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    y = torch.narrow_copy(x, 1, 1, 2)
    assert y.tolist() == [[1.0, 2.0], [5.0, 6.0], [9.0, 10.0]] and y.is_contiguous()
    node = y.grad_fn
    assert type(node).__name__ == "NarrowCopyBackward0"
    assert (node._saved_dim, node._saved_start, node._saved_length) == (1, 1, 2)
    assert node._saved_self_sym_sizes == (3, 4)
    y.sum().backward()
    assert x.grad[0].tolist() == [0.0, 1.0, 1.0, 0.0]
    with raises(RuntimeError, "start (2) + length (3) exceeds dimension size (4)."):
        torch.narrow_copy(x, 1, -2, 3)
    with raises(RuntimeError, "start (0) + length (-1) exceeds dimension size (4)."):
        torch.narrow_copy(x, 1, 0, -1)
    with raises(IndexError, "start out of range (expected to be in range of [-4, 4], but got "
                            "5)"):
        torch.narrow_copy(x, 1, 5, 0)
    with raises(RuntimeError, "narrow() cannot be applied to a 0-dim tensor."):
        torch.narrow_copy(torch.tensor(1.0), 0, 0, 1)


def test_fmax_and_fmin_pass_over_nan_and_send_ties_to_the_input():
    nan = float("nan")
    a = torch.tensor([1.0, nan, -2.0, nan, 3.0], requires_grad=True)
    b = torch.tensor([nan, 0.5, -2.0, nan, 4.0], requires_grad=True)
    hi = torch.fmax(a, b)
    assert str(hi.tolist()) == "[1.0, 0.5, -2.0, nan, 4.0]"
    assert str(a.fmin(b).tolist()) == "[1.0, 0.5, -2.0, nan, 3.0]"
    assert type(hi.grad_fn).__name__ == "FmaxBackward0"
    assert hi.grad_fn._saved_self is a and hi.grad_fn._saved_other is b
    hi.backward(torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))
    assert a.grad.tolist() == [1.0, 0.0, 3.0, 4.0, 0.0]
    assert b.grad.tolist() == [0.0, 2.0, 0.0, 0.0, 5.0]
    assert torch.fmax(torch.tensor([1, 5]), torch.tensor([2.0, nan])).tolist() == [2.0, 5.0]
    with raises(TypeError, "fmax(): argument 'other' (position 2) must be Tensor, not float"):
        torch.fmax(a, 2.0)


def test_copysign_takes_the_sign_of_other_even_of_a_zero():
    a = torch.tensor([1.0, -2.0, 0.0, 3.0], requires_grad=True)
    b = torch.tensor([-1.0, 2.0, -1.0, -0.0], requires_grad=True)
    y = torch.copysign(a, b)
    assert y.tolist() == [-1.0, 2.0, -0.0, -3.0] and math.copysign(1, y[2].item()) == -1
    assert type(y.grad_fn).__name__ == "CopysignBackward0"
    assert _edges(y) == ["AccumulateGrad", "AccumulateGrad"]
    y.sum().backward()
    assert a.grad.tolist() == [-1.0, -1.0, 0.0, -1.0] and b.grad.tolist() == [0.0] * 4
    n = torch.copysign(a, -1)
    assert type(n.grad_fn).__name__ == "CopysignBackward1" and n.tolist()[3] == -3.0
    assert torch.copysign(torch.tensor([1, -2]), 1).dtype == torch.float32
    assert torch.copysign(torch.ones(2, dtype=torch.float16), 2.0).dtype == torch.float16
    assert torch.copysign(torch.tensor([True]), torch.tensor([False])).dtype == torch.float32


def test_ldexp_multiplies_by_an_exact_power_of_two():
    x = torch.tensor([1.0, 3.0, -0.5], requires_grad=True)
    e = torch.tensor([1, 0, 3])  # torch's gradient for a negative integer one is 0
    y = torch.ldexp(x, e)
    assert y.tolist() == [2.0, 3.0, -4.0] and _edges(y) == ["AccumulateGrad", None]
    assert type(y.grad_fn).__name__ == "LdexpBackward0"
    assert y.grad_fn._saved_other.tolist() == [1, 0, 3]
    assert y.grad_fn._saved_result.tolist() == y.tolist()
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 1.0, 8.0]
    assert torch.ldexp(x, torch.tensor([-2, -1, 0])).tolist() == [0.25, 1.5, -0.5]
    half = torch.ldexp(torch.tensor([1e-3], dtype=torch.float16), torch.tensor([20]))
    assert half.dtype == torch.float16 and half.item() == 1049.0
    assert torch.ldexp(torch.tensor([1e-30]), torch.tensor([200])).item() == pytest.approx(
        1.6069380442589903e30, rel=1e-6)
    assert torch.ldexp(torch.tensor([3]), torch.tensor([2])).dtype == torch.float32
    with raises(TypeError, "ldexp(): argument 'other' (position 2) must be Tensor, not int"):
        torch.ldexp(x, 2)


def test_var_mean_and_std_mean_record_one_node_for_both():
    x = torch.tensor([[0.0, 1.0, 2.0, 5.0], [1.0, 1.0, 1.0, 1.0]], requires_grad=True)
    var, mean = torch.var_mean(x, 1)
    assert var.tolist() == pytest.approx([14 / 3, 0.0]) and mean.tolist() == [2.0, 1.0]
    assert var.grad_fn is mean.grad_fn
    node = var.grad_fn
    assert type(node).__name__ == "VarMeanBackward0"
    assert (node._saved_dim, node._saved_correction, node._saved_keepdim) == ((1,), 1, False)
    (var.sum() + mean.sum()).backward()
    assert x.grad[0].tolist() == pytest.approx([-4 / 3 + 0.25, -2 / 3 + 0.25, 0.25, 2 + 0.25])
    sd, mean = torch.std_mean(x, (0, 1), correction=0, keepdim=True)
    assert sd.shape == (1, 1) and type(sd.grad_fn).__name__ == "StdMeanBackward0"
    assert sd.grad_fn._saved_result0.tolist() == sd.tolist()
    sd2, _ = torch.std_mean(x, True)
    assert sd2.item() == pytest.approx(torch.std(x).item())
    assert [t.dtype for t in torch.std_mean(x.half(), 0)] == [torch.float16] * 2
    with raises(RuntimeError, "std_mean only support floating point and complex dtypes"):
        torch.std_mean(torch.arange(3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sd, mean = torch.var_mean(torch.ones(2, 1), 1)
    assert math.isnan(sd[0].item()) and mean.tolist() == [1.0, 1.0]
    assert str(caught[0].message).startswith("var_mean(): degrees of freedom is <= 0.")


def test_cov_and_corrcoef_record_the_operations_they_are_made_of():
    x = torch.tensor([[0.0, 1.0, 2.0, 4.0], [1.0, 0.0, 3.0, 2.0]], requires_grad=True)
    c = torch.cov(x)
    assert c.flatten().tolist() == pytest.approx([35 / 12, 7 / 6, 7 / 6, 5 / 3])
    assert first_edges(c) == ["SqueezeBackward0", "DivBackward0", "MmBackward0", "SubBackward0"]
    assert _edges(c.grad_fn.next_functions[0][0]) == ["MmBackward0", None]
    assert torch.cov(x, correction=0)[1, 1].item() == pytest.approx(1.25)
    assert torch.cov(torch.tensor([1.0, 2.0, 4.0])).shape == ()
    assert torch.cov(torch.arange(6).reshape(2, 3)).dtype == torch.float32
    weighted = torch.cov(x, fweights=torch.tensor([1, 2, 1, 1]),
                         aweights=torch.tensor([1.0, 0.5, 2.0, 1.0], requires_grad=True))
    assert weighted[0, 0].item() == pytest.approx(2.3783783783783785, rel=1e-6)  # NumPy's
    r = torch.corrcoef(x)
    assert r[0, 1].item() == pytest.approx(7 / 6 / math.sqrt(35 / 12 * 5 / 3))
    assert first_edges(r)[:3] == ["ClampBackward1", "DivBackward0", "DivBackward0"]
    r.sum().backward()
    assert x.grad is not None
    with raises(RuntimeError, "cov(): expected input to have two or fewer dimensions but got "
                              "an input with 3 dimensions"):
        torch.cov(torch.ones(2, 2, 2))
    with raises(RuntimeError, "corrcoef(): expected input to have two or fewer dimensions but "
                              "got an input with 3 dimensions"):
        torch.corrcoef(torch.ones(2, 2, 2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lone = torch.cov(torch.ones(2, 1))
    assert str(caught[0].message).startswith("cov(): degrees of freedom is <= 0.")
    assert math.isnan(lone[0, 0].item())


def test_trapezoid_records_the_number_forms_of_mul_and_div():
    y = torch.tensor([[0.0, 1.0, 4.0, 9.0]], requires_grad=True)
    area = torch.trapezoid(y, dx=2.0)
    assert area.tolist() == [19.0]
    assert first_edges(area) == ["MulBackward1", "SubBackward0", "SumBackward1"]
    assert area.grad_fn._saved_other == 2.0
    assert _edges(area.grad_fn.next_functions[0][0]) == ["SumBackward1", "MulBackward1"]
    area.sum().backward()
    assert y.grad.tolist() == [[1.0, 2.0, 2.0, 1.0]]
    x = torch.tensor([0.0, 1.0, 3.0, 4.0])
    bent = torch.trapz(y, x)
    assert bent.tolist() == [0.5 + 5.0 + 6.5]
    assert first_edges(bent) == ["DivBackward1", "SumBackward1", "MulBackward0", "AddBackward0",
                            "SliceBackward0"]
    running = torch.cumulative_trapezoid(y)
    assert running.tolist() == [[0.5, 3.0, 9.5]]
    assert first_edges(running) == ["CumsumBackward0", "MulBackward1", "AddBackward0",
                               "SliceBackward0"]
    assert torch.cumulative_trapezoid(y, x).tolist() == [[0.5, 5.5, 12.0]]
    assert torch.trapezoid(torch.arange(6).reshape(2, 3)).tolist() == [2.0, 8.0]
    empty = torch.trapezoid(torch.ones(2, 0, requires_grad=True))
    assert empty.tolist() == [0.0, 0.0] and empty.grad_fn is None
    with raises(RuntimeError, "trapezoid: There must be one `x` value for each sample point"):
        torch.trapezoid(y, torch.ones(3))
    with raises(IndexError, "Dimension specified as -1 but tensor has no dimensions"):
        torch.trapezoid(torch.tensor(1.0))
    with raises(IndexError, "slice() cannot be applied to a 0-dim tensor."):
        torch.cumulative_trapezoid(torch.tensor(1.0))


def test_distances_are_the_composites_torch_writes():
    a = torch.tensor([[3.0, 4.0], [1.0, 0.0]], requires_grad=True)
    b = torch.tensor([[0.0, 0.0], [1.0, 1.0]], requires_grad=True)
    d = torch.pairwise_distance(a, b, eps=0.0)
    assert d.tolist() == [5.0, 1.0]
    assert first_edges(d) == ["NormBackward1", "AddBackward1", "SubBackward0"]
    node = d.grad_fn
    assert (node._saved_p, node._saved_dim, node._saved_keepdim) == (2.0, (1,), False)
    assert node._saved_result.tolist() == [5.0, 1.0]
    assert torch.pairwise_distance(a, b, p=1.0, keepdim=True).shape == (2, 1)
    s = torch.cosine_similarity(a, b + 1)
    assert s.tolist() == pytest.approx([7 / 5 / math.sqrt(2), 1 / math.sqrt(2)])
    assert first_edges(s) == ["SumBackward1", "MulBackward0", "DivBackward0"]
    norm = s.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[1][0]
    assert _chain_from(norm) == ["CloneBackward0", "LinalgVectorNormBackward0"]
    zero = torch.cosine_similarity(torch.zeros(1, 2), torch.ones(1, 2))
    assert zero.tolist() == [0.0]
    spread = torch.cosine_similarity(a, torch.ones(1, 2))
    assert _edges(spread.grad_fn.next_functions[0][0].next_functions[0][0]) == [
        "ExpandBackward0", "CloneBackward0"]
    with raises(RuntimeError, "expected common dtype to be floating point, yet common dtype "
                              "is Long"):
        torch.cosine_similarity(torch.ones(2, 2, dtype=torch.int64),
                                torch.ones(2, 2, dtype=torch.int64))


def _chain_from(node):
    found = []
    while node is not None and type(node).__name__ != "AccumulateGrad":
        found.append(type(node).__name__)
        node = node.next_functions[0][0]
    return found


def test_renorm_scales_only_the_slices_that_are_too_long():
    x = torch.tensor([[3.0, 4.0], [0.3, 0.4]], requires_grad=True)
    y = torch.renorm(x, 2, 0, 1.0)
    assert y.flatten().tolist() == pytest.approx([0.6, 0.8, 0.3, 0.4], rel=1e-6)
    node = y.grad_fn
    assert type(node).__name__ == "RenormBackward0"
    assert (node._saved_p, node._saved_dim, node._saved_maxnorm) == (2, 0, 1.0)
    y.backward(torch.tensor([[1.0, 0.0], [1.0, 1.0]]))
    assert x.grad.flatten().tolist() == pytest.approx([0.128, -0.096, 1.0, 1.0], rel=1e-5)
    with raises(RuntimeError, "renorm: non-positive-norm not supported"):
        torch.renorm(x, 0, 0, 1.0)
    with raises(RuntimeError, "renorm: expected maxnorm to be >= 0 but got -1"):
        x.renorm(2, 0, -1.0)
    with raises(RuntimeError, "renorm: input needs at least 2 dimensions, got 1 dimensions"):
        torch.renorm(torch.ones(3), 2, 0, 1.0)


def test_top_level_activations():
    z = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    s = torch.selu(z)
    assert s.tolist() == pytest.approx([1.0507009873554805 * 1.6732632423543772 *
                                        (math.exp(-1) - 1), 0.0, 2 * 1.0507009873554805])
    node = s.grad_fn
    assert type(node).__name__ == "EluBackward0"
    assert (node._saved_alpha, node._saved_scale, node._saved_input_scale) == (
        1.6732632423543772, 1.0507009873554805, 1)
    s.sum().backward()
    assert z.grad[1].item() == pytest.approx(1.0507009873554805 * 1.6732632423543772)
    c = torch.celu(z, 2.0)
    assert c.tolist() == pytest.approx([2 * (math.exp(-0.5) - 1), 0.0, 2.0])
    assert type(c.grad_fn).__name__ == "CeluBackward0" and c.grad_fn._saved_alpha == 2.0
    t = torch.threshold(z, 0.5, -3.0)
    assert t.tolist() == [-3.0, -3.0, 2.0] and t.grad_fn._saved_threshold == 0.5
    assert type(t.grad_fn).__name__ == "ThresholdBackward0"
    assert torch.threshold(torch.arange(5), 2.5, 20.7).tolist() == [20, 20, 20, 3, 4]
    h = z.hardshrink(1.0)
    assert h.tolist() == [0.0, 0.0, 2.0] and type(h.grad_fn).__name__ == "HardshrinkBackward0"
    assert torch.hardshrink(z).tolist() == [-1.0, 0.0, 2.0]
    with raises(RuntimeError, "ZeroDivisionError: alpha cannot be 0 for CELU"):
        torch.celu(z, 0.0)
    with raises(NotImplementedError, "\"elu_cpu\" not implemented for 'Long'"):
        torch.selu(torch.arange(3))
    with raises(NotImplementedError, "\"hardshrink_cpu\" not implemented for 'Long'"):
        torch.arange(3).hardshrink()



def test_selu_and_celu_round_as_torchs_float32_kernel():
    # torch's values, to the bit: alpha * scale rounded to float32 (selu(-inf)), and
    # expm1 within an ulp, where a float32 expm1 of 2 ulp would miss some of them.
    x = torch.tensor([-3.0, -0.01, -0.1, -1.0, -math.inf, 2.0])
    assert torch.selu(x).tolist() == [
        -1.6705687046051025, -0.01749338023364544, -0.16730527579784393, -1.1113307476043701,
        -1.7580993175506592, 2.1014020442962646]
    assert torch.selu_(x.clone()).tolist() == torch.selu(x).tolist()
    assert torch.celu(x).tolist() == [
        -0.9502129554748535, -0.009950165636837482, -0.09516258537769318,
        -0.6321205496788025, -1.0, 2.0]
    y = torch.tensor([-3.0, -0.1, -1.0, -0.5, -2.0, -math.inf])
    assert torch.celu(y, 0.3).tolist() == [
        -0.2999863922595978, -0.0850406140089035, -0.28929781913757324, -0.24333731830120087,
        -0.2996182143688202, -0.30000001192092896]


def test_in_place_forms_record_the_functions_nodes():
    x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    y = x * 1
    y.copysign_(-1)
    assert y.tolist() == [-1.0, -0.5, -2.0] and y._version == 1
    assert type(y.grad_fn).__name__ == "CopysignBackward1"
    assert y.grad_fn._saved_self.tolist() == [-1.0, 0.5, 2.0]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, -1.0, -1.0]
    z = x * 1
    torch.ldexp_(z, torch.tensor([1, 2, 3]))
    assert z.tolist() == [-2.0, 2.0, 16.0] and type(z.grad_fn).__name__ == "LdexpBackward0"
    r = x.reshape(1, 3) * 1
    r.renorm_(2, 0, 1.0)
    assert type(r.grad_fn).__name__ == "RenormBackward0"
    assert r.norm().item() == pytest.approx(1.0, rel=1e-5)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        x.copysign_(1)
