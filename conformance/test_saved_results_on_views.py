"""The result of an in-place op on a view is saved as that op's output: when it is modified
later, torch's message names the in-place op's node, not the view's regenerated grad_fn.
The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [torch.FloatTensor [2]], which is output 0 of {}, is at version 2; expected "
    "version 1 instead. Hint: enable anomaly detection to find the operation that failed to "
    "compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)


@pytest.mark.parametrize("views", [
    lambda q: (q[1], q[..., 0]), lambda q: (q[1:][0], q[1:][..., 0]), lambda q: (q[1], q[1]),
])
@pytest.mark.parametrize("op, name", [("sigmoid_", "Sigmoid"), ("exp_", "Exp"),
                                      ("tanh_", "Tanh")])
def test_a_saved_result_on_a_view_names_the_in_place_node(views, op, name):
    p = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    w, other = views(p * 2)
    getattr(w, op)()
    assert type(w.grad_fn).__name__ == "AsStridedBackward0"
    other[0] = 7.0
    with raises(RuntimeError, MODIFIED.format(name)):
        w.sum().backward()


def test_a_saved_input_names_its_current_grad_fn():
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    q = p * 2
    y = q * q
    q.add_(1)
    message = MODIFIED.format("Add").replace("version 2; expected version 1",
                                             "version 1; expected version 0")
    with raises(RuntimeError, message):
        y.sum().backward()
