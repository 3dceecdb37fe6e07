"""The tensor surface (spec F1-F8, F17-F19, F21-F23), written against torch's API."""

import pickle

import numpy as np
import pytest
import torch

from conformance._support import raises

ONLY_FLOAT = "Only Tensors of floating point and complex dtype can require gradients"


@pytest.mark.parametrize(
    ("data", "dtype"),
    [
        (1.5, torch.float32), (2, torch.int64), (True, torch.bool), ([1, 2.5], torch.float32),
        ([True, 2], torch.int64), ([], torch.float32), ([[True], [False]], torch.bool),
        (np.array([1.0], dtype=np.float64), torch.float64),
        (np.array([1, 2], dtype=np.int32), torch.int32),
    ],
)
def test_tensor_infers_torch_dtypes(data, dtype):
    assert torch.tensor(data).dtype is dtype


def test_tensor_shapes_and_values():
    t = torch.tensor([[1, 2, 3], [4, 5, 6]])
    assert t.shape == torch.Size([2, 3]) and t.size() == (2, 3) and t.size(-1) == 3
    assert (t.dim(), t.ndim, t.numel(), len(t)) == (2, 2, 6, 2)
    assert t.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert torch.tensor([[]]).shape == (1, 0)
    assert torch.tensor([1.7, -1.7], dtype=torch.int64).tolist() == [1, -1]


def test_tensor_copying_a_tensor_warns_and_copies():
    source = torch.tensor([1.0, 2.0])
    with pytest.warns(UserWarning, match="^To copy construct from a tensor, it is recommended"):
        copy = torch.tensor(source)
    assert copy.data_ptr() != source.data_ptr() and copy.tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    ("data", "kind", "message"),
    [
        ([[1, 2], [3]], ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
        ("abc", TypeError, "new(): invalid data type 'str'"),
        (None, RuntimeError, "Could not infer dtype of NoneType"),
    ],
)
def test_tensor_refuses_bad_data(data, kind, message):
    with raises(kind, message):
        torch.tensor(data)


def test_only_floating_tensors_can_require_grad():
    with raises(RuntimeError, ONLY_FLOAT):
        torch.tensor([1, 2], requires_grad=True)
    with raises(RuntimeError, ONLY_FLOAT):
        torch.zeros(2, dtype=torch.int64, requires_grad=True)
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        torch.ones(2, dtype=torch.int64).requires_grad_()
    with raises(RuntimeError, "requires_grad must be a bool"):
        torch.ones(2).requires_grad = 1


@pytest.mark.parametrize("size", [(2, 3), ((2, 3),), ([2, 3],), (torch.Size([2, 3]),)])
@pytest.mark.parametrize("factory", ["ones", "zeros", "empty", "rand", "randn"])
def test_factories_take_sizes_every_way(factory, size):
    t = getattr(torch, factory)(*size)
    assert t.shape == (2, 3) and t.dtype is torch.float32 and t.is_leaf


def test_factory_values_and_empty_sizes():
    assert torch.ones(2).tolist() == [1.0, 1.0] and torch.zeros(1).tolist() == [0.0]
    assert torch.ones(()).shape == () and torch.ones(0).shape == (0,)
    assert torch.full((2,), 3).dtype is torch.int64
    assert torch.full((2,), True).tolist() == [True, True]
    assert torch.full((2,), 1.5, dtype=torch.int64).tolist() == [1, 1]
    assert torch.zeros_like(torch.ones(2, 3, dtype=torch.float64)).dtype is torch.float64


def test_factory_size_errors():
    with raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"):
        torch.ones(-1)
    with raises(TypeError, "ones(): argument 'size' (position 1) must be tuple of ints, not str"):
        torch.ones("a")


def test_arange():
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4] and torch.arange(5).dtype is torch.int64
    assert torch.arange(0.5, 3).tolist() == [0.5, 1.5, 2.5]
    assert torch.arange(0, 1, 0.25).dtype is torch.float32
    assert torch.arange(3, dtype=torch.float64).dtype is torch.float64
    with raises(RuntimeError, "step must be nonzero"):
        torch.arange(0, 1, 0)
    with raises(RuntimeError, "upper bound and lower bound inconsistent with step sign"):
        torch.arange(0, 3, -1)


def test_manual_seed_makes_random_tensors_repeatable():
    torch.manual_seed(7)
    first = torch.rand(5).tolist(), torch.randn(3).tolist()
    torch.manual_seed(7)
    assert (torch.rand(5).tolist(), torch.randn(3).tolist()) == first
    values = torch.rand(1000)
    assert all(0.0 <= v < 1.0 for v in values.tolist())
    with raises(NotImplementedError, "\"check_uniform_bounds\" not implemented for 'Long'"):
        torch.rand(2, dtype=torch.int64)


def test_leaf_attributes():
    t = torch.ones(2, requires_grad=True)
    assert (t.is_leaf, t.grad_fn, t.grad, t.output_nr, t._version) == (True, None, None, 0, 0)
    assert t.device == torch.device("cpu") and str(t.device) == "cpu"
    assert repr(t.device) == "device(type='cpu')" and t.device != "cpu"
    assert repr(t.layout) == "torch.strided" and t.is_sparse is False
    assert t._base is None and not t._is_view() and not t.is_inference()
    assert torch.ones(2).is_leaf and not torch.ones(2).requires_grad


def test_grad_assignment_rules():
    t = torch.ones(2, requires_grad=True)
    t.grad = torch.full((2,), 3.0)
    assert t.grad.tolist() == [3.0, 3.0]
    t.grad = None
    assert t.grad is None
    with raises(RuntimeError, "attempting to assign a gradient of size '[3]' to a tensor of size "
                "'[2]'. Please ensure that the gradient and the tensor are the same size"):
        t.grad = torch.ones(3)
    message = "assigned grad expected to be a Tensor or None but got grad of type int"
    with raises(TypeError, message):
        t.grad = 3
    with pytest.raises(RuntimeError, match="^attempting to assign a gradient with dtype"):
        t.grad = torch.ones(2, dtype=torch.float64)


def test_version_is_read_only():
    with pytest.raises(AttributeError, match="'_version'.* is not writable"):
        torch.ones(2)._version = 3


def test_detach_shares_storage_and_version_but_data_does_not():
    x = torch.ones(2, requires_grad=True)
    d = x.detach()
    assert d.data_ptr() == x.data_ptr() and not d.requires_grad and d.is_leaf
    assert x.data.data_ptr() == x.data_ptr() and not x.data.requires_grad


def test_python_conversions():
    assert torch.tensor(3).item() == 3 and isinstance(torch.tensor(3).item(), int)
    assert torch.tensor([2.5]).item() == 2.5 and torch.tensor(2.0).tolist() == 2.0
    assert int(torch.tensor(2.7)) == 2 and float(torch.tensor([1.5])) == 1.5
    assert bool(torch.tensor([True])) and not bool(torch.tensor(0.0))
    with raises(RuntimeError, "a Tensor with 2 elements cannot be converted to Scalar"):
        torch.ones(2).item()
    with raises(ValueError, "only one element tensors can be converted to Python scalars"):
        float(torch.ones(2))
    with raises(RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"):
        bool(torch.ones(2))
    with raises(RuntimeError, "Boolean value of Tensor with no values is ambiguous"):
        bool(torch.ones(0))
    with raises(TypeError, "len() of a 0-d tensor"):
        len(torch.tensor(1.0))


def test_numpy_refuses_a_tensor_that_requires_grad():
    t = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "Can't call numpy() on Tensor that requires grad. "
                "Use tensor.detach().numpy() instead."):
        t.numpy()
    array = t.detach().numpy()
    assert isinstance(array, np.ndarray) and array.tolist() == [1.0, 1.0]
    assert np.asarray(torch.tensor([1, 2])).tolist() == [1, 2]


def test_size_index_errors():
    message = "Dimension out of range (expected to be in range of [-1, 0], but got 2)"
    with raises(IndexError, message):
        torch.ones(2).size(2)


def test_legacy_constructor():
    assert torch.Tensor([1, 2]).dtype is torch.float32
    assert torch.Tensor(2, 3).shape == (2, 3) and torch.Tensor().shape == (0,)
    with raises(TypeError, "new(): data must be a sequence (got float)"):
        torch.Tensor(2.5)


def test_parameter():
    base = torch.ones(2)
    p = torch.nn.Parameter(base)
    assert isinstance(p, torch.Tensor) and p.requires_grad and p.is_leaf
    assert p.data_ptr() == base.data_ptr()
    assert repr(p) == str(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert repr(torch.nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"
    assert not torch.nn.Parameter(base, requires_grad=False).requires_grad
    with raises(RuntimeError, ONLY_FLOAT):
        torch.nn.Parameter(torch.tensor([1, 2]))


def test_sizes_devices_and_dtypes_print_as_torch():
    assert repr(torch.Size([2, 3])) == str(torch.Size([2, 3])) == "torch.Size([2, 3])"
    assert type(torch.Size([2, 3])[1:]) is torch.Size and torch.Size([2, 3]).numel() == 6
    assert repr(torch.device("cuda", 1)) == "device(type='cuda', index=1)"
    assert str(torch.device("cuda:1")) == "cuda:1" and torch.device("cuda").index is None
    assert repr(torch.float32) == str(torch.float) == "torch.float32"
    assert torch.double is torch.float64
    assert pickle.loads(pickle.dumps(torch.float16)) is torch.float16
    assert (torch.float32.is_floating_point, torch.int64.is_floating_point) == (True, False)
    assert (torch.uint8.is_signed, torch.int8.is_signed, torch.float16.itemsize) == (False, True, 2)
    assert torch.get_default_dtype() is torch.float32


def test_legacy_type_names_and_get_device_on_the_cpu():
    x = torch.tensor([1.5, 2.5], requires_grad=True)
    assert (x.type(), x.get_device()) == ("torch.FloatTensor", -1)
    assert torch.ones(2, dtype=torch.int64).type() == "torch.LongTensor"
    assert torch.ones(2, dtype=torch.bool).type() == "torch.BoolTensor"
    assert x.type(torch.float32) is x and x.type("torch.FloatTensor") is x
    converted = x.type("torch.IntTensor")
    assert converted.dtype is torch.int32 and converted.tolist() == [1, 2]
    doubled = x.type(torch.float64)
    assert doubled.grad_fn.name() == "ToCopyBackward0"
    doubled.sum().backward()
    assert x.grad.dtype is torch.float32 and x.grad.tolist() == [1.0, 1.0]
    assert x.type("torch.Tensor") is x  # the default dtype's type
    with raises(ValueError, "invalid type: 'torch.Float'"):
        x.type("torch.Float")
    with raises(TypeError, "dtype must be a type, str, or dtype object"):
        x.type(3)


@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ("int64", "float16", "float16"), ("uint8", "int8", "int16"), ("bool", "int32", "int32"),
        ("float32", "float64", "float64"), ("int32", "int64", "int64"),
    ],
)
def test_promote_types(a, b, result):
    assert torch.promote_types(getattr(torch, a), getattr(torch, b)) is getattr(torch, result)


def test_typename():
    assert torch.typename(torch.ones(2)) == "torch.FloatTensor"
    assert torch.typename(torch.tensor([1])) == "torch.LongTensor"
    assert torch.typename(1) == "int" and torch.is_tensor(torch.ones(1))
    assert not torch.is_tensor([1]) and torch.numel(torch.ones(2, 3)) == 6


def test_factories_and_parameters_honour_requires_grad_under_no_grad():
    with torch.no_grad():
        factories = (torch.ones, torch.zeros, torch.rand, torch.randn)
        made = [f(2, requires_grad=True) for f in factories]
        made.append(torch.tensor([1.0], requires_grad=True))
        made.append(torch.ones(2).requires_grad_())
        made.append(torch.nn.Parameter(torch.rand(10)))
    assert all(t.requires_grad and t.is_leaf for t in made)


# F151, F152, F153
def test_parameters_and_inference_mode():
    with torch.inference_mode():
        inside = torch.nn.Parameter(torch.ones(2))
        plain = torch.ones(2)
    assert inside.requires_grad and inside.is_inference() and torch.is_inference(plain)
    with raises(RuntimeError, "Setting requires_grad=True on inference tensor outside "
                "InferenceMode is not allowed."):
        torch.nn.Parameter(plain)
    with raises(RuntimeError, "Inference tensors do not track version counter."):
        plain._version


def test_format_of_a_0d_tensor_is_its_number():
    assert f"{torch.tensor(1.5)}" == "1.5" and format(torch.tensor(1.5), ".2f") == "1.50"
    assert f"{torch.tensor(3)}" == "3" and f"{torch.tensor(1.5, requires_grad=True)}" == "1.5"
    assert f"{torch.ones(2)}" == str(torch.ones(2)) == "tensor([1., 1.])"
    with pytest.raises(TypeError, match=r"^unsupported format string passed to Tensor.__format__$"):
        format(torch.ones(2), ".2f")


def test_new_factories_take_dtype_and_device_from_the_tensor():
    import warnings

    t = torch.ones(2, dtype=torch.int64, requires_grad=False)
    assert t.new_zeros(2, 3).dtype is torch.int64 and t.new_zeros((2,)).tolist() == [0, 0]
    assert t.new_ones(2, dtype=torch.float32).tolist() == [1.0, 1.0]
    assert t.new_full((2,), 3.7).tolist() == [3, 3] and t.new_empty(0).shape == (0,)
    assert t.new_tensor([1.5, 2]).tolist() == [1, 2]
    grad = torch.ones(2, requires_grad=True)
    assert not grad.new_zeros(2).requires_grad and grad.new_ones(2, requires_grad=True).is_leaf
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        copied = t.new_tensor(torch.tensor([1.5]))
    assert copied.tolist() == [1] and str(caught[0].message) == (
        "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone()"
        " or sourceTensor.detach().clone().requires_grad_(True), rather than "
        "tensor.new_tensor(sourceTensor).")


def test_new_factories_refuse_what_torch_refuses():
    t = torch.zeros(3)
    assert t.new_zeros(size=(2,)).tolist() == [0.0, 0.0]
    assert t.new_full(size=(2,), fill_value=3.0).tolist() == [3.0, 3.0]
    with raises(TypeError, 'new_zeros() missing 1 required positional arguments: "size"'):
        t.new_zeros()
    with raises(TypeError, "new_full(): argument 'size' (position 1) must be tuple of ints, "
                           "not int"):
        t.new_full(2, 3.0)


def test_type_takes_classes_and_devices_take_numbers():
    x = torch.zeros(3)
    assert x.type(torch.Tensor) is x
    with raises(ValueError, "invalid type: 'float'"):
        x.type(float)
    with raises(RuntimeError, "Device index must not be negative"):
        torch.device(-1)
    with pytest.raises(TypeError, match=r"^device\(\) received an invalid combination of "
                       r"arguments - got \(bool\)"):
        torch.device(True)


_GRID = (2, 3, 4)  # torch.arange(24.0).reshape(2, 3, 4), made inside each case


@pytest.mark.parametrize(("make", "stride", "offset", "contiguous"), [
    (lambda a: a, (12, 4, 1), 0, True),
    (lambda a: a.unsqueeze(1), (12, 12, 4, 1), 0, True),
    (lambda a: a.unsqueeze(-1), (12, 4, 1, 1), 0, True),
    (lambda a: a.view(6, 4), (4, 1), 0, True),
    (lambda a: a.permute(2, 0, 1), (1, 12, 4), 0, False),
    (lambda a: a.transpose(0, 2), (1, 4, 12), 0, False),
    (lambda a: a[1], (4, 1), 12, True),
    (lambda a: a[:, 1], (12, 1), 4, False),
    (lambda a: a[:, ::2], (12, 8, 1), 0, False),
    (lambda a: a.narrow(2, 1, 2), (12, 4, 1), 1, False),
    (lambda a: a.diagonal(0, 1, 2), (12, 5), 0, False),
    (lambda a: a.unbind(1)[2], (12, 1), 8, False),
    (lambda a: a[:, :1].expand(2, 5, 4), (12, 0, 1), 0, False),
    (lambda a: a.split(2, dim=2)[1], (12, 4, 1), 2, False),
    (lambda a: a[1, 2, 3], (), 23, True),
    (lambda a: a[0].t().unsqueeze(1), (1, 12, 4), 0, False),
    (lambda a: a.sum(1, keepdim=True), (4, 4, 1), 0, True),  # a new tensor, not a view
])
def test_strides_and_storage_offsets_of_views(make, stride, offset, contiguous):
    t = make(torch.arange(24.0).reshape(_GRID))
    assert t.stride() == stride and type(t.stride()) is tuple
    assert t.storage_offset() == offset and t.is_contiguous() is contiguous
    assert all(t.stride(d) == s and t.stride(d - t.dim()) == s for d, s in enumerate(stride))
    assert t.detach().stride() == stride and t.detach().storage_offset() == offset


@pytest.mark.parametrize("make", [
    lambda: torch.ones(2, 0),
    lambda: torch.empty(0),
    lambda: torch.ones(3, 4)[:, 2:2],
    lambda: torch.ones(3, 4)[3:],
    lambda: torch.ones(2, 0).t().clone(),
])
def test_a_tensor_without_elements_has_no_data_pointer(make):
    t = make()
    assert t.data_ptr() == 0 and t.const_data_ptr() == 0
    assert torch.ones(1).data_ptr() != 0


def test_stride_of_a_dimension_that_is_not_there():
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        torch.tensor(2.0).stride(0)
    out_of_range = "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    with raises(IndexError, out_of_range):
        torch.ones(2, 3).stride(2)
    with raises(TypeError, "stride(): argument 'dim' (position 1) must be int, not str"):
        torch.ones(2, 3).stride("x")


def test_an_empty_tensor_has_the_strides_of_a_fresh_row_major_one():
    assert torch.zeros(0, 1).stride() == (1, 1)
    assert torch.zeros(2, 0, 3).stride() == (3, 3, 1)
    assert torch.zeros(0).stride() == (1,)
    assert torch.zeros(0, 3).stride() == (3, 1)


def _layout(t):
    return tuple(t.shape), t.stride(), t.storage_offset()


def test_views_of_an_empty_tensor_move_its_strides_as_they_would_a_full_ones():
    e = torch.zeros(0, 3)
    assert _layout(e.t()) == _layout(e.T) == _layout(e.transpose(0, 1)) == ((3, 0), (1, 3), 0)
    assert _layout(torch.zeros(2, 0, 3).mT) == ((2, 3, 0), (3, 1, 3), 0)
    assert torch.zeros(2, 0, 3).permute(2, 0, 1).stride() == (1, 3, 3)
    assert torch.zeros(2, 0, 3).movedim(0, 2).stride() == (3, 1, 3)
    assert torch.zeros(0, 3, 0).permute(2, 1, 0).stride() == (1, 1, 3)
    assert torch.zeros(1, 0, 3).expand(2, 0, 3).stride() == (0, 3, 1)
    assert torch.zeros(0).expand(4, 0).stride() == (0, 1)
    assert e.unsqueeze(0).stride() == (0, 3, 1) and e.unsqueeze(1).stride() == (3, 3, 1)
    assert e.t()[None].stride() == (3, 1, 3) and e.t()[:, None].stride() == (1, 0, 3)
    assert e.unfold(1, 2, 1).stride() == (3, 1, 1) and e.diagonal().stride() == (4,)
    assert e.t().contiguous().stride() == (1, 3) and e.t().t().stride() == (3, 1)
    assert e.t().detach().stride() == (1, 3) and e.t()[...].stride() == (1, 3)
    assert torch.zeros(4, 3)[:0].t().stride() == (1, 3)


def test_a_new_leading_dimension_of_size_one_steps_over_the_one_after_it():
    assert torch.zeros(3).expand(1, 3).stride() == (3, 1)
    assert torch.zeros(3).expand(1, 1, 3).stride() == (3, 3, 1)
    assert torch.zeros(3).expand(2, 1, 3).stride() == (0, 3, 1)
    assert torch.zeros(2, 1).expand(1, 2, 3).stride() == (2, 1, 0)
    assert torch.zeros(4, 3).expand(1, 1, 4, -1).stride() == (12, 12, 3, 1)
    assert torch.zeros(4, 3)[:, :2].expand(1, 4, 2).stride() == (12, 3, 1)
    assert torch.zeros(4, 3).t().expand(1, 3, 4).stride() == (3, 1, 3)
    assert torch.zeros(()).expand(1, 1).stride() == (0, 0)
    assert [t.stride() for t in torch.broadcast_tensors(torch.zeros(3), torch.zeros(1, 3))] == [
        (3, 1), (3, 1)]
    assert torch.broadcast_to(torch.zeros(3), (1, 3)).stride() == (3, 1)


def test_an_empty_slice_starts_where_torch_would_start_it():
    x = torch.zeros(3, 4)
    assert _layout(x[:, :0]) == ((3, 0), (4, 1), 0)
    assert _layout(x[1:1, 1:]) == ((0, 3), (4, 1), 5)
    assert _layout(x[2:2]) == ((0, 4), (4, 1), 8) and x[5:].storage_offset() == 12
    assert _layout(x[:, 2:2]) == ((3, 0), (4, 1), 2)
    assert _layout(x[::2, :0]) == ((2, 0), (8, 1), 0)
    assert _layout(x.t()[:0]) == ((0, 3), (1, 4), 0)
    assert x.narrow(1, 1, 0).storage_offset() == 1 and x.t()[1:1].storage_offset() == 1
    assert _layout(torch.zeros(2, 0, 3)[1]) == ((0, 3), (3, 1), 3)
    assert _layout(torch.zeros(2, 0, 3).select(0, 1)) == ((0, 3), (3, 1), 3)
    assert torch.zeros(0, 4).chunk(2, 1)[1].storage_offset() == 2
    empty = x[:, 2:2]
    assert _layout(empty.t()) == ((0, 3), (1, 4), 2)
    assert _layout(empty[1:]) == ((2, 0), (4, 1), 6) and _layout(empty[1]) == ((0,), (1,), 6)
    assert _layout(x[3:][:, 1:]) == ((0, 3), (4, 1), 13)
    assert _layout(x[3:].as_strided((0, 2), (1, 1), 5)) == ((0, 2), (1, 1), 5)


def test_an_empty_piece_of_a_split_starts_where_its_run_starts():
    x = torch.arange(6.0)
    assert [p.storage_offset() for p in x.split([3, 0, 3])] == [0, 3, 3]
    rows = torch.zeros(2, 3).split([1, 0, 1])
    assert [_layout(p) for p in rows] == [((1, 3), (3, 1), 0), ((0, 3), (3, 1), 3),
                                          ((1, 3), (3, 1), 3)]
    assert torch.zeros(2, 3).t().split([1, 0, 1], 1)[1].storage_offset() == 3
    assert x.split([6, 0])[1].storage_offset() == 6 and x.split([6, 0])[1].data_ptr() == 0


def test_reading_a_gradient_given_to_a_non_leaf_does_not_warn():
    x = torch.ones(2, requires_grad=True) * 2
    with pytest.warns(UserWarning, match=r"^The \.grad attribute of a Tensor that is not a leaf"):
        assert x.grad is None
    x.grad = torch.full((2,), 3.0)
    assert x.grad.tolist() == [3.0, 3.0]  # no warning: the suite turns warnings into errors


def test_a_tensor_is_not_its_own_gradient_and_a_gradient_can_be_deleted():
    a = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "can't assign Variable as its own grad"):
        a.grad = a
    a.grad = torch.ones(2)
    del a.grad
    assert a.grad is None


@pytest.mark.parametrize("value, name", [(1, "int"), (0, "int"), (None, "NoneType"),
                                         (np.bool_(True), "numpy.bool")])
def test_requires_grad_underscore_takes_a_bool_only(value, name):
    with raises(TypeError, "requires_grad_(): argument 'requires_grad' (position 1) must be "
                           f"bool, not {name}"):
        torch.ones(2).requires_grad_(value)
    assert torch.ones(2).requires_grad_(True).requires_grad


def test_data_assignment_checks_what_it_is_given():
    with raises(TypeError, "Variable data has to be a tensor, but got int"):
        torch.ones(2).data = 3
    a = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "data set to a tensor that requires gradients must be floating "
                              "point or complex dtype"):
        a.data = torch.ones(2, dtype=torch.int64)
    a.data = torch.zeros(3, dtype=torch.float64)
    (a * 2).sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 2.0] and a.grad.dtype == torch.float64


def test_data_follows_the_inference_of_its_tensor_not_the_mode():
    x = torch.ones(2)
    with torch.inference_mode():
        inside = x.data
        inference = torch.ones(2)
    assert not inside.is_inference() and inference.data.is_inference()
    inside.add_(1.0)  # a normal tensor: written outside inference mode
    y = torch.ones(2)
    y.data = inference
    assert y.is_inference()
    y.data = torch.ones(2)
    assert not y.is_inference() and y._version == 0
