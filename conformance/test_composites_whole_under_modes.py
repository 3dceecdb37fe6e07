"""Black-box tests: composites handed to a dispatch mode whole (inside inference_mode) show
their arguments as torch's schema binds them: sizes as a list, positional arguments up to
the last not at its default, keywords for positional parameters by position, keyword-only
ones only when not at their default, tensors given one by one as one list. The same
assertions run on torch."""

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()

CASES = {
    "reshape_sizes": (lambda x: x.reshape(1, 2, 3), [("aten.reshape.default", ("T", [1, 2, 3]))]),
    "reshape_tuple": (lambda x: x.reshape((2, 3)), [("aten.reshape.default", ("T", [2, 3]))]),
    "reshape_size": (lambda x: x.reshape(torch.Size([3, 2])),
                     [("aten.reshape.default", ("T", [3, 2]))]),
    "reshape_one": (lambda x: x.reshape(6), [("aten.reshape.default", ("T", [6]))]),
    "flatten": (lambda x: x.view(1, 2, 3).flatten(),
                [("aten.view.default", ("T", [1, 2, 3])), ("aten.flatten.using_ints", ("T",))]),
    "flatten_start": (lambda x: x.view(1, 2, 3).flatten(1),
                      [("aten.view.default", ("T", [1, 2, 3])),
                       ("aten.flatten.using_ints", ("T", 1))]),
    "flatten_both": (lambda x: x.view(1, 2, 3).flatten(0, 1),
                     [("aten.view.default", ("T", [1, 2, 3])),
                      ("aten.flatten.using_ints", ("T", 0, 1))]),
    "tile": (lambda x: x.tile(2), [("aten.tile.default", ("T", [2]))]),
    "tile_sizes": (lambda x: x.tile(2, 1), [("aten.tile.default", ("T", [2, 1]))]),
    "unflatten": (lambda x: x.unflatten(0, (2, 3)), [("aten.unflatten.int", ("T", 0, [2, 3]))]),
    "chunk": (lambda x: x.chunk(2), [("aten.chunk.default", ("T", 2))]),
    "chunk_dim": (lambda x: x.chunk(2, 0), [("aten.chunk.default", ("T", 2))]),
    "unsafe_chunk": (lambda x: x.unsafe_chunk(3), [("aten.unsafe_chunk.default", ("T", 3))]),
    "unsafe_split": (lambda x: x.unsafe_split(2), [("aten.unsafe_split.Tensor", ("T", 2))]),
    "split_sizes": (lambda x: x.split([2, 4]), [("aten.split_with_sizes.default", ("T", [2, 4]))]),
    "tensor_split": (lambda x: x.tensor_split(3), [("aten.tensor_split.sections", ("T", 3))]),
    "broadcast_to": (lambda x: x.broadcast_to((2, 6)),
                     [("aten.broadcast_to.default", ("T", [2, 6]))]),
    "movedim": (lambda x: x.view(1, 2, 3).movedim((0, 1), (1, 2)),
                [("aten.view.default", ("T", [1, 2, 3])),
                 ("aten.movedim.intlist", ("T", [0, 1], [1, 2]))]),
    "diff": (lambda x: x.diff(), [("aten.diff.default", ("T",))]),
    "diff_n": (lambda x: x.diff(2, 0), [("aten.diff.default", ("T", 2, 0))]),
    "to": (lambda x: x.to(torch.float64), [("aten.to.dtype", ("T", torch.float64))]),
    "broadcast_tensors": (lambda x: torch.broadcast_tensors(x, x),
                          [("aten.broadcast_tensors.default", (["T", "T"],))]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_composite_handed_over_whole_shows_torchs_binding(name):
    call, expected = CASES[name]
    x = torch.arange(6.0)
    with torch.inference_mode(), Calls() as mode:
        out = call(x)
    assert [(f, a) for f, a, _ in mode.seen] == expected
    with torch.inference_mode():
        plain = call(x)
    if isinstance(out, torch.Tensor):
        assert out.tolist() == plain.tolist() and out.shape == plain.shape
    else:
        assert [t.tolist() for t in out] == [t.tolist() for t in plain]


def test_the_keywords_a_composite_was_given_are_bound_too():
    x = torch.arange(6.0)
    with torch.inference_mode(), Calls() as mode:
        x.split(split_size=[2, 4], dim=0)
        x.unflatten(dim=0, sizes=[3, 2])
    assert [(f, a, k) for f, a, k in mode.seen] == [
        ("aten.split_with_sizes.default", ("T", [2, 4]), {}),
        ("aten.unflatten.int", ("T", 0, [3, 2]), {})]
