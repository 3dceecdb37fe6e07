"""refgrad.utils._op_names and _alias_modes: torch's operator and overload for a call,
and the aliases that reach a mode whole."""

import inspect

import refgrad
from refgrad.autograd._state import switched_on
from refgrad.utils._alias_modes import FUNCTIONS, IN_PLACE
from refgrad.utils._op_names import by_arguments, overload
from refgrad.utils._python_dispatch import TorchDispatchMode


def test_rows_named_for_refgrad_take_torch_operator_and_overload():
    assert overload("sum_dim", (), {}) == ("sum", "dim_IntList")
    assert overload("remainder_by_number", (), {}) == ("remainder", "Scalar")
    assert overload("softmax", (), {}) == ("_softmax", "default")
    assert overload("sin", (), {}) == ("sin", "default")
    assert overload("mul.out", (), {}) == ("mul", "out")


def test_the_arguments_choose_among_overloads():
    x = refgrad.ones(2)
    assert overload("gt", (x, 0.5), {}) == ("gt", "Scalar")
    assert overload("gt", (x, x), {}) == ("gt", "Tensor")
    assert overload("add", (x, 2), {"alpha": 1}) == ("add", "Tensor")  # numbers wrapped
    assert overload("div_", (x, x), {"rounding_mode": "floor"}) == ("div_", "Tensor_mode")
    assert overload("div_", (x, x), {"rounding_mode": None}) == ("div_", "Tensor")
    assert overload("clamp_", (x, x), {}) == ("clamp_", "Tensor")
    assert overload("clamp_", (x, 0, 1), {}) == ("clamp_", "default")
    assert overload("all", (x,), {"dims": 0}) == ("all", "dim")  # one dimension, given alone
    assert overload("all", (x,), {"dims": (0,)}) == ("all", "dims")  # a sequence, even of one
    assert overload("all", (x,), {"dims": (0, 1)}) == ("all", "dims")
    assert overload("tensor_split", (x, [1]), {}) == ("tensor_split", "indices")
    assert overload("hsplit", (x, 2), {}) == ("hsplit", "int")
    assert overload("to", (x, refgrad.float64), {}) == ("to", "dtype")
    assert overload("movedim", (x, [0], [1]), {}) == ("movedim", "intlist")


def test_by_arguments_skips_the_table_of_rows():
    assert overload("linalg_det", (), {}) == ("_linalg_det", "default")
    assert by_arguments("linalg_det", (), {}) == ("linalg_det", "default")


def test_a_func_made_once_per_overload_of_a_row_is_kept():
    seen = []

    class Keep(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **kwargs)

    x = refgrad.ones(2, 2)
    with Keep():
        x.sum(0), x.sum(1), x.sum()
    assert seen[0] is seen[1] and seen[0] is not seen[2]
    assert seen[0] is refgrad.ops.aten.sum.dim_IntList  # NOTE [One object per overload]
    assert seen[2] is refgrad.ops.aten.sum.default


def test_the_wrapped_aliases_keep_their_signatures_and_run_as_before_without_a_mode():
    assert switched_on.dispatch_modes == 0
    for name in FUNCTIONS:
        alias = getattr(refgrad, name)
        assert inspect.signature(alias) == inspect.signature(alias.__wrapped__)
    for name in IN_PLACE:
        assert getattr(refgrad.Tensor, name).__wrapped__ is not None
    x = refgrad.tensor([-2.0, 0.5])
    assert refgrad.clip(x, -1, 1).tolist() == [-1.0, 0.5]
    assert x.absolute().grad_fn is None and x.clone().greater_(0).tolist() == [0.0, 1.0]
