"""Strides of dimensions of size 1, where the memory allows any stride and torch picks one.

A view gives a new dimension of size 1 the stride its place in a contiguous
chunk would have; a copy laid out like its input keeps a lone element's stride
(torch counts a vector of one element as dense); reshape's copy is row-major;
and a leaf copies a gradient whose dimension of size 1 has a zero stride.
"""

import pytest
import torch
import torch.nn.functional as F


def _inputs():
    a = torch.arange(20.0)
    return [a[::5][:1], torch.zeros(()).expand(1), a.view(4, 5)[:, :1], a.view(4, 5)[:1, ::2],
            a.view(2, 2, 5)[:, :1, ::5], torch.zeros(()).expand(3, 1), a.view(4, 5).t()[:1]]


SHAPES = [(1, 1), (-1,), (1, -1), (-1, 1), (1, 1, -1), (-1, 1, 1)]


@pytest.mark.parametrize("index", range(7))
def test_views_give_torchs_strides_to_dimensions_of_size_one(index):
    t = _inputs()[index]
    strides = []
    for shape in SHAPES:
        try:
            strides.append(t.view(*shape).stride())
        except RuntimeError:
            strides.append(None)
    expected = {
        0: [(5, 5), (5,), (5, 5), (5, 5), (5, 5, 5), (5, 5, 5)],
        1: [(0, 0), (0,), (0, 0), (0, 0), (0, 0, 0), (0, 0, 0)],
        2: [None, (5,), (20, 5), (5, 1), (20, 20, 5), (5, 1, 1)],
        3: [None, (2,), (6, 2), (2, 2), (6, 6, 2), (2, 2, 2)],
        4: [None, (10,), (20, 10), (10, 5), (20, 20, 10), (10, 5, 5)],
        6: [None, (5,), (20, 5), (5, 5), (20, 20, 5), (5, 5, 5)],
    }
    if index in expected:
        assert strides == expected[index]
    if strides[3] is not None:  # a reshape that can view, views
        assert t.reshape(-1, 1).stride() == strides[3]


def test_a_reshape_that_must_copy_copies_row_major():
    t = torch.arange(48.0).view(2, 3, 4, 2)[..., 0].permute(2, 0, 1)[:, :, ::2]
    assert t.reshape(4, 4, 1).stride() == (4, 1, 1)
    assert t.reshape(4, 4, 1).grad_fn is None


OPS = {
    "prelu": lambda a: F.prelu(a, torch.tensor([0.1])), "flip": lambda a: a.flip(0),
    "rad2deg": torch.rad2deg, "hardtanh": F.hardtanh, "nan_to_num": torch.nan_to_num,
    "sort": lambda a: a.sort(0)[0], "put": lambda a: a.put(torch.tensor([0]),
                                                             torch.tensor([2.0])),
    "index_put": lambda a: a.index_put((torch.tensor([0]),), torch.tensor(1.0)),
    "neg": torch.neg, "round": torch.round,
}
KEEPS = {"prelu", "flip", "rad2deg", "hardtanh", "nan_to_num", "sort", "put", "index_put"}


@pytest.mark.parametrize("name", OPS)
def test_a_lone_element_keeps_its_stride_in_a_copy_like_it(name):
    for t, stride in ((torch.arange(10.0)[::5][:1], 5), (torch.zeros(()).expand(1), 0)):
        assert OPS[name](t).stride() == ((stride,) if name in KEEPS else (1,))


@pytest.mark.parametrize("shape", [(1,), (1, 1)])
def test_logsigmoid_of_one_element_copies_its_expanded_gradient(shape):
    x = torch.ones(*shape, dtype=torch.float64, requires_grad=True)
    F.logsigmoid(x).sum().backward()
    assert (x.grad.stride(), x.grad._version) == ((1,) * len(shape), 1)


def test_a_leaf_used_three_times_has_its_gradients_added_in_place_twice():
    # the first gradient is a transpose of a fresh result: memory nobody else holds
    x = torch.zeros(2, 3, dtype=torch.float64).mT.requires_grad_()
    a = x @ x.mT + torch.eye(3, dtype=torch.float64)
    torch.linalg.solve_triangular(a, x, upper=True).sum().backward()
    assert (x.grad.stride(), x.grad._version) == ((1, 3), 2)


def test_contiguous_lays_out_dimensions_of_size_one_row_major_too():
    e = torch.empty_strided((1, 2, 2), (1, 2, 1)).expand(2, 1, 2, 2)
    assert e.clone().stride() == (4, 1, 2, 1)  # preserve_format: the input's order
    assert e.contiguous().stride() == (4, 4, 2, 1)
    assert e.clone(memory_format=torch.contiguous_format).stride() == (4, 4, 2, 1)


@pytest.mark.parametrize("dim, keepdim, strides", [(1, False, (1, 1)), (1, True, (1, 1)),
                                                   (0, False, (3, 1))])
def test_amaxs_gradient_follows_its_mask_laid_out_as_the_input(dim, keepdim, strides):
    x = torch.arange(3.0, dtype=torch.float64).reshape(3, 1).t().requires_grad_()
    (g,) = torch.autograd.grad(x.amax(dim, keepdim=keepdim).sum(), x)
    assert g.stride() == strides


@pytest.mark.parametrize("make, key, strides", [
    (lambda a: a.permute(2, 0, 1), (slice(None), torch.tensor([0, 1])), (1, 4, 8)),
    (lambda a: a.transpose(0, 2), (Ellipsis, torch.tensor([0])), (1, 4, 1)),
    (lambda a: a[:, :, :1].expand(2, 3, 5), (slice(None), torch.tensor([0, 1])), (10, 5, 1)),
    (lambda a: a.permute(1, 2, 0), (torch.tensor([0, 1]), slice(None), torch.tensor([1, 0])),
     (4, 1)),
])
def test_index_lays_its_result_out_as_torchs_iterator_does(make, key, strides):
    t = make(torch.arange(24.0).reshape(2, 3, 4))
    assert t[key].stride() == strides
