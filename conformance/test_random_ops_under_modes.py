"""Black-box tests: what a dispatch mode is handed for the random fills (their bounds by
position, as floats, and the generator), for torch.normal in each of its forms, out= or
not (one aten.normal op), for rrelu_ (its noise's empty_like, then rrelu_with_noise_) and
for prod given a dtype. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode, tensors_as_t

F = torch.nn.functional
CPU = torch.device("cpu")
G = torch.Generator()


def _shown(value):
    return "G" if isinstance(value, torch.Generator) else tensors_as_t(value)


Calls = calling_mode(lambda value: type(value)(_shown(v) for v in value)
                     if isinstance(value, list | tuple) else _shown(value))


FILLS = [
    (lambda x: x.normal_(), "aten.normal_.default", ("T",), {}),
    (lambda x: x.normal_(1.0), "aten.normal_.default", ("T", 1.0), {}),
    (lambda x: x.normal_(0, 2), "aten.normal_.default", ("T", 0.0, 2.0), {}),
    (lambda x: x.normal_(std=2.0, generator=G), "aten.normal_.default", ("T", 0.0, 2.0),
     {"generator": "G"}),
    (lambda x: x.normal_(generator=G), "aten.normal_.default", ("T",), {"generator": "G"}),
    (lambda x: x.uniform_(-1, 1, generator=G), "aten.uniform_.default", ("T", -1.0),
     {"generator": "G"}),
    (lambda x: x.uniform_(0.0, 2.0), "aten.uniform_.default", ("T", 0.0, 2.0), {}),
    (lambda x: x.exponential_(2.0, generator=G), "aten.exponential_.default", ("T", 2.0),
     {"generator": "G"}),
    (lambda x: x.cauchy_(1.0), "aten.cauchy_.default", ("T", 1.0), {}),
    (lambda x: x.log_normal_(0.5), "aten.log_normal_.default", ("T", 0.5), {}),
    (lambda x: x.geometric_(0.5), "aten.geometric_.default", ("T", 0.5), {}),
    (lambda x: x.bernoulli_(), "aten.bernoulli_.float", ("T",), {}),
    (lambda x: x.bernoulli_(0.3, generator=G), "aten.bernoulli_.float", ("T", 0.3),
     {"generator": "G"}),
    (lambda x: x.bernoulli_(torch.full((3,), 0.5)), "aten.bernoulli_.Tensor", ("T", "T"), {}),
    (lambda x: x.random_(), "aten.random_.default", ("T",), {}),
    (lambda x: x.random_(5), "aten.random_.to", ("T", 5), {}),
    (lambda x: x.random_(1, 5, generator=G), "aten.random_.from", ("T", 1, 5),
     {"generator": "G"}),
    (lambda x: x.random_(1, None), "aten.random_.from", ("T", 1, None), {}),
]


@pytest.mark.parametrize("fill, name, args, kwargs", FILLS)
def test_a_random_fill_shows_its_bounds_and_generator(fill, name, args, kwargs):
    x = torch.ones(3)
    with Calls() as mode:
        out = fill(x)
    assert mode.seen[-1] == (name, args, kwargs)
    assert out is x


def test_a_fill_given_a_generator_draws_from_it():
    x, y = torch.ones(4), torch.ones(4)
    with Calls():
        x.normal_(generator=torch.Generator().manual_seed(3))
    y.normal_(generator=torch.Generator().manual_seed(3))
    assert torch.equal(x, y)


def test_the_checks_of_bernoulli_are_made_below_the_mode():
    x = torch.ones(3)
    p = torch.full((3,), 2.0)
    with Calls() as mode, pytest.raises(RuntimeError):
        x.bernoulli_(p)
    assert [s[0] for s in mode.seen] == ["aten.bernoulli_.Tensor"]


def _normals():
    mu = torch.zeros(2, 3, dtype=torch.float64)
    return mu, torch.ones(2, 3, dtype=torch.float64)


NORMALS = [
    (lambda m, s, o: torch.normal(0, 1, (2, 3)), "aten.normal.float_float",
     (0.0, 1.0, [2, 3]), {"device": CPU, "pin_memory": False}),
    (lambda m, s, o: torch.normal(0.0, 1.0, (2,), dtype=torch.float64, generator=G),
     "aten.normal.float_float", (0.0, 1.0, [2]),
     {"generator": "G", "dtype": torch.float64, "device": CPU, "pin_memory": False}),
    (lambda m, s, o: torch.normal(m, 1.0), "aten.normal.Tensor_float", ("T",), {}),
    (lambda m, s, o: torch.normal(m, 2), "aten.normal.Tensor_float", ("T", 2.0), {}),
    (lambda m, s, o: torch.normal(1.0, s), "aten.normal.float_Tensor", (1.0, "T"), {}),
    (lambda m, s, o: torch.normal(m, s, generator=G), "aten.normal.Tensor_Tensor",
     ("T", "T"), {"generator": "G"}),
    (lambda m, s, o: torch.normal(0.0, 1.0, (2, 3), out=o), "aten.normal.float_float_out",
     (0.0, 1.0, [2, 3]), {"out": "T"}),
    (lambda m, s, o: torch.normal(m, 1.0, out=o), "aten.normal.Tensor_float_out", ("T",),
     {"out": "T"}),
    (lambda m, s, o: torch.normal(0.0, s, out=o), "aten.normal.float_Tensor_out", (0.0, "T"),
     {"out": "T"}),
    (lambda m, s, o: torch.normal(m, s, out=o, generator=G), "aten.normal.Tensor_Tensor_out",
     ("T", "T"), {"generator": "G", "out": "T"}),
]


@pytest.mark.parametrize("call, name, args, kwargs", NORMALS)
def test_normal_is_one_op(call, name, args, kwargs):
    m, s = _normals()
    o = torch.empty(2, 3, dtype=torch.float64)
    with Calls() as mode:
        out = call(m, s, o)
    assert mode.seen == [(name, args, kwargs)]
    assert tuple(out.shape) == ((2,) if args[-1] == [2] else (2, 3))
    if "out" in kwargs:
        assert out is o


def test_normal_of_a_tensor_mean_records_its_node():
    m = torch.zeros(3, requires_grad=True)
    with Calls():
        out = torch.normal(m, 1.0)
    assert out.grad_fn.name() == "NormalBackward1"
    torch.normal(m, 1.0).sum().backward()
    assert m.grad.tolist() == [0.0, 0.0, 0.0]


def test_normal_refuses_a_negative_std_below_the_mode():
    mean = torch.zeros(2)
    with Calls() as mode, pytest.raises(RuntimeError, match="std >= 0.0"):
        torch.normal(mean, -1.0)
    assert [s[0] for s in mode.seen] == ["aten.normal.Tensor_float"]


def test_normal_of_numbers_requires_grad_as_asked():
    with Calls():
        out = torch.normal(0.0, 1.0, (2,), requires_grad=True)
    assert out.requires_grad and out.is_leaf


@pytest.mark.parametrize("call, tail", [
    (lambda x: F.rrelu(x, training=True, inplace=True), (0.125, 0.3333333333333333, True)),
    (lambda x: F.rrelu_(x, 0.1, 0.3), (0.1, 0.3)),
    (lambda x: torch.rrelu_(x), ()),
])
def test_rrelu_in_place_makes_its_noise_then_writes(call, tail):
    x = torch.arange(6.0).reshape(2, 3) - 3
    with Calls() as mode:
        out = call(x)
    assert mode.seen == [
        ("aten.empty_like.default", ("T",), {"memory_format": torch.contiguous_format}),
        ("aten.rrelu_with_noise_.default", ("T", "T", *tail), {})]
    assert out is x
    assert (x[1] >= 0).all()


def test_rrelu_in_place_gives_the_values_it_gives_without_a_mode():
    x = torch.arange(6.0) - 3
    y = x.clone()
    torch.manual_seed(5)
    with Calls():
        F.rrelu(x, training=True, inplace=True)
    torch.manual_seed(5)
    F.rrelu(y, training=True, inplace=True)
    assert torch.equal(x, y)


@pytest.mark.parametrize("call, seen", [
    (lambda x: x.prod(dtype=torch.float32),
     ("aten.prod.default", ("T",), {"dtype": torch.float32})),
    (lambda x: x.prod(0, dtype=torch.float32),
     ("aten.prod.dim_int", ("T", 0), {"dtype": torch.float32})),
    (lambda x: x.prod(1, True), ("aten.prod.dim_int", ("T", 1, True), {})),
])
def test_prod_given_a_dtype_shows_it(call, seen):
    x = torch.arange(1.0, 7.0, dtype=torch.float64).reshape(2, 3)
    with Calls() as mode:
        out = call(x)
    assert mode.seen == [seen]
    assert out.dtype == seen[2].get("dtype", torch.float64)
