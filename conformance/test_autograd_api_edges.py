"""Small edges of the autograd API: out= calls inside inference mode with grad mode back on,
the order of .grad's checks, flags read as integers, and the sequence number the Error node
of once_differentiable uses up."""

import pytest
import torch
from torch.autograd.function import once_differentiable

from conformance._support import raises

_Y = torch.ones(3, requires_grad=True)
_M = torch.ones(3, 3, requires_grad=True)


@pytest.mark.parametrize("call", [
    lambda: torch.mul(_Y, 2, out=torch.empty(3)),
    lambda: torch.exp(torch.ones(3), out=torch.ones(3).requires_grad_()),
    lambda: torch.zeros(3, out=torch.empty(3, requires_grad=True)),
    lambda: torch.arange(3.0, out=torch.empty(3, requires_grad=True)),
    lambda: torch.frexp(_Y, out=(torch.empty(3), torch.empty(3, dtype=torch.int32))),
    lambda: torch.sum(_M, 0, out=torch.empty(3)),
    lambda: torch.mm(_M, _M, out=torch.empty(3, 3)),
    lambda: torch.max(_M, 0, out=(torch.empty(3), torch.empty(3, dtype=torch.long))),
])
@pytest.mark.parametrize("grad_on", [torch.enable_grad, lambda: torch.set_grad_enabled(True)])
def test_inference_mode_skips_the_refusal_of_out_with_grad_mode_back_on(call, grad_on):
    with torch.inference_mode(), grad_on():
        first = call()
    result = first[0] if isinstance(first, tuple | list) else first
    assert result.grad_fn is None
    with pytest.raises(RuntimeError, match="arguments don't support automatic differentiation"):
        call()  # outside inference mode, refused


def test_floor_divide_writes_a_number_quotient_into_out():
    out = torch.empty(3)
    assert torch.floor_divide(torch.tensor([5.0, 7.0, 9.0]), 2, out=out) is out
    assert out.tolist() == [2.0, 3.0, 4.0]
    assert torch.floor_divide(3, torch.full((2,), 2.0), out=torch.empty(2)).tolist() == [1, 1]


def test_grad_assignment_checks_the_dtype_before_the_size():
    x = torch.ones(2, 3, requires_grad=True)
    with raises(RuntimeError, "attempting to assign a gradient with dtype 'double' to a tensor "
                              "with grad_dtype 'Float'. The gradient must match the tensor's "
                              "grad_dtype (defaults to the tensor's dtype). You can set the "
                              "tensor's grad_dtype attribute with a specific dtype, or None to "
                              "allow any dtype. Set grad_dtype with caution. Diverging the "
                              "dtypes of a tensor and its gradient may break downstream systems "
                              "that assume they match."):
        x.grad = torch.ones(3, 2, dtype=torch.float64)
    assert x.grad is None


@pytest.mark.parametrize("options, name", [
    ({"materialize_grads": None}, "NoneType"), ({"allow_unused": "a"}, "str"),
    ({"allow_unused": 1.5}, "float"), ({"allow_unused": True, "create_graph": None}, "NoneType"),
])
def test_grad_reads_allow_unused_as_an_integer(options, name):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with raises(TypeError, f"'{name}' object cannot be interpreted as an integer"):
        torch.autograd.grad((x * x).sum(), x, **options)
    assert torch.autograd.grad((x * x).sum(), x, allow_unused=2)[0].tolist() == [2.0, 4.0]


class _Once(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return g * 2


def test_the_error_node_of_once_differentiable_uses_up_one_sequence_number():
    x = torch.ones(3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    y = _Once.apply(x)
    before = (x * 1).grad_fn._sequence_nr()
    (g,) = torch.autograd.grad((y * w).sum(), x, create_graph=True)
    after = (x * 1).grad_fn._sequence_nr()
    assert type(g.grad_fn).__name__ == "Error" and after - before == 5
    assert g.grad_fn._sequence_nr() == 2**64 - 1  # as a leaf's accumulator


def test_unbind_copy_refuses_an_out_that_requires_grad_even_in_inference_mode():
    outs = [torch.empty(3, requires_grad=True) for _ in range(3)]
    with torch.inference_mode(), torch.enable_grad():
        with raises(RuntimeError, "unbind_copy(): functions with out=... arguments don't "
                                  "support automatic differentiation, but one of the arguments "
                                  "requires grad."):
            torch.unbind_copy(_M, out=outs)
