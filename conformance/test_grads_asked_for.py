"""grad() and backward(inputs=...) build only the gradients asked for.

Under ``create_graph=True`` a gradient that is built records nodes and packs
saved tensors, so the packs a saved-tensors hook sees, and the graph of the
result, show which gradients a node computed.
"""

import warnings

import pytest
import torch
from torch.autograd.graph import saved_tensors_hooks

from conformance._support import preorder_names


def _inputs(shapes):
    torch.manual_seed(0)
    return [torch.rand(*s, dtype=torch.float64, requires_grad=True) for s in shapes]


def _counted(f, shapes, wanted):
    """(packs during the backward, unpacks during it, the gradient) of ``f``'s sum."""
    xs = _inputs(shapes)
    packs, unpacks = [], []
    with saved_tensors_hooks(lambda t: packs.append(tuple(t.shape)) or t,
                             lambda t: unpacks.append(tuple(t.shape)) or t):
        y = f(*xs).sum()
        before = len(packs)
        g, = torch.autograd.grad(y, [xs[wanted]], create_graph=True)
    return packs[before:], len(unpacks), g


V, M = (3,), (3, 3)


def test_a_quotient_builds_only_the_numerator_gradient():
    packs, unpacks, g = _counted(lambda a, b: a / b, [V, V], 0)
    assert (packs, unpacks) == ([V, V], 2)  # every saved value unpacked all the same
    assert preorder_names(g.grad_fn, 1) == "DivBackward0 .None .AccumulateGrad"


def test_a_quotient_builds_only_the_denominator_gradient():
    packs, unpacks, g = _counted(lambda a, b: a / b, [V, V], 1)
    assert (len(packs), unpacks) == (5, 2)
    assert preorder_names(g.grad_fn, 3) == (
        "MulBackward0 .None .DivBackward0 ..DivBackward0 ...AccumulateGrad ...AccumulateGrad"
        " ..AccumulateGrad")


@pytest.mark.parametrize("wanted", [0, 1])
def test_a_product_builds_one_product(wanted):
    packs, unpacks, g = _counted(lambda a, b: a * b, [V, V], wanted)
    assert (packs, unpacks) == ([V], 2)
    assert preorder_names(g.grad_fn, 1) == "MulBackward0 .None .AccumulateGrad"


def test_a_matrix_product_leaves_the_weight_gradient_unbuilt():
    packs, _, g = _counted(lambda x, w: x @ w, [(2, 3), (3, 4)], 0)
    assert packs == [(2, 4)]
    assert preorder_names(g.grad_fn, 2) == "MmBackward0 .None .TBackward0 ..AccumulateGrad"
    packs, _, g = _counted(lambda x, w: x @ w, [(2, 3), (3, 4)], 1)
    assert packs == [(2, 4)]
    assert preorder_names(g.grad_fn, 2) == "MmBackward0 .TBackward0 ..AccumulateGrad .None"


def test_addmm_asked_for_its_bias_multiplies_nothing():
    packs, _, g = _counted(lambda c, a, b: torch.addmm(c, a, b), [(2, 4), (2, 3), (3, 4)], 0)
    assert packs == [] and g.grad_fn is None


@pytest.mark.parametrize("wanted, count, graph", [
    (0, 7, "WhereBackward0 .None .MulBackward0 ..None ..MulBackward0"),
    (1, 5, "MulBackward0 .None .WhereBackward0 ..None ..MulBackward0"),
])
def test_a_power_of_two_tensors(wanted, count, graph):
    packs, unpacks, g = _counted(lambda a, b: a ** b, [V, V], wanted)
    assert (len(packs), unpacks) == (count, 3)
    assert preorder_names(g.grad_fn, 2) == graph


@pytest.mark.parametrize("name, f, shapes, counts", [
    ("atan2", torch.atan2, [M, M], [9, 9]),
    ("xlogy", torch.xlogy, [M, M], [3, 3]),
    ("logaddexp", torch.logaddexp, [M, M], [3, 3]),
    ("logaddexp2", torch.logaddexp2, [M, M], [4, 4]),
    ("lerp", torch.lerp, [M, M, M], [1, 1, 1]),
    ("addcdiv", lambda a, b, c: torch.addcdiv(a, b, c + 1), [M, M, M], [0, 3, 5]),
    ("dist", torch.dist, [M, M], [4, 4]),
    ("solve_triangular", lambda a, b: torch.linalg.solve_triangular(
        a + 3 * torch.eye(3, dtype=torch.float64), b, upper=True), [M, M], [4, 2]),
])
def test_packs_of_one_gradient(name, f, shapes, counts):
    assert [len(_counted(f, shapes, i)[0]) for i in range(len(shapes))] == counts


def _eye_plus(a):
    return a + 3 * torch.eye(3, dtype=torch.float64)


@pytest.mark.parametrize("name, f, wanted, count", [
    ("ldexp", torch.ldexp, 0, 3),
    ("ldexp", torch.ldexp, 1, 1),
    ("div", lambda a, b: torch.div(a, b, rounding_mode=None), 1, 5),
    ("cholesky_solve", lambda a, b: torch.cholesky_solve(
        b, torch.linalg.cholesky(a @ a.mT + torch.eye(3, dtype=torch.float64))), 1, 3),
    ("lu_solve", lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(_eye_plus(a)), b),
     1, 3),
    ("lstsq", lambda a, b: torch.linalg.lstsq(_eye_plus(a), b).solution, 1, 3),
])
def test_packs_of_one_named_gradient(name, f, wanted, count):
    assert len(_counted(f, [M, M], wanted)[0]) == count


def test_backward_with_inputs_builds_only_theirs():
    a, b = _inputs([V, V])
    packs = []
    with saved_tensors_hooks(lambda t: packs.append(tuple(t.shape)) or t, lambda t: t):
        y = (a / b).sum()
        before = len(packs)
        with warnings.catch_warnings():  # the reference cycle's warning, given once
            warnings.simplefilter("ignore", UserWarning)
            y.backward(inputs=[a], create_graph=True)
    assert len(packs) - before == 2 and b.grad is None
    assert preorder_names(a.grad.grad_fn, 2) == (
        "CopyBackwards .None .DivBackward0 ..None ..AccumulateGrad")


def test_the_graph_is_freed_and_hooks_see_none():
    a, b = _inputs([V, V])
    y = a * b
    seen = []
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        [g is None for g in grad_inputs]))
    torch.autograd.grad(y.sum(), [b])
    assert seen == [[True, False]]
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
        torch.autograd.grad(y.sum(), [a])


def test_a_function_is_still_told_what_was_recorded():
    class Both(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            return x * w

        @staticmethod
        def backward(ctx, g):
            needs.append(ctx.needs_input_grad)
            return g, g

    needs = []
    a, b = _inputs([V, V])
    torch.autograd.grad(Both.apply(a, b).sum(), [a])
    assert needs == [(True, True)]


@pytest.mark.parametrize("name, f, shapes, counts", [
    ("dist", torch.dist, [M, M], [4, 4]),
    ("atan2", torch.atan2, [M, M], [5, 5]),
    ("xlogy", torch.xlogy, [M, M], [0, 2]),
    ("div", torch.div, [M, M], [0, 5]),
    ("pow", torch.pow, [M, M], [6, 3]),
    ("lerp", torch.lerp, [M, M, M], [0, 0, 0]),
    ("addcdiv", lambda a, b, c: torch.addcdiv(a, b, c + 1), [M, M, M], [0, 0, 5]),
    ("solve_triangular", lambda a, b: torch.linalg.solve_triangular(
        a + 3 * torch.eye(3, dtype=torch.float64), b, upper=True), [M, M], [4, 0]),
])
def test_backward_builds_nothing_for_an_input_without_grad(name, f, shapes, counts):
    found = []
    for i in range(len(shapes)):
        xs = _inputs(shapes)
        for j, x in enumerate(xs):
            x.requires_grad_(i == j)
        packs = []
        with saved_tensors_hooks(lambda t, packs=packs: packs.append(t) or t, lambda t: t):
            y = f(*xs).sum()
            before = len(packs)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                y.backward(create_graph=True)  # every edge wanted, one input with none
        found.append(len(packs) - before)
    assert found == counts
