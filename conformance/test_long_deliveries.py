"""A node with many edges into one input (stack or cat of one tensor listed n times,
one root listed n times) and a node whose many gradients must be cast: values,
versions and messages are the same for short and long lists of edges. The same
assertions run on torch."""

import pytest
import torch

SIZES = (3, 8, 9, 40)


@pytest.mark.parametrize("n", SIZES)
def test_stack_of_one_leaf_listed_n_times(n):
    x = torch.ones(2, requires_grad=True)
    torch.stack([x] * n).sum().backward()
    assert x.grad.tolist() == [n, n]
    assert x.grad._version == n - 2  # the first sum is new; the rest are added in place


@pytest.mark.parametrize("n", SIZES)
def test_cat_of_one_intermediate_listed_n_times(n):
    y = torch.ones(2, requires_grad=True)
    (torch.cat([y * 1] * n) * 2).sum().backward()
    assert y.grad.tolist() == [2 * n, 2 * n]


@pytest.mark.parametrize("n", SIZES)
def test_one_root_listed_n_times(n):
    y = torch.ones(2, requires_grad=True)
    r = (y * 2.0).sum()
    torch.autograd.backward([r] * n, retain_graph=True)
    assert y.grad.tolist() == [2 * n, 2 * n]
    grads = torch.autograd.grad(r, [y] * n)
    assert len(grads) == n and all(g.tolist() == [2.0, 2.0] for g in grads)


def test_many_gradients_cast_to_their_inputs_dtype():
    xs = [torch.ones(2, requires_grad=True) for _ in range(12)]
    x2 = torch.ones(2, requires_grad=True)
    z = torch.ones(2, dtype=torch.float64, requires_grad=True)
    torch.cat(xs + [x2, x2, z]).sum().backward()
    assert all(x.grad.dtype == torch.float32 and x.grad.tolist() == [1, 1] for x in xs)
    assert x2.grad.tolist() == [2.0, 2.0] and x2.grad._version == 1
    assert z.grad.dtype == torch.float64


def test_the_index_of_a_bad_gradient_among_many():
    class Many(torch.autograd.Function):
        @staticmethod
        def forward(ctx, *xs):
            return xs[0] * 1.0

        @staticmethod
        def backward(ctx, g):
            return tuple(torch.ones(3) if i == 11 else g for i in range(12))

    xs = [torch.ones(2, requires_grad=True) for _ in range(12)]
    with pytest.raises(RuntimeError) as info:
        Many.apply(*xs).sum().backward()
    assert str(info.value) == ("Function ManyBackward returned an invalid gradient at index 11 "
                               "- got [3] but expected shape compatible with [2]")
