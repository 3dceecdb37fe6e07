"""A refused op uses up the sequence number of the node torch makes before its kernel
checks, wherever the check is written, on torch's API."""

import pytest
import torch
import torch.nn.functional as F


def leaf(*shape):
    return torch.randn(*shape, requires_grad=True)


REFUSED = {  # each refused by its kernel, after torch's autograd made its node
    "sum out of range": lambda x: x.sum(5),
    "sum of a repeated dim": lambda x: x.sum((0, 0)),
    "torch.sum out of range": lambda x: torch.sum(x, 5),
    "sum to an integer dtype": lambda x: x.sum(dtype=torch.int64),
    "view to a size that does not fit": lambda x: x.view(7),
    "reshape to a size that does not fit": lambda x: x.reshape(7),
    "transpose": lambda x: x.transpose(0, 5),
    "permute too short": lambda x: x.permute(0),
    "squeeze": lambda x: x.squeeze(5),
    "select": lambda x: x.select(0, 5),
    "expand": lambda x: x.expand(4, 3),
    "split by 0": lambda x: x.split(0),
    "softmax": lambda x: x.softmax(5),
    "cumsum": lambda x: torch.cumsum(x, 5),
    "max": lambda x: x.max(5),
    "topk too many": lambda x: x.topk(7),
    "tril of a vector": lambda x: leaf(3).tril(),
    "cat": lambda x: torch.cat([x, x], 5),
    "masked_fill": lambda x: x.masked_fill(torch.tensor([True, False]), 0.0),
    "Tensor.norm": lambda x: x.norm(dim=5),
    "linalg.vector_norm": lambda x: torch.linalg.vector_norm(x, dim=5),
    "F.softmax": lambda x: F.softmax(x, 5),
    "F.glu": lambda x: F.glu(x, 1),
    "F.layer_norm": lambda x: F.layer_norm(x, (2,)),
    "F.nll_loss": lambda x: F.nll_loss(x, torch.tensor([0, 5])),
    "block_diag of three dimensions": lambda x: torch.block_diag(x, leaf(2, 2, 2)),
    "where": lambda x: torch.where(torch.tensor([True, False]), x, leaf(4, 5)),
}
NOT_REACHED = {  # refused before torch's autograd: in its Python, or its argument parser
    "bernoulli's p, checked first": lambda x: x.bernoulli(5.0),
    "F.hardtanh's bounds": lambda x: F.hardtanh(x, 2.0, 1.0),
    "narrow, a composite": lambda x: x.narrow(0, 0, 5),
    "a keyword sum does not take": lambda x: torch.sum(x, zz=1),
    "F.conv2d of a matrix": lambda x: F.conv2d(x, x),
    "softmax to an integer dtype": lambda x: x.softmax(0, dtype=torch.int64),
    "an in-place write of a leaf": lambda x: F.relu(x, inplace=True),
}


def numbers_used(call, x) -> int:
    before = torch.autograd._get_sequence_nr()
    with pytest.raises((RuntimeError, IndexError, TypeError, ValueError, NotImplementedError)):
        call(x)
    return torch.autograd._get_sequence_nr() - before


@pytest.mark.parametrize("name", REFUSED)
def test_a_refused_op_uses_up_a_number(name):
    assert numbers_used(REFUSED[name], leaf(2, 3)) == 1


@pytest.mark.parametrize("name", NOT_REACHED)
def test_a_call_refused_before_autograd_uses_none(name):
    assert numbers_used(NOT_REACHED[name], leaf(2, 3)) == 0


@pytest.mark.parametrize("name", ["sum out of range", "view to a size that does not fit", "F.glu"])
def test_nothing_is_used_where_nothing_would_record(name):
    assert numbers_used(REFUSED[name], torch.randn(2, 3)) == 0
    with torch.no_grad():
        assert numbers_used(REFUSED[name], leaf(2, 3)) == 0
    with torch.inference_mode():
        assert numbers_used(REFUSED[name], leaf(2, 3)) == 0


def test_the_next_node_is_numbered_as_torch_numbers_it():
    x = leaf(2, 3)
    first = (x * 2).grad_fn._sequence_nr()
    for call in (lambda: x.sum(5), lambda: x.view(7), lambda: x.split(0)):
        with pytest.raises((RuntimeError, IndexError)):
            call()
    assert (x * 2).grad_fn._sequence_nr() == first + 4
