"""where takes a uint8 condition as torch does: each nonzero element true, with a warning
given once per process (every time under set_warn_always). The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises

BYTE = "where received a uint8 condition tensor. This behavior is deprecated"


def condition():
    return torch.tensor([1, 0, 2], dtype=torch.uint8)


def test_values(warn_always):
    with pytest.warns(UserWarning, match=BYTE):
        out = torch.where(condition(), torch.ones(3), torch.zeros(3))
    assert out.tolist() == [1., 0., 1.]


def test_gradient():
    a = torch.ones(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # given once: maybe already
        out = torch.where(condition(), a, torch.zeros(3))
        assert out.grad_fn.name() == "WhereBackward0"
        out.sum().backward()
    assert a.grad.tolist() == [1., 0., 1.]


def test_numbers_method_and_out(warn_always):
    with pytest.warns(UserWarning, match=BYTE):
        assert torch.where(condition(), 1., 0.).tolist() == [1., 0., 1.]
    with pytest.warns(UserWarning, match=BYTE):
        assert torch.ones(3).where(condition(), -1.).tolist() == [1., -1., 1.]
    out = torch.empty(3)
    with pytest.warns(UserWarning, match=BYTE):
        torch.where(condition(), torch.ones(3), torch.zeros(3), out=out)
    assert out.tolist() == [1., 0., 1.]


def test_other_integer_conditions_refused():
    with raises(RuntimeError, "where expected condition to be a boolean tensor, but got a "
                              "tensor with dtype Char"):
        torch.where(torch.tensor([1, 0], dtype=torch.int8), torch.ones(2), torch.zeros(2))
