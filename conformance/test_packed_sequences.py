"""Black-box tests: torch.nn.utils.rnn: PackedSequence, packing and padding sequences of
different lengths, and the recurrent layers run on packed sequences.
"""

import pytest
import torch
import torch.nn.utils.rnn
from torch.nn.utils.rnn import (
    PackedSequence,
    invert_permutation,
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)

from conformance._support import raises

_SORTED = ("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
           "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
           "sidestep this requirement if you do not need ONNX exportability.")


def _steps(n, start):
    return torch.arange(start, start + n, dtype=torch.float32).unsqueeze(1).repeat(1, 2)


def test_the_package_and_its_names():
    assert torch.nn.utils.rnn.PackedSequence is PackedSequence
    assert "pack_padded_sequence" in torch.nn.utils.rnn.__all__
    assert PackedSequence._fields == ("data", "batch_sizes", "sorted_indices",
                                      "unsorted_indices")


def test_pack_padded_sequence_sorted():
    padded = pad_sequence([_steps(3, 0), _steps(2, 10), _steps(1, 20)])
    packed = pack_padded_sequence(padded, [3, 2, 1])
    assert isinstance(packed, PackedSequence) and isinstance(packed, tuple)
    assert packed.data[:, 0].tolist() == [0.0, 10.0, 20.0, 1.0, 11.0, 2.0]
    assert packed.batch_sizes.tolist() == [3, 2, 1] and packed.batch_sizes.dtype == torch.int64
    assert packed.sorted_indices is None and packed.unsorted_indices is None
    data, batch_sizes, sorted_indices, unsorted_indices = packed
    assert data is packed.data and sorted_indices is None
    again = pack_padded_sequence(padded, torch.tensor([3.0, 2.0, 1.0]))
    assert torch.equal(again.data, packed.data)
    first = pack_padded_sequence(padded.transpose(0, 1), [3, 2, 1], batch_first=True)
    assert torch.equal(first.data, packed.data)


def test_pack_padded_sequence_unsorted():
    padded = pad_sequence([_steps(2, 0), _steps(3, 10), _steps(1, 20)], batch_first=True)
    with raises(RuntimeError, _SORTED):
        pack_padded_sequence(padded, [2, 3, 1], batch_first=True)
    packed = pack_padded_sequence(padded, [2, 3, 1], batch_first=True, enforce_sorted=False)
    assert packed.sorted_indices.tolist() == [1, 0, 2]
    assert packed.unsorted_indices.tolist() == [1, 0, 2]
    assert packed.data[:, 0].tolist() == [10.0, 0.0, 20.0, 11.0, 1.0, 12.0]
    out, lengths = pad_packed_sequence(packed, batch_first=True)
    assert torch.equal(out, padded) and lengths.tolist() == [2, 3, 1]


@pytest.mark.parametrize(("lengths", "message"), [
    ([3, 2, 0], "Length of all samples has to be greater than 0, but found an element in "
     "'lengths' that is <= 0"),
    ([3, 2], "Expected `len(lengths)` to be equal to batch_size, but got 2 (batch_size=3)"),
    (torch.tensor([[3, 2, 1]]), "'lengths' argument should be a 1D CPU int64 tensor, but got "
     "2D cpu Long tensor"),
])
def test_pack_padded_sequence_refusals(lengths, message):
    with raises(RuntimeError, message):
        pack_padded_sequence(torch.zeros(3, 3, 2), lengths)


def test_pad_packed_sequence_padding_and_total_length():
    packed = pack_sequence([_steps(3, 0), _steps(1, 10)])
    out, lengths = pad_packed_sequence(packed, padding_value=-1.0, total_length=5)
    assert out.shape == (5, 2, 2) and lengths.tolist() == [3, 1]
    assert lengths.dtype == torch.int64
    assert out[:, 1, 0].tolist() == [10.0, -1.0, -1.0, -1.0, -1.0]
    first, _ = pad_packed_sequence(packed, batch_first=True)
    assert first.shape == (2, 3, 2) and first[1, :, 0].tolist() == [10.0, 0.0, 0.0]
    with raises(ValueError, "Expected total_length to be at least the length of the longest "
                "sequence in input, but got total_length=2 and max sequence length being 3"):
        pad_packed_sequence(packed, total_length=2)


def test_pad_sequence_sides_values_and_gradients():
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.full((3, 3), 2.0, requires_grad=True)
    out = pad_sequence([a, b], batch_first=True, padding_value=-1.0, padding_side="left")
    assert out.shape == (2, 3, 3) and out[0, :, 0].tolist() == [-1.0, 1.0, 1.0]
    assert type(out.grad_fn).__name__ == "CopySlices"
    out.sum().backward()
    assert a.grad.tolist() == [[1.0] * 3] * 2 and b.grad.shape == (3, 3)
    right = pad_sequence([a, b])
    assert right.shape == (3, 2, 3) and right[:, 0, 0].tolist() == [1.0, 1.0, 0.0]
    ints = pad_sequence([torch.ones(2, dtype=torch.int64), torch.ones(1, dtype=torch.int32)])
    assert ints.dtype == torch.int64 and ints.tolist() == [[1, 1], [1, 0]]
    rows = pad_sequence(torch.ones(2, 3))  # a tensor is a sequence of its rows
    assert rows.shape == (3, 2)


@pytest.mark.parametrize(("sequences", "side", "message"), [
    ([], "right", "received an empty list of sequences"),
    ([torch.ones(2)], "middle", "Expected padding_side to be one of left or right, but got "
     "middle."),
    (5, "right", "pad_sequence: Expected iterable for input sequences, but got arg of type: "
     "<class 'int'>"),
    ([torch.ones(2, 3), torch.ones(3, 2)], "right", "The size of tensor a (3) must match the "
     "size of tensor b (2) at non-singleton dimension 1"),
])
def test_pad_sequence_refusals(sequences, side, message):
    with raises(RuntimeError, message):
        pad_sequence(sequences, padding_side=side)


def test_pack_sequence_and_back():
    seqs = [_steps(2, 0), _steps(3, 10), _steps(1, 20)]
    with raises(RuntimeError, _SORTED):
        pack_sequence(seqs)
    packed = pack_sequence(seqs, enforce_sorted=False)
    assert packed.batch_sizes.tolist() == [3, 2, 1]
    assert all(torch.equal(a, b) for a, b in zip(unpack_sequence(packed), seqs, strict=True))
    padded = pad_sequence(seqs)
    lengths = torch.tensor([2, 3, 1])
    pieces = unpad_sequence(padded, lengths)
    assert all(torch.equal(a, b) for a, b in zip(pieces, seqs, strict=True))
    assert padded.shape == (3, 3, 2)  # transposed in place to batch-first, as torch does


def test_packed_sequence_construction_and_conversions():
    data, sizes = torch.ones(3), torch.tensor([2, 1])
    assert PackedSequence((data, sizes)) == PackedSequence(data, sizes)
    with raises(AssertionError, "Expected data to be a list or tuple of length 2"):
        PackedSequence(data)
    packed = PackedSequence(data, sizes, torch.tensor([1, 0]))
    assert packed.unsorted_indices.tolist() == [1, 0]
    assert packed.double().data.dtype == torch.float64
    assert packed.to(torch.float64).sorted_indices is packed.sorted_indices
    assert packed.to(torch.float32) is packed and packed.is_cuda is False
    assert type(packed.long()) is PackedSequence
    assert packed.cpu() is packed and packed.to("cpu") is packed
    with raises(RuntimeError, ".to() does not accept copy argument"):
        packed.to(torch.float64, copy=True)
    assert invert_permutation(torch.tensor([2, 0, 1])).tolist() == [1, 2, 0]
    assert invert_permutation(None) is None


@pytest.mark.parametrize("batch_first", [False, True])
def test_packing_is_one_node_that_puts_gradients_back(batch_first):
    x = torch.arange(12.0).reshape(3, 2, 2).requires_grad_()
    lengths = [2, 2, 1] if batch_first else [3, 1]
    packed = pack_padded_sequence(x, lengths, batch_first=batch_first)
    node = packed.data.grad_fn
    assert type(node).__name__ == "PackPaddedSequenceBackward0"
    assert node._saved_batch_first is batch_first and node._saved_input_sym_sizes == (3, 2, 2)
    assert torch.equal(node._saved_result1, packed.batch_sizes)
    assert packed.batch_sizes.grad_fn is None and not packed.batch_sizes.requires_grad
    weights = torch.arange(1.0, 1.0 + packed.data.numel()).reshape(packed.data.shape)
    (grad,) = torch.autograd.grad((packed.data * weights).sum(), x)
    padded, _ = pad_packed_sequence(PackedSequence(weights, packed.batch_sizes),
                                    batch_first=batch_first, total_length=x.shape[int(batch_first)])
    assert torch.equal(grad, padded)


def test_packing_has_no_forward_mode_formula():
    import torch.autograd.forward_ad as fwAD

    x = torch.ones(3, 2, 2, dtype=torch.float64)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, torch.ones_like(x))
        with pytest.raises(NotImplementedError, match=r"\ATrying to use forward AD with "
                           "_pack_padded_sequence that does not support it because it has not "
                           "been implemented yet"):
            pack_padded_sequence(dual, [3, 1])
