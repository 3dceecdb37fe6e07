"""broadcast_shapes and broadcast_tensors, and a few shape functions' words for bad dims."""

import pytest
import torch

from conformance._support import raises


def test_broadcast_shapes():
    assert torch.broadcast_shapes() == torch.Size([])
    assert torch.broadcast_shapes(3, (2, 1)) == (2, 3)
    assert torch.broadcast_shapes([2, 1], (3,)) == (2, 3)
    assert torch.broadcast_shapes((2, 0), (1,)) == (2, 0)
    assert type(torch.broadcast_shapes((2,), 2)) is torch.Size


@pytest.mark.parametrize("shapes, message", [
    (((2,), (3,)), "Attempting to broadcast a dimension of length 3 at -1! Mismatching argument "
                   "at index 1 had (3,); but expected shape should be broadcastable to [2]"),
    (((2, 3), [4, 1, 2]), "Attempting to broadcast a dimension of length 2 at -1! Mismatching "
                          "argument at index 1 had [4, 1, 2]; but expected shape should be "
                          "broadcastable to [1, 2, 3]"),
])
def test_broadcast_shapes_that_do_not_fit(shapes, message):
    with raises(RuntimeError, message):
        torch.broadcast_shapes(*shapes)
    with raises(ValueError, "Attempting to broadcast a dimension with negative length!"):
        torch.broadcast_shapes((-1,))


def test_broadcast_tensors_expands_only_what_it_must():
    x, y = torch.ones(2, 3, requires_grad=True), torch.ones(3, requires_grad=True)
    a, b = torch.broadcast_tensors(x, y)
    assert a is x and b.shape == (2, 3) and b.stride() == (0, 1)
    assert type(b.grad_fn).__name__ == "ExpandBackward0"
    assert torch.broadcast_tensors() == ()
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (4) at "
                              "non-singleton dimension 1"):
        torch.broadcast_tensors(torch.ones(2, 3), torch.ones(4))
    with raises(TypeError, "expected Tensor as element 1 in argument 0, but got int"):
        torch.broadcast_tensors(torch.ones(2), 3)


def test_movedim_with_lists_of_two_lengths():
    with raises(RuntimeError, "movedim: Invalid source or destination dims: source ([-1, 0] dims) "
                              "should contain the same number of dims as destination ([0] dims)"):
        torch.ones(2, 3).movedim((-1, 0), (0,))


@pytest.mark.parametrize("cuts, message", [
    (torch.tensor([[1]]), "be a zero-dimensional or one-dimensional tensor, but got a tensor with "
                          "2 dims"),
    (torch.tensor([1.0]), "have dtype of long, but got Float"),
    (torch.tensor([1], dtype=torch.int32), "have dtype of long, but got Int"),
])
def test_tensor_split_by_a_tensor_of_the_wrong_kind(cuts, message):
    with raises(RuntimeError, f"tensor_split expected tensor_indices_or_sections to {message}"):
        torch.ones(2, 3).tensor_split(cuts, 1)


def test_gather_with_an_expanded_index_is_row_major():
    x = torch.arange(6.0).reshape(2, 3)
    picked = torch.gather(x, 1, torch.tensor([[0, 1]]).expand(2, 2))
    assert picked.tolist() == [[0.0, 1.0], [3.0, 4.0]] and picked.stride() == (2, 1)
    assert torch.take_along_dim(x, torch.tensor([[0, 1]]), 1).stride() == (2, 1)
