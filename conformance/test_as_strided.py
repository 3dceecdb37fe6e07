"""as_strided and as_strided_: views of the storage, their checks and their gradients."""

import pytest
import torch

from conformance._support import raises


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
