"""all and any over dimensions: a dispatch mode is handed all.dim for one dimension given
alone and all.dims for a list or tuple of them, even of one; the values are the same
either way, on 0-d tensors too.
"""

import numpy as np
import pytest
import torch

from conformance._support import recording_mode

Seen = recording_mode()


def _mask():
    return torch.tensor([[[True, False], [True, True]], [[False, False], [True, False]],
                         [[True, True], [True, True]]])


CALLS = [  # (the call on a (3, 2, 2) mask m and a 0-d one s, the overload's last name)
    (lambda m, s, f: f(m, 0), "dim"), (lambda m, s, f: f(m, -1), "dim"),
    (lambda m, s, f: f(m, (0,)), "dims"), (lambda m, s, f: f(m, [1]), "dims"),
    (lambda m, s, f: f(m, (0, -1)), "dims"), (lambda m, s, f: f(m, ()), "dims"),
    (lambda m, s, f: f(m, dim=(2,), keepdim=True), "dims"),
    (lambda m, s, f: f(m, dim=2, keepdim=True), "dim"),
    (lambda m, s, f: f(m), "default"), (lambda m, s, f: f(s, 0), "dim"),
    (lambda m, s, f: f(s, (-1,)), "dims"), (lambda m, s, f: f(s, (0,), keepdim=True), "dims"),
]


@pytest.mark.parametrize("name", ["all", "any"])
@pytest.mark.parametrize(("call", "overload"), CALLS)
def test_a_mode_sees_the_form_the_dimensions_were_given_in(name, call, overload):
    m, s = _mask(), torch.tensor(False)
    with Seen() as mode:
        call(m, s, getattr(torch, name))
        call(m, s, lambda t, *a, **k: getattr(t, name)(*a, **k))
    assert mode.seen == [f"aten.{name}.{overload}"] * 2


VALUES = [  # (dim, keepdim, NumPy's axis)
    (0, False, 0), (-1, False, -1), ((0,), False, 0), ([1], False, 1), ((0, -1), False, (0, 2)),
    ((), False, ()), ((2,), True, 2), (2, True, 2)]


@pytest.mark.parametrize("name", ["all", "any"])
@pytest.mark.parametrize(("dim", "keepdim", "axis"), VALUES)
def test_one_dimension_alone_or_listed_gives_numpy_s_values(name, dim, keepdim, axis):
    m = _mask()
    out = getattr(m, name)(dim, keepdim=keepdim)
    expected = getattr(np, name)(np.array(m.tolist()), axis=axis, keepdims=keepdim)
    assert out.dtype == torch.bool and out.tolist() == expected.tolist()


@pytest.mark.parametrize("name", ["all", "any"])
@pytest.mark.parametrize("dim", [0, -1, (0,), (-1,), ()])
def test_a_zero_dimensional_mask_is_its_own_reduction(name, dim):
    for value in (True, False):
        out = getattr(torch.tensor(value), name)(dim, keepdim=True)
        assert out.shape == () and out.item() is value


def test_a_uint8_mask_reduced_over_one_listed_dimension_stays_uint8():
    m = _mask().to(torch.uint8)
    assert m.any((1,)).dtype == m.all(1).dtype == torch.uint8
    assert m.any((1,)).tolist() == m.any(1).tolist()
