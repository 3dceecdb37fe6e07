"""Event ids, as torch 2.13 gives them: a recording thread takes ids in blocks of 512 from
one count for the whole program, and its events number themselves along the block.

The count is shared by every profile the program has run, so these tests look at the
differences between ids, and at where a block starts, never at the ids themselves.
"""

import torch
from torch.autograd.profiler import profile, record_function


def _ids(program) -> list:
    with profile() as prof:
        program()
    return [e.id for e in prof.function_events]


def _negs(count: int):
    x = torch.ones(3)
    return lambda: [x.neg() for _ in range(count)]


def test_a_profile_starts_a_block_and_counts_along_it():
    ids = _ids(_negs(3))
    assert ids[0] % 512 == 1
    assert ids == [ids[0], ids[0] + 1, ids[0] + 2]


def test_the_next_profile_starts_the_next_block():
    first = _ids(_negs(2))
    second = _ids(_negs(1))
    assert second[0] - first[0] == 512


def test_an_empty_profile_takes_no_block():
    first = _ids(_negs(1))
    assert _ids(lambda: None) == []
    assert _ids(_negs(1))[0] - first[0] == 512


def test_blocks_follow_each_other_in_a_long_profile():
    ids = _ids(_negs(600))
    assert ids == list(range(ids[0], ids[0] + 600))


def test_labelled_blocks_take_ids_too():
    def labelled():
        with record_function("outer"):
            torch.ones(3).neg()

    ids = _ids(labelled)
    assert ids[0] % 512 == 1 and len(ids) >= 2


def test_the_newer_profiler_counts_on():
    first = _ids(_negs(1))
    with torch.profiler.profile() as prof:
        torch.ones(3).neg()
    assert prof.events()[0].id - first[0] == 512
