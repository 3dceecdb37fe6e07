"""Behaviour the differential fuzzer found in gradient formulas: the nodes a second derivative
of std shows for a vector, the versions of the zeros prelu's second derivative and copysign
fill, a zero power's row-major zeros; kthvalue of a 0-d bool tensor, the orders of clamp_'s
and topk's refusals, and cdist of an empty operand. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import preorder_names


@pytest.mark.parametrize(("dim", "keepdim"), [(0, False), ((0,), False), (-1, False), (0, True)])
def test_a_vectors_std_gradient_is_not_unsqueezed(dim, keepdim):
    x = torch.tensor([1.5, -2.0, 0.0], requires_grad=True)
    (g,) = torch.autograd.grad(x.std(dim, keepdim=keepdim, correction=0).sum(), x,
                               create_graph=True)
    assert preorder_names(g.grad_fn, 3) == (
        "MulBackward0 .MulBackward1 ..MaskedFillBackward0 ...DivBackward0 .SubBackward0 "
        "..AccumulateGrad ..MeanBackward1 ...AccumulateGrad")


def test_a_matrixs_std_gradient_is_unsqueezed():
    x = torch.tensor([[1.5, -2.0, 0.0], [0.5, 1.0, 4.0]], requires_grad=True)
    (g,) = torch.autograd.grad(x.std(1, correction=0).sum(), x, create_graph=True)
    assert preorder_names(g.grad_fn, 3).startswith(
        "MulBackward0 .MulBackward1 ..UnsqueezeBackward0 ...MaskedFillBackward0")
    assert torch.allclose(g, torch.autograd.grad(x.std(1, correction=0).sum(), x)[0])


def test_prelus_second_derivative_fills_its_missing_gradients_zeros_once():
    w = torch.tensor([0.25])
    x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    (g1,) = torch.autograd.grad(torch.nn.functional.prelu(x, w).sum(), x, create_graph=True)
    (g2,) = torch.autograd.grad(g1.sum(), x)
    assert (g2._version, g2.tolist()) == (1, [[0.0, 0.0, 0.0]])
    (g1,) = torch.autograd.grad((torch.nn.functional.prelu(x, w) ** 3).sum(), x,
                                create_graph=True)
    (g2,) = torch.autograd.grad(g1.sum(), x)  # the zeros, and a second gradient added in
    assert (g2._version, g2.tolist()) == (2, [[3.0, -0.09375, 12.0]])


@pytest.mark.parametrize("exponent", [0, 0.0])
def test_a_zero_powers_gradient_is_row_major_zeros(exponent):
    leaf = torch.tensor([[0.5, 2.0, 3.0], [1.0, 4.0, 0.25]]).t().requires_grad_()
    (g,) = torch.autograd.grad(leaf.pow(exponent).sum(), leaf)
    assert (g.stride(), g._version, g.tolist()) == ((2, 1), 0, [[0.0] * 2] * 3)
    y = leaf.pow(exponent)
    y.backward(torch.ones_like(y))  # copied into a .grad laid out as the leaf: one write
    assert (leaf.grad.stride(), leaf.grad._version) == ((1, 3), 1)


def test_kthvalue_of_a_0d_bool_tensor_is_a_copy():
    values, indices = torch.tensor(True).kthvalue(1, 0)
    assert (values.item(), values.dtype, indices.item()) == (True, torch.bool, 0)
    with pytest.raises(NotImplementedError, match="^\"kthvalue_cpu\" not implemented for 'Bool'$"):
        torch.tensor([True]).kthvalue(1)


def test_copysigns_zeros_for_the_sign_are_filled_once():
    a = torch.tensor([[0.5], [-1.5]], requires_grad=True)
    b = torch.tensor([[-2.0], [3.0]], requires_grad=True)
    pieces = torch.copysign(a, b).grad_fn(torch.ones(2, 1))
    assert [t._version for t in pieces] == [0, 1]
    leaf = torch.tensor([[0.5], [0.25]], requires_grad=True)
    torch.copysign(leaf.sum(), leaf).sum().backward()  # zeros, then the sum's gradient added
    assert (leaf.grad._version, leaf.grad.tolist()) == (2, [[2.0], [2.0]])


@pytest.mark.parametrize("write", [lambda t: t.clamp_(max=0.5), lambda t: t.clamp_(0.5, 1.5),
                                   lambda t: t.clamp_min_(0.5), lambda t: t.clip_(max=0.5)])
def test_clamp_refuses_a_float_bound_for_integers_before_the_overlap(write):
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                                           "output type long int$"):
        write(torch.arange(3).expand(2, 3))
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element"):
        torch.arange(3).expand(2, 3).clamp_(max=1)


@pytest.mark.parametrize(("values", "k"), [(True, 2), ([True, False], 3)])
def test_topk_refuses_k_before_a_bool_dtype(values, k):
    with pytest.raises(RuntimeError, match="^selected index k out of range$"):
        torch.tensor(values).topk(k, -1, largest=False)
    with pytest.raises(RuntimeError, match="^topk does not support bool dtypes on CPU$"):
        torch.tensor(values).topk(1)


@pytest.mark.parametrize(("first", "second", "shape"), [((2, 3), (0, 3), (2, 0)),
                                                        ((0, 3), (2, 3), (0, 2)),
                                                        ((30, 3), (0, 3), (30, 0)),
                                                        ((2, 0), (3, 0), (2, 3))])
@pytest.mark.parametrize("dtypes", [(torch.float32, torch.float64),
                                    (torch.float64, torch.float32)])
def test_an_empty_cdist_takes_x1s_dtype_unchecked(first, second, shape, dtypes):
    x1 = torch.ones(first, dtype=dtypes[0], requires_grad=True)
    x2 = torch.ones(second, dtype=dtypes[1], requires_grad=True)
    out = torch.cdist(x1, x2)
    assert (out.shape, out.dtype, out.grad_fn.name()) == (shape, dtypes[0], "CdistBackward0")
    assert out.tolist() == [[0.0] * shape[1]] * shape[0]
    out.sum().backward()
    assert (x1.grad.dtype, x2.grad.dtype) == dtypes
    with pytest.raises(RuntimeError, match="^expected scalar type"):
        torch.cdist(torch.ones(2, 3, dtype=dtypes[0]), torch.ones(4, 3, dtype=dtypes[1]))
