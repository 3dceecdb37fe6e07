"""refgrad._ops.refusal_order: when the save refusal applies, and the empty-kernel messages."""

import pytest

import refgrad
from refgrad._ops import refusal_order
from refgrad.autograd._saved import CANNOT_SAVE_INFERENCE
from refgrad.autograd._state import state


def _operands():
    with refgrad.inference_mode():
        made = refgrad.ones(2) + 0
    return made, refgrad.ones(2, requires_grad=True)


def test_an_inference_tensor_beside_one_that_requires_grad_is_refused():
    made, wanted = _operands()
    with pytest.raises(RuntimeError) as raised:
        refusal_order.refuse_inference_saves(made, None, wanted)
    assert str(raised.value) == CANNOT_SAVE_INFERENCE


@pytest.mark.parametrize("switch", ["no_grad", "inference", "below_autograd", "nothing_wanted"])
def test_no_refusal_where_nothing_would_be_recorded(switch):
    made, wanted = _operands()
    if switch == "nothing_wanted":
        refusal_order.refuse_inference_saves(made, wanted.detach())
        return
    if switch == "below_autograd":
        state.below_autograd = True
        try:
            refusal_order.refuse_inference_saves(made, wanted)
        finally:
            state.below_autograd = False
        return
    block = refgrad.no_grad() if switch == "no_grad" else refgrad.inference_mode()
    with block:
        refusal_order.refuse_inference_saves(made, wanted)
    assert refgrad.is_grad_enabled() and not state.below_autograd


@pytest.mark.parametrize(("weight", "dilation", "transposed", "message"), [
    ((1, 1, 0, 2), (1, 1), False, "kernel_height: 0 kernel_width: 2"),
    ((1, 1, 0), (1,), False, "kernel_height: 1 kernel_width: 0"),
    ((1, 1, 0), (2,), False, "[1, 0]"),
    ((1, 1, 2, 0, 1), (1, 1, 1), False, ": 2 x 0 x 1 (TxHxW)"),
    ((1, 1, 2, 0), (0, 1), True, "kernel_height: 2 kernel_width: 0"),
])
def test_the_empty_kernel_is_named_as_its_kernel_names_it(weight, dilation, transposed,
                                                          message):
    input = refgrad.ones(1, 1, *([3] * (len(weight) - 2)))
    with pytest.raises(RuntimeError) as raised:
        refusal_order.refuse_empty_kernel(input, refgrad.zeros(*weight), dilation, transposed)
    assert str(raised.value) == "kernel size should be greater than zero, but got" + (
        "" if message.startswith(":") else " ") + message


def test_the_transposed_3d_kernel_and_an_empty_input_pass():
    refusal_order.refuse_empty_kernel(refgrad.ones(1, 1, 3, 3, 3), refgrad.zeros(1, 1, 0, 1, 1),
                                      (1, 1, 1), transposed=True)
    refusal_order.refuse_empty_kernel(refgrad.ones(2, 0, 3, 3), refgrad.zeros(1, 0, 0, 2), (1, 1))
    refusal_order.refuse_empty_kernel_onednn(refgrad.ones(0, 1, 3), refgrad.zeros(1, 1, 0))
