"""Writes under vmap of a batched value into a tensor the batch does not reach, made by
the ways in that do not pass through the plain in-place methods: aliases, methods that
check their arguments first, storage swaps and assignment by index tensors."""

import numpy as np
import pytest
import torch

X = torch.tensor(np.random.default_rng(17).uniform(0.1, 0.9, (2, 3)).astype(np.float32))


def message(kind, where):
    return (f"vmap: {kind}(self, *extra_args) is not possible because there exists a Tensor "
            "`other` in extra_args that has more elements than `self`. This happened due to "
            f"`other` being vmapped over but `self` not being vmapped over {where}. Please try "
            f"to use out-of-place operators instead of {kind}. If said operator is being "
            "called inside the PyTorch framework, please file a bug report instead.")


ARITHMETIC = message("inplace arithmetic", "in a vmap")
BROADCAST = "output with shape [3] doesn't match the broadcast shape [2, 3]"


def fallback(name):
    return message(f"aten::{name}", "at level 1")


def put(index_of):
    def write(o):
        z = torch.zeros(3)
        z[index_of(o)] = 0.5
        return z
    return write


@pytest.mark.parametrize("write, expected", [
    (lambda o: torch.zeros(3).greater_(o), fallback("greater_")),
    (lambda o: torch.zeros(3).less_equal_(o), fallback("less_equal_")),
    (lambda o: torch.zeros(3).not_equal_(o), fallback("not_equal_")),
    (lambda o: torch.zeros(3).subtract_(o), fallback("subtract_")),
    (lambda o: torch.zeros(3).multiply_(o), ARITHMETIC),
    (lambda o: torch.zeros(3).divide_(o), ARITHMETIC),
    (lambda o: torch.zeros(3).arctan2_(o), BROADCAST),
    (lambda o: torch.zeros(3).resize_as_(o), fallback("resize_as_")),
    (lambda o: torch.zeros(3).set_(o), fallback("set_")),
    (lambda o: torch.zeros(3).float_power_(o), fallback("float_power_")),
    (lambda o: torch.zeros(3).double().float_power_(o), fallback("float_power_")),
    (lambda o: torch.zeros(3).addr_(o, o), fallback("addr_")),
    (put(lambda o: (o * 2).long()), message("index_put_", "in a vmap")),
    (put(lambda o: o > 0.5), message("index_put_", "in a vmap")),
    (put(lambda o: o), message("index_put_", "in a vmap")),
], ids=["greater_", "less_equal_", "not_equal_", "subtract_", "multiply_", "divide_",
        "arctan2_", "resize_as_", "set_", "float_power_ float", "float_power_ double",
        "addr_ before its shapes", "a batched long index", "a batched mask",
        "a batched float index"])
def test_a_batched_write_by_another_way_in_is_refused(write, expected):
    with pytest.raises(RuntimeError) as info:
        torch.func.vmap(write)(X)
    assert str(info.value) == expected


@pytest.mark.filterwarnings("ignore:There is a performance drop")  # torch's slow fallback
def test_the_same_ways_in_still_write_a_batched_tensor():
    assert torch.equal(torch.func.vmap(lambda o: o.clone().greater_(0.5))(X), (X > 0.5).float())
    assert torch.equal(torch.func.vmap(lambda o: o.clone().subtract_(o))(X), torch.zeros(2, 3))
    placed = torch.func.vmap(lambda o: o.clone().index_put_((torch.tensor([1]),),
                                                            torch.tensor(0.0)))(X)
    assert torch.equal(placed[:, 1], torch.zeros(2))
    assert torch.equal(torch.func.vmap(lambda o: torch.zeros(3).greater_(0.5))(X),
                       torch.zeros(2, 3))


def test_an_unbatched_index_into_a_batched_tensor_writes_each_slice():
    def write(o):
        o = o.clone()
        o[torch.tensor([0, 2])] = 0.0
        return o

    written = torch.func.vmap(write)(X)
    assert torch.equal(written[:, 1], X[:, 1]) and not written[:, ::2].any()
