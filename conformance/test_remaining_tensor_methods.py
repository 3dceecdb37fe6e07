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


SEGMENT_DATA = [2.0, 2.0, 0.0, 5.0, 5.0, 1.0]
SEGMENT_LENGTHS = [2, 0, 3, 1]


@pytest.mark.parametrize(("reduce", "values", "grads"), [
    ("sum", [4.0, 0.0, 10.0, 1.0], [1.0, 1.0, 3.0, 3.0, 3.0, 4.0]),
    ("mean", [2.0, float("nan"), 10.0 / 3, 1.0], [0.5, 0.5, 1.0, 1.0, 1.0, 4.0]),
    ("max", [2.0, float("-inf"), 5.0, 1.0], [0.5, 0.5, 0.0, 1.5, 1.5, 4.0]),
    ("amax", [2.0, float("-inf"), 5.0, 1.0], [0.5, 0.5, 0.0, 1.5, 1.5, 4.0]),
    ("min", [2.0, float("inf"), 0.0, 1.0], [0.5, 0.5, 3.0, 0.0, 0.0, 4.0]),
    ("prod", [4.0, 1.0, 0.0, 1.0], [2.0, 2.0, 75.0, 0.0, 0.0, 4.0]),
])
def test_segment_reduce_values_and_gradients(reduce, values, grads):
    data = torch.tensor(SEGMENT_DATA, dtype=torch.float64, requires_grad=True)
    out = torch.segment_reduce(data, reduce, lengths=torch.tensor(SEGMENT_LENGTHS))
    assert type(out.grad_fn).__name__ == "SegmentReduceBackward0"
    np.testing.assert_array_equal(out.detach().numpy(), np.array(values))
    out.backward(torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64))
    np.testing.assert_array_equal(data.grad.numpy(), np.array(grads))


def test_segment_reduce_shares_only_positive_gradients_among_ties():
    data = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
    out = torch.segment_reduce(data, "max", lengths=torch.tensor([2, 1]))
    out.backward(torch.tensor([-1.0, 3.0]))
    assert data.grad.tolist() == [-1.0, -1.0, 3.0]


def test_segment_reduce_initial_offsets_and_axis():
    data = torch.tensor([0.0, 2.0, 0.0, 0.0, 4.0, 0.0])
    lengths = torch.tensor([2, 0, 3, 1])
    mean = torch.segment_reduce(data, "mean", lengths=lengths, initial=3.0)
    assert mean.tolist() == [2.5, 3.0, float(np.float32(7.0) / np.float32(3.0)), 3.0]
    assert torch.segment_reduce(data, "max", lengths=lengths, initial=3.0).tolist() == [
        3.0, 3.0, 4.0, 3.0]
    offsets = torch.tensor([0, 2, 2, 5, 6])
    assert torch.segment_reduce(data, "sum", offsets=offsets).tolist() == [2.0, 0.0, 4.0, 0.0]
    # offsets, when given, are used and lengths are not even checked
    assert torch.segment_reduce(data, "sum", lengths=torch.tensor([-1]), offsets=offsets).tolist() \
        == [2.0, 0.0, 4.0, 0.0]
    grid = torch.tensor(np.arange(12.0).reshape(2, 6))
    rows = torch.tensor([[2, 0, 3, 1], [1, 1, 1, 3]])
    out = torch.segment_reduce(grid, "sum", lengths=rows, axis=1)
    assert out.tolist() == [[1.0, 0.0, 9.0, 5.0], [6.0, 7.0, 8.0, 30.0]]
    assert torch.segment_reduce(grid, "sum", lengths=rows, axis=-1).tolist() == out.tolist()
    down = torch.segment_reduce(grid.t(), "prod", lengths=torch.tensor([2, 0, 3, 1]))
    assert down.shape == (4, 2) and down.tolist()[1] == [1.0, 1.0]


def test_segment_reduce_accumulates_in_the_data_dtype():
    half = torch.tensor([2048.0, 1.0, 1.0], dtype=torch.float16)
    assert torch.segment_reduce(half, "sum", lengths=torch.tensor([3])).item() == 2048.0
    single = torch.tensor([16777216.0, 1.0, 1.0])
    assert torch.segment_reduce(single, "sum", lengths=torch.tensor([3])).item() == 16777216.0


def test_segment_reduce_node_and_second_derivative():
    data = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    lengths = torch.tensor([2, 1])
    out = torch.segment_reduce(data, "max", lengths=lengths, initial=0.5)
    node = out.grad_fn
    assert node._saved_reduce == "max" and node._saved_axis == 0 and node._saved_initial == 0.5
    assert node._saved_lengths.tolist() == [2, 1] and node._saved_offsets is None
    assert node._saved_data is data and node._saved_result.tolist() == [2.0, 3.0]
    out = torch.segment_reduce(data, "prod", lengths=torch.tensor([3]))
    (grad,) = torch.autograd.grad(out, data, create_graph=True)
    assert grad.tolist() == [6.0, 3.0, 2.0] and type(grad.grad_fn).__name__ == "NotImplemented"
    with raises(RuntimeError, "derivative for aten::_segment_reduce_backward is not implemented"):
        grad.sum().backward()


ONE = "(Could this error message be improved?  If so, please report an enhancement request to " \
      "PyTorch.)"


@pytest.mark.parametrize(("call", "kind", "message"), [
    ("torch.segment_reduce(x, 'sum')", RuntimeError,
     "segment_reduce(): Either lengths or offsets must be defined."),
    ("torch.segment_reduce(x, 'foo', indices=L)", RuntimeError,
     "segment_reduce(): indices based reduction is not supported yet."),
    ("torch.segment_reduce(x, 'foo')", RuntimeError,
     "segment_reduce(): Either lengths or offsets must be defined."),
    ("torch.segment_reduce(x, 'foo', lengths=L, axis=3)", IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 3)"),
    ("torch.segment_reduce(x, 'foo', lengths=torch.tensor([-1, 4]))", RuntimeError,
     "reduce argument must be either sum, prod, mean, amax or amin, got foo"),
    ("torch.segment_reduce(x, 'sum', lengths=torch.tensor([[1, 2]]))", RuntimeError,
     "Expected data.dim() >= lengths_value.dim() to be true, but got false.  " + ONE),
    ("torch.segment_reduce(x, 'sum', offsets=torch.tensor([[0, 3]]))", RuntimeError,
     "Expected data.dim() >= offsets_value.dim() to be true, but got false.  " + ONE),
    ("torch.segment_reduce(x, 'sum', lengths=torch.tensor(3))", RuntimeError,
     "segment_reduce(): Expected axis to be the last dimension of lengths but got 0."),
    ("torch.segment_reduce(x.reshape(3, 1), 'sum', offsets=torch.tensor([0, 1]), axis=1)",
     RuntimeError,
     "segment_reduce(): Expected axis to be the last dimension of offsets but got 1."),
    ("torch.segment_reduce(x, 'sum', lengths=torch.tensor([-1, 4]))", RuntimeError,
     "lengths contains negative value!"),
    ("torch.segment_reduce(x, 'sum', lengths=torch.tensor([], dtype=torch.long))", RuntimeError,
     "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
     "reduction dim with the 'dim' argument."),
    ("torch.segment_reduce(x, 'sum', lengths=torch.tensor([1, 1]))", RuntimeError,
     "segment_reduce(): Expected all rows of lengths along axis to sum to "
     "data.size(lengths.dim()-1) when !unsafe."),
    ("torch.segment_reduce(x, 'sum', lengths=torch.tensor([1.0, 2.0]))", NotImplementedError,
     "\"_segment_reduce_lengths_cpu_kernel1\" not implemented for 'Float'"),
    ("torch.segment_reduce(x, 'sum', offsets=torch.tensor([0.0, 3.0]))", NotImplementedError,
     "\"_segment_reduce_offsets_cpu_kernel1\" not implemented for 'Float'"),
    ("torch.segment_reduce(x.long(), 'sum', lengths=L)", NotImplementedError,
     "\"_segment_reduce_cpu\" not implemented for 'Long'"),
    ("torch.segment_reduce(x.long(), 'sum', lengths=L, initial=1e300)", NotImplementedError,
     "\"_segment_reduce_cpu\" not implemented for 'Long'"),
    ("torch.segment_reduce(x, 'sum', lengths=L, initial=1e300)", RuntimeError,
     "value cannot be converted to type float without overflow"),
    ("torch.segment_reduce(x.half(), 'sum', lengths=L, initial=1e6)", RuntimeError,
     "value cannot be converted to type c10::Half without overflow"),
    ("torch.segment_reduce(x, 'sum', lengths=L, initial=2 ** 70)", OverflowError,
     "int too big to convert"),
    ("torch.segment_reduce(x, 'sum', lengths=torch.tensor([-1, 4]), unsafe=True)",
     RuntimeError, "Expected segment_length >= 0 to be true, but got false.  " + ONE),
    ("torch.segment_reduce(x, 'sum', offsets=torch.tensor([0, 3, 2, 3]))", RuntimeError,
     "Expected segment_length >= 0 to be true, but got false.  " + ONE),
    ("torch.segment_reduce(x, 'sum', L)", TypeError,
     "segment_reduce() takes 2 positional arguments but 3 were given"),
    ("torch.segment_reduce(x, 'sum', lengths=[1, 2])", TypeError,
     "segment_reduce(): argument 'lengths' must be Tensor, not list"),
])
def test_segment_reduce_refusals_in_torchs_order(call, kind, message):
    x, L = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1, 2])  # noqa: F841 - used by call
    with raises(kind, message):
        eval(call)


def test_segment_reduce_unsafe_skips_the_checks():
    data = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = torch.segment_reduce(data, "sum", lengths=torch.tensor([1, 1]), unsafe=True)
    assert out.tolist() == [1.0, 2.0]
    out.sum().backward()
    assert data.grad.tolist() == [1.0, 1.0, 0.0]


FIRST = ("Could not run 'aten::{0}' with arguments from the 'CPU' backend. This could be because "
         "the operator doesn't exist for this backend, or was omitted during the selective/custom "
         "build process (if using custom build). If you are a Facebook employee using PyTorch on "
         "mobile, please visit https://fburl.com/ptmfixes for possible resolutions. 'aten::{0}' "
         "is only available for these backends: [Meta, BackendSelect, Python, "
         "FuncTorchDynamicLayerBackMode, Functionalize, Conjugate, Negative, ZeroTensor, "
         "ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, AutogradHIP, AutogradXLA, "
         "AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, AutogradVE, AutogradLazy, "
         "AutogradMTIA, AutogradMAIA, AutogradPrivateUse1, AutogradPrivateUse2, "
         "AutogradPrivateUse3, AutogradMeta, AutogradNestedTensor, Tracer, AutocastCPU, "
         "AutocastMTIA, AutocastMAIA, AutocastXPU, AutocastMPS, AutocastCUDA, FuncTorchBatched, "
         "BatchedNestedTensor, FuncTorchVmapMode, Batched, VmapMode, FuncTorchGradWrapper, "
         "PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, PreDispatch, PythonDispatcher].")
NO_KERNEL = {
    "batch_norm_stats": "torch.batch_norm_stats(x, 1e-5)",
    "batch_norm_elemt": "torch.batch_norm_elemt(x, w, w, m, s, 1e-5)",
    "batch_norm_elemt.out": "torch.batch_norm_elemt(x, None, None, m, s, 1e-5, out=x.clone())",
    "batch_norm_gather_stats": "torch.batch_norm_gather_stats(x, m[None], s[None], None, None, "
                               "0.1, 1e-5, 20)",
    "batch_norm_gather_stats_with_counts": "torch.batch_norm_gather_stats_with_counts(x, m[None], "
                                           "s[None], None, None, 0.1, 1e-5, torch.tensor([20.]))",
    "batch_norm_backward_reduce": "torch.batch_norm_backward_reduce(x, x, m, s, w, True, True, "
                                  "True)",
    "batch_norm_backward_elemt": "torch.batch_norm_backward_elemt(x, x, m, s, w, m, m, "
                                 "torch.tensor([20], dtype=torch.int32))",
}


@pytest.mark.parametrize("name", sorted(NO_KERNEL))
def test_sync_batch_norm_kernels_are_refused_on_the_cpu(name):
    x, w, m, s = torch.ones(4, 3, 5), torch.ones(3), torch.zeros(3), torch.ones(3)  # noqa: F841
    with pytest.raises(NotImplementedError) as info:
        eval(NO_KERNEL[name])
    assert str(info.value).split("\n\n")[0] == FIRST.format(name)


@pytest.mark.parametrize(("call", "message"), [
    ("torch.batch_norm_stats(x, 'a')",
     "batch_norm_stats(): argument 'eps' (position 2) must be float, not str"),
    ("torch.batch_norm_stats(x)", 'batch_norm_stats() missing 1 required positional arguments: '
                                  '"eps"'),
    ("torch.batch_norm_stats(x, 1e-5, out=None)",
     "batch_norm_stats() got an unexpected keyword argument 'out'"),
    ("torch.batch_norm_gather_stats(x, m, m, None, None, 0.1, 1e-5, 2.5)",
     "batch_norm_gather_stats(): argument 'count' (position 8) must be int, not float"),
    ("torch.batch_norm_backward_reduce(x, x, m, m, None, 1, True, True)",
     "batch_norm_backward_reduce(): argument 'input_g' (position 6) must be bool, not int"),
    ("torch.batch_norm_update_stats(x, None, None)",
     'batch_norm_update_stats() missing 1 required positional arguments: "momentum"'),
    ("torch.batch_norm_update_stats(x, None, None, 0.1, out=(m, m))",
     "batch_norm_update_stats() got an unexpected keyword argument 'out'"),
])
def test_sync_batch_norm_kernels_read_their_arguments_first(call, message):
    x, m = torch.ones(2, 3), torch.zeros(3)  # noqa: F841 - used by call
    with raises(TypeError, message):
        eval(call)


def test_batch_norm_update_stats_values_and_running_statistics():
    data = np.arange(24.0).reshape(2, 3, 4)
    x = torch.tensor(data, requires_grad=True)
    running_mean = torch.zeros(3, dtype=torch.float64)
    running_var = torch.ones(3, dtype=torch.float64)
    mean, var = torch.batch_norm_update_stats(x, running_mean, running_var, 0.1)
    assert mean.tolist() == data.mean(axis=(0, 2)).tolist()
    assert var.tolist() == data.var(axis=(0, 2)).tolist()
    np.testing.assert_allclose(running_mean.numpy(), 0.1 * data.mean(axis=(0, 2)))
    np.testing.assert_allclose(running_var.numpy(), 0.9 + 0.1 * data.var(axis=(0, 2), ddof=1))
    assert running_mean._version == 0
    assert mean.grad_fn is var.grad_fn and type(mean.grad_fn).__name__ == "NotImplemented"
    assert [type(n).__name__ for n, _ in mean.grad_fn.next_functions] == ["AccumulateGrad"]
    with raises(RuntimeError, "derivative for aten::batch_norm_update_stats is not implemented"):
        mean.sum().backward()


def test_batch_norm_update_stats_of_one_sample_gives_a_nan_running_variance():
    running_mean, running_var = torch.zeros(3), torch.ones(3)
    mean, var = torch.batch_norm_update_stats(torch.tensor([[1.0, 2.0, 3.0]]), running_mean,
                                              running_var, 0.1)
    assert mean.tolist() == [1.0, 2.0, 3.0] and var.tolist() == [0.0, 0.0, 0.0]
    assert running_var.isnan().all()


def test_batch_norm_update_stats_dtypes():
    half = torch.ones(4, 3, dtype=torch.float16)
    assert torch.batch_norm_update_stats(half, None, None, 0.1)[0].dtype == torch.float16
    mixed = torch.batch_norm_update_stats(half, torch.zeros(3), torch.ones(3), 0.1)
    assert mixed[0].dtype == torch.float32 and mixed[1].dtype == torch.float32


@pytest.mark.parametrize(("call", "kind", "message"), [
    ("torch.batch_norm_update_stats(torch.ones(3), None, None, 0.1)", IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    ("torch.batch_norm_update_stats(torch.ones(0, 3), None, None, 0.1)", RuntimeError,
     "input tensor must have at least one element, but got input_sizes = [0, 3]"),
    ("torch.batch_norm_update_stats(torch.ones(2, 3, dtype=torch.long), torch.zeros(3), None, "
     "0.1)", NotImplementedError, "\"batch_norm_update_stats_cpu\" not implemented for 'Long'"),
    ("torch.batch_norm_update_stats(torch.ones(3), torch.zeros(3, dtype=torch.float64), None, "
     "0.1)", RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of Float"),
    ("torch.batch_norm_update_stats(torch.ones(2, 3, dtype=torch.float64), torch.zeros(3), "
     "torch.ones(3), 0.1)", RuntimeError,
     "mixed dtype (CPU): all inputs must share same datatype."),
    ("torch.batch_norm_update_stats(torch.ones(2, 3), torch.zeros(3), torch.zeros(3, "
     "dtype=torch.float16), 0.1)", RuntimeError, "expected scalar type Float but found Half"),
])
def test_batch_norm_update_stats_refusals(call, kind, message):
    with raises(kind, message):
        eval(call)


@pytest.mark.parametrize(("call", "name"), [
    ("torch.native_norm(x)", "native_norm"),
    ("torch.native_norm(x, 3)", "native_norm"),
    ("torch.native_norm(x, 2, [1], False, None)", "native_norm.ScalarOpt_dim_dtype"),
    ("torch.native_norm(x, p=2, dim=[1], keepdim=False, dtype=torch.float64)",
     "native_norm.ScalarOpt_dim_dtype"),
])
def test_native_norm_has_only_a_sparse_kernel(call, name):
    x = torch.ones(2, 3)  # noqa: F841 - used by call
    with pytest.raises(NotImplementedError) as info:
        eval(call)
    expected = FIRST.format(name).replace("[Meta, ", "[Meta, SparseCPU, ")
    assert str(info.value).split("\n\n")[0] == expected


def test_native_norm_reads_its_arguments_first():
    x = torch.ones(2, 3)
    with raises(TypeError, "native_norm(): argument 'p' (position 2) must be Number, not str"):
        torch.native_norm(x, "fro")
    with raises(TypeError, "native_norm() received an invalid combination of arguments - got "
                           "(Tensor, int, list), but expected one of:\n"
                           " * (Tensor input, Number p = 2)\n"
                           " * (Tensor input, Number p, tuple of ints dim, bool keepdim, "
                           "torch.dtype dtype)\n"):
        torch.native_norm(x, 2, [1])


def test_embedding_renorm_scales_the_named_rows_in_place():
    weight = torch.arange(12.0).reshape(4, 3)
    out = torch.embedding_renorm_(weight, torch.tensor([0, 2, 2]), 5.0, 2.0)
    assert out is weight and weight._version == 1
    row = np.arange(6.0, 9.0, dtype=np.float32)
    scale = np.float32(5.0 / (float(np.linalg.norm(row.astype(np.float64))) + 1e-7))
    np.testing.assert_allclose(weight[2].numpy(), row * scale, rtol=1e-6)
    assert weight[0].tolist() == [0.0, 1.0, 2.0] and weight[3].tolist() == [9.0, 10.0, 11.0]
    assert weight[1].tolist() == [3.0, 4.0, 5.0]  # not named
    once = torch.ones(4, 3)
    torch.embedding_renorm_(once, torch.tensor([1, 1]), 5.0, 2.0)
    assert once._version == 1 and once.tolist() == [[1.0] * 3] * 4  # counted even if unchanged
    negative = torch.ones(2, 2)
    torch.embedding_renorm_(negative, torch.tensor([-1]), -1.0, float("inf"))
    np.testing.assert_allclose(negative[1].numpy(), [-1.0, -1.0], rtol=1e-6)


def test_embedding_renorm_and_autograd():
    leaf = torch.ones(4, 3, requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        torch.embedding_renorm_(leaf, torch.tensor([0]), 1.0, 2.0)
    with torch.no_grad():
        torch.embedding_renorm_(leaf, torch.tensor([3]), 1.0, 1.0)
    assert leaf[3].tolist() == pytest.approx([1 / 3] * 3)
    b = torch.ones(4, 3, requires_grad=True) * 2
    torch.embedding_renorm_(b, torch.tensor([1]), 1.0, 2.0)
    assert type(b.grad_fn).__name__ == "EmbeddingRenormBackward0"
    assert [n for n in dir(b.grad_fn) if "saved" in n] == []
    with raises(NotImplementedError, "the derivative for 'embedding_renorm' is not implemented."):
        b.sum().backward()


@pytest.mark.parametrize(("call", "kind", "message"), [
    ("torch.embedding_renorm_(w, torch.tensor([5]), 1.0, 2.0)", IndexError,
     "select(): index 5 out of range for tensor of size [4, 3] at dimension 0"),
    ("torch.embedding_renorm_(w, torch.tensor([5, -7]), 1.0, 2.0)", IndexError,
     "select(): index -7 out of range for tensor of size [4, 3] at dimension 0"),
    ("torch.embedding_renorm_(w, torch.tensor([1.0]), 1.0, 2.0)", RuntimeError,
     "Expected tensor for argument #2 'indices' to have one of the following scalar types: "
     "Long, Int; but got torch.FloatTensor instead (while checking arguments for "
     "embedding_renorm_)"),
    ("torch.embedding_renorm_(w[0], torch.tensor([1.0]), 1.0, 2.0)", RuntimeError,
     "Expected 2-dimensional tensor, but got 1-dimensional tensor for argument #1 'self' "
     "(while checking arguments for embedding_renorm_)"),
    ("torch.embedding_renorm_(w.long(), torch.tensor([1]), 1.0, 2.0)", RuntimeError,
     "norm(): input dtype should be either floating point or complex. Got Long instead."),
    ("torch.embedding_renorm_(w, torch.tensor([1]), 1.0)", TypeError,
     'embedding_renorm_() missing 1 required positional arguments: "norm_type"'),
])
def test_embedding_renorm_refusals(call, kind, message):
    w = torch.ones(4, 3)  # noqa: F841 - used by call
    with raises(kind, message):
        eval(call)


def test_the_segment_reduce_node_shows_the_axis_as_given():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.segment_reduce(x, "max", lengths=torch.tensor([1, 2]), axis=-1)
    assert y.grad_fn._saved_axis == 2**64 - 1  # -1, shown unsigned
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 1.0]
