"""Black-box tests: Python's float, int and bool stand for float64, int64 and bool wherever a
dtype is taken, and a value of another kind is refused. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises

x = torch.ones(2)
CALLS = {
    "tensor": lambda kind: torch.tensor([1.5], dtype=kind),
    "as_tensor": lambda kind: torch.as_tensor([1], dtype=kind),
    "zeros": lambda kind: torch.zeros(2, dtype=kind),
    "ones": lambda kind: torch.ones(2, 3, dtype=kind),
    "ones by size": lambda kind: torch.ones(size=(2,), dtype=kind),
    "empty": lambda kind: torch.empty(2, dtype=kind),
    "full": lambda kind: torch.full((2,), 1, dtype=kind),
    "eye": lambda kind: torch.eye(2, dtype=kind),
    "zeros_like": lambda kind: torch.zeros_like(x, dtype=kind),
    "ones_like": lambda kind: torch.ones_like(x, dtype=kind),
    "empty_like": lambda kind: torch.empty_like(x, dtype=kind),
    "full_like": lambda kind: torch.full_like(x, 1, dtype=kind),
    "empty_strided": lambda kind: torch.empty_strided((2,), (1,), dtype=kind),
    "new_ones": lambda kind: x.new_ones(2, dtype=kind),
    "new_zeros": lambda kind: x.new_zeros((2,), dtype=kind),
    "new_empty": lambda kind: x.new_empty(2, dtype=kind),
    "new_full": lambda kind: x.new_full((2,), 1, dtype=kind),
    "new_tensor": lambda kind: x.new_tensor([1], dtype=kind),
    "to": lambda kind: x.to(kind),
    "to by name": lambda kind: x.to(dtype=kind),
    "view": lambda kind: torch.ones(4).view(kind),
    "view by name": lambda kind: torch.ones(4).view(dtype=kind),
}
FLOATING = {
    "logspace": lambda kind: torch.logspace(0, 1, 3, dtype=kind),
    "linspace": lambda kind: torch.linspace(0, 1, 3, dtype=kind),
    "arange": lambda kind: torch.arange(3, dtype=kind),
    "rand": lambda kind: torch.rand(2, dtype=kind),
    "randn": lambda kind: torch.randn(2, dtype=kind),
    "randperm": lambda kind: torch.randperm(3, dtype=kind),
    "randint": lambda kind: torch.randint(3, (2,), dtype=kind),
    "rand_like": lambda kind: torch.rand_like(x, dtype=kind),
    "randn_like": lambda kind: torch.randn_like(x, dtype=kind),
    "sum": lambda kind: x.sum(dtype=kind),
    "sum over a dim": lambda kind: x.sum(0, dtype=kind),
    "torch.sum": lambda kind: torch.sum(x, dtype=kind),
    "mean": lambda kind: x.mean(dtype=kind),
    "nansum": lambda kind: torch.nansum(x, dtype=kind),
    "prod": lambda kind: x.prod(dtype=kind),
    "cumsum": lambda kind: x.cumsum(0, dtype=kind),
    "cumprod": lambda kind: torch.cumprod(x, 0, dtype=kind),
    "Tensor.cumprod": lambda kind: x.cumprod(0, dtype=kind),
    "softmax": lambda kind: x.softmax(0, dtype=kind),
    "log_softmax": lambda kind: torch.log_softmax(x, 0, dtype=kind),
    "functional softmax": lambda kind: torch.nn.functional.softmax(x, 0, dtype=kind),
    "norm": lambda kind: x.norm(dtype=kind),
    "vector_norm": lambda kind: torch.linalg.vector_norm(x, dtype=kind),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("kind, dtype", [(float, torch.float64), (int, torch.int64),
                                         (bool, torch.bool)])
def test_python_types_stand_for_dtypes(name, kind, dtype):
    assert CALLS[name](kind).dtype == dtype


@pytest.mark.parametrize("name", sorted(FLOATING))
def test_float_stands_for_float64_in_the_floating_dtypes(name):
    assert FLOATING[name](float).dtype == torch.float64


def test_int_stands_for_int64_in_the_integer_dtypes():
    assert torch.arange(3, dtype=int).dtype == torch.int64
    assert torch.linspace(0, 4, 3, dtype=int).tolist() == [0, 2, 4]
    assert torch.randint_like(x, 3, dtype=int).dtype == torch.int64
    assert torch.prod(x, dtype=int).dtype == torch.int64
    assert torch.cumsum(x, 0, dtype=int).dtype == torch.int64


@pytest.mark.parametrize("call, name, got", [
    (lambda: torch.ones(2, dtype="x"), "ones", "str"),
    (lambda: torch.zeros(2, dtype=3), "zeros", "int"),
    (lambda: torch.empty(2, dtype=1.5), "empty", "float"),
    (lambda: torch.ones(2, dtype=torch.float64.__class__), "ones", "type"),
    (lambda: torch.tensor([1], dtype="x"), "tensor", "str"),
    (lambda: x.new_ones(2, dtype="x"), "new_ones", "str"),
    (lambda: x.new_zeros(2, dtype="x"), "new_zeros", "str"),
    (lambda: x.new_empty(2, dtype="x"), "new_empty", "str"),
    (lambda: x.new_full((2,), 1, dtype="x"), "new_full", "str"),
    (lambda: x.new_tensor([1], dtype="x"), "new_tensor", "str"),
    (lambda: torch.zeros_like(x, dtype="x"), "zeros_like", "str"),
    (lambda: x.cumsum(0, dtype="x"), "cumsum", "str"),
    (lambda: x.softmax(0, dtype="x"), "softmax", "str"),
])
def test_another_value_for_a_dtype_is_refused(call, name, got):
    with raises(TypeError, f"{name}(): argument 'dtype' must be torch.dtype, not {got}"):
        call()


@pytest.mark.parametrize("name", ["linspace", "logspace"])
def test_bool_is_refused_where_the_dtype_is(name):
    with raises(NotImplementedError, f"\"{name}_cpu\" not implemented for 'Bool'"):
        getattr(torch, name)(0, 1, 3, dtype=bool)


def test_view_takes_its_size_or_its_dtype_by_name():
    y = torch.ones(2, 2, requires_grad=True)
    viewed = y.view(size=(4,))
    assert viewed.shape == (4,) and type(viewed.grad_fn).__name__ == "ViewBackward0"
    assert torch.ones(2).view(dtype=torch.int32).dtype == torch.int32
    forms = "but expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n"
    for call, got in ((lambda: x.view(dtype=torch.int32, size=(2,)),
                       "(size=tuple, dtype=torch.dtype, )"),
                      (lambda: x.view(2, dtype=torch.int32), "(int, dtype=torch.dtype)")):
        with raises(TypeError, "view() received an invalid combination of arguments - got "
                               f"{got}, {forms}"):
            call()


def test_the_dtype_functions_read_them():
    assert torch.promote_types(float, int) == torch.float64
    assert torch.promote_types(torch.float32, bool) == torch.float32
    assert torch.can_cast(float, int) is False and torch.can_cast(int, float) is True
    assert torch.finfo(float).eps == torch.finfo(torch.float64).eps
    assert torch.iinfo(int).max == 2**63 - 1
    with raises(TypeError, "torch.finfo() requires a floating point input type. Use torch.iinfo "
                           "to handle 'torch.finfo'"):
        torch.finfo(bool)
    with raises(TypeError, "torch.iinfo() requires an integer input type. Use torch.finfo to "
                           "handle 'torch.iinfo'"):
        torch.iinfo(float)
    with raises(TypeError, "torch.bool is not supported by torch.iinfo"):
        torch.iinfo(bool)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.promote_types("x", int),
     "promote_types(): argument 'type1' (position 1) must be torch.dtype, not str"),
    (lambda: torch.promote_types(float, 3),
     "promote_types(): argument 'type2' (position 2) must be torch.dtype, not int"),
    (lambda: torch.can_cast("x", int),
     "can_cast(): argument 'from_' (position 1) must be torch.dtype, not str"),
    (lambda: torch.can_cast(float, "x"),
     "can_cast(): argument 'to' (position 2) must be torch.dtype, not str"),
    (lambda: torch.ones(2).cumsum_(0, dtype="x"),
     "cumsum_(): argument 'dtype' must be torch.dtype, not str"),
    (lambda: torch.ones(2).cumprod_(0, dtype="x"),
     "cumprod_(): argument 'dtype' must be torch.dtype, not str"),
    (lambda: torch.as_tensor(torch.ones(2), dtype="x"),
     "as_tensor(): argument 'dtype' must be torch.dtype, not str"),
    (lambda: torch.as_tensor(np.ones(2), dtype="x"),
     "as_tensor(): argument 'dtype' must be torch.dtype, not str"),
])
def test_the_dtype_functions_refuse_other_values(call, message):
    with raises(TypeError, message):
        call()


def test_running_sums_in_place_compare_the_type_read():
    for name in ("cumsum_", "cumprod_"):
        with raises(RuntimeError, "Bad in-place call: input tensor dtype float and output tensor "
                                  "dtype double should match"):
            getattr(torch.ones(2), name)(0, dtype=float)


def test_normal_and_as_tensor_read_them():
    assert torch.normal(0.0, 1.0, (2,), dtype=float).dtype == torch.float64
    assert torch.as_tensor(np.ones(2, np.float32), dtype=float).dtype == torch.float64


@pytest.mark.parametrize("name, forms", [
    ("rand", ["tuple of ints size"]), ("randn", ["tuple of ints size"]),
    ("randperm", ["int n"]),
    ("randint", ["int high, tuple of ints size", "int low, int high, tuple of ints size"]),
])
def test_the_random_factories_list_their_forms(name, forms):
    options = ("Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
               "torch.device device = None, bool pin_memory = False, bool requires_grad = False")
    listed = "".join(f"\n * ({first}, *, {generator}{options})" for first in forms
                     for generator in ("torch.Generator generator, ", ""))
    args = (3, (2,)) if name == "randint" else (3,)
    got = "(int, tuple, dtype=str)" if name == "randint" else "(int, dtype=str)"
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got {got}, "
                           f"but expected one of:{listed}\n"):
        getattr(torch, name)(*args, dtype="x")
    assert getattr(torch, name)(*args, generator=None, layout=torch.strided,
                                pin_memory=False).shape[-1] in (2, 3)
