"""White-box tests of refgrad.autograd.functional: its values against calculus and each other."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import refgrad
from refgrad.autograd import forward_ad
from refgrad.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

STRATEGIES = [{}, {"vectorize": True}, {"vectorize": True, "strategy": "forward-mode"}]
OUTER = [{}, {"vectorize": True},
         {"vectorize": True, "outer_jacobian_strategy": "forward-mode"}]

values = st.lists(st.floats(-2.0, 2.0), min_size=1, max_size=5)
coefficients = st.lists(st.floats(-3.0, 3.0), min_size=1, max_size=4)


def tensor(xs):
    return refgrad.tensor(xs, dtype=refgrad.float64)


def polynomial(coeffs):
    """The elementwise polynomial sum_k c_k x^k, and its first two derivatives, in NumPy."""
    p = np.polynomial.Polynomial(coeffs)
    return p, p.deriv(), p.deriv(2)


def apply(coeffs, a):
    result = a * 0
    for k, c in enumerate(coeffs):
        result = result + c * a**k
    return result


@given(values, coefficients)
def test_jacobian_of_an_elementwise_polynomial_is_its_diagonal_derivative(xs, coeffs):
    _, d1, _ = polynomial(coeffs)
    want = np.diag(d1(np.array(xs)))
    for options in STRATEGIES:
        got = jacobian(lambda a: apply(coeffs, a), tensor(xs), **options)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@given(values, coefficients)
def test_hessian_of_a_polynomial_sum_is_its_diagonal_second_derivative(xs, coeffs):
    _, _, d2 = polynomial(coeffs)
    want = np.diag(d2(np.array(xs)))
    for options in OUTER:
        got = hessian(lambda a: apply(coeffs, a).sum(), tensor(xs), **options).detach()
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def mixing(a, b):
    """A function of two inputs with two outputs, that mixes their elements."""
    return (a[:, None] * b[None, :]).tanh(), (a.sin().sum() * b).exp()


def finite_difference_table(func, inputs, eps=1e-6):
    """[output][input] Jacobians by central differences, output's shape then input's."""
    arrays = [t.numpy().copy() for t in inputs]
    outputs = [o.numpy() for o in func(*inputs)]
    table = [[np.zeros(o.shape + a.shape) for a in arrays] for o in outputs]
    for j, a in enumerate(arrays):
        for index in np.ndindex(a.shape):
            moved = []
            for sign in (1, -1):
                b = [x.copy() for x in arrays]
                b[j][index] += sign * eps
                moved.append([o.numpy() for o in func(*map(tensor, b))])
            for i, (up, down) in enumerate(zip(*moved)):
                table[i][j][(...,) + index] = (up - down) / (2 * eps)
    return table


@given(st.lists(st.floats(-1.5, 1.5), min_size=1, max_size=3),
       st.lists(st.floats(-1.5, 1.5), min_size=1, max_size=3))
def test_jacobian_matches_finite_differences(xs, ys):
    inputs = (tensor(xs), tensor(ys))
    want = finite_difference_table(mixing, inputs)
    for options in STRATEGIES:
        got = jacobian(mixing, inputs, **options)
        for got_row, want_row in zip(got, want):
            for g, w in zip(got_row, want_row):
                assert tuple(g.shape) == w.shape
                np.testing.assert_allclose(g.numpy(), w, rtol=1e-6, atol=1e-7)


@given(st.lists(st.floats(-1.5, 1.5), min_size=1, max_size=4),
       st.lists(st.floats(-1.0, 1.0), min_size=4, max_size=4))
def test_products_agree_with_the_matrices(xs, vs):
    x = tensor(xs)
    n = len(xs)
    v = tensor(vs[:n])
    w = tensor(vs[:n][::-1])

    def vector(a):
        return a.sin() * a.sum()

    def scalar(a):
        return (a.exp() * a.cos()).sum() * a.sum()

    j = jacobian(vector, x).numpy()
    h = hessian(scalar, x).numpy()
    np.testing.assert_allclose(vjp(vector, x, w)[1].numpy(), w.numpy() @ j, atol=1e-12)
    np.testing.assert_allclose(jvp(vector, x, v)[1].numpy(), j @ v.numpy(), atol=1e-12)
    np.testing.assert_allclose(vhp(scalar, x, v)[1].numpy(), v.numpy() @ h, atol=1e-12)
    np.testing.assert_allclose(hvp(scalar, x, v)[1].numpy(), h @ v.numpy(), atol=1e-12)
    np.testing.assert_allclose(h, h.T, atol=1e-12)


def test_the_module_is_reached_both_ways():
    import refgrad.autograd.functional as module

    assert refgrad.autograd.functional is module
    assert module.__all__ == ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def test_a_failing_function_leaves_no_dual_level_open():
    def failing(a):
        raise ValueError("failing")

    with pytest.raises(ValueError, match="^failing$"):
        jacobian(failing, tensor([1.0, 2.0]), vectorize=True, strategy="forward-mode")
    assert forward_ad._current_level == -1


def test_forward_mode_runs_the_function_once_per_input_element():
    calls = []

    def counted(a, b):
        calls.append(1)
        return a * b.sum()

    jacobian(counted, (tensor([1.0, 2.0]), tensor([3.0, 4.0, 5.0])), vectorize=True,
             strategy="forward-mode")
    assert len(calls) == 5


def test_the_inputs_are_not_changed():
    x = tensor([1.0, 2.0])
    hessian(lambda a: (a**3).sum(), x, vectorize=True, outer_jacobian_strategy="forward-mode")
    assert not x.requires_grad and x.grad is None


def test_no_inputs_give_an_empty_table():
    # torch fails here with an IndexError; refgrad returns the empty table (see the chapter)
    x = tensor([1.0])
    assert jacobian(lambda: x * 2, ()) == ()


def test_an_empty_output_gives_an_empty_jacobian_when_vectorized():
    # torch fails here with an IndexError; refgrad returns the empty Jacobian (see the chapter)
    got = jacobian(lambda a: a[:0], tensor([1.0, 2.0]), vectorize=True)
    assert tuple(got.shape) == (0, 2)


def test_no_inputs_give_an_empty_table_in_forward_mode_too():
    x = tensor([1.0])
    assert jacobian(lambda: x * 2, (), vectorize=True, strategy="forward-mode") == ()
    assert jacobian(lambda: (x * 2, x), (), vectorize=True, strategy="forward-mode") == ((), ())
