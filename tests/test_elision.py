"""NOTE [Dying operands]: a result written into an operand that nothing will read again."""

import sys

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops import elision
from refgrad.autograd import forward_ad as fwAD

N = elision._MIN_BYTES // 4  # float32 elements in the smallest array worth reusing

REUSES = elision._COUNTS_KNOWN  # elsewhere than CPython 3.11 to 3.13 nothing is reused


class Temporaries:
    """Makes tensors and remembers where the last one's memory is, holding nothing.

    Only the last address counts: memory freed earlier may come back to a new
    array, but the last temporary is alive while the operation that consumes it runs.
    """

    def __init__(self) -> None:
        self.last = None

    def __call__(self, value=2.0, size=N, requires_grad=False):
        t = torch.full((size,), value)
        if requires_grad:
            t.requires_grad_()
        return self.mark(t)

    def mark(self, t):
        self.last = t.data_ptr()
        return t

    def reused(self, result) -> bool:
        return result.data_ptr() == self.last


def test_a_temporary_operand_receives_the_result():
    temp, y = Temporaries(), torch.ones(N)
    out = temp() + y
    assert temp.reused(out) is REUSES
    assert np.array_equal(out.numpy(), np.full(N, 3.0, np.float32))
    out = y * temp(3.0)  # the right operand too
    assert temp.reused(out) is REUSES and out[0].item() == 3.0


def test_every_operator_row_reuses_and_computes_the_same():
    temp, y = Temporaries(), torch.full((N,), 4.0)
    six, four = np.full(N, 6.0, np.float32), y.numpy()
    cases = {
        "add": (lambda: temp(6.0) + y, six + four),
        "sub": (lambda: temp(6.0) - y, six - four),
        "mul": (lambda: temp(6.0) * y, six * four),
        "div": (lambda: temp(6.0) / y, six / four),
        "sub, right": (lambda: y - temp(6.0), four - six),
        "div, right": (lambda: y / temp(6.0), four / six),
    }
    for name, (compute, expected) in cases.items():
        out = compute()
        assert temp.reused(out) is REUSES, name
        assert np.array_equal(out.numpy(), expected), name


def test_inside_a_function_the_parameters_are_named():
    temp, y = Temporaries(), torch.ones(N)
    add = lambda a, b: a + b  # noqa: E731 - a and b are names here
    out = add(temp(), y)
    assert not temp.reused(out) and out[0].item() == 3.0


def test_named_tensors_are_never_overwritten():
    temp = Temporaries()
    a, b = temp(), temp()
    out = a + b
    assert not temp.reused(out)
    assert a[0].item() == 2.0 and b[0].item() == 2.0


def test_an_argument_of_a_call_is_not_a_temporary():
    temp = Temporaries()

    def twice_plus(x):
        y = x.add(1.0)  # x is still needed below
        return x + torch.add(x, 1.0) + y

    assert twice_plus(temp())[0].item() == 8.0


def test_small_arrays_are_left_alone():
    temp = Temporaries()
    out = temp(size=16) + torch.ones(16)
    assert not temp.reused(out)


def test_an_input_a_recording_row_saves_is_kept():
    temp, w = Temporaries(), torch.ones(N, requires_grad=True)
    out = (w * temp()) * temp(3.0)  # mul saves both operands for the gradient
    assert not temp.reused(out)
    out.sum().backward()
    assert w.grad[0].item() == 6.0


def test_a_row_that_saves_nothing_reuses_while_recording():
    temp, w = Temporaries(), torch.ones(N, requires_grad=True)
    out = temp() + w * 2.0
    assert temp.reused(out) is REUSES and out.grad_fn.name() == "AddBackward0"
    out.sum().backward()
    assert w.grad[0].item() == 2.0


def test_a_saved_output_and_a_leaf_that_requires_grad_are_kept():
    temp, x = Temporaries(), torch.zeros(N, requires_grad=True)
    out = x.exp() + 1.0  # ExpBackward0 keeps its result
    out.sum().backward()
    assert x.grad[0].item() == 1.0
    leaf_sum = temp(requires_grad=True) + torch.ones(N)
    assert not temp.reused(leaf_sum)
    (grad,) = torch.autograd.grad(leaf_sum.sum(), leaf_sum.grad_fn.next_functions[0][0].variable)
    assert grad[0].item() == 1.0


def test_forward_mode_reads_the_inputs_so_they_are_kept():
    temp = Temporaries()
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.ones(N), torch.ones(N))
        out = (x * 3.0) * (x * 2.0)
        assert fwAD.unpack_dual(out).tangent[0].item() == 12.0
        out = temp() + x
        assert not temp.reused(out)


def test_gradients_through_reused_memory_match_numpy():
    x = torch.tensor(np.linspace(-1, 1, N, dtype=np.float32), requires_grad=True)
    (x.sin() * x + x.exp()).sum().backward()
    v = np.linspace(-1, 1, N, dtype=np.float32)
    expected = np.cos(v) * v + np.sin(v) + np.exp(v)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-5, atol=1e-5)


def test_the_counts_are_those_of_the_versions_checked():
    assert elision._COUNTS_KNOWN == (sys.implementation.name == "cpython"
                                     and (3, 11) <= sys.version_info < (3, 14))


def test_a_temporary_given_to_a_function_of_one_tensor_receives_its_result():
    temp = Temporaries()
    method = temp(-1.0).relu()  # not inside assert, which keeps what it evaluates
    assert temp.reused(method) is REUSES
    function = torch.relu(temp(-1.0))
    assert temp.reused(function) is REUSES
    out = temp(0.0).exp()
    assert temp.reused(out) is REUSES and out[0].item() == 1.0
    kept = temp(-1.0)
    out = kept.relu()
    assert not temp.reused(out) and kept[0].item() == -1.0


def test_a_row_that_saves_only_its_result_reuses_while_recording():
    w = torch.full((N,), -1.0, requires_grad=True)
    temp = Temporaries()
    out = temp.mark(temp(3.0) * w).relu()  # the product dies; relu keeps its result only
    assert temp.reused(out) is REUSES
    out.sum().backward()
    assert w.grad[0].item() == 0.0
    w.grad = None
    out = (w * 2.0).sin()  # sin keeps its input: the product must survive
    out.sum().backward()
    assert w.grad[0].item() == pytest.approx(2 * np.cos(-2.0), rel=1e-6)


def test_a_parameter_passed_on_is_still_named():
    temp = Temporaries()

    def relu_plus_input(t):
        return t + t.relu()

    assert relu_plus_input(temp(-2.0))[0].item() == -2.0


def test_a_view_that_dies_leaves_its_base_alone():
    base = torch.ones(N)
    out = base.view(-1) + 1.0  # the view dies here, but its memory is the base's
    assert base[0].item() == 1.0 and out[0].item() == 2.0
