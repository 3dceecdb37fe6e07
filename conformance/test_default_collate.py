"""torch.utils.data's default_collate and default_convert: what a batch of samples becomes,
the dtypes numbers get, and the refusals."""

import collections

import numpy as np
import pytest
import torch
from torch.utils.data import default_collate, default_convert
from torch.utils.data._utils import collate as collate_module

from conformance._support import raises

Point = collections.namedtuple("Point", "x y")
UNKNOWN = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
           "found {}")


def test_the_names_live_where_torch_keeps_them():
    assert torch.utils.data.default_collate is collate_module.default_collate
    assert torch.utils.data.dataloader.default_convert is collate_module.default_convert


@pytest.mark.parametrize("batch, dtype", [
    ([1, 2, 3], torch.int64), ([1.5, 2.0], torch.float64), ([True, False], torch.bool),
    ([np.float32(1.5), np.float32(2)], torch.float32), ([np.int16(3), np.int16(4)], torch.int16),
    ([np.bool_(True), np.bool_(False)], torch.bool),
    ([np.array(1.5), np.array(2.5)], torch.float64),
])
def test_numbers_become_tensors_of_their_own_dtype(batch, dtype):
    out = default_collate(batch)
    assert out.dtype == dtype and out.tolist() == [np.asarray(b).item() for b in batch]


def test_tensors_and_arrays_are_stacked():
    out = default_collate([torch.ones(2, dtype=torch.int8), torch.zeros(2, dtype=torch.int8)])
    assert out.dtype == torch.int8 and out.tolist() == [[1, 1], [0, 0]]
    out = default_collate([np.array([1, 2], dtype=np.int16), np.array([3, 4], dtype=np.int16)])
    assert out.dtype == torch.int16 and out.shape == (2, 2)
    with raises(RuntimeError, "stack expects each tensor to be equal size, but got [2] at entry 0 "
                "and [3] at entry 1"):
        default_collate([torch.ones(2), torch.ones(3)])


def test_containers_are_transposed():
    out = default_collate([(1, 2.0, "a"), (3, 4.0, "b")])
    assert type(out) is list and out[0].tolist() == [1, 3] and out[1].dtype == torch.float64
    assert out[2] == ("a", "b")  # strings stay, as the tuple the transposition gave
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert default_collate([b"x", b"y"]) == [b"x", b"y"]
    out = default_collate([[1, 2], [3, 4]])
    assert type(out) is list and [t.tolist() for t in out] == [[1, 3], [2, 4]]
    out = default_collate([{"x": 1, "y": torch.ones(1)}, {"x": 2, "y": torch.zeros(1)}])
    assert list(out) == ["x", "y"] and out["x"].tolist() == [1, 2] and out["y"].shape == (2, 1)
    out = default_collate([collections.OrderedDict(a=1), collections.OrderedDict(a=2)])
    assert type(out) is collections.OrderedDict
    out = default_collate([Point(1, "s"), Point(2, "t")])
    assert type(out) is Point and out.x.tolist() == [1, 2] and out.y == ("s", "t")


@pytest.mark.parametrize("batch, kind, message", [
    ([None, None], TypeError, UNKNOWN.format(type(None))),
    ([complex(1, 2)], TypeError, UNKNOWN.format(complex)),
    ([np.array(["a"]), np.array(["b"])], TypeError, UNKNOWN.format("<U1")),
    ([[1, 2], [3]], RuntimeError, "each element in list of batch should be of equal size"),
])
def test_refusals(batch, kind, message):
    with raises(kind, message):
        default_collate(batch)


def test_an_extended_table_is_consulted_first():
    def as_text(batch, *, collate_fn_map=None):
        return "|".join(map(str, batch))

    table = {**collate_module.default_collate_fn_map, int: as_text}
    assert collate_module.collate([(1, 2.0), (3, 4.0)], collate_fn_map=table)[0] == "1|3"


def test_default_convert_turns_numpy_into_tensors_and_leaves_the_rest():
    out = default_convert(np.array([1.0]))
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float64
    assert default_convert(np.float32(2)).dtype == torch.float32
    out = default_convert((np.int32(1), 2))
    assert type(out) is list and out[0].dtype == torch.int32 and out[1] == 2
    out = default_convert({"a": np.float64(3)})
    assert out["a"].dtype == torch.float64
    out = default_convert(Point(np.array([1]), 2))
    assert type(out) is Point and isinstance(out.x, torch.Tensor) and out.y == 2
    strings = np.array(["a"])
    assert default_convert(strings) is strings
    assert default_convert("s") == "s" and default_convert(1.5) == 1.5
    assert type(default_convert(np.str_("x"))) is np.str_
    t = torch.ones(1)
    assert default_convert(t) is t
