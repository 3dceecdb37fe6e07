"""In-place element-wise writes whose inputs read elements the write has already changed.

torch does not compare a written tensor and an input that are not both dense; its loop then
runs in its own order, and an input that shares memory with the written tensor may be read
after the write changed it.
"""

import math

import pytest
import torch


def test_a_column_times_its_own_first_element_reads_the_new_one():
    v = torch.arange(2.0, 8.0).reshape(3, 2)[:, :1]
    v.t()[0].mul_(v[0])
    assert v.flatten().tolist() == [4.0, 16.0, 24.0]


def test_rows_shorter_than_a_block_go_one_element_at_a_time():
    b = torch.arange(2.0, 8.0).reshape(2, 3)
    b[:, :2].mul_(b[:, :1])
    assert b.tolist() == [[4.0, 12.0, 4.0], [25.0, 150.0, 7.0]]


@pytest.mark.parametrize("dtype, block", [(torch.float32, 16), (torch.float64, 8)])
def test_a_factor_read_once_per_block_row_then_again_for_the_rest(dtype, block):
    b = torch.arange(2.0, 2.0 + 2 * 21, dtype=dtype).reshape(2, 21)[:, :20]
    b.mul_(b[:, :1])
    row, blocked = b[0].tolist(), 20 - 20 % block
    assert row[:blocked] == [2.0 * (2 + i) for i in range(blocked)]
    assert row[blocked:] == [4.0 * (2 + i) for i in range(blocked, 20)]


# kernels built for AVX-512 too read blocks of two 64-byte vectors there, else of 32 bytes
WIDE_BLOCK = 16 if torch.backends.cpu.get_cpu_capability() == "AVX512" else 8
# name: (the write, the same on plain numbers (element, factor, the element before the write),
# the elements of float64 a block holds, None when the kernel goes one element at a time)
WRITES = {
    "add": (lambda o, s: o.add_(s, alpha=2), lambda a, s, a0: a + 2 * s, 8),
    "sub": (lambda o, s: o.sub_(s), lambda a, s, a0: a - s, 8),
    "div": (lambda o, s: o.div_(s), lambda a, s, a0: a / s, 8),
    "atan2": (lambda o, s: o.atan2_(s), lambda a, s, a0: math.atan2(a, s), WIDE_BLOCK),
    "hypot": (lambda o, s: o.hypot_(s), lambda a, s, a0: math.hypot(a, s), WIDE_BLOCK),
    "addcmul": (lambda o, s: o.addcmul_(s, o.detach().clone()), lambda a, s, a0: a + s * a0, 8),
    "addcmul twice": (lambda o, s: o.addcmul_(s, s), lambda a, s, a0: a + s * s, None),
    "xlogy": (lambda o, s: o.xlogy_(s), lambda a, s, a0: a * math.log(s), None),
}


def _looped(rows, length, scalar, block):
    """Each row written in order, its factor (element 1) read once per whole block."""
    for row in rows:
        first, original = row[1], list(row)
        blocked = length - length % block if block and length >= block else 0
        for i in range(length):
            row[i] = scalar(row[i], first if i < blocked else row[1], original[i])
    return rows


@pytest.mark.parametrize("name", list(WRITES))
@pytest.mark.parametrize("length", [3, 20, 41])
def test_each_element_as_torch_loops(name, length):
    write, scalar, block = WRITES[name]
    b = torch.arange(2 * (length + 3), dtype=torch.float64).reshape(2, length + 3) % 5 + 1.5
    expected = _looped(b[:, :length].tolist(), length, scalar, block)
    read_first = b[:, :length].clone()
    write(read_first, b[:, 1:2].clone())
    write(b[:, :length], b[:, 1:2])
    assert torch.allclose(b[:, :length], torch.tensor(expected, dtype=torch.float64),
                          rtol=1e-12, atol=0)
    assert not torch.equal(b[:, :length], read_first)


def test_a_transposed_write_loops_along_its_memory():
    b = torch.arange(1.0, 13.0).reshape(3, 4)
    b[:, :2].t().add_(b[:1, :1].t())  # rows of b first: the order of the memory
    assert b.tolist() == [[2.0, 4.0, 3.0, 4.0], [7.0, 8.0, 7.0, 8.0], [11.0, 12.0, 11.0, 12.0]]


def test_dense_partial_overlap_is_still_refused():
    x = torch.arange(6.0)
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        x[1:].mul_(x[:-1])
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
