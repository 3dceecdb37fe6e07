"""Functions under vmap whose operators a grad inside records, and refusals in torch's
words: chapter 19ii_functions_under_vmap_five."""


import pytest
import torch

from conformance._vmap_refusals import EITHER, ITEM, refused

INVALID = ("Function SliceScatterBackward0 returned an invalid gradient at index 1 - got {} but "
           "expected shape compatible with {}")


@pytest.mark.parametrize(("function", "in_dims", "shapes", "got", "want"), [
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), 0, ((3, 4), (3, 3)), [2], [3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (0, None), ((3, 4), (3,)), [2], [3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (None, 0), ((4,), (3, 3)), [2], [3]),
    (lambda a, b: torch.slice_scatter(a, b, 1, 1, 3), 0, ((3, 4, 5), (3, 4, 6)), [4, 2],
     [4, 6]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 0, 4, 2), 0, ((3, 4, 5), (3, 3, 5)), [2, 5],
     [3, 5])])
def test_a_grad_inside_vmap_records_slice_scatter_of_a_larger_source_whole(function, in_dims,
                                                                           shapes, got, want):
    inner = torch.func.grad(lambda a, b: function(a, b).sum(), argnums=1)
    a, b = (torch.zeros(*s) for s in shapes)
    refused(RuntimeError, INVALID.format(got, want), lambda: torch.vmap(inner, in_dims=in_dims)(
        a, b))


def test_a_grad_inside_vmap_writes_the_leading_part_and_refuses_only_the_source():
    def f(a, b):
        out = torch.slice_scatter(a, b, 0, 1, 3)
        return (out * torch.arange(4.0)).sum(), out

    a, b = torch.zeros(3, 4), torch.arange(9.0).view(3, 3)
    found, written = torch.vmap(torch.func.grad(f, has_aux=True))(a, b)
    assert found.tolist() == [[0.0, 0.0, 0.0, 3.0]] * 3
    assert written.tolist() == [[0.0, 0.0, 1.0, 0.0], [0.0, 3.0, 4.0, 0.0], [0.0, 6.0, 7.0, 0.0]]
    both = torch.func.grad(f, argnums=(0, 1), has_aux=True)
    refused(RuntimeError, INVALID.format([2], [3]), lambda: torch.vmap(both)(a, b))


@pytest.mark.parametrize(("in_dims", "shapes"), [
    ((0, None), ((3, 4), (3, 3))), (0, ((3, 4), (3, 2, 2))), (0, ((3, 4), (3, 1, 3))),
    ((None, 0), ((4,), (3, 1, 2)))])
def test_slice_scatter_under_vmap_refuses_a_source_of_more_dimensions_as_scatter(in_dims,
                                                                                  shapes):
    a, b = (torch.zeros(*s) for s in shapes)
    refused(RuntimeError, "Index tensor must have the same number of dimensions as src tensor",
            lambda: torch.vmap(lambda a, b: torch.slice_scatter(a, b, 0, 1, 3),
                               in_dims=in_dims)(a, b))


CONTROL = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent "
           "control flow. We don't support that yet, please file an issue at "
           "https://github.com/pytorch/pytorch/issues .")
MANY = "Boolean value of Tensor with more than one value is ambiguous"
NONZERO = ("vmap: We do not support batching operators that can output dynamic shape. "
           "Attempted to vmap over aten::nonzero. Please file an issue at "
           "https://github.com/pytorch/pytorch/issues if you need this feature.")
grad = torch.func.grad


@pytest.mark.parametrize(("function", "shape", "text"), [
    (lambda x: grad(lambda y: y.sum() * x.item())(torch.ones(2)), (3,), EITHER),
    (lambda x: grad(lambda y: y.sum() * (2 if x else 1))(torch.ones(2)), (3,), EITHER),
    (lambda x: grad(lambda y: y.sum() * int(x))(torch.ones(2)), (3,), EITHER),
    (lambda x: torch.func.jvp(lambda y: y * x.item(), (torch.ones(2),), (torch.ones(2),)),
     (3,), EITHER),
    (lambda x: torch.func.vjp(lambda y: y * (2 if x else 1), torch.ones(2)), (3,), EITHER),
    (lambda x: torch.vmap(lambda y: grad(lambda z: z * x.item())(y))(torch.ones(2)), (3,),
     EITHER),
    (lambda x: grad(lambda y: y.sum() * (1 if x else 2))(torch.ones(2)), (3, 2), MANY),
    (lambda x: grad(lambda y: y.sum() * (1 if y else 2))(x), (3, 2), MANY),
    (lambda x: grad(lambda y: y.sum() * len(torch.where(x)))(torch.ones(2)), (3, 2), NONZERO),
    (lambda x: grad(lambda y: y.sum() * len(torch.nonzero(x, as_tuple=True)))(torch.ones(2)),
     (3, 2), NONZERO)])
def test_a_batched_tensor_read_below_a_grad_s_layer_is_taken_apart(function, shape, text):
    refused(RuntimeError, text, lambda: torch.vmap(function)(torch.ones(*shape)))


def test_a_vmap_innermost_refuses_a_read_in_its_own_words_a_grad_innermost_does_not():
    def through(inner):
        return lambda x: grad(lambda y: y.sum() * inner(x).sum())(torch.ones(2))

    def within(read):
        return lambda x: grad(lambda y: torch.vmap(lambda z: z * read(x))(y).sum())(
            torch.ones(2))

    refused(RuntimeError, ITEM, lambda: torch.vmap(within(lambda x: x.item()))(torch.ones(3)))
    refused(RuntimeError, CONTROL, lambda: torch.vmap(within(lambda x: 2 if x else 1))(
        torch.ones(3)))
    refused(RuntimeError, EITHER, lambda: torch.vmap(through(lambda x: x * x.item()))(
        torch.ones(3)))
    refused(RuntimeError, ITEM, lambda: torch.vmap(lambda x: torch.vmap(
        lambda y: y * x.item())(torch.ones(2)))(torch.ones(3)))


BROADCAST = ("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
             "dimension {}")
linalg, F = torch.linalg, torch.nn.functional


def square(*shape):
    return torch.eye(shape[-1]).expand(*shape).clone()


def ones(*shape):
    return torch.ones(*shape)


SOLVES = {
    "solve": (linalg.solve, square(2, 4, 4), ones(5, 4, 1), (5, 2)),
    "solve_ex": (lambda a, b: linalg.solve_ex(a, b)[0], square(2, 4, 4), ones(5, 4, 1), (5, 2)),
    "solve_triangular": (lambda a, b: linalg.solve_triangular(a, b, upper=True),
                         square(2, 4, 4), ones(5, 4, 1), (5, 2)),
    "triangular_solve": (lambda a, b: torch.triangular_solve(b, a)[0], square(2, 4, 4),
                         ones(5, 4, 1), (5, 2)),
    "cholesky_solve": (lambda a, b: torch.cholesky_solve(b, a), square(2, 4, 4), ones(5, 4, 1),
                       (5, 2)),
    "lstsq": (lambda a, b: linalg.lstsq(a, b)[0], square(2, 4, 4), ones(5, 4, 1), (2, 5)),
    "lu_solve": (lambda a, b: linalg.lu_solve(*linalg.lu_factor(a), b), square(2, 4, 4),
                 ones(5, 4, 1), (5, 2)),
    "cdist": (torch.cdist, ones(2, 4, 4), ones(5, 4, 4), (2, 5)),
    "cross": (linalg.cross, ones(2, 3), ones(5, 3), (2, 5)),
    "heaviside": (torch.heaviside, ones(6), ones(5), (6, 5)),
    "complex": (torch.complex, ones(6), ones(5), (6, 5)),
    "polar": (torch.polar, ones(6), ones(5), (6, 5))}


def batched(t, *sizes):
    return t.expand(*sizes, *t.shape).clone()


@pytest.mark.parametrize("name", sorted(SOLVES))
@pytest.mark.parametrize("in_dims", [0, (0, None), (None, 0)])
def test_shapes_a_rule_checks_are_refused_at_a_dimension_past_the_batch(name, in_dims):
    function, a, b, sizes = SOLVES[name]
    a = batched(a, 3) if in_dims in (0, (0, None)) else a
    b = batched(b, 3) if in_dims in (0, (None, 0)) else b
    refused(RuntimeError, BROADCAST.format(*sizes, 1), lambda: torch.vmap(
        function, in_dims=in_dims)(a, b))


@pytest.mark.parametrize("name", sorted(SOLVES))
def test_shapes_a_rule_checks_count_every_vmap_batching_an_operand(name):
    function, a, b, sizes = SOLVES[name]
    refused(RuntimeError, BROADCAST.format(*sizes, 2), lambda: torch.vmap(torch.vmap(function))(
        batched(a, 2, 3), batched(b, 2, 3)))
    refused(RuntimeError, BROADCAST.format(*sizes, 2), lambda: torch.vmap(torch.vmap(
        function, in_dims=(0, None)), in_dims=(None, 0))(batched(a, 3), batched(b, 2)))


@pytest.mark.parametrize(("function", "a", "b", "dim"), [
    (F.cosine_similarity, ones(3, 2, 6), ones(3, 2, 5), 1),
    (F.cosine_similarity, ones(3, 4, 6), ones(3, 5, 6), 0),
    (lambda a, b: F.cosine_similarity(a, b, dim=0), ones(3, 6), ones(3, 5), 0)])
def test_cosine_similarity_under_vmap_checks_the_slices_own_shapes(function, a, b, dim):
    sizes = [(n, m) for n, m in zip(a.shape[1:], b.shape[1:]) if n != m][0]
    refused(RuntimeError, BROADCAST.format(*sizes, dim), lambda: torch.vmap(function)(a, b))
    refused(RuntimeError, BROADCAST.format(*sizes, dim), lambda: torch.vmap(torch.vmap(
        function))(batched(a, 2), batched(b, 2)))


def test_lu_solve_refuses_batches_that_do_not_broadcast_in_torch_s_words():
    lu, pivots = linalg.lu_factor(square(2, 4, 4))
    refused(RuntimeError, BROADCAST.format(5, 2, 0), lambda: linalg.lu_solve(lu, pivots,
                                                                            ones(5, 4, 1)))
    refused(RuntimeError, BROADCAST.format(5, 2, 0), lambda: linalg.lu_solve(
        lu, pivots, ones(5, 1, 4), left=False))
    refused(RuntimeError, BROADCAST.format(5, 2, 0), lambda: linalg.lu_solve(
        lu.double(), pivots * 0, ones(5, 4, 1).double()))
    assert linalg.lu_solve(lu, pivots, ones(3, 1, 4, 1)).shape == (3, 2, 4, 1)


@pytest.mark.parametrize("shape", [(5, 4), (3, 2, 4)])
def test_lu_solve_refuses_pivots_shaped_otherwise_than_the_factors_first(shape):
    lu, pivots = linalg.lu_factor(square(2, 4, 4))
    refused(RuntimeError, "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the "
            f"same, but got pivots with shape {list(shape)} instead", lambda: linalg.lu_solve(
                lu, pivots[:1].expand(*shape), ones(5, 4, 1)))


@pytest.mark.parametrize("function", [torch.complex, torch.polar])
def test_complex_and_polar_refuse_shapes_that_do_not_broadcast_in_torch_s_words(function):
    refused(RuntimeError, BROADCAST.format(6, 5, 0), lambda: function(ones(6), ones(5)))
    refused(RuntimeError, BROADCAST.format(6, 5, 1), lambda: function(ones(2, 6), ones(5)))
    assert function(ones(2, 1), ones(5)).shape == (2, 5)


LSTSQ_ROWS = "torch.linalg.lstsq: input.size(-2) should match other.size(-2)"


@pytest.mark.parametrize(("in_dims", "a", "b"), [
    (0, square(3, 4, 4), ones(3, 4)), ((None, 0), square(4, 4), ones(3, 4)),
    (0, square(4, 4, 4), ones(4, 4)), (0, ones(3, 5, 4), ones(3, 5)),
    (0, ones(3, 2, 4, 4), ones(3, 2, 4)), (0, square(3, 4, 4), ones(3, 5))])
def test_lstsq_under_vmap_takes_no_batched_vector(in_dims, a, b):
    refused(RuntimeError, LSTSQ_ROWS, lambda: torch.vmap(
        lambda a, b: linalg.lstsq(a, b).solution, in_dims=in_dims)(a, b))


def test_lstsq_under_vmap_takes_an_unbatched_vector_and_checks_dtypes_first():
    found = torch.vmap(lambda a, b: linalg.lstsq(a, b).solution, in_dims=(0, None))(
        square(3, 4, 4) * 2, torch.arange(4.0))
    assert found.tolist() == [[0.0, 0.5, 1.0, 1.5]] * 3
    refused(RuntimeError, "torch.linalg.lstsq: Expected input and other to have the same dtype, "
            "but got input's dtype Float and other's dtype Double", lambda: torch.vmap(
                lambda a, b: linalg.lstsq(a, b).solution)(square(3, 4, 4), ones(3, 4).double()))
    refused(RuntimeError, LSTSQ_ROWS, lambda: torch.vmap(torch.vmap(
        lambda a, b: linalg.lstsq(a, b).solution, in_dims=(0, None)), in_dims=(None, 0))(
            square(3, 4, 4), ones(2, 4)))


@pytest.mark.parametrize(("in_dims", "shapes"), [
    (0, ((3, 6), (3, 6), (3, 2, 2))), ((0, 0, None), ((3, 6), (3, 6), (2, 2))),
    ((None, None, 0), ((6,), (6,), (3, 2, 2))), ((0, None, None), ((3, 6), (6,), (2, 2)))])
def test_linear_under_vmap_adds_its_bias_out_of_place(in_dims, shapes):
    found = torch.vmap(F.linear, in_dims=in_dims)(*(ones(*s) for s in shapes))
    assert found.shape == (3, 2, 2) and found.eq(7.0).all()


def test_linear_under_vmap_leaves_its_rank_check_to_matmul_and_fuses_three_dimensions():
    text = "both arguments to matmul need to be at least 1D, but they are 1D and 0D"
    refused(RuntimeError, text, lambda: torch.vmap(F.linear)(ones(3, 6), ones(3)))
    refused(RuntimeError, text, lambda: torch.vmap(F.linear)(ones(3, 6), ones(3), ones(3)))
    refused(RuntimeError, BROADCAST.format(5, 4, 2), lambda: torch.vmap(F.linear)(
        ones(3, 2, 3, 6), ones(3, 4, 6), ones(3, 5)))


@pytest.mark.parametrize(("in_dims", "var", "text"), [
    (0, (3, 4), CONTROL), (0, (3, 1), CONTROL), (0, (3,), CONTROL),
    ((None, None, 0), (3, 4), CONTROL)])
def test_gaussian_nll_loss_under_vmap_asks_a_batched_variance_for_its_truth(in_dims, var, text):
    shape = (4,) if in_dims == (None, None, 0) else (3, 4)
    refused(RuntimeError, text, lambda: torch.vmap(F.gaussian_nll_loss, in_dims=in_dims)(
        ones(*shape), ones(*shape), ones(*var)))


def test_gaussian_nll_loss_asks_below_a_grad_s_layer_and_passes_an_unbatched_variance():
    def inner(i, t, v):
        return torch.func.grad(lambda v: F.gaussian_nll_loss(i, t, v))(v)

    refused(RuntimeError, EITHER, lambda: torch.vmap(inner)(ones(3, 4), ones(3, 4), ones(3, 4)))
    found = torch.vmap(F.gaussian_nll_loss, in_dims=(0, 0, None))(ones(3, 4), ones(3, 4) * 3,
                                                                  ones(4))
    assert torch.allclose(found, torch.full((3,), 2.0))


GROWN = "output with shape {} doesn't match the broadcast shape {}"


@pytest.mark.parametrize("write", [
    lambda a, b: a.add_(b), lambda a, b: a.mul_(b), lambda a, b: a.atan2_(b),
    lambda a, b: a.div_(b), lambda a, b: a.copy_(b), lambda a, b: a.clamp_max_(b),
    lambda a, b: a.masked_fill_(b > 0, 1.0), lambda a, b: a.long().gcd_(b.long()),
    lambda a, b: a.gcd_(b), lambda a, b: a.long().add_(b.long(), alpha=0.5)])
@pytest.mark.parametrize(("in_dims", "shapes", "own", "whole"), [
    (0, ((3, 4), (3, 4, 4)), [3, 1, 4], [3, 4, 4]),
    ((0, None), ((3, 4), (4, 4)), [3, 1, 4], [3, 4, 4]),
    (0, ((3, 2, 4), (3, 5, 2, 4)), [3, 1, 2, 4], [3, 5, 2, 4]),
    (0, ((3, 1, 4), (3, 4, 4)), [3, 1, 4], [3, 4, 4])])
def test_a_broadcasting_rule_refuses_a_growing_write_with_the_batch(write, in_dims, shapes, own,
                                                                      whole):
    refused(RuntimeError, GROWN.format(own, whole), lambda: torch.vmap(write, in_dims=in_dims)(
        *(ones(*s) for s in shapes)))


def test_nested_growing_writes_show_every_batch_and_writes_without_a_rule_the_slices():
    refused(RuntimeError, GROWN.format([2, 3, 1, 4], [2, 3, 4, 4]), lambda: torch.vmap(
        torch.vmap(lambda a, b: a.sub_(b)))(ones(2, 3, 4), ones(2, 3, 4, 4)))
    refused(RuntimeError, GROWN.format([4], [4, 4]), lambda: torch.vmap(lambda a, b: a.pow_(b))(
        ones(3, 4), ones(3, 4, 4)))


PIVOTS = torch.ones(3, 4, dtype=torch.int32)


@pytest.mark.parametrize(("in_dims", "operands", "text"), [
    (0, (ones(3, 4), ones(3, 4), ones(3, 4)), "LU should have at least 2 dimensions, but has 1"),
    (0, (ones(3, 4, 4), ones(3, 4), ones(3, 4)), "B should have at least 2 dimensions, but has 1"),
    (0, (ones(3, 4, 4), PIVOTS[:, 0], ones(3, 4)),
     "pivots should have at least 1 dimensions, but has 0"),
    ((None, None, 0), (ones(4, 4), PIVOTS[0], ones(3)),
     "B should have at least 2 dimensions, but has 0"),
    ((0, None, None), (ones(3, 4), PIVOTS[0], ones(4, 1)),
     "LU should have at least 2 dimensions, but has 1")])
def test_lu_solve_s_rule_counts_dimensions_first(in_dims, operands, text):
    refused(RuntimeError, text + " dimensions instead.", lambda: torch.vmap(
        linalg.lu_solve, in_dims=in_dims)(*operands))


SLICE_SIZE = ("expected src to have a size equal to the slice of self. src size = [3], slice "
              "size = [2]")
jvp = torch.func.jvp


@pytest.mark.parametrize(("function", "in_dims", "a"), [
    (lambda a, b: jvp(lambda b: torch.slice_scatter(a, b, 0, 1, 3), (b,), (ones(3),)), 0,
     (3, 4)),
    (lambda a, b: jvp(lambda a: torch.slice_scatter(a, b, 0, 1, 3), (a,), (ones(4),)), 0,
     (3, 4)),
    (lambda a, b: jvp(lambda b: torch.slice_scatter(a, b, 0, 1, 3), (b,), (ones(3),)),
     (None, 0), (4,))])
def test_a_jvp_inside_vmap_refuses_a_larger_source_whose_tangents_no_vmap_batches(function,
                                                                                   in_dims, a):
    refused(RuntimeError, SLICE_SIZE, lambda: torch.vmap(function, in_dims=in_dims)(
        torch.zeros(*a), ones(3, 3)))


def test_a_jvp_inside_vmap_writes_a_batched_tangent_s_leading_part():
    def f(a, b, t):
        return jvp(lambda b: torch.slice_scatter(a, b, 0, 1, 3), (b,), (t,))[1]

    found = torch.vmap(f)(torch.zeros(3, 4), ones(3, 3), torch.arange(9.0).view(3, 3))
    assert found.tolist() == [[0.0, 0.0, 1.0, 0.0], [0.0, 3.0, 4.0, 0.0], [0.0, 6.0, 7.0, 0.0]]
    refused(RuntimeError, SLICE_SIZE, lambda: torch.vmap(lambda a, b: jvp(
        lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (a, b), (ones(4), ones(3))))(
            torch.zeros(3, 4), ones(3, 3)))
