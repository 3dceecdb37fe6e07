"""Black-box tests: random numbers written into an out= tensor of the right shape are drawn
in that tensor's memory order, as the in-place fills draw them, so a transposed out is
filled column by column. The same assertions run on torch.
"""

import pytest
import torch

# name: a call that fills out, of shape (5, 4), with fresh draws
FILL = {
    "rand": lambda out: torch.rand(5, 4, out=out),
    "randn": lambda out: torch.randn(5, 4, out=out),
    "randint": lambda out: torch.randint(3, 1000, (5, 4), out=out),
    "normal": lambda out: torch.normal(2.0, 3.0, (5, 4), out=out),
    "bernoulli": lambda out: torch.bernoulli(torch.full((5, 4), 0.5), out=out),
}
# the in-place fill of the same numbers: what torch's out= forms are made of
IN_PLACE = {
    "rand": lambda t: t.uniform_(),
    "randn": lambda t: t.normal_(),
    "randint": lambda t: t.random_(3, 1000),
    "normal": lambda t: t.normal_(2.0, 3.0),
    "bernoulli": lambda t: t.bernoulli_(torch.full(t.shape, 0.5)),
}


def _transposed(dtype=torch.float32):
    return torch.empty(4, 5, dtype=dtype).t()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", sorted(FILL))
def test_a_transposed_out_gets_the_in_place_fills_numbers(name, dtype):
    torch.manual_seed(7)
    out = _transposed(dtype)
    FILL[name](out)
    torch.manual_seed(7)
    expected = IN_PLACE[name](_transposed(dtype))
    assert out.stride() == (1, 5)
    assert torch.equal(out, expected)


@pytest.mark.parametrize("name", ["rand", "randint", "bernoulli"])
def test_a_transposed_out_is_filled_column_by_column(name):
    torch.manual_seed(8)
    out = _transposed()
    FILL[name](out)
    torch.manual_seed(8)
    rows = _transposed().t().contiguous()  # a row-major (4, 5) tensor holds them in order
    IN_PLACE[name](rows)
    assert torch.equal(out, rows.t())


def test_randn_into_a_strided_out_takes_the_one_at_a_time_numbers():
    torch.manual_seed(9)
    out = torch.empty(4, 10)[:, ::2]  # 20 elements, not contiguous
    torch.randn(4, 5, out=out)
    torch.manual_seed(9)
    contiguous = torch.randn(4, 5)
    assert not torch.equal(out, contiguous)
    torch.manual_seed(9)
    assert torch.equal(out, torch.empty(4, 10)[:, ::2].normal_())


def test_an_out_of_another_shape_is_resized_row_major_then_filled():
    torch.manual_seed(10)
    out = _transposed()[:, :3]
    torch.rand(5, 4, out=out)
    torch.manual_seed(10)
    assert out.is_contiguous() and torch.equal(out, torch.rand(5, 4))


def test_bernoulli_reads_each_places_probability():
    p = torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    out = torch.empty(2, 3).t()
    torch.bernoulli(p, out=out)
    assert torch.equal(out, p)


def test_one_write_is_counted():
    out = _transposed()
    torch.rand(5, 4, out=out)
    assert out._version == 1
