"""An autograd.Function with a vmap rule (its own, or generated) under grad, jvp and the
jacobians inside vmap: each slice's gradient or tangent is the Function's own."""

import numpy as np
import torch
from torch.func import grad, jacfwd, jacrev, jvp, vmap


class NumpySort(torch.autograd.Function):
    """A sort computed in NumPy, so that nothing but its backward can carry a gradient."""

    @staticmethod
    def forward(x):
        order = np.argsort(x.numpy(), axis=-1)
        return torch.tensor(np.take_along_axis(x.numpy(), order, -1)), torch.tensor(order)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1])

    @staticmethod
    def backward(ctx, g, _):
        order, = ctx.saved_tensors
        return torch.zeros_like(g).scatter(-1, order, g)

    @staticmethod
    def vmap(info, in_dims, x):
        return NumpySort.apply(x.movedim(in_dims[0], 0)), (0, 0)


class Cubed(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2

    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * 3 * x ** 2


ROWS = [[3.0, 1.0, 2.0], [1.0, 2.0, 3.0]]
WEIGHTS = torch.tensor([1.0, 10.0, 100.0], dtype=torch.double)


def weighted_sort(t):
    return (NumpySort.apply(t)[0] * WEIGHTS).sum()


def test_vmap_of_grad_gives_each_rows_gradient():
    rows = torch.tensor(ROWS, dtype=torch.double)
    # the smallest entry gets weight 1, the middle 10, the largest 100
    assert vmap(grad(weighted_sort))(rows).tolist() == [[100.0, 1.0, 10.0], [1.0, 10.0, 100.0]]


def test_vmap_of_grad_matches_a_loop_of_grads():
    rows = torch.tensor(np.random.default_rng(0).standard_normal((4, 5)))
    weights = torch.arange(5, dtype=torch.double)

    def f(t):
        return (NumpySort.apply(t)[0] * weights).sum()
    looped = torch.stack([grad(f)(r) for r in rows])
    assert torch.equal(vmap(grad(f))(rows), looped)


def test_the_rule_still_answers_vmap_alone():
    rows = torch.tensor(ROWS)
    values, order = vmap(NumpySort.apply)(rows)
    assert values.tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    assert order.tolist() == [[1, 2, 0], [0, 1, 2]]


def test_jacfwd_of_a_generated_rule_is_the_diagonal_derivative():
    x = torch.tensor([1.0, 2.0, 3.0])
    assert jacfwd(Cubed.apply)(x).tolist() == torch.diag(3 * x ** 2).tolist()


def test_vmap_of_jvp_gives_each_tangents_derivative():
    x = torch.tensor([1.0, 2.0, 3.0])
    out = vmap(lambda t: jvp(Cubed.apply, (x,), (t,))[1])(torch.eye(3))
    assert out.tolist() == [[3.0, 0.0, 0.0], [0.0, 12.0, 0.0], [0.0, 0.0, 27.0]]


def test_jacrev_over_a_batch_of_inputs():
    xs = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    jac = vmap(jacrev(Cubed.apply))(xs)
    assert jac.tolist() == [[[3.0, 0.0], [0.0, 12.0]], [[27.0, 0.0], [0.0, 48.0]]]
