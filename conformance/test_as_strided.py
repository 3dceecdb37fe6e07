"""as_strided and as_strided_: views of the storage, their checks and their gradients."""

import pytest
import torch

from conformance._support import graph_nodes, raises


def test_a_view_of_the_storage_by_sizes_strides_and_offset():
    x = torch.arange(12.0, requires_grad=True)
    y = (x * 1)[2:].view(2, 5)
    z = y.as_strided((2, 2), (1, 3), 4)
    assert z.tolist() == [[4.0, 7.0], [5.0, 8.0]]
    assert (z.storage_offset(), z.stride(), z._base is y._base) == (4, (1, 3), True)
    node = z.grad_fn
    assert type(node).__name__ == "AsStridedBackward0"
    assert (node._saved_size, node._saved_stride, node._saved_storage_offset) == (
        (2, 2), (1, 3), 4)
    assert not hasattr(node, "_saved_self_sym_sizes")
    z.sum().backward()
    assert x.grad.tolist() == [0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0]


def test_without_an_offset_the_view_starts_where_the_input_does():
    y = torch.arange(12.0)[2:]
    view = y.as_strided((2,), (1,))
    assert view.storage_offset() == 2 and view.tolist() == [2.0, 3.0]
    assert torch.as_strided(torch.arange(6.0).view(2, 3).t(), (2, 2), (1, 1)).tolist() == [
        [0.0, 1.0], [1.0, 2.0]]


def test_the_input_gets_the_gradient_of_the_places_it_holds():
    b = torch.arange(4.0, requires_grad=True)
    y = (b * 1)[1:3]
    z = y.as_strided((3,), (1,), 0)  # reads place 0, which y does not hold
    assert z.tolist() == [0.0, 1.0, 2.0]
    z.backward(torch.tensor([1.0, 10.0, 100.0]))
    assert b.grad.tolist() == [0.0, 10.0, 100.0, 0.0]


def test_a_place_read_twice_gets_both_gradients():
    x = torch.arange(6.0, requires_grad=True)
    windows = (x * 1).as_strided((2, 3), (2, 1), 0)
    assert windows.tolist() == [[0.0, 1.0, 2.0], [2.0, 3.0, 4.0]]
    windows.backward(torch.ones(2, 3))
    assert x.grad.tolist() == [1.0, 1.0, 2.0, 1.0, 1.0, 0.0]


def test_a_place_the_input_holds_several_times_shares_its_gradient():
    a = torch.ones(2, 1, requires_grad=True)
    expanded = (a * 1).expand(2, 3)
    expanded.as_strided((2,), (1,), 0).backward(torch.tensor([1.0, 10.0]))
    assert a.grad.tolist() == [[1.0], [10.0]]


def test_second_derivatives_through_as_strided():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).as_strided((2,), (2,), 0)  # x0 ** 2 and x2 ** 2
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [2.0, 0.0, 6.0]
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [2.0, 0.0, 2.0]


@pytest.mark.parametrize(("args", "kind", "message"), [
    (((2, 2), (1,)), RuntimeError, "mismatch in length of strides and shape"),
    (((2,), (-1,)), RuntimeError,
     "as_strided: Negative strides are not supported at the moment, got strides: [-1]"),
    (((-1,), (1,)), RuntimeError,
     "Storage size calculation overflowed with sizes=[-1] and strides=[1]"),
    (((2,), (1,), -1), RuntimeError, "Tensor: invalid storage offset -1"),
    (((3, 3), (3, 1), 10), RuntimeError,
     "setStorage: sizes [3, 3], strides [3, 1], storage offset 10, and itemsize 4 requiring a "
     "storage size of 76 are out of bounds for storage of size 48"),
])
def test_the_checks(args, kind, message):
    with raises(kind, message):
        torch.arange(12.0).as_strided(*args)


def test_an_empty_view_may_start_anywhere():
    x = torch.arange(12.0)
    assert x.as_strided((0,), (1,), 5).storage_offset() == 5
    assert x.as_strided((0,), (1,), 13).numel() == 0  # past the end: allowed when empty
    with raises(RuntimeError, "setStorage: sizes [3], strides [2], storage offset 0, and itemsize "
                              "8 requiring a storage size of 40 are out of bounds for storage "
                              "of size 32"):
        torch.arange(4, dtype=torch.float64).as_strided((3,), (2,))


def test_as_strided_in_place():
    w = torch.ones(3, 3)
    assert w.as_strided_((2, 2), (1, 2)) is w
    assert (tuple(w.shape), w.stride(), w._version) == ((2, 2), (1, 2), 1)
    x = torch.arange(4.0, requires_grad=True)
    a = x * 1
    a.as_strided_((2,), (2,), 1)
    assert type(a.grad_fn).__name__ == "AsStridedBackward1" and a._version == 1
    assert a.tolist() == [1.0, 3.0]
    a.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 1.0]




def test_the_backward_is_torchs_graph_copy_slices_or_index_add_then_as_strided():
    x = torch.arange(1.0, 7.0, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((x.as_strided((2, 2), (1, 2), 1) ** 3).sum(), x,
                               create_graph=True)
    assert g.tolist() == [0.0, 12.0, 27.0, 48.0, 75.0, 0.0]
    assert graph_nodes(g) == [(0, "AsStridedBackward0"), (1, "CopySlices"), (2, None),
                         (2, "MulBackward0"), (3, None), (3, "MulBackward1"),
                         (4, "PowBackward0"), (5, "AsStridedBackward0"), (6, "AccumulateGrad")]
    assert g._base is not None  # a view of the storage the gradient was copied into
    (gg,) = torch.autograd.grad((g * torch.arange(6.0, dtype=torch.float64)).sum(), x)
    assert gg.tolist() == [0.0, 12.0, 36.0, 72.0, 120.0, 0.0]
    # a place read twice: index_add_ into the storage, of the gradient flattened
    (g,) = torch.autograd.grad((x.as_strided((3, 3), (1, 1)) ** 2).sum(), x, create_graph=True)
    assert g.tolist() == [2.0, 8.0, 18.0, 16.0, 10.0, 0.0]
    assert graph_nodes(g)[:4] == [(0, "AsStridedBackward0"), (1, "IndexAddBackward0"), (2, None),
                             (2, "ViewBackward0")]
    assert torch.autograd.grad(g.sum(), x)[0].tolist() == [2.0, 4.0, 6.0, 4.0, 2.0, 0.0]


def test_size_one_and_stride_zero_dimensions_and_an_input_held_twice():
    x = torch.arange(1.0, 7.0, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((x.as_strided((2, 1, 3), (3, 5, 0)) ** 2).sum(), x,
                               create_graph=True)
    assert g.tolist() == [6.0, 0.0, 0.0, 24.0, 0.0, 0.0]
    # the size-1 dimension squeezed, the stride-0 one summed
    assert [name for _, name in graph_nodes(g)[:5]] == ["AsStridedBackward0", "CopySlices", None,
                                                    "SqueezeBackward1", "SumBackward1"]
    held = x[:2].expand(3, 2)  # places 0 and 1 held three times each: shared by a div_
    (g,) = torch.autograd.grad((held.as_strided((3,), (1,), 0) ** 2).sum(), x, create_graph=True)
    assert g.tolist() == [2.0, 4.0, 0.0, 0.0, 0.0, 0.0]
    assert [name for _, name in graph_nodes(g)[:6]] == [
        "SliceBackwardBackward0", "ViewBackward0", "SumBackward1", "AsStridedBackward0",
        "DivBackward0", "CopySlices"]


def test_as_strided_scatter_writes_into_a_copy_of_the_storage():
    x = torch.arange(6.0, requires_grad=True)
    src = torch.tensor([[10.0, 20.0], [30.0, 40.0]], requires_grad=True)
    y = torch.as_strided_scatter(x, src, (2, 2), (1, 2), 1)
    assert y.tolist() == [0.0, 10.0, 30.0, 20.0, 40.0, 5.0]
    node = y.grad_fn
    assert type(node).__name__ == "AsStridedScatterBackward0"
    assert sorted(n for n in dir(node) if n.startswith("_saved_")) == [
        "_saved_size", "_saved_storage_offset", "_saved_stride"]
    assert (node._saved_size, node._saved_stride, node._saved_storage_offset) == (
        (2, 2), (1, 2), 1)
    assert x.as_strided_scatter(src, (2, 2), (1, 2)).grad_fn._saved_storage_offset is None
    (g_src,) = torch.autograd.grad(y, src, torch.arange(100.0, 106.0))
    assert g_src.tolist() == [[101.0, 103.0], [102.0, 104.0]]
    # the last write in row-major order stays where the view reads a place twice
    twice = torch.as_strided_scatter(torch.zeros(6), torch.arange(9.0).reshape(3, 3), (3, 3),
                                     (1, 1))
    assert twice.tolist() == [0.0, 3.0, 6.0, 7.0, 8.0, 0.0]
    # an int input keeps its dtype; a float32 src's gradient stays float32
    assert torch.as_strided_scatter(torch.ones(6, dtype=torch.int64), torch.full((2, 2), 2.7),
                                    (2, 2), (1, 2)).tolist() == [2, 2, 2, 2, 1, 1]
    y = torch.as_strided_scatter(x.double(), src, (2, 2), (1, 2))
    assert y.dtype == torch.float64 and torch.autograd.grad(y.sum(), src)[0].dtype == torch.float32


def test_as_strided_scatter_keeps_the_inputs_geometry():
    x = torch.arange(6.0)
    seven = torch.full((2,), 7.0)
    for given, offset, expected in ((x[::2], None, [7.0, 2.0, 4.0]),
                                    (x[1:], 2, [1.0, 7.0, 7.0, 4.0, 5.0]),
                                    (x.reshape(2, 3).t(), None, [[7.0, 3.0], [7.0, 4.0],
                                                                 [2.0, 5.0]]),
                                    (x.reshape(2, 3)[:, 1:], None, [[7.0, 7.0], [4.0, 5.0]])):
        y = torch.as_strided_scatter(given, seven, (2,), (1,), offset)
        assert y.tolist() == expected
        assert (y.stride(), y.storage_offset()) == (given.stride(), given.storage_offset())


@pytest.mark.parametrize("args, kind, message", [
    ((torch.ones(2, 2), (2, 2), (1,)), RuntimeError, "mismatch in length of strides and shape"),
    ((torch.ones(2, 2), (2, 2), (1, -2)), RuntimeError,
     "as_strided: Negative strides are not supported at the moment, got strides: [1, -2]"),
    ((torch.ones(2, 2), (2, 2), (1, 2), -1), RuntimeError, "Tensor: invalid storage offset -1"),
    ((torch.ones(2, 2), (2, 2), (1, 2), 3), RuntimeError,
     "setStorage: sizes [2, 2], strides [1, 2], storage offset 3, and itemsize 4 requiring a "
     "storage size of 28 are out of bounds for storage of size 24"),
    ((torch.ones(3), (2, 2), (1, 2)), RuntimeError, "expected src to have a size equal to the "
     "slice of self. src size = [3], slice size = [2, 2]"),
    ((1.0, (2, 2), (1, 2)), TypeError,
     "as_strided_scatter(): argument 'src' (position 2) must be Tensor, not float"),
])
def test_as_strided_scatter_checks(args, kind, message):
    with raises(kind, message):
        torch.as_strided_scatter(torch.arange(6.0), *args)


def test_as_strided_scatter_wants_a_contiguous_input_that_requires_grad():
    x = torch.arange(6.0, requires_grad=True).reshape(2, 3).t()
    with raises(RuntimeError, "!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT "
                "FAILED at \"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp\":4754, "
                "please report a bug to PyTorch. as_strided_scatter is currently only "
                "supported for contiguous inputs"):
        torch.as_strided_scatter(x, torch.ones(2), (2,), (1,))
    assert torch.as_strided_scatter(x.detach(), torch.ones(2), (2,), (1,)).shape == (3, 2)
