"""The third table of kernel events: the index tensors index's kernel reads, and the
questions it adds."""

import refgrad as torch
from refgrad.autograd import _profiler_kernels as kernels
from refgrad.autograd import _profiler_kernels_index as indexing


def test_pieces_count_the_result_or_else_the_index_tensors():
    f, i = torch.ones(2, 3), torch.zeros(2).long()
    assert indexing.pieces((f, 1), (f, f, f)) == 3
    assert indexing.pieces((f, [None, i, i]), f) == 2


def test_a_mask_is_read_as_its_count_once_for_each_of_its_dimensions():
    f, m = torch.ones(2, 3, 4), torch.tensor([[True, False, True], [False, False, True]])
    result = torch.ones(3, 4)
    assert indexing.indices_read((f, [m]), result) == [[3], [3]]
    assert indexing.pieces((f, [m]), result) == 2
    assert indexing.SLOTS["n"]((f, [m]), result) == [3, 2]
    assert indexing.SLOTS["w"]((f, [m]), result) == [2, 3]


def test_indices_apart_name_the_permuted_sizes():
    f, i = torch.ones(2, 3, 4), torch.zeros(2).long()
    assert indexing.CONDITIONS["apart"]((f, [i, None, i]), {}, None)
    assert not indexing.CONDITIONS["apart"]((f, [None, i, i]), {}, None)
    assert not indexing.CONDITIONS["apart"]((f, [i, None, torch.zeros(1).long()]), {}, None)
    assert indexing.SLOTS["p"]((f, [i, None, i]), None) == [2, 4, 3]


def test_a_mask_beside_other_indices_is_still_left_out():
    f, i, m = torch.ones(2, 3, 4), torch.zeros(2).long(), torch.tensor([True, False, True])
    for ask in ("masked", "apart", "read"):
        assert not indexing.CONDITIONS[ask]((f, [i, m]), {}, None)


def test_the_later_index_line_is_the_entry():
    names = [event[0] for event in kernels.entry("index", "Tensor")]
    assert names[0] == "nonzero" and "permute" in names
