"""refgrad._backend.zero_strided: an empty array's zero strides read as zeros when asked for."""

import gc

import numpy as np

from refgrad._backend import _ZEROS_ASKED, element_strides, torch_laid_out, zero_strided


def _zeros(shape):
    return np.lib.stride_tricks.as_strided(np.empty(0, np.float32), shape, (0,) * len(shape))


def test_numpys_own_zeros_read_as_row_major_and_marked_ones_as_zeros():
    fresh = _zeros((0, 3))
    assert element_strides(fresh) == (3, 1)
    assert zero_strided(fresh) is fresh and element_strides(fresh) == (0, 0)
    assert element_strides(np.empty((0, 3), np.float32)) == (3, 1)


def test_views_hanging_off_a_marked_array_keep_its_zeros():
    marked = zero_strided(_zeros((0, 3)))
    assert element_strides(marked.T) == (0, 0) and element_strides(marked[None]) == (0, 0, 0)
    assert torch_laid_out(marked) is marked  # nothing to give it
    assert element_strides(torch_laid_out(_zeros((0, 3)))) == (3, 1)


def test_only_empty_arrays_with_all_zero_strides_are_marked():
    full = np.lib.stride_tricks.as_strided(np.zeros(1, np.float32), (2, 3), (0, 0))
    some = np.lib.stride_tricks.as_strided(np.empty(0, np.float32), (0, 3), (4, 0))
    before = len(_ZEROS_ASKED)
    zero_strided(full), zero_strided(some)
    assert len(_ZEROS_ASKED) == before


def test_the_mark_goes_with_the_array():
    before = len(_ZEROS_ASKED)
    marked = zero_strided(_zeros((0, 2)))
    assert len(_ZEROS_ASKED) == before + 1
    del marked
    gc.collect()
    assert len(_ZEROS_ASKED) == before
