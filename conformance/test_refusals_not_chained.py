"""Black-box tests: a refusal is raised on its own. A call refgrad reads again after a
first failure (sizes given one by one, where the function wants them as a tuple; tensors
given for ints) raises its error without "During handling of the above exception": the
traceback shows one error, as torch's does. The same assertions run on torch.
"""

import traceback

import pytest
import torch

CALLS = {
    "resize_ of a leaf": (lambda: torch.rand(3, requires_grad=True).resize_(2),
                          RuntimeError, "cannot resize variables that require grad"),
    "squeeze": (lambda: torch.rand(2, 3).squeeze(0, 9), IndexError, "Dimension out of range"),
    "squeeze_": (lambda: torch.rand(2, 3).squeeze_(0, 9), IndexError, "Dimension out of range"),
    "permute": (lambda: torch.rand(2, 3).permute(0, 9), IndexError, "Dimension out of range"),
    "flip": (lambda: torch.rand(2, 3).flip(0, 9), IndexError, "Dimension out of range"),
    "count_nonzero": (lambda: torch.rand(2, 3).count_nonzero(0, 9), IndexError,
                      "Dimension out of range"),
    "repeat": (lambda: torch.rand(2, 3).repeat(5), RuntimeError,
               "Number of dimensions of repeat dims can not be smaller"),
    "sum_to_size": (lambda: torch.rand(2, 3).sum_to_size(7, 1), RuntimeError,
                    "size {[7, 1]} is not expandable to size {[2, 3]}"),
    "view": (lambda: torch.rand(2, 3).view(7, 1), RuntimeError,
             "shape '[7, 1]' is invalid for input of size 6"),
    "view of a tuple": (lambda: torch.rand(2, 3).view((7, 1)), RuntimeError,
                        "shape '[7, 1]' is invalid for input of size 6"),
    "reshape": (lambda: torch.rand(2, 3).reshape(7, 1), RuntimeError,
                "shape '[7, 1]' is invalid for input of size 6"),
    "expand": (lambda: torch.rand(2, 3).expand(7, 1), RuntimeError,
               "The expanded size of the tensor (1) must match the existing size (3)"),
    "expand by tensors": (lambda: torch.rand(2, 3).expand(torch.tensor(7), torch.tensor(1)),
                          RuntimeError, "The expanded size of the tensor (1) must match"),
}


def _shown_alone(error: BaseException) -> bool:
    """Whether a traceback of ``error`` shows it alone, with no error before it."""
    printed = "".join(traceback.format_exception(error))
    return "During handling of the above exception" not in printed and (
        "direct cause" not in printed)


@pytest.mark.parametrize("name", CALLS)
def test_a_refusal_is_raised_on_its_own(name):
    call, kind, words = CALLS[name]
    with pytest.raises(kind) as caught:
        call()
    assert words in str(caught.value)
    assert _shown_alone(caught.value)
    assert caught.value.__cause__ is None


def test_calls_read_again_still_work():
    x = torch.rand(2, 3)
    assert x.expand(torch.tensor(4), torch.tensor(2), torch.tensor(3)).shape == (4, 2, 3)
    assert x.view(torch.tensor(3), torch.tensor(2)).shape == (3, 2)
    assert x.permute(1, 0).shape == (3, 2)
    assert x.unsqueeze(0).squeeze(0, 1).shape == (2, 3)
