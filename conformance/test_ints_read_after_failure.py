"""Black-box tests: a one-element integer tensor given where a function takes an int is read as
that int, also by the functions that read their arguments only after a failure. The same
assertions run on torch.
"""

import pytest
import torch

x = torch.arange(6.0).reshape(2, 3)
T = torch.tensor
CALLS = [
    (lambda: torch.tensor_split(x, 2, T(1)), lambda: torch.tensor_split(x, 2, 1)),
    (lambda: torch.index_add(x, T(0), T([0]), torch.ones(1, 3)),
     lambda: torch.index_add(x, 0, T([0]), torch.ones(1, 3))),
    (lambda: torch.narrow_copy(x, T(1), T(0), T(2)), lambda: torch.narrow_copy(x, 1, 0, 2)),
    (lambda: torch.histc(x, T(3)), lambda: torch.histc(x, 3)),
    (lambda: x.histc(T(3)), lambda: x.histc(3)),
    (lambda: torch.diag_embed(x, T(1)), lambda: torch.diag_embed(x, 1)),
    (lambda: torch.moveaxis(x, T(0), T(1)), lambda: torch.moveaxis(x, 0, 1)),
    (lambda: torch.std_mean(x, T(1)), lambda: torch.std_mean(x, 1)),
]


@pytest.mark.parametrize("index", range(len(CALLS)))
def test_a_tensor_for_an_int_is_read_as_the_int(index):
    with_tensor, with_int = CALLS[index]
    got, expected = with_tensor(), with_int()
    if isinstance(expected, torch.Tensor):
        got, expected = (got,), (expected,)
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert a.shape == b.shape and torch.equal(a, b)
