"""Black-box tests: Python's float, int and bool stand for float64, int64 and bool wherever a
dtype is taken, and a value of another kind is refused. The same assertions run on torch.
"""

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
