"""Black-box tests: the first check of a kernel refuses first. CTC's overload of tensor
lengths refuses lengths that are not integers before anything else; a pool's output size,
with its check of the padding against half the window, is worked out before the window is
checked to be positive, so local_response_norm with a negative size is refused there. The
same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

log_probs = torch.randn(5, 2, 4, dtype=torch.float64).log_softmax(2)
targets = torch.ones(2, 3, dtype=torch.long)
steps, labels = torch.tensor([5, 5]), torch.tensor([3, 3])
HALF = ("pad should be at most half of effective kernel size, but got pad=0, kernel_size={} "
        "and dilation=1")
POSITIVE = "kernel size should be greater than zero, but got "

LENGTHS = [
    (lambda: F.ctc_loss(log_probs, targets, steps.double(), labels), "input_lengths"),
    (lambda: F.ctc_loss(log_probs, targets, steps, labels.float()), "target_lengths"),
    (lambda: F.ctc_loss(log_probs, targets, steps.bool(), labels), "input_lengths"),
    (lambda: F.ctc_loss(log_probs, targets, steps.float(), labels.float()), "input_lengths"),
    (lambda: torch.ctc_loss(log_probs, targets, steps.float(), labels), "input_lengths"),
    (lambda: torch._ctc_loss(log_probs, targets, steps, labels.half()), "target_lengths"),
    # before the blank, the targets' dtype and the log probabilities' dtype
    (lambda: F.ctc_loss(log_probs, targets, steps.float(), labels, blank=9), "input_lengths"),
    (lambda: torch._ctc_loss(log_probs, targets.float(), steps.float(), labels), "input_lengths"),
    (lambda: F.ctc_loss(log_probs.long(), targets, steps.float(), labels), "input_lengths"),
]


@pytest.mark.parametrize("call, name", LENGTHS)
def test_ctc_lengths_must_be_integers(call, name):
    with pytest.raises(RuntimeError) as caught:
        call()
    assert str(caught.value) == f"{name} must be integral"


def test_ctc_lengths_of_other_integer_kinds_are_read():
    got = torch.ctc_loss(log_probs, targets, steps.int(), labels.short())
    assert torch.equal(got, torch.ctc_loss(log_probs, targets, steps, labels))


@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 3, 4, 4), (1, 4, 3, 2, 2)])
@pytest.mark.parametrize("size, message", [
    (-2, HALF.format(-2)), (-1, POSITIVE), (0, POSITIVE)])
def test_local_response_norm_refuses_a_size_as_its_pool_does(shape, size, message):
    with pytest.raises(RuntimeError) as caught:
        F.local_response_norm(torch.rand(*shape), size)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("size", [1, 2, 5])
def test_local_response_norm_of_a_positive_size(size):
    x = torch.linspace(0.1, 2.4, 24, dtype=torch.float64).reshape(2, 3, 4)
    got = F.local_response_norm(x, size)
    square = F.pad((x * x).unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
    expected = x / (F.avg_pool2d(square, (size, 1), stride=1).squeeze(1) * 1e-4 + 1) ** 0.75
    assert torch.allclose(got, expected, rtol=1e-14, atol=0)
