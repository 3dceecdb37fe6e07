"""Black-box tests: Tensor.set_ and is_set_to. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises


def test_set_takes_the_sources_memory_shape_and_strides():
    a, b = torch.zeros(3), torch.arange(4.0)
    assert a.set_(b) is a
    assert a.tolist() == [0, 1, 2, 3] and a.shape == (4,) and a.is_set_to(b)
    assert a._version == 1 and b._version == 0 and a._base is None
    a[0] = 9.0
    assert b.tolist() == [9, 1, 2, 3] and a._version == 2 and b._version == 0
    window = torch.zeros(1)
    window.set_(b[1:3])
    assert window.tolist() == [1, 2] and window.storage_offset() == 1 and window.stride() == (1,)
    strided = torch.zeros(1)
    strided.set_(b[::2])
    assert strided.tolist() == [9, 2] and strided.stride() == (2,)


def test_set_with_a_window_of_the_storage():
    b = torch.arange(4.0)
    assert torch.zeros(2).set_(b, 1, (2,)).tolist() == [1, 2]
    assert torch.zeros(2).set_(b, 0, (2,), (2,)).tolist() == [0, 2]
    assert torch.zeros(2).set_(source=b).tolist() == [0, 1, 2, 3]


def test_set_with_nothing_gives_an_empty_storage():
    c = torch.ones(2)
    assert c.set_() is c and c.shape == (0,) and c._version == 1 and c.dtype == torch.float32


def test_is_set_to():
    y = torch.zeros(3)
    assert y.is_set_to(y) and y.is_set_to(y[:])
    assert not y.is_set_to(y[1:]) and not y.is_set_to(y.view(3, 1))
    assert not y.is_set_to(torch.zeros(3))
    assert not torch.zeros(0).is_set_to(torch.zeros(0))


def test_set_is_refused_on_a_leaf_that_requires_grad_unless_grad_is_off():
    leaf = torch.zeros(2, requires_grad=True)
    leaf_message = "a leaf Variable that requires grad is being used in an in-place operation."
    with raises(RuntimeError, leaf_message):
        leaf.set_(torch.arange(4.0))
    with raises(RuntimeError, leaf_message):
        leaf.set_()
    assert leaf.tolist() == [0, 0] and leaf._version == 0
    with torch.no_grad():
        leaf.set_(torch.arange(4.0))
    assert leaf.tolist() == [0, 1, 2, 3] and leaf.requires_grad and leaf.is_leaf


def test_a_recorded_set_has_no_derivative():
    x = torch.zeros(2, requires_grad=True)
    y = x * 2
    y.set_(torch.ones(3))
    assert y.grad_fn.name() == "torch::autograd::NotImplemented" and y.requires_grad
    nodes = [type(n).__name__ if n is not None else None for n, _ in y.grad_fn.next_functions]
    assert nodes == ["MulBackward0", None]
    with raises(RuntimeError, "derivative for set_ is not implemented"):
        y.sum().backward()
    w = torch.zeros(2)
    s = torch.ones(2, requires_grad=True)
    w.set_(s)
    assert w.requires_grad and w.grad_fn.next_functions[0] == (None, 0)
    assert type(w.grad_fn.next_functions[1][0]).__name__ == "AccumulateGrad"
    with torch.no_grad():
        z = torch.zeros(2)
        z.set_(s)
    assert not z.requires_grad
    emptied = x * 2
    emptied.set_()
    assert emptied.grad_fn.name() == "torch::autograd::NotImplemented"


def test_set_refusals():
    with raises(RuntimeError, "Could not set tensor of type double to a tensor of type float"):
        torch.zeros(2).set_(torch.ones(2, dtype=torch.float64))
    with raises(RuntimeError, "Could not set tensor of type float to a tensor of type long int"):
        torch.zeros(2, dtype=torch.int64).set_(torch.ones(2))
    with torch.inference_mode():
        frozen = torch.zeros(2)
    with raises(RuntimeError, "Inplace update to inference tensor outside InferenceMode is not "
                              "allowed.You can make a clone to get a normal tensor before doing "
                              "inplace update.See https://github.com/pytorch/rfcs/pull/17 for "
                              "more details."):
        frozen.set_(torch.zeros(2))
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(torch.zeros(2), torch.ones(2))
        with pytest.raises(NotImplementedError, match="^Trying to use forward AD with set_ that "
                           "does not support it because it has not been implemented yet"):
            torch.zeros(2).set_(dual)
    assert torch.Tensor.set_.__qualname__ == "TensorBase.set_"


def test_set_argument_errors_name_every_form():
    with raises(TypeError, "set_() received an invalid combination of arguments - got (int), "
                           "but expected one of:\n * ()\n      didn't match because some of the "
                           "arguments have invalid types: (!int!)\n * (torch.Storage source)\n"
                           "      didn't match because some of the arguments have invalid "
                           "types: (!int!)\n * (torch.Storage source, int storage_offset, tuple "
                           "of ints size, tuple of ints stride = None)\n * (Tensor source)\n"
                           "      didn't match because some of the arguments have invalid "
                           "types: (!int!)\n * (Tensor source, int storage_offset, tuple of "
                           "ints size, tuple of ints stride = None)\n"):
        torch.zeros(2).set_(5)
