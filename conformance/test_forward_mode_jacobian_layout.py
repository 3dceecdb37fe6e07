"""jacobian(strategy="forward-mode") and hessian(outer_jacobian_strategy="forward-mode")
lay their blocks out as torch's vectorized pass does: the column dimension moved last, each
column as the function lays out its tangent, a second input's block further on in the same
storage, and stride 0 for an output that does not depend on the inputs. The same assertions
run on torch."""

import torch
from torch.autograd.functional import hessian, jacobian


def _layout(t):
    return tuple(t.shape), t.stride(), t.storage_offset()


def _forward(func, inputs):
    return jacobian(func, inputs, vectorize=True, strategy="forward-mode")


def _reverse(func, inputs):
    return jacobian(func, inputs, vectorize=True)


def test_the_columns_go_last():
    a = torch.arange(6.0).reshape(2, 3)
    jac = _forward(torch.sin, a)
    assert _layout(jac) == ((2, 3, 2, 3), (3, 1, 18, 6), 0)
    assert torch.equal(jac, _reverse(torch.sin, a))


def test_a_transposed_output_gives_transposed_columns():
    a = torch.arange(6.0).reshape(2, 3)
    jac = _forward(lambda x: x.t().exp(), a)
    assert _layout(jac) == ((3, 2, 2, 3), (1, 3, 18, 6), 0)
    assert torch.equal(jac, _reverse(lambda x: x.t().exp(), a))


def test_a_second_inputs_block_starts_further_on():
    a, b = torch.arange(6.0).reshape(2, 3), torch.arange(3.0)
    table = _forward(lambda x, y: (x * y, x.sum()), (a, b))
    assert [[_layout(t) for t in row] for row in table] == [
        [((2, 3, 2, 3), (3, 1, 18, 6), 0), ((2, 3, 3), (3, 1, 6), 36)],
        [((2, 3), (3, 1), 0), ((3,), (1,), 6)]]
    expected = _reverse(lambda x, y: (x * y, x.sum()), (a, b))
    assert all(torch.equal(t, e) for row, erow in zip(table, expected) for t, e in zip(row, erow))


def test_an_output_without_a_tangent_is_stretched_zeros():
    jac = _forward(lambda x: torch.ones(2), torch.ones(2, 3))
    assert _layout(jac) == ((2, 2, 3), (1, 0, 0), 0)
    assert not jac.any()


def test_an_expanded_output_keeps_its_zero_stride():
    jac = _forward(lambda x: x[None].expand(3, 2), torch.ones(2))
    assert _layout(jac) == ((3, 2, 2), (0, 1, 2), 0)


def test_the_forward_mode_hessian():
    a = torch.arange(6.0).reshape(2, 3)
    h = hessian(lambda x: x.sin().sum(), a, vectorize=True, outer_jacobian_strategy="forward-mode")
    assert _layout(h) == ((2, 3, 2, 3), (3, 1, 18, 6), 0)
    assert torch.equal(h, hessian(lambda x: x.sin().sum(), a, vectorize=True))
    a, b = torch.ones(2, 3), torch.ones(3)
    table = hessian(lambda x, y: (x * y).sum(), (a, b), vectorize=True,
                    outer_jacobian_strategy="forward-mode")
    assert [[_layout(t) for t in row] for row in table] == [
        [((2, 3, 2, 3), (3, 1, 18, 6), 0), ((2, 3, 3), (3, 1, 6), 36)],
        [((3, 2, 3), (1, 9, 3), 0), ((3, 3), (1, 3), 18)]]
