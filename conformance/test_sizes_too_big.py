"""Black-box tests: sizes too big for a tensor are refused in torch's words.

A number of elements past int64 is torch's numel overflow, bytes past it the
storage's overflow, and bytes no machine holds the allocator's refusal, each
before any memory is asked for. The same table runs on torch.
"""

import numpy as np
import pytest
import torch

_NUMEL = "numel: integer multiplication overflow"
_ALLOC = ("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
          "memory: you tried to allocate {} bytes. Error code 12 (Cannot allocate memory)")


def _storage(*sizes):
    return f"Storage size calculation overflowed with sizes={list(sizes)}"


REFUSED = [
    ("torch.eye(2**40)", RuntimeError, _NUMEL),
    ("torch.eye(2, 2**62)", RuntimeError, _NUMEL),
    ("torch.eye(2**62, 2, dtype=torch.bool)", RuntimeError, _NUMEL),
    ("torch.eye(3, 2**61)", RuntimeError, _storage(3, 2**61)),
    ("torch.eye(2**31, 2**31)", RuntimeError, _storage(2**31, 2**31)),
    ("torch.eye(2, 2**40)", RuntimeError, _ALLOC.format(2 * 2**40 * 4)),
    ("torch.eye(2**63)", ValueError, "Overflow when unpacking long long"),
    ("torch.empty(1).resize_(2**62)", RuntimeError, _storage(2**62)),
    ("torch.empty(1).resize_(2**31, 2**31)", RuntimeError, _storage(2**31, 2**31)),
    ("torch.empty(1).resize_(2**40)", RuntimeError, _ALLOC.format(2**40 * 4)),
    ("torch.empty(1).resize_(2**40, 2**40)", RuntimeError, _NUMEL),
    ("torch.empty(1).resize_(2**62, 2**62, 0)", RuntimeError, _NUMEL),  # overflowed before 0
    ("torch.empty(0).resize_(-1)", RuntimeError, _NUMEL),
    ("torch.empty(1).resize_(2**63)", TypeError, "resize_(): argument 'size' failed to unpack "
     'the object at pos 1 with error "Overflow when unpacking long long'),
    ("torch.empty(2**62, 2**62, 0)", RuntimeError, _storage(2**62, 2**62, 0)),
    ("torch.ones(1).expand(2**40, 2**40)", RuntimeError, _NUMEL),
    ("torch.ones(1).expand(2**62, 4)", RuntimeError, _NUMEL),
    ("torch.ones(1).expand(2**63)", TypeError, "expand(): argument 'size' failed to unpack the "
     'object at pos 1 with error "Overflow when unpacking long long'),
    ("torch.tril_indices(2**40, 2)", RuntimeError, _ALLOC.format(2 * (2**41 - 1) * 8)),
    ("torch.tril_indices(2**40, 2, dtype=torch.int32)", RuntimeError,
     _ALLOC.format(2 * (2**41 - 1) * 4)),
    ("torch.triu_indices(3, 2**40)", RuntimeError, _ALLOC.format(2 * (3 * 2**40 - 3) * 8)),
    ("torch.tril_indices(2**62, 2**62)", RuntimeError, _storage(2, 2**61)),
    ("torch.randperm(2**62)", RuntimeError, _storage(2**62)),
]


@pytest.mark.parametrize(("call", "kind", "message"), REFUSED)
def test_a_size_too_big_is_refused_in_torchs_words(call, kind, message):
    with pytest.raises(kind) as caught:
        eval(call)
    # torch follows an unpacking error with a C++ backtrace; refgrad closes the quote
    assert str(caught.value).split("\n")[0].removesuffix('"') == message


@pytest.mark.parametrize(("call", "shape"), [
    ("torch.triu_indices(2**40, 3)", (2, 6)),
    ("torch.triu_indices(2**40, 3, -2)", (2, 12)),
    ("torch.tril_indices(3, 2**40)", (2, 6)),
    ("torch.tril_indices(2**40, 0)", (2, 0)),
    ("torch.tril_indices(2**40, 3, -2**40 + 2)", (2, 3)),
])
def test_a_small_triangle_of_a_huge_matrix_is_made(call, shape):
    assert tuple(eval(call).shape) == shape


@pytest.mark.parametrize("offset", range(-6, 7))
@pytest.mark.parametrize(("row", "col"), [(0, 3), (3, 0), (4, 4), (5, 3), (3, 6), (1, 1)])
def test_triangle_positions_are_numpys(row, col, offset):
    for ours, numpys in ((torch.tril_indices, np.tril_indices),
                         (torch.triu_indices, np.triu_indices)):
        made = ours(row, col, offset)
        assert made.dtype == torch.int64
        assert made.tolist() == np.stack(numpys(row, offset, col)).tolist()
