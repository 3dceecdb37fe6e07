"""Black-box tests: the factories read their arguments as torch's parser does.

Each refused call gets torch's exception and its message to the letter; each
accepted one the tensor torch makes. The same tables run on torch.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

_OPTIONS = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False")
_MADE = f"*, Tensor out = None, {_OPTIONS}"
_EYE = (f"int n, {_MADE}", f"int n, int m, {_MADE}")
_ARANGE = (f"Number end, {_MADE}", f"Number start, Number end, *, {_OPTIONS}",
           f"Number start, Number end, Number step = 1, {_MADE}")
_ENDS = ("Tensor start, Tensor end", "Number start, Tensor end", "Tensor start, Number end",
         "Number start, Number end")
_LINSPACE = tuple(f"{ends}, int steps, {_MADE}" for ends in _ENDS)
_LOGSPACE = tuple(f"{ends}, int steps, float base = 10.0, {_MADE}" for ends in _ENDS)


def _listing(name: str, got: str, forms: tuple) -> str:
    return (f"{name}() received an invalid combination of arguments - got {got}, but expected "
            "one of:\n" + "".join(f" * ({form})\n" for form in forms))


REFUSED = [
    ("torch.eye()", TypeError, _listing("eye", "()", _EYE)),
    ("torch.eye(2.0)", TypeError, "eye(): argument 'n' (position 1) must be int, not float"),
    ("torch.eye(True)", TypeError, "eye(): argument 'n' (position 1) must be int, not bool"),
    ("torch.eye(2, 3, 4)", TypeError, _listing("eye", "(int, int, int)", _EYE)),
    ("torch.eye(2, dtype=1)", TypeError, _listing("eye", "(int, dtype=int)", _EYE)),
    ("torch.eye(2, bogus=1)", TypeError, _listing("eye", "(int, bogus=int)", _EYE)),
    ("torch.eye(2, layout=1)", TypeError, _listing("eye", "(int, layout=int)", _EYE)),
    ("torch.eye(2, device=True)", TypeError, _listing("eye", "(int, device=bool)", _EYE)),
    ("torch.eye(-1)", RuntimeError, "n must be greater or equal to 0, got -1"),
    ("torch.arange()", TypeError, _listing("arange", "()", _ARANGE)),
    ("torch.arange('a')", TypeError,
     "arange(): argument 'end' (position 1) must be Number, not str"),
    ("torch.arange(None)", TypeError,
     "arange(): argument 'end' (position 1) must be Number, not NoneType"),
    ("torch.arange(T(2.5, requires_grad=True))", TypeError,
     "arange(): argument 'end' (position 1) must be Number, not Tensor"),
    ("torch.arange(T([3]))", TypeError,
     "arange(): argument 'end' (position 1) must be Number, not Tensor"),
    ("torch.arange(1, 2, 3, 4)", TypeError, _listing("arange", "(int, int, int, int)", _ARANGE)),
    ("torch.arange(1, bogus=2)", TypeError, _listing("arange", "(int, bogus=int)", _ARANGE)),
    ("torch.arange(3, step=2)", TypeError, _listing("arange", "(int, step=int)", _ARANGE)),
    ("torch.arange(3, requires_grad=1)", TypeError,
     _listing("arange", "(int, requires_grad=int)", _ARANGE)),
    ("torch.linspace(0, 1)", TypeError, _listing("linspace", "(int, int)", _LINSPACE)),
    ("torch.linspace(0, 1, 'a')", TypeError, _listing("linspace", "(int, int, str)", _LINSPACE)),
    ("torch.linspace(0, 1, 2.0)", TypeError,
     _listing("linspace", "(int, int, float)", _LINSPACE)),
    ("torch.linspace(0, 1, 3, 4)", TypeError,
     _listing("linspace", "(int, int, int, int)", _LINSPACE)),
    ("torch.linspace(0, 1, 3, bogus=1)", TypeError,
     _listing("linspace", "(int, int, int, bogus=int)", _LINSPACE)),
    ("torch.linspace(T([0.0]), 1, 3)", RuntimeError, "linspace only supports 0-dimensional "
     "start and end tensors, but got start with 1 dimension(s)."),
    ("torch.logspace(0, torch.ones(1, 1), 3)", RuntimeError, "logspace only supports "
     "0-dimensional start and end tensors, but got end with 2 dimension(s)."),
    ("torch.linspace(T([0.0]), torch.ones(1, 1), 3)", RuntimeError, "linspace only supports "
     "0-dimensional start and end tensors, but got start with 1 dimension(s) and end with 2 "
     "dimension(s)."),
    ("torch.logspace(0, 1, 3, 'a')", TypeError,
     _listing("logspace", "(int, int, int, str)", _LOGSPACE)),
    ("torch.logspace(0, 1, 3, base=None)", TypeError,
     _listing("logspace", "(int, int, int, base=NoneType)", _LOGSPACE)),
    ("torch.logspace(0, 1, 3, 2, 5)", TypeError,
     _listing("logspace", "(int, int, int, int, int)", _LOGSPACE)),
    ("torch.full()", TypeError, 'full() missing 2 required positional argument: "size", '
     '"fill_value"'),
    ("torch.full((2,))", TypeError, 'full() missing 1 required positional arguments: '
     '"fill_value"'),
    ("torch.full((2,), 1, 2)", TypeError, "full() takes 2 positional arguments but 3 were given"),
    ("torch.full((2,), 'a')", TypeError,
     "full(): argument 'fill_value' (position 2) must be Number, not str"),
    ("torch.full((2,), T([1.5]))", TypeError,
     "full(): argument 'fill_value' (position 2) must be Number, not Tensor"),
    ("torch.full(2, 1)", TypeError,
     "full(): argument 'size' (position 1) must be tuple of ints, not int"),
    ("torch.full((2,), 1, bogus=1)", TypeError, "full() got an unexpected keyword argument "
     "'bogus'"),
    ("torch.full((2,), 1, names=None)", TypeError, "full() got an unexpected keyword argument "
     "'names'"),
    ("torch.full((2,), 1, dtype='a')", TypeError,
     "full(): argument 'dtype' must be torch.dtype, not str"),
    ("torch.full((2,), 1.0, requires_grad=1)", TypeError,
     "full(): argument 'requires_grad' must be bool, not int"),
    ("torch.full((2,), 1.0, requires_grad=np.bool_(True))", TypeError,
     "full(): argument 'requires_grad' must be bool, not numpy.bool"),
    ("torch.full((2,), 1.0, pin_memory='s')", TypeError,
     "full(): argument 'pin_memory' must be bool, not str"),
    ("torch.full((2,), 1.0, device=np.bool_(True))", TypeError,
     "full(): argument 'device' must be torch.device, not numpy.bool"),
    ("torch.full((2,), 1.0, layout=1)", TypeError,
     "full(): argument 'layout' must be torch.layout, not int"),
    ("torch.full((2,), 1, out='s')", TypeError, "full(): argument 'out' must be Tensor, not str"),
    ("torch.tensor()", TypeError, 'tensor() missing 1 required positional arguments: "data"'),
    ("torch.tensor([1], [2])", TypeError, "tensor() takes 1 positional argument but 2 were given"),
    ("torch.tensor([1], bogus=1)", TypeError, "tensor() got an unexpected keyword argument "
     "'bogus'"),
    ("torch.tensor([1], layout=torch.strided)", TypeError,
     "tensor() got an unexpected keyword argument 'layout'"),
    ("torch.tensor([1.0], requires_grad=None)", TypeError,
     "tensor(): argument 'requires_grad' must be bool, not NoneType"),
    ("torch.tensor([1.0], pin_memory=None)", TypeError,
     "tensor(): argument 'pin_memory' must be bool, not NoneType"),
    ("torch.tensor([1], dtype=1)", TypeError, "tensor(): argument 'dtype' must be torch.dtype, "
     "not int"),
    ("torch.zeros_like()", TypeError, 'zeros_like() missing 1 required positional arguments: '
     '"input"'),
    ("torch.ones_like(x, 1)", TypeError, "ones_like() takes 1 positional argument but 2 were "
     "given"),
    ("torch.empty_like([1, 2])", TypeError,
     "empty_like(): argument 'input' (position 1) must be Tensor, not list"),
    ("torch.zeros_like(np.ones(2))", TypeError,
     "zeros_like(): argument 'input' (position 1) must be Tensor, not numpy.ndarray"),
    ("torch.zeros_like(x, bogus=1)", TypeError, "zeros_like() got an unexpected keyword "
     "argument 'bogus'"),
    ("torch.zeros_like(x, out=None)", TypeError, "zeros_like() got an unexpected keyword "
     "argument 'out'"),
    ("torch.ones_like(x, memory_format=1)", TypeError,
     "ones_like(): argument 'memory_format' must be torch.memory_format, not int"),
    ("torch.empty_like(x, dtype=1)", TypeError,
     "empty_like(): argument 'dtype' must be torch.dtype, not int"),
    ("torch.full_like()", TypeError, 'full_like() missing 2 required positional argument: '
     '"input", "fill_value"'),
    ("torch.full_like(x)", TypeError, 'full_like() missing 1 required positional arguments: '
     '"fill_value"'),
    ("torch.full_like(x, 1, 2)", TypeError, "full_like() takes 2 positional arguments but 3 "
     "were given"),
    ("torch.full_like(x, 'a')", TypeError,
     "full_like(): argument 'fill_value' (position 2) must be Number, not str"),
    ("torch.full_like(x, 1, dtype='a')", TypeError,
     "full_like(): argument 'dtype' must be torch.dtype, not str"),
    ("torch.empty_strided()", TypeError, 'empty_strided() missing 2 required positional '
     'argument: "size", "stride"'),
    ("torch.empty_strided((2,))", TypeError, 'empty_strided() missing 1 required positional '
     'arguments: "stride"'),
    ("torch.empty_strided((2,), (1,), 3)", TypeError, "empty_strided() takes 2 positional "
     "arguments but 3 were given"),
    ("torch.empty_strided((2,), 'a')", TypeError,
     "empty_strided(): argument 'stride' (position 2) must be tuple of ints, not str"),
    ("torch.empty_strided(2, (1,))", TypeError,
     "empty_strided(): argument 'size' (position 1) must be tuple of ints, not int"),
    ("torch.empty_strided((2, 1.5), (1, 1))", TypeError, "empty_strided(): argument 'size' "
     'failed to unpack the object at pos 2 with error "type must be tuple of ints,but got '
     'float"'),
    ("torch.empty_strided((2,), (1,), bogus=1)", TypeError,
     "empty_strided() got an unexpected keyword argument 'bogus'"),
    ("torch.empty_strided((2,), (1,), out=None)", TypeError,
     "empty_strided() got an unexpected keyword argument 'out'"),
    ("torch.empty_strided((2,), (1,), dtype=torch.int64, requires_grad=True)", RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    ("torch.empty_strided((2,), (-1,))", RuntimeError,
     "Storage size calculation overflowed with sizes=[2] and strides=[-1]"),
    ("torch.empty_strided((-2, 3), (1,))", RuntimeError,
     "Trying to create tensor with negative dimension -2: [-2, 3]"),
    ("torch.empty_strided((2, 3), (1,))", RuntimeError,
     "dimensionality of sizes (2) must match dimensionality of strides (1)"),
]


@pytest.mark.parametrize(("call", "kind", "message"), REFUSED, ids=[c for c, _, _ in REFUSED])
def test_a_refused_call_gets_torchs_exception_and_words(call, kind, message):
    with raises(kind, message):
        eval(call, {"torch": torch, "np": np, "T": torch.tensor, "x": torch.ones(2, 3)})


ACCEPTED = [
    ("torch.eye(2, m=3)", "torch.float32", [[1, 0, 0], [0, 1, 0]]),
    ("torch.eye(n=2, dtype=torch.int64)", "torch.int64", [[1, 0], [0, 1]]),
    ("torch.eye(T(2), requires_grad=None)", "torch.float32", [[1, 0], [0, 1]]),
    ("torch.eye(np.int64(1), layout=torch.strided, out=None)", "torch.float32", [[1]]),
    ("torch.arange(end=3)", "torch.int64", [0, 1, 2]),
    ("torch.arange(start=1, end=3)", "torch.int64", [1, 2]),
    ("torch.arange(0, 5, step=2)", "torch.int64", [0, 2, 4]),
    ("torch.arange(T(2.5))", "torch.float32", [0, 1, 2]),
    ("torch.arange(np.float32(2.5))", "torch.float32", [0, 1, 2]),
    ("torch.arange(True)", "torch.int64", [0]),
    ("torch.arange(3, dtype=None, device=None, pin_memory=None)", "torch.int64", [0, 1, 2]),
    ("torch.linspace(start=0, end=1, steps=3)", "torch.float32", [0, 0.5, 1]),
    ("torch.linspace(T(0.0), T(1.0), T(3))", "torch.float32", [0, 0.5, 1]),
    ("torch.linspace(np.float64(0), 1, np.int64(3))", "torch.float32", [0, 0.5, 1]),
    ("torch.logspace(0, 2, 3, base=2)", "torch.float32", [1, 2, 4]),
    ("torch.logspace(0, 2, 3, T(2.0))", "torch.float32", [1, 2, 4]),
    ("torch.full(size=(2,), fill_value=1)", "torch.int64", [1, 1]),
    ("torch.full((2,), T(1.5))", "torch.float32", [1.5, 1.5]),
    ("torch.full((T(2),), True)", "torch.bool", [True, True]),
    ("torch.full([1, 2], 7, requires_grad=None, out=None)", "torch.int64", [[7, 7]]),
    ("torch.tensor(data=[1])", "torch.int64", [1]),
    ("torch.zeros_like(input=x)", "torch.float32", [[0, 0, 0], [0, 0, 0]]),
    ("torch.ones_like(x, memory_format=None, requires_grad=None)", "torch.float32",
     [[1, 1, 1], [1, 1, 1]]),
    ("torch.full_like(x, T(3))", "torch.float32", [[3, 3, 3], [3, 3, 3]]),
    ("torch.full_like(x, 2, dtype=torch.int64, layout=torch.strided)", "torch.int64",
     [[2, 2, 2], [2, 2, 2]]),
]


@pytest.mark.parametrize(("call", "dtype", "values"), ACCEPTED, ids=[c for c, _, _ in ACCEPTED])
def test_an_accepted_call_makes_torchs_tensor(call, dtype, values):
    made = eval(call, {"torch": torch, "np": np, "T": torch.tensor, "x": torch.ones(2, 3)})
    assert str(made.dtype) == dtype and made.tolist() == values
    assert not made.requires_grad


def test_requires_grad_by_keyword_still_makes_a_leaf():
    for made in (torch.eye(2, requires_grad=True), torch.arange(3.0, requires_grad=True),
                 torch.full((2,), 1.0, requires_grad=True),
                 torch.zeros_like(torch.ones(2), requires_grad=True)):
        assert made.requires_grad and made.is_leaf and made.grad_fn is None


def test_the_copy_warning_names_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.tensor(torch.ones(2))
        torch.tensor(torch.ones(2), dtype=torch.float64)
    assert [w.filename for w in caught] == [__file__, __file__]
    assert caught[0].lineno + 1 == caught[1].lineno


WHOLE_RANGES = [
    ((0, 1, 0.25), torch.int32, [0, 0, 0, 0]),
    ((-2.5, 2.5, 1), torch.int64, [-2, -1, 0, 1]),
    ((-2.5, 2.5, 1), torch.int32, [-2, -1, 0, 1, 2]),
    ((0, 5, 1.9), torch.int64, [0, 1, 2, 3, 4]),
    ((0, 5, 1.9), torch.int32, [0, 1, 2]),
    ((5, 0, -1.5), torch.int64, [5, 4, 3, 2, 1]),
    ((5, 0, -1.5), torch.int8, [5, 4, 3, 2]),
    ((2.5,), torch.int64, [0, 1]),
    ((0, 10, 3), torch.int64, [0, 3, 6, 9]),
]


@pytest.mark.parametrize(("bounds", "dtype", "values"), WHOLE_RANGES)
def test_an_integer_range_cuts_its_bounds_first(bounds, dtype, values):
    made = torch.arange(*bounds, dtype=dtype)
    assert made.dtype is dtype and made.tolist() == values


def test_an_integer_range_refuses_a_step_cut_to_zero():
    with raises(ValueError, "step must be nonzero"):
        torch.arange(0, 1, 0.25, dtype=torch.int64)
    with raises(RuntimeError, "step must be nonzero"):
        torch.arange(0, 1, 0, dtype=torch.int64)
    with raises(NotImplementedError, "\"arange_cpu\" not implemented for 'Bool'"):
        torch.arange(0, 3, dtype=torch.bool)


def test_out_takes_the_values_in_its_own_dtype():
    ints = torch.empty(0, dtype=torch.int64)
    assert torch.eye(2, out=ints) is ints and ints.tolist() == [[1, 0], [0, 1]]
    assert ints._version == 1
    wide = torch.empty(3, dtype=torch.float64)
    assert torch.arange(3, out=wide).tolist() == [0.0, 1.0, 2.0] and wide.dtype is torch.float64
    assert torch.linspace(0, 5, 3, out=ints).tolist() == [0, 2, 5]
    assert torch.logspace(0, 2, 3, out=ints).tolist() == [1, 10, 100]
    assert torch.full((2,), 1.5, out=ints).tolist() == [1, 1]
    flags = torch.empty(0, dtype=torch.bool)
    assert torch.full((2,), 7, out=flags).tolist() == [True, True]


def test_out_takes_the_shape_of_the_values():
    out = torch.empty(5)
    assert torch.eye(2, 3, out=out).shape == (2, 3)
    assert torch.full((2, 2), 7.0, out=out).shape == (2, 2)
    assert torch.linspace(0, 1, 3, out=out).tolist() == [0.0, 0.5, 1.0]
    square = torch.empty(2, 2)  # arange keeps an out with as many elements
    assert torch.arange(4, out=square).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert torch.arange(3, out=torch.empty(0)).shape == (3,)  # empty: resized quietly
        assert torch.arange(3, out=torch.empty(1)).tolist() == [0.0, 1.0, 2.0]
    assert len(caught) == 1 and caught[0].filename == __file__
    assert str(caught[0].message).startswith(
        "The number of elements in the out tensor of shape [1] is 1 which does not match the "
        "computed number of elements 3. Note that this may occur as a result of rounding "
        "error. The out tensor will be resized to a tensor of shape (3,).")


@pytest.mark.parametrize(("name", "args"), [
    ("eye", (2,)), ("arange", (3,)), ("linspace", (0, 1, 3)), ("logspace", (0, 1, 3)),
    ("full", ((2,), 1.0)),
])
def test_out_is_refused_with_another_dtype_or_a_grad(name, args):
    factory, out = getattr(torch, name), torch.zeros(3)
    with raises(RuntimeError, "dtype Double does not match dtype of out parameter (Float)"):
        factory(*args, dtype=torch.float64, out=out)
    tracked = torch.zeros(3, requires_grad=True)
    with raises(RuntimeError, f"aten::{name}(): functions with out=... arguments don't support "
                "automatic differentiation, but one of the arguments requires grad."):
        factory(*args, out=tracked)
    assert out.tolist() == [0.0] * 3 and out._version == 0
    assert tracked.tolist() == [0.0] * 3 and tracked._version == 0
    made = factory(*args, out=out, requires_grad=True)
    assert made is out and out.requires_grad and out.is_leaf
    with torch.no_grad():
        factory(*args, out=tracked)
    assert not tracked.requires_grad  # the default turns it off
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                "gradients"):
        factory(*args, out=torch.zeros(3, dtype=torch.int64), requires_grad=True)
