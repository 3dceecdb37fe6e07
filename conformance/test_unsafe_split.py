"""Black-box tests: unsafe_split, unsafe_chunk and unsafe_split_with_sizes cut as split does,
into pieces that share the input's memory but are not views to autograd. The same assertions
run on torch.
"""

import pytest
import torch

from conformance._support import raises


def test_pieces_are_not_views_and_may_be_written_in_place():
    y = torch.arange(6.0).requires_grad_() * 1
    pieces = y.unsafe_split(2)
    assert [type(p.grad_fn).__name__ for p in pieces] == ["UnsafeSplitBackward0"] * 3
    assert pieces[0]._base is None and not pieces[0]._is_view()
    pieces[0].mul_(2)  # a piece of split is refused here
    assert y.tolist() == [0.0, 2.0, 2.0, 3.0, 4.0, 5.0]  # the memory is shared
    assert (y._version, pieces[0]._version, pieces[1]._version) == (0, 1, 0)
    assert type(pieces[0].grad_fn).__name__ == "MulBackward0"
    assert type(y.grad_fn).__name__ == "MulBackward0"


def test_split_pieces_are_refused_where_unsafe_ones_are_not():
    y = torch.arange(6.0).requires_grad_() * 1
    with raises(RuntimeError, "Output 0 of Split is a view and is being modified "
                "inplace. This view is the output of a function that returns multiple views. "
                "Such functions do not allow the output views to be modified inplace. You "
                "should replace the inplace operation by an out-of-place one."):
        y.split(2)[0].mul_(2)


@pytest.mark.parametrize("cut, node", [
    (lambda t: torch.unsafe_split(t, 4), "UnsafeSplitBackward0"),
    (lambda t: t.unsafe_chunk(2), "UnsafeSplitBackward0"),
    (lambda t: torch.unsafe_chunk(t, 3, dim=-1), "UnsafeSplitBackward0"),
    (lambda t: torch.unsafe_split_with_sizes(t, [4, 2]), "UnsafeSplitWithSizesBackward0"),
    (lambda t: t.unsafe_split_with_sizes([4, 2], dim=0), "UnsafeSplitWithSizesBackward0"),
])
def test_gradients_flow_back_through_the_pieces(cut, node):
    w = torch.arange(6.0, requires_grad=True)
    pieces = cut(w)
    assert type(pieces[0].grad_fn).__name__ == node
    (pieces[0].sum() * 2 + pieces[1].sum()).backward()
    first, second = len(pieces[0]), len(pieces[1])
    assert w.grad.tolist() == [2.0] * first + [1.0] * second + [0.0] * (6 - first - second)


def test_the_nodes_keep_what_torchs_keep():
    y = torch.arange(6.0, requires_grad=True)
    node = torch.unsafe_split(y, 2)[0].grad_fn
    assert (node._saved_split_size, node._saved_dim, node._saved_self_sym_sizes) == (2, 0, (6,))
    node = torch.unsafe_split_with_sizes(y, [2, 4])[0].grad_fn
    assert (node._saved_split_sizes, node._saved_dim) == ((2, 4), 0)


def test_sizes_as_split_cuts_them():
    z = torch.arange(5.0)
    assert [p.tolist() for p in torch.unsafe_chunk(z, 3)] == [[0.0, 1.0], [2.0, 3.0], [4.0]]
    assert [len(p) for p in torch.unsafe_split(z, 2, -1)] == [2, 2, 1]
    empty = torch.zeros(0, requires_grad=True) * 1
    pieces = torch.unsafe_chunk(empty, 3)
    assert [type(p.grad_fn).__name__ for p in pieces] == ["UnsafeSplitWithSizesBackward0"] * 3


@pytest.mark.parametrize("call, error, message", [
    (lambda z: torch.unsafe_split(z, -1), RuntimeError,
     "split expects split_size be non-negative, but got split_size=-1"),
    (lambda z: torch.unsafe_split(z, 0), RuntimeError,
     "split_size can only be 0 if dimension size is 0, but got dimension size of 6"),
    (lambda z: torch.unsafe_split(z[0], 1), RuntimeError,
     "split expects at least a 1-dimensional tensor"),
    (lambda z: torch.unsafe_chunk(z[0], 1), RuntimeError,
     "chunk expects at least a 1-dimensional tensor"),
    (lambda z: torch.unsafe_chunk(z, 0), RuntimeError,
     "chunk expects `chunks` to be greater than 0, got: 0"),
    (lambda z: torch.unsafe_split_with_sizes(z, [2, 3]), RuntimeError,
     "split_with_sizes expects split_sizes to sum exactly to 6 (input tensor's size at "
     "dimension 0), but got split_sizes=[2, 3]"),
    (lambda z: torch.unsafe_split_with_sizes(z, [-1, 7]), RuntimeError,
     "split_with_sizes expects split_sizes have only non-negative entries, but got "
     "split_sizes=[-1, 7]"),
    (lambda z: torch.unsafe_split(z, [2, 4]), TypeError,
     "unsafe_split(): argument 'split_size' (position 2) must be int, not list"),
    (lambda z: z.unsafe_split([2, 4]), TypeError,
     "unsafe_split(): argument 'split_size' (position 1) must be int, not list"),
    (lambda z: torch.unsafe_split(z, 2.0), TypeError,
     "unsafe_split(): argument 'split_size' (position 2) must be int, not float"),
    (lambda z: z.unsafe_split_with_sizes(2), TypeError,
     "unsafe_split_with_sizes(): argument 'split_sizes' (position 1) must be tuple of ints, "
     "not int"),
    (lambda z: torch.unsafe_split(z), TypeError,
     'unsafe_split() missing 1 required positional arguments: "split_size"'),
    (lambda z: z.unsafe_chunk(), TypeError,
     'unsafe_chunk() missing 1 required positional arguments: "chunks"'),
    (lambda z: z.unsafe_split(2, 1), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
])
def test_bad_sizes_are_refused_in_torchs_words(call, error, message):
    with raises(error, message):
        call(torch.arange(6.0))
