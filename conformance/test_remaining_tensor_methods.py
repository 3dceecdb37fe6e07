"""Black-box tests: the tensor methods and functions of chapter "The remaining tensor
methods" (module_load and torch.__future__'s switches, the legacy attributes, slice_inverse,
empty_permuted), against torch's behaviour. The same assertions run on torch.
"""

import warnings

import numpy as np
import pytest
import torch
from torch import nn

from conformance._support import raises


@pytest.fixture
def swapping():
    torch.__future__.set_swap_module_params_on_conversion(True)
    yield
    torch.__future__.set_swap_module_params_on_conversion(False)


@pytest.fixture
def overwriting():
    torch.__future__.set_overwrite_module_params_on_conversion(True)
    yield
    torch.__future__.set_overwrite_module_params_on_conversion(False)


def test_future_switches_are_off_until_set():
    assert torch.__future__.get_swap_module_params_on_conversion() is False
    assert torch.__future__.get_overwrite_module_params_on_conversion() is False


def test_module_load_copies_into_self_and_returns_a_detached_alias():
    p = torch.zeros(3, requires_grad=True)
    other = torch.tensor([1.0, 2.0, 3.0])
    with torch.no_grad():
        out = p.module_load(other)
    assert out is not p and out is not other
    assert not out.requires_grad and out.grad_fn is None
    assert out.tolist() == [1.0, 2.0, 3.0] and p.tolist() == [1.0, 2.0, 3.0]
    out[0] = 7.0
    assert p[0].item() == 7.0  # an alias of self


def test_module_load_with_assign_returns_other_detached():
    p = torch.zeros(2)
    other = torch.tensor([4.0, 5.0], requires_grad=True)
    out = p.module_load(other, assign=True)
    assert out is not other and not out.requires_grad
    assert out.tolist() == [4.0, 5.0] and p.tolist() == [0.0, 0.0]
    assert torch.Tensor.module_load.__qualname__ == "Tensor.module_load"


def test_load_state_dict_swaps_and_keeps_the_parameter_objects(swapping):
    m = nn.Linear(2, 3)
    weight, bias = m.weight, m.bias
    given = torch.tensor(np.arange(6.0, dtype=np.float32).reshape(3, 2))
    keys = m.load_state_dict({"weight": given, "bias": torch.ones(3)})
    assert str(keys) == "<All keys matched successfully>"
    assert m.weight is weight and m.bias is bias
    assert type(weight) is nn.Parameter and weight.requires_grad
    assert weight.tolist() == given.tolist() and bias.tolist() == [1.0] * 3
    given[0, 0] = 100.0
    assert weight[0, 0].item() == 0.0  # module_load copied: no alias of the checkpoint


def test_load_state_dict_swap_with_assign_aliases_the_checkpoint(swapping):
    m = nn.Linear(2, 1)
    weight = m.weight
    given = torch.ones(1, 2)
    m.load_state_dict({"weight": given, "bias": torch.zeros(1)}, assign=True)
    assert m.weight is weight and weight.requires_grad
    given[0, 0] = 5.0
    assert weight[0, 0].item() == 5.0


def test_a_module_load_returning_self_is_an_error_of_the_load(swapping):
    class Same(nn.Parameter):
        def module_load(self, other, assign=False):
            return self

    m = nn.Linear(2, 1)
    m.weight = Same(torch.zeros(1, 2))
    message = ("Error(s) in loading state_dict for Linear:\n\t"
               'While swapping the parameter named "weight", whose dimensions in the model are '
               "torch.Size([1, 2]) and whose dimensions in the checkpoint are torch.Size([1, 2]), "
               "an exception occurred : ('module_load returned one of self or other, please "
               ".detach() the result if returning one of the inputs in module_load',).")
    with raises(RuntimeError, message):
        m.load_state_dict({"weight": torch.ones(1, 2), "bias": torch.zeros(1)})
    assert m.bias.tolist() == [0.0]


def test_a_subclass_module_load_decides_what_is_loaded(swapping):
    class Doubled(nn.Parameter):
        def module_load(self, other, assign=False):
            return (other * 2).detach()

    m = nn.Linear(2, 1)
    m.weight = Doubled(torch.zeros(1, 2))
    weight = m.weight
    m.load_state_dict({"weight": torch.ones(1, 2), "bias": torch.zeros(1)})
    assert m.weight is weight and weight.tolist() == [[2.0, 2.0]]
    assert type(weight) is nn.Parameter  # the swap exchanges classes too


def test_conversion_with_swap_keeps_parameter_and_grad_objects(swapping):
    m = nn.Linear(2, 2)
    weight = m.weight
    m(torch.ones(1, 2)).sum().backward()
    grad = weight.grad
    m.double()
    assert m.weight is weight and weight.dtype == torch.float64
    assert weight.grad is grad and grad.dtype == torch.float64
    assert type(weight) is nn.Parameter and weight.requires_grad


def test_conversion_with_overwrite_puts_new_parameters_in(overwriting):
    m = nn.Linear(2, 2)
    weight = m.weight
    m(torch.ones(1, 2)).sum().backward()
    m.double()
    assert m.weight is not weight and weight.dtype == torch.float32
    assert type(m.weight) is nn.Parameter and m.weight.dtype == torch.float64
    assert m.weight.grad.dtype == torch.float64 and weight.grad.dtype == torch.float32


def test_conversion_without_switches_keeps_objects_and_changes_data():
    m = nn.Linear(2, 2)
    weight = m.weight
    m.double()
    assert m.weight is weight and weight.dtype == torch.float64


def test_volatile_warns_and_is_always_false():
    x = torch.ones(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert x.volatile is False
        x.volatile = True
        assert x.volatile is False
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, "volatile was removed (Variable.volatile is always False)"),
        (UserWarning, "volatile was removed and now has no effect. Use `with torch.no_grad():` "
                      "instead."),
        (UserWarning, "volatile was removed (Variable.volatile is always False)"),
    ]
    assert all(w.filename == __file__ for w in caught)


def test_reinforce_is_refused_with_the_way_to_do_it_now():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x.reinforce(1.0)
    lines = str(info.value).splitlines()
    assert lines[:2] == ["reinforce() was removed.", "Use torch.distributions instead."]
    assert lines[-2:] == ["loss = -m.log_prob(action) * reward", "loss.backward()"]
    assert len(lines) == 21 and str(info.value).endswith("loss.backward()\n")
    with raises(TypeError, "Tensor.reinforce() missing 1 required positional argument: "
                           "'reward'"):
        x.reinforce()


def test_record_stream_refuses_what_is_no_stream():
    x = torch.ones(2)
    with raises(RuntimeError, "unknown parameter type"):
        x.record_stream(1)
    with raises(RuntimeError, "unknown parameter type"):
        x.record_stream(s="stream")
    with raises(TypeError, 'record_stream() missing 1 required positional arguments: "s"'):
        x.record_stream()
    with raises(TypeError, "record_stream() takes 1 positional argument but 2 were given"):
        x.record_stream(1, 2)


def test_is_distributed_is_false_and_takes_nothing():
    x = torch.ones(2)
    assert x.is_distributed() is False
    with raises(TypeError, "TensorBase.is_distributed() takes no arguments (1 given)"):
        x.is_distributed(1)
    with raises(TypeError, "TensorBase.is_distributed() takes no keyword arguments"):
        x.is_distributed(zz=1)


def test_slice_inverse_views_the_slice_as_its_source():
    x = torch.arange(12.0).reshape(3, 4)
    v = x[1:2]
    r = torch.slice_inverse(v, x, 0, 1, 2, 1)
    assert r.shape == (3, 4) and r.stride() == (4, 1) and r.storage_offset() == 0
    assert r.data_ptr() == x.data_ptr() and r._is_view() and r.tolist() == x.tolist()
    back = x.slice_inverse(v, 0)  # the method: self laid out as the slice
    assert back.tolist() == [[4.0, 5.0, 6.0, 7.0]] and back.storage_offset() == 4
    strided = torch.slice_inverse(x[:, ::2], x.t(), 1, None, None, 2)
    assert strided.shape == (4, 3) and strided.stride() == (1, 4)


def test_slice_inverse_gradient():
    y = torch.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    r = torch.slice_inverse(y[1:2], y, 0, 1, 2, 1)
    assert type(r.grad_fn).__name__ == "SliceInverseBackward0"
    assert [type(n).__name__ for n, _ in r.grad_fn.next_functions] == [
        "SliceBackward0", "AccumulateGrad"]
    r.sum().backward()
    assert y.grad.tolist() == [[1.0] * 4] * 3


def test_slice_inverse_argument_errors():
    x = torch.arange(12.0).reshape(3, 4)
    v = x[1:2]
    with raises(TypeError, "slice_inverse(): argument 'src' (position 2) must be Tensor, not int"):
        torch.slice_inverse(v, 3)
    with raises(TypeError, 'slice_inverse() missing 1 required positional arguments: "src"'):
        torch.slice_inverse(v)
    with raises(TypeError, "slice_inverse(): argument 'dim' (position 3) must be int, not float"):
        torch.slice_inverse(v, x, 0.5)
    with raises(TypeError, "slice_inverse(): argument 'src' (position 1) must be Tensor, not int"):
        v.slice_inverse(3)
    with raises(TypeError, "slice_inverse() takes from 2 to 6 positional arguments but 7 were "
                           "given"):
        torch.slice_inverse(v, x, 0, 1, 2, 1, 5)
    with raises(RuntimeError, "setStorage: sizes [3, 4], strides [4, 1], storage offset 0, and "
                              "itemsize 4 requiring a storage size of 48 are out of bounds for "
                              "storage of size 16"):
        torch.slice_inverse(torch.zeros(1, 4), x, 0, 1, 2, 1)


@pytest.mark.parametrize(("size", "layout", "strides"), [
    ((2, 3, 4), (0, 2, 1), (12, 1, 3)),
    ((2, 3, 4, 5), (0, 2, 3, 1), (60, 1, 15, 3)),
    ((2, 0, 3), (2, 1, 0), (1, 2, 2)),
    ((2, 3), (1, 0), (1, 2)),
    ((), (), ()),
])
def test_empty_permuted_lays_dimensions_out_in_the_order_given(size, layout, strides):
    e = torch.empty_permuted(size, layout)
    assert e.shape == size and e.stride() == strides and e.dtype == torch.float32
    assert not e._is_view() and e.is_leaf


def test_empty_permuted_options():
    e = torch.empty_permuted((2, 3), (1, 0), dtype=torch.float64, requires_grad=True)
    assert e.dtype == torch.float64 and e.requires_grad and e.is_leaf
    named = torch.empty_permuted(size=(2, 3), physical_layout=[1, 0], device="cpu")
    assert named.stride() == (1, 2)
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                              "gradients"):
        torch.empty_permuted((2, 3), (1, 0), dtype=torch.int64, requires_grad=True)


@pytest.mark.parametrize(("size", "layout", "kind", "message"), [
    ((2, 3), (0,), RuntimeError, "Number of dimensions in size does not match the length of "
     "the physical_layout; i.e. len(size) = 2 is not equal to len(physical_layout) = 1"),
    ((2, 3), (0, 0), RuntimeError, "Duplicate dim not allowed"),
    ((2, 3, 4), (0, 0, 5), RuntimeError, "Duplicate dim not allowed"),
    ((2, 3), (0, 2), RuntimeError, "Dimension out of range (expected to be between 0 and 1, but "
     "got 2 at index 1).  NB: negative dims not currently supported; file an issue if you want "
     "it."),
    ((2, 3), (0, -1), RuntimeError, "Dimension out of range (expected to be between 0 and 1, "
     "but got -1 at index 1).  NB: negative dims not currently supported; file an issue if you "
     "want it."),
    ((2, -3), (1, 0), RuntimeError, "Trying to create tensor with negative dimension -3: "
     "[-3, 2]"),
    ((2, -3), (0,), RuntimeError, "Number of dimensions in size does not match the length of "
     "the physical_layout; i.e. len(size) = 2 is not equal to len(physical_layout) = 1"),
    (2, (0,), TypeError, "empty_permuted(): argument 'size' (position 1) must be tuple of ints, "
     "not int"),
])
def test_empty_permuted_refusals(size, layout, kind, message):
    with raises(kind, message):
        torch.empty_permuted(size, layout)


def test_empty_permuted_argument_errors():
    with raises(TypeError, 'empty_permuted() missing 1 required positional arguments: '
                           '"physical_layout"'):
        torch.empty_permuted((2, 3))
    with raises(TypeError, "empty_permuted() got an unexpected keyword argument 'out'"):
        torch.empty_permuted((2, 3), (1, 0), out=None)
