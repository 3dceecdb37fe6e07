"""Black-box tests: arguments of the wrong type, count or name get torch's TypeError and text."""

import numpy as np
import pytest
import torch

from conformance._support import raises

# Each call is written as torch code; x is 2 x 3, b is 2 x 3 x 3, t0 a 0-d int64 tensor.
CALLS = [
    ('torch.neg("a")', "neg(): argument 'input' (position 1) must be Tensor, not str"),
    ('torch.mul("a", x)', "mul(): argument 'input' (position 1) must be Tensor, not str"),
    ("torch.add([1], x)", "add(): argument 'input' (position 1) must be Tensor, not list"),
    ("torch.tanh((1,))", "tanh(): argument 'input' (position 1) must be Tensor, not tuple"),
    ('torch.atan2("a", x)', "atan2(): argument 'input' (position 1) must be Tensor, not str"),
    ('x.transpose(0, "a")',
     "transpose(): argument 'dim1' (position 2) must be int, not str"),
    ('torch.transpose(x, 0, "a")',
     "transpose(): argument 'dim1' (position 3) must be int, not str"),
    ('x.transpose(0)',
     'transpose() missing 1 required positional arguments: "dim1"'),
    ('x.transpose(0, 1, 2)',
     'transpose() takes 2 positional arguments but 3 were given'),
    ('x.transpose(0, dim2=1)',
     'transpose() missing 1 required positional arguments: "dim1"'),
    ('x.transpose(True, 0)',
     "transpose(): argument 'dim0' (position 1) must be int, not bool"),
    ('x.transpose(1.0, 0)',
     "transpose(): argument 'dim0' (position 1) must be int, not float"),
    ('x.transpose(None, 0)',
     "transpose(): argument 'dim0' (position 1) must be int, not NoneType"),
    ('torch.transpose(x, 0)',
     'transpose() missing 1 required positional arguments: "dim1"'),
    ('torch.transpose("a", 0, 1)',
     "transpose(): argument 'input' (position 1) must be Tensor, not str"),
    ('torch.swapaxes(x, 0, "a")',
     "swapaxes(): argument 'axis1' (position 3) must be int, not str"),
    ('x.swapaxes(0, "a")',
     "swapaxes(): argument 'axis1' (position 2) must be int, not str"),
    ('x.swapdims(0, "a")',
     "swapdims(): argument 'dim1' (position 2) must be int, not str"),
    ('torch.swapdims(x, "a", 0)',
     "swapdims(): argument 'dim0' (position 2) must be int, not str"),
    ('x.sum("a")',
     'sum() received an invalid combination of arguments - got (str), but expected one '
     'of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, '
     '*, torch.dtype dtype = None)\n'),
    ('torch.sum(x, "a")',
     'sum() received an invalid combination of arguments - got (Tensor, str), but expected '
     'one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, tuple of '
     'ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n'),
    ('torch.sum(x, dims=0)',
     'sum() received an invalid combination of arguments - got (Tensor, dims=int), but '
     'expected one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, '
     'tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = '
     'None)\n'),
    ('x.sum(0, "a")',
     "sum(): argument 'keepdim' (position 2) must be bool, not str"),
    ('x.sum((0, "a"))',
     'sum(): argument \'dim\' failed to unpack the object at pos 2 with error "type must be '
     'tuple of ints,but got str"'),
    ('x.sum(True)',
     'sum() received an invalid combination of arguments - got (bool), but expected one '
     'of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, '
     '*, torch.dtype dtype = None)\n'),
    ('x.sum(1.5)',
     'sum() received an invalid combination of arguments - got (float), but expected one '
     'of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, '
     '*, torch.dtype dtype = None)\n'),
    ('x.mean("a")',
     'mean() received an invalid combination of arguments - got (str), but expected one '
     'of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, '
     '*, torch.dtype dtype = None)\n'),
    ('torch.mean(x, "a")',
     'mean() received an invalid combination of arguments - got (Tensor, str), but expected '
     'one of:\n * (Tensor input, *, torch.dtype dtype = None, Tensor out = None)\n * '
     '(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, '
     'Tensor out = None)\n'),
    ('x.mean(0, "a")',
     "mean(): argument 'keepdim' (position 2) must be bool, not str"),
    ('x.view(2.0, 3)',
     'view() received an invalid combination of arguments - got (float, int), but expected '
     'one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n'),
    ('x.view("a")',
     'view() received an invalid combination of arguments - got (str), but expected one '
     "of:\n * (torch.dtype dtype)\n      didn't match because some of the arguments have "
     "invalid types: (!str!)\n * (tuple of ints size)\n      didn't match because some of "
     'the arguments have invalid types: (!str!)\n'),
    ('x.view((2, 3.0))',
     'view(): argument \'size\' failed to unpack the object at pos 2 with error "type must '
     'be tuple of ints,but got float"'),
    ('x.reshape("a")',
     "reshape(): argument 'shape' (position 1) must be tuple of ints, not str"),
    ('torch.reshape(x, "a")',
     "reshape(): argument 'shape' (position 2) must be tuple of ints, not str"),
    ('torch.reshape(x, 6)',
     "reshape(): argument 'shape' (position 2) must be tuple of ints, not int"),
    ('x.reshape(2.0, 3)',
     'reshape() takes 1 positional argument but 2 were given'),
    ('x.reshape(size=(6,))',
     'reshape() missing 1 required positional arguments: "shape"'),
    ('x.expand("a")',
     "expand(): argument 'size' (position 1) must be tuple of ints, not str"),
    ('x.expand(2, "a")',
     'expand(): argument \'size\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got str"'),
    ('x.expand(2, 3, foo=1)',
     "expand() got an unexpected keyword argument 'foo'"),
    ('x.flatten("a")',
     "flatten(): argument 'start_dim' (position 1) must be int, not str"),
    ('torch.flatten(x, "a")',
     "flatten(): argument 'start_dim' (position 2) must be int, not str"),
    ('x.flatten(0, 1, 2)',
     'flatten() takes from 0 to 2 positional arguments but 3 were given'),
    ('x.flatten(0, None)',
     "flatten(): argument 'end_dim' (position 2) must be int, not NoneType"),
    ('x.flatten(start=0)',
     "flatten() got an unexpected keyword argument 'start'"),
    ('x.unsqueeze(None)',
     "unsqueeze(): argument 'dim' (position 1) must be int, not NoneType"),
    ('torch.unsqueeze(x, None)',
     "unsqueeze(): argument 'dim' (position 2) must be int, not NoneType"),
    ('x.unsqueeze(1.0)',
     "unsqueeze(): argument 'dim' (position 1) must be int, not float"),
    ('x.unsqueeze((0,))',
     "unsqueeze(): argument 'dim' (position 1) must be int, not tuple"),
    ('x.unsqueeze()',
     'unsqueeze() missing 1 required positional arguments: "dim"'),
    ('x.unsqueeze(0, 1)',
     'unsqueeze() takes 1 positional argument but 2 were given'),
    ('x.squeeze("a")',
     'squeeze() received an invalid combination of arguments - got (str), but expected one '
     "of:\n * ()\n      didn't match because some of the arguments have invalid types: "
     "(!str!)\n * (int dim)\n      didn't match because some of the arguments have invalid "
     "types: (!str!)\n * (tuple of ints dim)\n      didn't match because some of the "
     'arguments have invalid types: (!str!)\n'),
    ('torch.squeeze(x, "a")',
     'squeeze() received an invalid combination of arguments - got (Tensor, str), but '
     "expected one of:\n * (Tensor input)\n * (Tensor input, int dim)\n      didn't match "
     'because some of the arguments have invalid types: (Tensor, !str!)\n * (Tensor input, '
     "tuple of ints dim)\n      didn't match because some of the arguments have invalid "
     'types: (Tensor, !str!)\n'),
    ('x.squeeze((0, "a"))',
     'squeeze(): argument \'dim\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got str"'),
    ('x.squeeze(None)',
     'squeeze() received an invalid combination of arguments - got (NoneType), but expected '
     "one of:\n * ()\n      didn't match because some of the arguments have invalid types: "
     "(!NoneType!)\n * (int dim)\n      didn't match because some of the arguments have "
     "invalid types: (!NoneType!)\n * (tuple of ints dim)\n      didn't match because some "
     'of the arguments have invalid types: (!NoneType!)\n'),
    ('x.squeeze(1.0)',
     'squeeze() received an invalid combination of arguments - got (float), but expected '
     "one of:\n * ()\n      didn't match because some of the arguments have invalid types: "
     "(!float!)\n * (int dim)\n      didn't match because some of the arguments have "
     "invalid types: (!float!)\n * (tuple of ints dim)\n      didn't match because some of "
     'the arguments have invalid types: (!float!)\n'),
    ('x.permute(0, "a")',
     'permute(): argument \'dims\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got str"'),
    ('torch.permute(x, 0, 1)',
     'permute() takes 2 positional arguments but 3 were given'),
    ('torch.permute(x, (0, "a"))',
     'permute(): argument \'dims\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got str"'),
    ('x.permute("a")',
     "permute(): argument 'dims' (position 1) must be tuple of ints, not str"),
    ('x.permute((0, 1), 2)',
     'permute() takes 1 positional argument but 2 were given'),
    ('x.permute([0, 1.0])',
     'permute(): argument \'dims\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got float"'),
    ('x.permute(None)',
     "permute(): argument 'dims' (position 1) must be tuple of ints, not NoneType"),
    ('x.mul("a")',
     "mul(): argument 'other' (position 1) must be Tensor, not str"),
    ('torch.mul(x, "a")',
     "mul(): argument 'other' (position 2) must be Tensor, not str"),
    ('x.mul(x, alpha=2)',
     "mul() got an unexpected keyword argument 'alpha'"),
    ('x.mul(None)',
     "mul(): argument 'other' (position 1) must be Tensor, not NoneType"),
    ('x.add("a")',
     "add(): argument 'other' (position 1) must be Tensor, not str"),
    ('torch.add(x, "a")',
     "add(): argument 'other' (position 2) must be Tensor, not str"),
    ('x.add(x, alpha="a")',
     "add(): argument 'alpha' must be Number, not str"),
    ('x.add(x, beta=1)',
     "add() got an unexpected keyword argument 'beta'"),
    ('x.sub("a")',
     "sub(): argument 'other' (position 1) must be Tensor, not str"),
    ('torch.sub(x, "a")',
     "sub(): argument 'other' (position 2) must be Tensor, not str"),
    ('x.div("a")',
     "div(): argument 'other' (position 1) must be Tensor, not str"),
    ('torch.div(x, "a")',
     "div(): argument 'other' (position 2) must be Tensor, not str"),
    ('x.div(x, rounding_mode=1)',
     'div() received an invalid combination of arguments - got (Tensor, rounding_mode=int), '
     'but expected one of:\n * (Tensor other)\n * (Tensor other, *, str rounding_mode)\n * '
     '(Number other, *, str rounding_mode)\n'),
    ('torch.mm(x, 3)',
     "mm(): argument 'mat2' (position 2) must be Tensor, not int"),
    ('x.mm(3)',
     "mm(): argument 'mat2' (position 1) must be Tensor, not int"),
    ('x.mm("a")',
     "mm(): argument 'mat2' (position 1) must be Tensor, not str"),
    ('torch.mm(3, x)',
     "mm(): argument 'input' (position 1) must be Tensor, not int"),
    ('torch.mm(x)',
     'mm() received an invalid combination of arguments - got (Tensor), but expected one '
     'of:\n * (Tensor input, Tensor mat2, *, Tensor out = None)\n * (Tensor input, Tensor '
     'mat2, torch.dtype out_dtype, *, Tensor out = None)\n'),
    ('x.mm(x, x)',
     'mm() takes 1 positional argument but 2 were given'),
    ('torch.bmm(b, 3)',
     "bmm(): argument 'mat2' (position 2) must be Tensor, not int"),
    ('b.bmm(3)',
     "bmm(): argument 'mat2' (position 1) must be Tensor, not int"),
    ('torch.matmul(x, 3)',
     "matmul(): argument 'other' (position 2) must be Tensor, not int"),
    ('x.matmul("a")',
     "matmul(): argument 'other' (position 1) must be Tensor, not str"),
    ('torch.matmul(x)',
     'matmul() missing 1 required positional arguments: "other"'),
    ('torch.cat(x)',
     "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    ('torch.cat([x, 3])',
     'expected Tensor as element 1 in argument 0, but got int'),
    ('torch.cat((x, x), "a")',
     "cat(): argument 'dim' (position 2) must be int, not str"),
    ('torch.cat((x, x), dim=None)',
     "cat(): argument 'dim' must be int, not NoneType"),
    ('torch.cat(3)',
     "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not int"),
    ('torch.cat([x, x], 0, 1)',
     'cat() takes from 1 to 2 positional arguments but 3 were given'),
    ('torch.cat()',
     'cat() missing 1 required positional arguments: "tensors"'),
    ('torch.stack(x)',
     "stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    ('torch.stack([x, 3])',
     'expected Tensor as element 1 in argument 0, but got int'),
    ('torch.stack((x, x), "a")',
     "stack(): argument 'dim' (position 2) must be int, not str"),
    ('torch.stack(3)',
     "stack(): argument 'tensors' (position 1) must be tuple of Tensors, not int"),
    ('torch.stack([x, x], dimm=0)',
     "stack() got an unexpected keyword argument 'dimm'"),
    ('x.transpose(0, 1.5)',
     "transpose(): argument 'dim1' (position 2) must be int, not float"),
    ('x.expand(2, 3.0)',
     'expand(): argument \'size\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got float"'),
    ('x.unsqueeze(torch.tensor(0.0))',
     "unsqueeze(): argument 'dim' (position 1) must be int, not Tensor"),
    ('x.unsqueeze(torch.ones(2))',
     "unsqueeze(): argument 'dim' (position 1) must be int, not Tensor"),
    ('x.transpose(0, torch.tensor([1]))',
     "transpose(): argument 'dim1' (position 2) must be int, not Tensor"),
    ('torch.sum(x, 0, True, torch.float64)',
     'sum() takes from 2 to 3 positional arguments but 4 were given'),
    ('torch.sum(x, 0, True, dtype="a")',
     "sum(): argument 'dtype' must be torch.dtype, not str"),
    ('torch.transpose(x, 0, 1, 2)',
     'transpose() takes 3 positional arguments but 4 were given'),
    ('torch.mul(x, x, x)',
     'mul() takes 2 positional arguments but 3 were given'),
    ('torch.add(x, x, 2)',
     'add() takes 2 positional arguments but 3 were given'),
    ('torch.sum(x, 0, dims=0, foo=1)',
     "sum() got an unexpected keyword argument 'dims'"),
    ('x.view((2, "a"), 3)',
     'view() received an invalid combination of arguments - got (tuple, int), but expected '
     'one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n'),
    ('x.view([2, 3], 3)',
     'view() received an invalid combination of arguments - got (list, int), but expected '
     'one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n'),
    ('x.view(x, 3)',
     'view() received an invalid combination of arguments - got (Tensor, int), but expected '
     'one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n'),
    ('x.view(None, 3)',
     'view() received an invalid combination of arguments - got (NoneType, int), but '
     'expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n'),
    ('torch.transpose(x)',
     'transpose() missing 2 required positional argument: "dim0", "dim1"'),
    ('torch.transpose()',
     'transpose() missing 3 required positional argument: "input", "dim0", "dim1"'),
    ('x.squeeze("a", dim=0)',
     'squeeze() received an invalid combination of arguments - got (str, dim=int), but '
     'expected one of:\n * ()\n * (int dim)\n * (tuple of ints dim)\n'),
    ('torch.sum(x, dim=0, input=x)',
     "sum() got multiple values for argument 'input'"),
    ('torch.transpose(x, 0, 1, dim0=0)',
     "transpose() got multiple values for argument 'dim0'"),
    ('torch.transpose(x, 0, dim0=1)',
     'transpose() missing 1 required positional arguments: "dim1"'),
    ('x.permute(["a", 1])',
     "permute(): argument 'dims' (position 1) must be tuple of ints, but found element of "
     'type str at pos 0'),
    ('x.permute(0, 1.5)',
     'permute(): argument \'dims\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got float"'),
    ('x.view(2, 3.5)',
     'view(): argument \'size\' failed to unpack the object at pos 2 with error "type must '
     'be tuple of ints,but got float"'),
    ('torch.cat((x, x), 0, dim=0)',
     "cat() got multiple values for argument 'dim'"),
    ('x.mean(dtype=1)',
     'mean() received an invalid combination of arguments - got (dtype=int, ), but expected '
     'one of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = '
     'False, *, torch.dtype dtype = None)\n'),
    ('x.flatten(0, end_dim=1.0)',
     "flatten(): argument 'end_dim' must be int, not float"),
    ('torch.stack([x, x], 1.0)',
     "stack(): argument 'dim' (position 2) must be int, not float"),
    ('torch.matmul(x, other=3)',
     "matmul(): argument 'other' must be Tensor, not int"),
    ('x.unsqueeze(dim=None)',
     "unsqueeze(): argument 'dim' must be int, not NoneType"),
    ('x.sum(torch.tensor([0, 1]))',
     'sum() received an invalid combination of arguments - got (Tensor), but expected one '
     'of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, '
     '*, torch.dtype dtype = None)\n'),
    ('torch.cat([x, x], True)',
     "cat(): argument 'dim' (position 2) must be int, not bool"),
    ('x.sum(0, None)',
     "sum(): argument 'keepdim' (position 2) must be bool, not NoneType"),
    ('x.squeeze(dim=None)',
     'squeeze() received an invalid combination of arguments - got (dim=NoneType, ), but '
     "expected one of:\n * ()\n      didn't match because some of the keywords were "
     "incorrect: dim\n * (int dim)\n      didn't match because some of the arguments have "
     "invalid types: (!dim=NoneType!, )\n * (tuple of ints dim)\n      didn't match because "
     'some of the arguments have invalid types: (!dim=NoneType!, )\n'),
    ('x.reshape([6.0])',
     "reshape(): argument 'shape' (position 1) must be tuple of ints, but found element of "
     'type float at pos 0'),
    ('torch.reshape(x, (6.0,))',
     "reshape(): argument 'shape' (position 2) must be tuple of ints, but found element of "
     'type float at pos 0'),
    ('torch.reshape(x, (6, "a"))',
     'reshape(): argument \'shape\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got str"'),
    ('torch.permute(x, dims=(0, "a"))',
     'permute(): argument \'dims\' failed to unpack the object at pos 2 with error "type '
     'must be tuple of ints,but got str"'),
    ('torch.permute(x, dims="a")',
     "permute(): argument 'dims' must be tuple of ints, not str"),
]


def _names():
    return {"torch": torch, "np": np, "x": torch.ones(2, 3), "b": torch.ones(2, 3, 3),
            "t0": torch.tensor(1)}


@pytest.mark.parametrize(("call", "message"), CALLS, ids=[c for c, _ in CALLS])
def test_wrong_arguments(call, message):
    with raises(TypeError, message):
        eval(call, _names())


@pytest.mark.parametrize(("call", "shape"), [
    ("x.transpose(0, dim1=1)", (3, 2)),
    ("x.transpose(dim0=0, dim1=1)", (3, 2)),
    ("x.transpose(np.int64(0), 1)", (3, 2)),
    ("x.swapaxes(axis0=0, axis1=1)", (3, 2)),
    ("torch.transpose(input=x, dim0=0, dim1=1)", (3, 2)),
    ("x.sum([0, 1])", ()),
    ("x.sum(None)", ()),
    ("x.sum(np.int64(0))", (3,)),
    ("x.sum((np.int64(0), 1))", ()),
    ("x.sum(dim=(0, 1))", ()),
    ("torch.sum(input=x, dim=0)", (3,)),
    ("x.mean(dim=None)", ()),
    ("x.view([2, 3])", (2, 3)),
    ("x.view(torch.Size([3, 2]))", (3, 2)),
    ("x.view(-1)", (6,)),
    ("x.reshape(shape=(6,))", (6,)),
    ("x.reshape(-1)", (6,)),
    ("torch.cat(tensors=[x], dim=0)", (2, 3)),
    ("torch.mean(x)", ()),
    ("x.div(x, rounding_mode='floor')", (2, 3)),
])
def test_right_arguments_still_work(call, shape):
    assert tuple(eval(call, _names()).shape) == shape


def test_a_refused_call_records_nothing():
    x = torch.ones(2, 3, requires_grad=True)
    with raises(TypeError, "mul(): argument 'other' (position 1) must be Tensor, not str"):
        (x * 2).mul("a")
    y = x.transpose(0, 1)
    assert y.grad_fn.name() == "TransposeBackward0"
    y.sum().backward()
    assert x.grad.shape == (2, 3)

