"""Black-box tests: NumPy's names for keywords (axis= for dim=, keepdims= for keepdim=)
and the keyword names of methods that take their sizes one by one, read as torch's parser
reads them. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises


def _x(requires_grad=False):
    return torch.arange(6.0).reshape(2, 3).requires_grad_(requires_grad)


def test_sum_method_takes_axis_and_keepdims():
    x = _x(True)
    assert torch.equal(x.sum(axis=0), x.sum(0))
    assert torch.equal(x.sum(axis=1, keepdims=True), x.sum(1, True))
    assert torch.equal(x.sum(0, keepdims=True), x.sum(0, True))
    assert torch.equal(x.sum(dim=0, keepdims=True), x.sum(0, keepdim=True))
    assert torch.equal(x.sum(axis=(0, 1)), x.sum((0, 1)))
    assert x.sum(axis=0, dtype=torch.float64).dtype == torch.float64
    assert x.sum(axis=None).shape == ()
    assert type(x.sum(axis=0).grad_fn).__name__ == type(x.sum(0).grad_fn).__name__
    x.sum(axis=torch.tensor(1)).sum().backward()
    assert x.grad.tolist() == [[1.0] * 3] * 2


def test_sum_refuses_axis_beside_dim_as_torch_does():
    x = _x()
    for call in (lambda: x.sum(0, axis=1), lambda: x.sum(dim=0, axis=0),
                 lambda: x.sum(axis=0, dim=0), lambda: torch.sum(x, 0, axis=1),
                 lambda: x.sum(axis=0, foo=1), lambda: x.sum(axis=0, keepdim=True,
                                                                keepdims=True)):
        with raises(TypeError, "sum() got an unexpected keyword argument 'axis'"):
            call()
    with raises(TypeError, "sum() got an unexpected keyword argument 'keepdims'"):
        x.sum(0, True, keepdims=True)
    with raises(TypeError, "sum(): argument 'keepdim' must be bool, not int"):
        x.sum(axis=0, keepdims=1)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], "
                            "but got 5)"):
        x.sum(axis=5)
    with raises(TypeError, "sum() received an invalid combination of arguments - got "
                           "(keepdims=bool, ), but expected one of:\n"
                           " * (*, torch.dtype dtype = None)\n"
                           " * (tuple of ints dim, bool keepdim = False, *, "
                           "torch.dtype dtype = None)\n"):
        x.sum(keepdims=True)


@pytest.mark.parametrize("name", ["mean", "amax", "prod", "argmax", "logsumexp", "nansum",
                                  "cumsum", "softmax", "unsqueeze", "median", "any"])
def test_a_second_name_for_dim_is_refused_as_unknown(name):
    x = _x()
    for call in (getattr(x, name), lambda **kw: getattr(torch, name)(x, **kw)):
        assert torch.equal(call(axis=1)[0] if name == "median" else call(axis=1),
                           call(dim=1)[0] if name == "median" else call(dim=1))
        with pytest.raises(TypeError) as refused:
            call(dim=0, axis=0)
        assert "axis" in str(refused.value)
        assert "every keyword" not in str(refused.value)


def test_keepdims_where_there_is_no_keepdim_names_the_axis():
    x = _x()
    for name in ("cumsum", "softmax", "unsqueeze", "cummax", "diff"):
        with raises(TypeError, f"{name}() got an unexpected keyword argument 'axis'"):
            getattr(x, name)(axis=0, keepdims=True)
        with raises(TypeError, f"{name}() got an unexpected keyword argument 'keepdims'"):
            getattr(x, name)(dim=0, keepdims=True)


def test_max_lists_both_names_as_incorrect():
    with raises(TypeError, "max() received an invalid combination of arguments - got (Tensor, "
                           "axis=int, dim=int), but expected one of:\n"
                           " * (Tensor input, *, Tensor out = None)\n"
                           "      didn't match because some of the keywords were incorrect: "
                           "axis, dim\n"
                           " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                           " * (Tensor input, int dim, bool keepdim = False, *, "
                           "tuple of Tensors out = None)\n"):
        torch.max(_x(), dim=0, axis=0)


def test_sizes_and_dims_by_name():
    x, y = _x(), torch.ones(2, 3)
    assert torch.equal(x.permute(dims=(1, 0)), x.permute(1, 0))
    assert torch.equal(x.permute(dims=[1, 0]), x.t())
    assert torch.equal(torch.permute(x, dims=(1, 0)), x.t())
    assert torch.equal(x.repeat(repeats=(1, 2)), x.repeat(1, 2))
    assert torch.equal(x.max(other=y), torch.maximum(x, y))
    assert torch.equal(x.min(other=y), torch.minimum(x, y))
    assert torch.equal(torch.max(x, other=y), torch.maximum(x, y))
    assert torch.equal(torch.min(x, other=y), torch.minimum(x, y))
    assert torch.equal(x.view(size=(3, 2)), x.view(3, 2))
    assert torch.equal(x.reshape(shape=(3, 2)), x.reshape(3, 2))
    assert torch.equal(x.expand(size=(2, 2, 3)), x.expand(2, 2, 3))
    assert torch.equal(x.tile(dims=(1, 2)), x.tile(1, 2))
    assert torch.equal(x.flip(dims=(0,)), x.flip(0))
    assert x.new_zeros(size=(2,)).tolist() == [0.0, 0.0]


def test_roll_takes_none_for_its_dims():
    x = _x()
    flat = x.roll(1)
    assert torch.equal(torch.roll(x, 1, dims=None), flat)
    assert torch.equal(torch.roll(x, shifts=1, dims=None), flat)
    assert torch.equal(x.roll(1, None), flat)
    with raises(TypeError, "roll(): argument 'shifts' (position 2) must be tuple of ints, "
                           "not NoneType"):
        torch.roll(x, None)


def test_sizes_by_name_refused_as_torch_refuses_them():
    x = _x()
    with raises(RuntimeError, "permute(): duplicate dims are not allowed."):
        x.permute(dims=(0, 0))
    with raises(TypeError, "permute() got multiple values for argument 'dims'"):
        x.permute(1, 0, dims=(1, 0))
    for name, key in (("permute", "dims"), ("repeat", "repeats"), ("tile", "dims"),
                      ("flip", "dims"), ("reshape", "shape"), ("expand", "size"),
                      ("new_zeros", "size")):
        with raises(TypeError, f"{name}(): argument '{key}' must be tuple of ints, not int"):
            getattr(x, name)(**{key: 3})
    with raises(TypeError, "max() got an unexpected keyword argument 'other'"):
        x.max(other=torch.ones(2, 3), dim=0)
