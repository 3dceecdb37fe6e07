"""The factories: dtype inference, sizes, ranges and random streams."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import refgrad as torch
from refgrad._creation import parse_size
from refgrad._generator import Generator


@given(st.recursive(
    st.one_of(st.booleans(), st.integers(-10, 10), st.floats(-1e6, 1e6)),
    lambda inner: st.lists(inner, min_size=1, max_size=3), max_leaves=12,
))
def test_tensor_agrees_with_numpy_on_rectangular_data(data):
    try:
        expected = np.array(data)
    except ValueError:
        return  # ragged: covered by the next test
    if expected.dtype == object:
        return
    t = torch.tensor(data)
    assert t.shape == expected.shape
    kind = expected.dtype.kind
    assert t.dtype is {"b": torch.bool, "i": torch.int64, "f": torch.float32}[kind]
    np.testing.assert_array_equal(t.numpy(), expected.astype(t.dtype.numpy))


@pytest.mark.parametrize(
    ("data", "message"),
    [([[1, 2], [3]], "expected sequence of length 2 at dim 1 (got 1)"),
     ([[[1], [2]], [[1], [2, 3]]], "expected sequence of length 1 at dim 2 (got 2)")],
)
def test_ragged_data_names_the_dimension(data, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        torch.tensor(data)


def test_nan_cannot_become_an_integer():
    with pytest.raises(RuntimeError, match="cannot be converted to type int64 without overflow"):
        torch.tensor(float("nan"), dtype=torch.int64)


def test_parse_size_forms():
    assert parse_size((2, 3), "ones") == parse_size(((2, 3),), "ones") == (2, 3)
    assert parse_size(([4],), "ones") == (4,) and parse_size((), "ones") == ()
    with pytest.raises(TypeError, match="not bool"):
        parse_size((True,), "ones")


def test_generators_are_independent_and_repeatable():
    a, b = Generator().manual_seed(3), Generator().manual_seed(3)
    assert torch.rand(4, generator=a).tolist() == torch.rand(4, generator=b).tolist()
    assert a.initial_seed() == 3 and torch.manual_seed(5).initial_seed() == 5
    draws = torch.randn(20000, generator=Generator().manual_seed(1)).numpy()
    assert abs(draws.mean()) < 0.05 and abs(draws.std() - 1) < 0.05


def test_randint_range_and_dtype():
    values = torch.randint(3, 6, (1000,))
    assert values.dtype is torch.int64 and set(values.tolist()) == {3, 4, 5}
    assert torch.randint(2, (3,)).shape == (3,)


def test_arange_matches_numpy_in_float32():
    for start, end, step in [(0, 1, 0.1), (-2.5, 2.5, 0.5), (1, 10, 3)]:
        expected = np.arange(start, end, step, dtype=np.float64).astype(np.float32)
        np.testing.assert_array_equal(torch.arange(start, end, step, dtype=torch.float32).numpy(),
                                      expected)


def test_pin_memory_needs_an_accelerator(monkeypatch):
    from refgrad import _backend

    monkeypatch.setattr(_backend, "_cupy", lambda: None)  # as on a machine without CuPy
    with pytest.raises(RuntimeError, match="^pin_memory=True requires a CUDA"):
        torch.empty(2, pin_memory=True)
