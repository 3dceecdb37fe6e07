"""Functions under vmap whose rules' functions show in gradients and refusals: chapter
19ih_functions_under_vmap_four."""


import numpy as np
import pytest
import torch

from conformance._vmap_refusals import EITHER, IN_BMM, ITEM, refused

INVALID = ("Function ScatterBackward0 returned an invalid gradient at index 1 - got {} but "
           "expected shape compatible with {}")


def counted(*shape):
    return torch.arange(float(np.prod(shape))).reshape(shape)


@pytest.mark.parametrize(("in_dims", "source", "want"), [
    (0, (3, 5), 4.0), (0, (3, 1), 20.0), ((0, None), (5,), 12.0), ((0, None), (1,), 60.0),
    ((None, 0), (3, 5), 4.0), ((None, 0), (3, 1), 20.0)])
def test_select_scatter_under_vmap_passes_its_decomposition_s_gradient(in_dims, source, want):
    a = counted(3, 4, 5).requires_grad_()
    b = torch.ones(*source, requires_grad=True)
    found = torch.vmap(lambda a, b: torch.select_scatter(a, b, 0, 1), in_dims=in_dims)(
        a if in_dims != (None, 0) else a[0], b)
    found.sum().backward()
    assert b.grad.eq(want).all()
    assert a.grad.sum().item() == 45.0


def test_select_scatter_s_decomposition_weighs_the_selected_piece_once_per_copy():
    b = torch.ones(3, 1, requires_grad=True)
    found = torch.vmap(lambda a, b: torch.select_scatter(a, b, 0, 1))(counted(3, 4, 5), b)
    (found * counted(3, 4, 5)).sum().backward()
    assert b.grad.view(-1).tolist() == [140.0, 540.0, 940.0]


def test_select_scatter_gradient_is_the_decomposition_s_where_autograd_sees_the_rule():
    def f(b):
        return torch.vmap(lambda a, b: torch.select_scatter(a, b, 0, 1))(counted(3, 4, 5), b)

    assert torch.func.vjp(f, torch.ones(3, 5))[1](torch.ones(3, 4, 5))[0].eq(4.0).all()
    assert torch.func.grad(lambda b: f(b).sum())(torch.ones(3, 5)).eq(4.0).all()
    inner = torch.func.grad(lambda a, b: torch.select_scatter(a, b, 0, 1).sum(), argnums=1)
    assert torch.vmap(inner)(counted(3, 4, 5), torch.ones(3, 5)).eq(1.0).all()
    assert torch.func.jvp(f, (torch.ones(3, 5),), (torch.ones(3, 5),))[1].sum().item() == 15.0


@pytest.mark.parametrize(("function", "in_dims", "shapes", "got", "want"), [
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), 0, ((3, 4), (3, 3)), [3, 2], [3, 3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (0, None), ((3, 4), (3,)), [3, 2],
     [3, 3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (None, 0), ((4,), (3, 3)), [3, 2],
     [3, 3]),
    (lambda a, b: torch.slice_scatter(a, b, 1, 1, 3), 0, ((3, 4, 5), (3, 4, 6)), [3, 4, 2],
     [3, 4, 6]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 0, 4, 2), 0, ((3, 4, 5), (3, 3, 5)),
     [3, 2, 5], [3, 3, 5])])
def test_slice_scatter_of_a_larger_source_under_vmap_has_no_gradient(function, in_dims, shapes,
                                                                     got, want):
    a, b = (torch.zeros(*s, requires_grad=True) for s in shapes)
    found = torch.vmap(function, in_dims=in_dims)(a, b)
    refused(RuntimeError, INVALID.format(got, want), lambda: found.sum().backward())
    assert a.grad is None and b.grad is None


def test_nested_slice_scatters_of_a_larger_source_print_every_batch_but_carry_tangents():
    a, b = torch.zeros(2, 3, 4), torch.ones(2, 3, 3, requires_grad=True)
    found = torch.vmap(torch.vmap(lambda a, b: torch.slice_scatter(a, b, 0, 1, 3)))(a, b)
    refused(RuntimeError, INVALID.format([2, 3, 2], [2, 3, 3]), lambda: found.sum().backward())
    tangent = torch.func.jvp(lambda b: torch.vmap(lambda a, b: torch.slice_scatter(
        a, b, 0, 1, 3))(torch.zeros(3, 4), b), (torch.ones(3, 3),), (torch.ones(3, 3),))[1]
    assert tangent.tolist() == [[0.0, 1.0, 1.0, 0.0]] * 3


def test_scatter_tangent_keeps_one_write_where_an_index_repeats():
    index = torch.tensor([[1, 1], [0, 2]])
    found = torch.func.jvp(lambda s: torch.zeros(2, 3).scatter(1, index, s),
                           (torch.ones(2, 2),), (torch.arange(4.0).view(2, 2) + 1,))[1]
    assert found.tolist() == [[0.0, 2.0, 0.0], [3.0, 0.0, 4.0]]
    found = torch.func.jvp(lambda s: torch.zeros(3).scatter(0, torch.tensor([1, 1]), s),
                           (torch.ones(2),), (torch.ones(2),))[1]
    assert found.tolist() == [0.0, 1.0, 0.0]


BROADCAST = ("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
             "dimension {}")


def ones(*shape):
    return torch.ones(*shape)


@pytest.mark.parametrize(("function", "in_dims", "shapes", "dim"), [
    (torch.add, 0, ((3, 6), (3, 5)), 1),
    (torch.add, (0, None), ((3, 2, 6), (2, 5)), 2),
    (torch.mul, (None, 0), ((2, 6), (3, 5)), 2),
    (torch.maximum, 0, ((3, 4, 6), (3, 5)), 2),
    (lambda a, b: a.add_(b), 0, ((3, 6), (3, 5)), 1),
    (lambda a, b: torch.where(a > 0, a, b), 0, ((3, 6), (3, 5)), 1),
    (torch.clamp, 0, ((3, 6), (3, 5)), 1),
    (torch.lerp, 0, ((3, 6), (3, 5), (3, 6)), 1),
    (torch.dist, 0, ((3, 6), (3, 5)), 1)])
def test_broadcasts_under_vmap_are_refused_at_a_dimension_past_the_batch(function, in_dims,
                                                                         shapes, dim):
    refused(RuntimeError, BROADCAST.format(6, 5, dim), lambda: torch.vmap(
        function, in_dims=in_dims)(*(ones(*s) for s in shapes)))


def test_masked_fill_under_vmap_refuses_its_mask_at_a_dimension_past_the_batch():
    refused(RuntimeError, BROADCAST.format(5, 6, 1), lambda: torch.vmap(
        lambda a, m: a.masked_fill(m > 0, 0))(ones(3, 6), ones(3, 5)))


def test_nested_broadcasts_count_every_vmap_batching_an_operand():
    refused(RuntimeError, BROADCAST.format(6, 5, 2), lambda: torch.vmap(torch.vmap(torch.mul))(
        ones(2, 3, 6), ones(2, 3, 5)))
    refused(RuntimeError, BROADCAST.format(6, 5, 2), lambda: torch.vmap(torch.vmap(
        torch.mul, in_dims=(0, None)), in_dims=(None, 0))(ones(3, 6), ones(2, 5)))
    refused(RuntimeError, BROADCAST.format(6, 5, 1), lambda: torch.vmap(
        lambda a: a + ones(5))(ones(3, 6)))


@pytest.mark.parametrize(("in_dims", "shapes", "total"), [
    (0, ((3, 2, 2, 5), (3, 2, 2, 4), (3, 1, 4, 5)), 219140.0),
    (0, ((3, 1, 2, 5), (3, 2, 2, 4), (3, 1, 4, 5)), 219140.0),
    (0, ((3, 5), (3, 1, 2, 4), (3, 2, 4, 5)), 216980.0),
    ((None, 0, 0), ((2, 2, 5), (3, 2, 2, 4), (3, 1, 4, 5)), 219140.0),
    ((0, 0, None), ((3, 2, 2, 5), (3, 2, 2, 4), (1, 4, 5)), 55140.0),
    ((0, None, 0), ((3, 2, 2, 5), (1, 2, 4), (3, 2, 4, 5)), 51540.0)])
def test_baddbmm_under_vmap_broadcasts_the_batches_as_bmm_then_adds(in_dims, shapes, total):
    input, *batches = shapes
    found = torch.vmap(torch.baddbmm, in_dims=in_dims)(ones(*input),
                                                       *(counted(*s) for s in batches))
    assert tuple(found.shape) == (3, 2, 2, 5) and found.sum().item() == total


def test_baddbmm_under_vmap_refuses_in_bmm_s_then_the_sum_s_words():
    refused(RuntimeError, BROADCAST.format(2, 3, 1), lambda: torch.vmap(torch.baddbmm)(
        ones(3, 2, 2, 5), ones(3, 2, 2, 4), ones(3, 3, 4, 5)))
    refused(RuntimeError, BROADCAST.format(3, 2, 1), lambda: torch.vmap(torch.baddbmm)(
        ones(3, 3, 2, 5), ones(3, 2, 2, 4), ones(3, 1, 4, 5)))
    refused(RuntimeError, BROADCAST.format(6, 5, 3), lambda: torch.vmap(
        torch.baddbmm, in_dims=(0, None, None))(ones(3, 2, 2, 6), ones(2, 2, 4), ones(2, 4, 5)))
    refused(RuntimeError, "expected scalar type Float but found Double", lambda: torch.vmap(
        torch.baddbmm)(ones(3, 2, 2, 5), ones(3, 2, 2, 4), ones(3, 1, 4, 5).double()))
    refused(NotImplementedError, "\"bmm\" not implemented for 'Bool'", lambda: torch.vmap(
        torch.baddbmm)(*(torch.ones(3, 2, n, m, dtype=torch.bool) for n, m in ((2, 5), (2, 4),
                                                                                (4, 5)))))


@pytest.mark.parametrize(("function", "shapes"), [
    (torch.addmm, ((3, 2, 5), (3, 2, 4), (3, 4, 5))),
    (torch.addmv, ((3, 2), (3, 2, 4), (3, 4))),
    (torch.baddbmm, ((3, 2, 2, 5), (3, 2, 2, 4), (3, 2, 4, 5))),
    (torch.addbmm, ((3, 2, 5), (3, 2, 2, 4), (3, 2, 4, 5)))])
def test_added_products_under_vmap_promote_as_a_sum(function, shapes):
    input, *operands = shapes
    want = torch.vmap(function)(counted(*input), *(counted(*s) for s in operands))
    found = torch.vmap(function)(counted(*input).long(), *(counted(*s) for s in operands))
    assert found.dtype == torch.float32 and found.equal(want)
    found = torch.vmap(lambda a, b, c: function(a, b, c, beta=2.5, alpha=1.5))(
        *(counted(*s).long() for s in shapes))
    assert found.dtype == torch.float32
    assert found.equal(counted(*input) * 2.5 + (want - counted(*input)) * 1.5)
    found = torch.vmap(lambda a, b, c: function(a, b, c, beta=0, alpha=2))(
        *(counted(*s).long() for s in shapes))
    assert found.dtype == torch.int64 and found.equal((want - counted(*input)).long() * 2)
    found = torch.vmap(function)(counted(*input).double(), *(counted(*s) for s in operands))
    assert found.dtype == torch.float64


def test_added_products_under_vmap_leave_an_input_out_where_beta_is_zero():
    nans = torch.full((3, 2, 2, 5), float("nan"))
    found = torch.vmap(lambda a, b, c: torch.baddbmm(a, b, c, beta=0))(
        nans, counted(3, 2, 2, 4), counted(3, 1, 4, 5))
    assert not found.isnan().any()


def test_addbmm_under_vmap_broadcasts_the_batches_it_sums():
    found = torch.vmap(torch.addbmm)(ones(3, 2, 5), counted(3, 2, 2, 4), counted(3, 1, 4, 5))
    assert found.flatten()[:3].tolist() == [381.0, 425.0, 469.0]
    refused(RuntimeError, BROADCAST.format(6, 5, 2), lambda: torch.vmap(torch.addbmm)(
        ones(3, 2, 6), ones(3, 2, 2, 4), ones(3, 1, 4, 5)))
    refused(RuntimeError, BROADCAST.format(6, 5, 3), lambda: torch.vmap(torch.vmap(
        torch.addmm))(ones(2, 3, 2, 6), ones(2, 3, 2, 4), ones(2, 3, 4, 5)))


MM = "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})"
SAME_DTYPE = "expected m1 and m2 to have the same dtype, but got: {} != {}"


def crossed(function, inner, outer):
    return torch.vmap(torch.vmap(function, in_dims=inner), in_dims=outer)


@pytest.mark.parametrize("function", [torch.dot, torch.vdot])
@pytest.mark.parametrize(("inner", "outer", "operands", "error", "text"), [
    ((0, None), (None, 0), (ones(3, 4), ones(2, 5)), RuntimeError, MM.format(3, 4, 5, 2)),
    ((None, 0), (0, None), (ones(2, 4), ones(3, 5)), RuntimeError, MM.format(2, 4, 5, 3)),
    ((0, None), (None, 0), (ones(3, 4), ones(2, 4).long()), RuntimeError,
     SAME_DTYPE.format("float", "long int")),
    ((None, 0), (0, None), (ones(2, 4).long(), ones(3, 4)), RuntimeError,
     SAME_DTYPE.format("long int", "float")),
    ((0, None), (None, 0), (ones(3, 4).bool(), ones(2, 4).bool()), NotImplementedError,
     "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
    ((0, None), (0, 0), (ones(2, 3, 4), ones(2, 5)), RuntimeError,
     IN_BMM.format([2, 4], [2, 5])),
    ((None, 0), (0, 0), (ones(2, 4), ones(2, 3, 5)), RuntimeError,
     IN_BMM.format([2, 4], [2, 5]))])
def test_dot_under_two_vmaps_each_batching_one_vector_is_refused_by_the_outer_rule(
        function, inner, outer, operands, error, text):
    refused(error, text, lambda: crossed(function, inner, outer)(*operands))



F = torch.nn.functional
POOL_RANK = ('logical_rank == n + 1 || logical_rank == n + 2 INTERNAL ASSERT FAILED at "/__w/'
             'pytorch/pytorch/aten/src/ATen/functorch/BatchRulesPooling.cpp":19, please report '
             'a bug to PyTorch. ')


@pytest.mark.parametrize("function", [
    torch.max_pool2d, F.max_pool2d, F.max_pool2d_with_indices,
    lambda t, k: F.max_pool2d(t, k, return_indices=True)])
@pytest.mark.parametrize(("shape", "kernel"), [((3, 4), 0), ((3, 4, 4), 2), ((3, 4, 4), -1)])
def test_max_pool2d_under_vmap_asserts_the_slice_s_rank(function, shape, kernel):
    refused(RuntimeError, POOL_RANK, lambda: torch.vmap(function, in_dims=(0, None))(
        ones(*shape), kernel))


@pytest.mark.parametrize("function", [torch.max_pool3d, F.max_pool3d, F.max_pool3d_with_indices])
@pytest.mark.parametrize("shape", [(3, 4), (3, 4, 4, 4), (3, 1, 1, 1, 2, 2, 2)])
def test_max_pool3d_under_vmap_asserts_the_slice_s_rank(function, shape):
    refused(RuntimeError, POOL_RANK, lambda: torch.vmap(function, in_dims=(0, None))(
        ones(*shape), 2))


def test_nested_max_pools_assert_the_rank_of_the_innermost_slice():
    refused(RuntimeError, POOL_RANK, lambda: torch.vmap(torch.vmap(
        lambda t: F.max_pool2d(t, 2)))(ones(2, 3, 4, 4)))
    refused(RuntimeError, "kernel size should be greater than zero, but got kH: -1 kW: -1",
            lambda: torch.vmap(lambda t: F.max_pool2d(t, -1))(ones(3, 1, 4, 4)))


LOGITS = [[0.5, -1.0, 2.0, 0.1]] * 3
LABELS = [[0, 1, 1, 0]] * 3
TO_LONG = "result type Float can't be cast to the desired output type Long"


@pytest.mark.parametrize("function", [F.binary_cross_entropy_with_logits,
                                      torch.binary_cross_entropy_with_logits])
def test_logits_loss_under_vmap_promotes_a_float_input_with_an_integer_target(function):
    found = torch.vmap(function)(torch.tensor(LOGITS), torch.tensor(LABELS))
    assert found.dtype == torch.float32
    assert np.allclose(found.numpy().reshape(3, -1).mean(1), 0.7896659)


@pytest.mark.parametrize(("input", "target"), [
    (torch.tensor(LABELS), torch.tensor(LOGITS)), (torch.tensor(LABELS), torch.tensor(LABELS))])
def test_logits_loss_under_vmap_refuses_an_integer_input_where_it_exponentiates(input, target):
    refused(RuntimeError, TO_LONG, lambda: torch.vmap(F.binary_cross_entropy_with_logits)(
        input, target))
    refused(RuntimeError, TO_LONG, lambda: torch.vmap(
        lambda a, b: F.binary_cross_entropy_with_logits(a, b, pos_weight=torch.ones(4)))(
            input, target))
    refused(RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead.", lambda: torch.vmap(
                F.binary_cross_entropy_with_logits)(input, target.bool()))


def test_logits_loss_under_vmap_computes_in_the_promoted_dtypes():
    found = torch.vmap(F.binary_cross_entropy_with_logits)(torch.tensor(LOGITS).double(),
                                                           torch.tensor(LABELS).float())
    assert found.dtype == torch.float64
    found = torch.vmap(F.binary_cross_entropy_with_logits)(torch.tensor(LOGITS).half(),
                                                           torch.tensor(LABELS).float())
    assert found.dtype == torch.float32 and abs(found[0].item() - 0.78973) < 1e-4


def test_logits_loss_under_vmap_weighs_with_pos_weight_and_passes_the_gradient():
    logits = torch.tensor(LOGITS, requires_grad=True)
    found = torch.vmap(lambda a, b: F.binary_cross_entropy_with_logits(
        a, b, pos_weight=torch.tensor([1.0, 2.0, 3.0, 4.0])))(logits, torch.tensor(LABELS))
    assert np.allclose(found.detach().numpy(), 1.1814525)
    found.sum().backward()
    assert np.allclose(logits.grad[0].numpy(), [0.15561, -0.36553, -0.0894, 0.13124], atol=1e-5)


KS = torch.tensor([1, 2, 3])


@pytest.mark.parametrize("function", [
    lambda a, b: F.unfold(a.view(1, 1, 2, 2), b),
    lambda a, b: F.unfold(a.view(1, 1, 2, 2), b[:2]),
    lambda a, b: torch.topk(a, b[0])[0],
    lambda a, b: torch.tril(a.view(2, 2), b[0]),
    lambda a, b: a.view(b[0], -1),
    lambda a, b: a.narrow(0, 0, b[0]),
    lambda a, b: a.sum(b[0] - b[0]),
    lambda a, b: torch.zeros(b[0]),
    lambda a, b: torch.ones(b[0], 2),
    lambda a, b: a.roll(b[0]),
    lambda a, b: a.select(0, b[0]),
    lambda a, b: torch.full((2,), b[0]),
    lambda a, b: a.expand(b[0], 4)])
def test_ints_read_from_batched_tensors_are_refused_as_item(function):
    refused(RuntimeError, ITEM, lambda: torch.vmap(function)(
        ones(3, 4), torch.ones(3, 4, dtype=torch.long)))


def test_ints_read_from_batched_tensors_under_grad_are_refused_in_either_words():
    refused(RuntimeError, EITHER, lambda: torch.vmap(torch.func.grad(
        lambda a, b: a.narrow(0, 0, b).sum()))(ones(3, 4), KS))
