"""The events torch 2.13 records inside indexing by masks and by indices apart, inside
isnan and masked fills, and inside narrow given its start as a tensor."""

import torch
from torch.autograd.profiler import profile
from torch.utils._python_dispatch import TorchDispatchMode

from conformance.test_profiler_kernel_events import tree

E6, E4, E3 = [[]] * 6, [[]] * 4, [[]] * 3


def profiled(program) -> list:
    with profile(record_shapes=True) as prof:
        program()
    return tree(prof.function_events)


def test_isnan_compares_the_tensor_with_itself():
    f, i = torch.tensor([1.0, float("nan"), 2.0]), torch.tensor([1, 2])
    assert profiled(lambda: (f.isnan(), i.isnan())) == [
        (0, "aten::isnan", [[3]]), (1, "aten::ne", [[3], [3]]),
        (0, "aten::isnan", [[2]]), (1, "aten::ne", [[2], [2]])]


def test_masked_fill_reads_a_tensor_value_as_a_number():
    z, value = torch.zeros(2, 3), torch.tensor(3.0)
    m = torch.tensor([[True, False, True], [False, False, True]])
    item = [(2, "aten::item", [[]]), (3, "aten::_local_scalar_dense", [[]])]
    assert profiled(lambda: z.masked_fill_(m, value)) == [
        (0, "aten::masked_fill_", [[2, 3], [2, 3], []])] + [(d - 1, n, s) for d, n, s in item]
    assert profiled(lambda: z.masked_fill(m, value)) == [
        (0, "aten::masked_fill", [[2, 3], [2, 3], []]), (1, "aten::clone", [[2, 3], []]),
        (2, "aten::empty_like", [[2, 3]] + [[]] * 5), (3, "aten::empty", E6),
        (2, "aten::copy_", [[2, 3], [2, 3], []]),
        (1, "aten::masked_fill_", [[2, 3], [2, 3], []])] + item
    assert profiled(lambda: z.masked_fill_(m, 2.0)) == [
        (0, "aten::masked_fill_", [[2, 3], [2, 3], []])]


def _masked(sizes, count, dims) -> list:
    found = [count, dims]
    rows = [(0, "aten::index", [sizes, []]), (1, "aten::nonzero", [None]),
            (2, "aten::empty", E6), (2, "aten::as_strided_", [found] + E3)]
    rows += [(1, "aten::select", [found, [], []]), (2, "aten::as_strided", [found] + E3)] * dims
    rows += [(1, "aten::as_strided", [sizes] + E3)]
    return rows + [(1, "aten::reshape", [[count], []]), (2, "aten::view", [[count], []])] * dims


def test_a_mask_is_read_as_an_index_tensor_for_each_of_its_dimensions():
    x = torch.arange(24.0).reshape(2, 3, 4)
    m = torch.tensor([[True, False, True], [False, False, True]])
    m1, none = torch.tensor([True, False, True]), torch.zeros(2, 3, dtype=torch.bool)
    for index, mask, count in (((m,), m, 3), ((slice(None), m1), m1, 2), ((none,), none, 0)):
        rows = profiled(lambda index=index: x[index])
        expected = _masked([2, 3, 4], count, mask.dim())
        expected[1] = (1, "aten::nonzero", [list(mask.shape)])
        assert rows == expected


def test_indices_apart_permute_the_input_first():
    g, i = torch.arange(24.0).reshape(2, 3, 4), torch.tensor([0, 1])
    assert profiled(lambda: g[i, :, i]) == [
        (0, "aten::index", [[2, 3, 4], []]), (1, "aten::permute", [[2, 3, 4], []]),
        (2, "aten::as_strided", [[2, 3, 4]] + E3), (1, "aten::as_strided", [[2, 4, 3]] + E3),
        (1, "aten::reshape", [[2], []]), (2, "aten::view", [[2], []]),
        (1, "aten::reshape", [[2], []]), (2, "aten::view", [[2], []])]


def test_narrow_reads_a_tensor_start_inside_its_event():
    x, start = torch.ones(2, 3), torch.tensor(1)
    assert profiled(lambda: x.narrow(1, start, 2)) == [
        (0, "aten::narrow", [[2, 3], [], [], []]), (1, "aten::item", [[]]),
        (2, "aten::_local_scalar_dense", [[]]), (1, "aten::narrow", [[2, 3], [], [], []]),
        (2, "aten::slice", [[2, 3], [], [], [], []]), (3, "aten::as_strided", [[2, 3]] + E3)]


class Seen(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func))
        return func(*args, **(kwargs or {}))


def test_a_mode_sees_a_tensor_start_read_before_the_slice():
    x, start = torch.ones(2, 3), torch.tensor(1)
    with Seen() as mode:
        y = x.narrow(1, start, 2)
    assert mode.seen == ["aten._local_scalar_dense.default", "aten.slice.Tensor"]
    assert y.shape == (2, 2)
