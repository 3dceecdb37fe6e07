"""Black-box tests: NumPy integers read as ints, and tensors given for ints taken or
refused as torch's parser takes or refuses them. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises

ONE, TWO = np.int64(1), np.int64(2)


def _x():
    return torch.arange(12.0).reshape(3, 4)


def test_numpy_integers_read_as_ints():
    x = _x()
    assert torch.equal(torch.count_nonzero(x, ONE), torch.count_nonzero(x, 1))
    assert torch.equal(x.count_nonzero(ONE), x.count_nonzero(1))
    assert torch.equal(torch.roll(x, ONE, ONE), torch.roll(x, 1, 1))
    assert torch.equal(x.roll(np.int32(1), np.int32(1)), x.roll(1, 1))
    parts = torch.tensor_split(x, TWO, 1)
    assert [p.tolist() for p in parts] == [p.tolist() for p in torch.tensor_split(x, 2, 1)]
    assert torch.equal(torch.movedim(x, np.int64(0), ONE), torch.movedim(x, 0, 1))
    assert torch.equal(x.movedim(np.uint8(0), np.uint8(1)), x.t())
    assert torch.equal(torch.moveaxis(x, np.int64(0), ONE), x.t())
    assert [p.shape for p in torch.hsplit(x, TWO)] == [p.shape for p in torch.hsplit(x, 2)]


@pytest.mark.parametrize("call", [
    lambda x: torch.count_nonzero(x, np.int64(4)),
    lambda x: torch.roll(x, 1, np.int64(4)),
    lambda x: torch.movedim(x, np.int64(4), 0),
    lambda x: x.sum(np.int64(4)),
    lambda x: x.transpose(np.int64(4), 0),
])
def test_numpy_dims_out_of_range_named_as_ints(call):
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], "
                            "but got 4)"):
        call(_x())


def test_numpy_size_shown_as_an_int():
    with raises(RuntimeError, "invalid shape dimension -5 at index 0 of shape [-5]"):
        _x().view(np.int64(-5))


@pytest.mark.parametrize("name", ["tril", "triu", "rot90", "diff", "cummax", "cummin",
                                  "cumprod", "logcumsumexp"])
def test_a_0d_integer_tensor_is_an_int(name):
    x = _x()
    got = getattr(torch, name)(x, torch.tensor(1))
    expected = getattr(torch, name)(x, 1)
    for a, b in zip(got, expected) if isinstance(got, tuple) else ((got, expected),):
        assert torch.equal(a, b)


@pytest.mark.parametrize("name, parameter, position", [
    ("tril", "diagonal", 2), ("triu", "diagonal", 2), ("diag", "diagonal", 2),
    ("rot90", "k", 2), ("cummax", "dim", 2), ("logcumsumexp", "dim", 2), ("diff", "n", 2)])
def test_a_float_or_grad_tensor_is_refused_for_an_int(name, parameter, position):
    x = _x()
    for value in (torch.tensor(1.0), torch.tensor(1.0, requires_grad=True)):
        with raises(TypeError, f"{name}(): argument '{parameter}' (position {position}) "
                               "must be int, not Tensor"):
            getattr(torch, name)(x, value)


def test_one_element_tensors_of_more_dims():
    x = _x()
    for value in (torch.tensor([1]), torch.tensor([[1]])):
        # a SymInt takes an integer tensor of one element, whatever its shape
        assert torch.equal(torch.tril(x, value), torch.tril(x, 1))
        assert torch.equal(x.triu(value), x.triu(1))
        assert torch.equal(x.select(0, value), x[1])
        assert torch.equal(x.topk(value)[0], x.topk(1)[0])
        assert torch.equal(x.kthvalue(value)[0], x.kthvalue(1)[0])
        # an int takes only a 0-d one
        for call, name, parameter, position in (
                (lambda v: torch.diag(x, v), "diag", "diagonal", 2),
                (lambda v: torch.rot90(x, v), "rot90", "k", 2),
                (lambda v: torch.cummax(x, v), "cummax", "dim", 2),
                (lambda v: x.cummin(v), "cummin", "dim", 1),
                (lambda v: x.cumprod(v), "cumprod", "dim", 1),
                (lambda v: torch.renorm(x, 2, v, 1.0), "renorm", "dim", 3)):
            with raises(TypeError, f"{name}(): argument '{parameter}' (position {position}) "
                                   "must be int, not Tensor"):
                call(value)


def test_a_0d_tensor_is_an_int_for_the_tensor_methods_too():
    x = _x()
    assert torch.equal(x.rot90(torch.tensor(1)), x.rot90(1))
    assert torch.equal(x.diff(torch.tensor(1)), x.diff(1))
    with raises(TypeError, "rot90(): argument 'k' (position 1) must be int, not Tensor"):
        x.rot90(torch.tensor(1.0))
    with raises(TypeError, "triu(): argument 'diagonal' (position 1) must be int, not Tensor"):
        x.triu(torch.tensor(1.0, requires_grad=True))
