"""refgrad._ops.elementwise: pointwise rows of the op table."""

import refgrad
from refgrad._ops.elementwise_rows import _atan2_gradients


def test_atan2_gradients_square_other_before_self():
    y = refgrad.tensor([0.75], dtype=refgrad.float64, requires_grad=True)
    x = refgrad.tensor([0.48], dtype=refgrad.float64, requires_grad=True)
    for_y, for_x = _atan2_gradients(refgrad.ones(1, dtype=refgrad.float64), y, x)
    add = for_y.grad_fn.next_functions[1][0].next_functions[0][0].next_functions[0][0]
    (self_sq, _), (other_sq, _) = add.next_functions
    assert self_sq._sequence_nr() > other_sq._sequence_nr()
    assert abs(for_y.item() - 0.48 / (0.75**2 + 0.48**2)) < 1e-12
    assert abs(for_x.item() + 0.75 / (0.75**2 + 0.48**2)) < 1e-12
