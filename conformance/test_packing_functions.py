"""Black-box tests: torch._pack_padded_sequence and torch._pad_packed_sequence, the kernels
nn.utils.rnn's pack_padded_sequence and pad_packed_sequence call: values, lengths, graphs,
gradients and refusals.
"""

import torch
from torch.nn.utils import rnn

from conformance._support import raises

D = torch.float64


def _packed():
    torch.manual_seed(0)
    return torch.randn(7, 2, dtype=D, requires_grad=True), torch.tensor([3, 2, 2])


def test_padding_puts_each_step_s_rows_in_place():
    data, sizes = _packed()
    padded, lengths = torch._pad_packed_sequence(data, sizes, False, -1.0, 4)
    assert padded.shape == (4, 3, 2) and lengths.tolist() == [3, 3, 1]
    assert lengths.dtype == torch.int64
    assert torch.equal(padded[0], data[:3]) and torch.equal(padded[1, :2], data[3:5])
    assert torch.equal(padded[2, :2], data[5:7])
    assert (padded[1:, 2] == -1).all() and (padded[3] == -1).all()
    assert type(padded.grad_fn).__name__ == "CopySlices"
    first, _ = torch._pad_packed_sequence(data, sizes, True, 0.0, 0)  # as long as the longest
    assert first.shape == (3, 3, 2) and type(first.grad_fn).__name__ == "TransposeBackward0"
    assert torch.equal(first.transpose(0, 1), torch._pad_packed_sequence(data, sizes, False,
                                                                         0, -1)[0])


def test_gradient_reaches_the_packed_rows_only():
    data, sizes = _packed()
    padded, _ = torch._pad_packed_sequence(data, sizes, True, 5.0, 4)
    (padded * torch.arange(1.0, 5.0, dtype=D).reshape(1, 4, 1)).sum().backward()
    assert data.grad[:, 0].tolist() == [1, 1, 1, 2, 2, 3, 3]


def test_the_utilities_go_through_the_kernels():
    torch.manual_seed(0)
    x = torch.randn(3, 2, 4, dtype=D, requires_grad=True)
    data, sizes = torch._pack_padded_sequence(x, torch.tensor([3, 1]), False)
    packed = rnn.pack_padded_sequence(x, [3, 1])
    assert torch.equal(data, packed.data) and torch.equal(sizes, packed.batch_sizes)
    assert type(data.grad_fn).__name__ == "PackPaddedSequenceBackward0"
    saved = sorted(a for a in dir(data.grad_fn) if a.startswith("_saved_"))
    assert saved == ["_saved_batch_first", "_saved_input_sym_sizes", "_saved_result1"]
    padded, lengths = rnn.pad_packed_sequence(packed, batch_first=True, total_length=4)
    mine, their_lengths = torch._pad_packed_sequence(data, sizes, True, 0.0, 4)
    assert torch.equal(padded, mine) and torch.equal(lengths, their_lengths)
    assert type(padded.grad_fn).__name__ == "TransposeBackward0"
    unsorted = rnn.pack_padded_sequence(x, [1, 3], enforce_sorted=False)
    assert type(rnn.pad_packed_sequence(unsorted)[0].grad_fn).__name__ == (
        "IndexSelectBackward0")


def test_refusals():
    data, sizes = _packed()
    with raises(RuntimeError, "Expected total_length to be at least the length of the longest "
                              "sequence in input, but got total_length=2 and max sequence "
                              "length being 3"):
        torch._pad_packed_sequence(data, sizes, False, 0.0, 2)
    with raises(RuntimeError, "'lengths' argument should be a 1D CPU int64 tensor, but got "
                              "1D cpu Float tensor"):
        torch._pad_packed_sequence(data, sizes.float(), False, 0.0, 3)
    with raises(RuntimeError, "'lengths' argument should be a 1D CPU int64 tensor, but got "
                              "2D cpu Long tensor"):
        torch._pad_packed_sequence(data, sizes[None], False, 0.0, 3)
    with raises(TypeError, "_pad_packed_sequence(): argument 'padding_value' (position 4) must "
                           "be Number, not str"):
        torch._pad_packed_sequence(data, sizes, False, "a", 3)
    with raises(TypeError, '_pad_packed_sequence() missing 5 required positional argument: '
                           '"data", "batch_sizes", "batch_first", "padding_value", '
                           '"total_length"'):
        torch._pad_packed_sequence()
    with raises(TypeError, "_pack_padded_sequence(): argument 'lengths' (position 2) must be "
                           "Tensor, not list"):
        torch._pack_padded_sequence(data, [3, 2, 2], False)
