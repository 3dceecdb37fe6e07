"""bfloat16's rows: which are widened to float32, which keep bfloat16, which are refused."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops.bfloat16_math import BRAIN, IN_OWN_DTYPE, NOT_YET, has_bfloat16, narrowed, widened

B = torch.bfloat16


def test_cdist_is_refused_as_torch_refuses_it():
    x = torch.ones(2, 3, dtype=B)
    with pytest.raises(NotImplementedError, match="\"cdist\" not implemented for 'BFloat16'"):
        torch.cdist(x, x)


def test_the_named_rows_exist():
    from refgrad._ops import nll_loss
    from refgrad._ops.table import OPS

    assert nll_loss.NLL_LOSS.name in IN_OWN_DTYPE  # its rows load with their module
    assert NOT_YET <= set(OPS) and IN_OWN_DTYPE <= set(OPS)


def test_widening_and_narrowing():
    half_way = np.array([1.5, 2.25], BRAIN)
    wide = widened([half_way, [half_way], 3.0])
    assert wide[0].dtype == np.float32 and wide[1][0].dtype == np.float32 and wide[2] == 3.0
    assert has_bfloat16([[half_way]]) and not has_bfloat16([wide[0], 1.0])
    (back,) = narrowed((wide[0] * 3,), [half_way], {})
    assert back.dtype is BRAIN
    (kept,) = narrowed((wide[0] * 3,), [half_way, wide[0]], {})  # a float32 operand of its own
    assert kept.dtype == np.float32
    (asked,) = narrowed((wide[0] * 3,), [half_way], {"dtype": torch.float32})
    assert asked.dtype == np.float32


def test_a_view_shares_the_bfloat16_array():
    x = torch.zeros(2, 3, dtype=B)
    x.t()[1, 0] = 2.5
    assert x[0, 1].item() == 2.5 and x.t()._data.dtype is BRAIN


def test_muons_bfloat16_values_cast_a_double_as_torch_does():
    from refgrad.optim._muon import bfloat16_values

    just_above_halfway = torch.tensor(1 + 2**-8 + 2**-40, dtype=torch.float64)
    rounded = bfloat16_values(just_above_halfway)  # by way of float32, as torch's bfloat16()
    assert rounded.dtype is torch.float32 and rounded.item() == 1.0
    values = torch.tensor([0.1, -3.3, float("nan"), float("inf"), 1e-40])
    assert str(bfloat16_values(values).tolist()) == str(values.to(B).float().tolist())
