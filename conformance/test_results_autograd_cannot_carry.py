"""A recorded op whose result is of a dtype with no gradients is refused where torch hands the
result its history: an empty bmm (or einsum) of a float batch that requires grad and an integer
or bool one. The node has been numbered and its operands saved by then."""

import pytest
import torch
from torch.autograd.graph import saved_tensors_hooks

from conformance._support import raises

EMPTY_PRODUCTS = [((1, 0, 3), (1, 3, 2)), ((1, 2, 3), (1, 3, 0)), ((1, 2, 0), (1, 0, 2))]
WORDS = {torch.bool: "Bool", torch.uint8: "Byte", torch.int16: "Short", torch.int32: "Int",
         torch.int64: "Long"}


@pytest.mark.parametrize("shapes", EMPTY_PRODUCTS)
@pytest.mark.parametrize("dtype", list(WORDS))
def test_an_empty_bmm_into_a_dtype_without_gradients_is_refused(shapes, dtype):
    a = torch.zeros(*shapes[0], requires_grad=True)
    with raises(RuntimeError, f"Autograd not support dtype: {WORDS[dtype]}"):
        torch.bmm(a, torch.ones(*shapes[1], dtype=dtype))


def test_the_same_product_is_given_where_nothing_is_recorded():
    a, b = torch.zeros(1, 0, 3, requires_grad=True), torch.ones(1, 3, 2, dtype=torch.bool)
    with torch.no_grad():
        assert torch.bmm(a, b).dtype == torch.bool
    with torch.inference_mode():
        assert torch.bmm(a, b).dtype == torch.bool
    plain = torch.bmm(a.detach(), b)
    assert plain.dtype == torch.bool and plain.shape == (1, 0, 2) and not plain.requires_grad


def test_a_float_mat2_still_records():
    out = torch.bmm(torch.ones(1, 3, 0, dtype=torch.bool), torch.zeros(1, 0, 2, requires_grad=True))
    assert out.dtype == torch.float32 and type(out.grad_fn).__name__ == "BmmBackward0"


def _next_sequence_nr():
    return (torch.ones(1, requires_grad=True) * 2).grad_fn._sequence_nr()


def test_the_refused_node_was_numbered_and_its_operands_saved():
    a, b = torch.zeros(1, 0, 3, requires_grad=True), torch.ones(1, 3, 2, dtype=torch.bool)
    packed = []
    before = _next_sequence_nr()
    with saved_tensors_hooks(lambda t: packed.append((t.dtype, tuple(t.shape))) or t, lambda t: t):
        with raises(RuntimeError, "Autograd not support dtype: Bool"):
            torch.bmm(a, b)
    assert _next_sequence_nr() - before == 2  # the refused node took one number
    assert packed == [(torch.bool, (1, 3, 2))]  # mat2, kept for self's gradient
    assert torch.is_grad_enabled()


@pytest.mark.parametrize("equation,shapes", [
    ("ij,kj->ik", ((0, 3), (2, 3))), ("bij,bjk->bik", ((2, 0, 3), (2, 3, 4))),
    ("i,i->", ((0,), (0,)))])
def test_einsum_reaching_such_a_product_is_refused(equation, shapes):
    x = torch.zeros(*shapes[0], requires_grad=True)
    with raises(RuntimeError, "Autograd not support dtype: Bool"):
        torch.einsum(equation, x, torch.ones(*shapes[1], dtype=torch.bool))
    assert torch.einsum(equation, x.detach(), torch.ones(*shapes[1], dtype=torch.bool)).dtype == (
        torch.bool)


def test_einsum_with_the_float_operand_last_records():
    out = torch.einsum("ij,kj->ik", torch.ones(2, 3, dtype=torch.bool),
                       torch.zeros(0, 3, requires_grad=True))
    assert out.dtype == torch.float32 and out.shape == (2, 0) and out.requires_grad


def test_a_foreach_copy_into_integers_still_takes_its_node():
    written = [torch.zeros(2, dtype=torch.int64)]
    torch._foreach_copy_(written, [torch.tensor([1.5, 2.5], requires_grad=True)])
    assert written[0].requires_grad and written[0].grad_fn.name() == (
        "torch::autograd::NotImplemented")
