"""Refusals that no wrapper sees (a method that takes nothing, a convolution's checks, a
composite's inner where) use up the number of the node torch made before its kernel
refused, on torch's API."""

import pytest
import torch
import torch.nn.functional as F


def leaf(*shape):
    return torch.randn(*shape, requires_grad=True)


def numbers_used(call, x) -> int:
    before = torch.autograd._get_sequence_nr()
    with pytest.raises((RuntimeError, IndexError, TypeError, ValueError, NotImplementedError)):
        call(x)
    return torch.autograd._get_sequence_nr() - before


WEIGHT = torch.randn(5, 4, 3)
USED = {  # the call, and the numbers torch's nodes use up, the refused one's included
    "Tensor.t of three dimensions": (lambda x: x.t(), 1),
    "torch.t of three dimensions": (lambda x: torch.t(x), 1),
    "Tensor.trace of three dimensions": (lambda x: x.trace(), 1),
    "Tensor.trace of a vector": (lambda x: x[0, 0].trace(), 3),
    "torch.trace": (lambda x: torch.trace(x), 1),
    "t_ of a result": (lambda x: (x * 1).t_(), 2),
    "unsqueeze_ out of range": (lambda x: (x * 1).unsqueeze_(9), 2),
    "Tensor.matrix_exp of a batch of non-square matrices": (lambda x: x.matrix_exp(), 1),
    "torch.matrix_exp": (lambda x: torch.matrix_exp(x), 1),
    "linalg.matrix_exp": (lambda x: torch.linalg.matrix_exp(x), 1),
    "conv1d with the wrong channels": (lambda x: F.conv1d(x, WEIGHT), 1),
    "conv1d of one unbatched input": (lambda x: F.conv1d(x[0], WEIGHT), 3),
    "conv1d, padding valid": (lambda x: F.conv1d(x, WEIGHT, padding="valid"), 1),
    "conv1d, groups 0": (lambda x: F.conv1d(x, WEIGHT, groups=0), 1),
    "conv1d, kernel larger than the input": (lambda x: F.conv1d(x[:, :1], WEIGHT[:, :2]), 2),
    "conv1d of a double input": (lambda x: F.conv1d(x.double(), WEIGHT[:, :3]), 2),
    "conv2d with the wrong channels": (lambda x: F.conv2d(x[None], WEIGHT[..., None]), 2),
    "conv_transpose1d with the wrong channels": (
        lambda x: F.conv_transpose1d(x, WEIGHT.transpose(0, 1)), 1),
    "nn.Conv1d": (lambda x: torch.nn.Conv1d(4, 5, 3)(x), 1),
    "hinge_embedding_loss with a target that does not broadcast": (
        lambda x: F.hinge_embedding_loss(x, torch.ones(5)), 4),
    "cosine_embedding_loss with a target that does not broadcast": (
        lambda x: F.cosine_embedding_loss(x[0], x[0], torch.ones(5)), 18),
}
NOT_REACHED = {  # refused in torch's composite, before the convolution's node
    "conv1d, padding same with a stride": lambda x: F.conv1d(x.detach()[:, :1], leaf(5, 1, 3),
                                                             padding="same", stride=2),
    "conv1d, a bias of another dtype": lambda x: F.conv1d(x.detach(), leaf(5, 3, 3),
                                                          torch.ones(5).double()),
    "conv2d of a matrix": lambda x: F.conv2d(x.detach()[0], leaf(5, 3, 3, 3)),
}


@pytest.mark.parametrize("name", USED)
def test_a_refused_call_uses_up_its_nodes_numbers(name):
    call, used = USED[name]
    assert numbers_used(call, leaf(2, 3, 4)) == used


@pytest.mark.parametrize("name", NOT_REACHED)
def test_a_call_refused_before_the_node_uses_none(name):
    assert numbers_used(NOT_REACHED[name], leaf(2, 3, 4)) == 0


def test_a_bool_input_refused_by_the_kernel_uses_a_number():
    weight = leaf(5, 4, 3)
    assert numbers_used(lambda x: F.conv1d(x, weight), torch.ones(2, 4, 10).bool()) == 1


@pytest.mark.parametrize("name", ["Tensor.t of three dimensions", "Tensor.trace of three "
                                  "dimensions", "conv1d with the wrong channels",
                                  "hinge_embedding_loss with a target that does not broadcast"])
def test_nothing_is_used_where_nothing_would_record(name):
    call = USED[name][0]
    assert numbers_used(call, torch.randn(2, 3, 4)) == 0
    with torch.no_grad():
        assert numbers_used(call, leaf(2, 3, 4)) == 0
    with torch.inference_mode():
        assert numbers_used(call, leaf(2, 3, 4)) == 0


def test_a_target_that_requires_grad_records_nothing_in_where():
    target = leaf(5)
    assert numbers_used(lambda x: F.hinge_embedding_loss(x, target), torch.randn(2, 3, 4)) == 0


def test_the_next_node_is_numbered_as_torch_numbers_it():
    x = leaf(2, 3, 4)
    first = (x * 2).grad_fn._sequence_nr()
    for call in (x.t, x.trace, lambda: F.conv1d(x, WEIGHT)):
        with pytest.raises(RuntimeError):
            call()
    assert (x * 2).grad_fn._sequence_nr() == first + 4
