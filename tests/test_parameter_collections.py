"""refgrad's ParameterList and ParameterDict leave nothing behind when they refuse a value.

torch counts a list entry, or records a dictionary key, before it converts the value, so that
an integer tensor leaves a hole; refgrad converts first (the book names the difference).
"""

import pytest

import refgrad as torch
from refgrad import nn

NOT_FLOATING = "Only Tensors of floating point and complex dtype can require gradients"


def test_a_refused_append_or_extend_leaves_the_list_as_it_was():
    pl = nn.ParameterList([torch.ones(2)])
    with pytest.raises(RuntimeError, match=NOT_FLOATING):
        pl.append(torch.arange(2))
    with pytest.raises(RuntimeError, match=NOT_FLOATING):
        pl.extend([torch.zeros(1), torch.arange(2)])
    with pytest.raises(RuntimeError, match=NOT_FLOATING):
        pl += [3, torch.arange(2)]
    assert len(pl) == 1 and [n for n, _ in pl.named_parameters()] == ["0"]
    assert "1" not in pl.__dict__
    with pytest.raises(IndexError, match="index 1 is out of range"):
        pl[1]
    assert len(pl.append(torch.zeros(1))) == 2 and pl[1].shape == (1,)


def test_a_refused_value_adds_no_key_to_the_dict():
    pd = nn.ParameterDict({"b": torch.ones(1)})
    with pytest.raises(RuntimeError, match=NOT_FLOATING):
        pd["q"] = torch.arange(2)
    with pytest.raises(RuntimeError, match=NOT_FLOATING):
        pd.update({"a": torch.ones(1), "z": torch.arange(2)})
    with pytest.raises(KeyError, match="parameter name can"):
        pd["x.y"] = torch.ones(1)
    assert list(pd) == ["b"] and len(pd) == 1 and "q" not in pd
    assert [n for n, _ in pd.named_parameters()] == ["b"]
