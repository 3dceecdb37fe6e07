"""Black-box tests: a refusal is raised on its own. A call refgrad reads again after a
first failure (sizes given one by one, where the function wants them as a tuple; tensors
given for ints; a torch.nn.functional call its parser refused) raises its error without
"During handling of the above exception": the traceback shows one error, as torch's does.
And torch.nn.functional's own Python steps run before the operator's parser reads the
arguments, as torch's do: F.group_norm's batch size divided by num_groups, F.multi_margin_loss's
p, F.embedding's padding_idx read with the weight's size, a loss's legacy size_average read
as a truth value. The same assertions run on torch.
"""

import traceback

import pytest
import torch
import torch.nn.functional as F

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


def test_calls_read_again_still_work():
    x = torch.rand(2, 3)
    assert x.expand(torch.tensor(4), torch.tensor(2), torch.tensor(3)).shape == (4, 2, 3)
    assert x.view(torch.tensor(3), torch.tensor(2)).shape == (3, 2)
    assert x.permute(1, 0).shape == (3, 2)
    assert x.unsqueeze(0).squeeze(0, 1).shape == (2, 3)


x, t = torch.rand(2, 4), torch.tensor([0, 1])
FUNCTIONAL = {  # torch.nn.functional's own Python runs before its operator's parser
    "group_norm of no groups": (lambda: F.group_norm(x, 0, 9), ZeroDivisionError,
                                "division or modulo by zero"),
    "group_norm of 1 dimension": (lambda: F.group_norm(torch.rand(3), 1, 5), RuntimeError,
                                  "Expected at least 2 dimensions for input tensor"),
    "group_norm by keywords": (lambda: F.group_norm(x, num_groups=0, weight=9),
                               ZeroDivisionError, "division or modulo by zero"),
    "multi_margin_loss p": (lambda: F.multi_margin_loss(x, 0, 9), ValueError,
                            "only p == 1 and p == 2 supported"),
    "embedding padding_idx": (lambda: F.embedding(t, 7, 1), AttributeError,
                              "'int' object has no attribute 'size'"),
    "embedding negative padding_idx": (lambda: F.embedding(t, 7, -1), AttributeError,
                                       "'int' object has no attribute 'size'"),
    "embedding max_norm": (lambda: F.embedding(t, 7, None, 1.0), AttributeError,
                           "'int' object has no attribute 'detach'"),
    "embedding padding_idx of a str": (lambda: F.embedding(t, torch.rand(4, 2), "a"),
                                       TypeError, "'>' not supported between instances"),
    "embedding weight, no padding_idx": (lambda: F.embedding(t, 7), TypeError,
                                         "embedding(): argument 'weight' (position 1) must be"
                                         " Tensor, not int"),
    "multi_margin_loss target": (lambda: F.multi_margin_loss(x, 0), TypeError,
                                 "multi_margin_loss(): argument 'target' (position 2) must be"
                                 " Tensor, not int"),
    "group_norm weight": (lambda: F.group_norm(x, 2, "a"), TypeError,
                          "group_norm(): argument 'weight' (position 3) must be Tensor, not str"),
    "bilinear": (lambda: F.bilinear(x, 5), TypeError,
                 "bilinear(): argument 'input2' (position 2) must be Tensor, not int"),
    "batch_norm": (lambda: F.batch_norm(x, 5), TypeError,
                   "batch_norm() missing 1 required positional argument: 'running_var'"),
    "margin_ranking_loss": (lambda: F.margin_ranking_loss(x, 5), TypeError,
                            "margin_ranking_loss() missing 1 required positional argument"),
    "threshold": (lambda: F.threshold(x, "a"), TypeError,
                  "missing 1 required positional argument: 'value'"),
}


@pytest.mark.parametrize("name", [*CALLS, *FUNCTIONAL])
def test_a_refusal_is_raised_once_in_torchs_order(name):
    call, kind, words = {**CALLS, **FUNCTIONAL}[name]
    with pytest.raises(kind) as caught:
        call()
    assert words in str(caught.value)
    assert _shown_alone(caught.value)
    assert caught.value.__cause__ is None


def test_embedding_keeps_the_padding_idx_torchs_parser_reads():
    w = torch.rand(4, 2, requires_grad=True)
    for given, kept in ((torch.tensor(1), 1), (torch.tensor(-1), 3), (-1, 3)):
        node = F.embedding(t, w, given).grad_fn
        assert type(node._saved_padding_idx) is int and node._saved_padding_idx == kept
    assert F.group_norm(x, torch.tensor(2)).shape == (2, 4)


def test_a_legacy_size_average_is_read_before_the_parser():
    c, several = torch.tensor([0, 1]), torch.rand(2, 3)
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value"):
        F.cross_entropy(x[:, :3], c, None, several, "a")  # ignore_index "a" read later
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value"):
        F.nll_loss(x[:, :3], c, None, several, -100, "a")
