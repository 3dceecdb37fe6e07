"""Black-box tests: behaviour the differential fuzzer found in its twelfth round.

soft_margin_loss refuses to save an inference tensor before its kernel checks the
shapes. The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

SAVED = "^Inference tensors cannot be saved for backward. "


def _inference(*shape):
    with torch.inference_mode():
        return torch.rand(*shape)


@pytest.mark.parametrize("input_shape, target_shape, message", [
    ((1, 2), (2, 3), "^The size of tensor a \\(2\\) must match the size of tensor b \\(3\\)"),
    ((3,), (2, 3), "^output with shape \\[3\\] doesn't match the broadcast shape \\[2, 3\\]$"),
])
def test_soft_margin_loss_refuses_an_inference_save_before_the_shapes(input_shape, target_shape,
                                                                      message):
    x = torch.rand(input_shape, requires_grad=True)
    with pytest.raises(RuntimeError, match=SAVED):
        F.soft_margin_loss(x, _inference(*target_shape))
    with torch.no_grad(), pytest.raises(RuntimeError, match=message):  # not recorded
        F.soft_margin_loss(x, _inference(*target_shape))
