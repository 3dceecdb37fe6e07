"""Black-box tests: a str, None or a list where a tensor or number belongs, and the errors
torch gives before its kernels run: comparisons, in-place bitwise ops, round_, addmv_."""

import warnings

import pytest
import torch

from conformance._support import raises

_OTHER = ("Tensor other", "Number other")


def _method_refusal(name: str, got: str, marked: str) -> str:
    """The refusal of a method taking one tensor or number ``other``."""
    lines = [f"{name}() received an invalid combination of arguments - got ({got}), but "
             "expected one of:\n"]
    for form in _OTHER:
        lines.append(f" * ({form})\n      didn't match because some of the arguments have "
                     f"invalid types: (!{marked}!)\n")
    return "".join(lines)


def _function_refusal(name: str, got: str) -> str:
    forms = "".join(f" * (Tensor input, {form}, *, Tensor out = None)\n" for form in _OTHER)
    return (f"{name}() received an invalid combination of arguments - got (Tensor, {got}), "
            f"but expected one of:\n{forms}")


def _names():
    return {"torch": torch, "x": torch.tensor([1.5, -2.0]), "i": torch.tensor([3, 4]),
            "m": torch.ones(2, 2), "v": torch.ones(2)}


_ADDMV_ = "(Tensor input, Tensor mat, Tensor vec, *, Number beta = 1, Number alpha = 1)"
_CAST = "result type Float can't be cast to the desired output type Long"
CALLS = [
    ('x.ge_("a")', TypeError, _method_refusal("ge_", "str", "str")),
    ("x.lt_(None)", TypeError, _method_refusal("lt_", "NoneType", "NoneType")),
    ("x.eq_([1, 2])", TypeError, _method_refusal("eq_", "list", "list of [int, int]")),
    ('x.gt("a")', TypeError, _method_refusal("gt", "str", "str")),
    ("x.ne(None)", TypeError, _method_refusal("ne", "NoneType", "NoneType")),
    ("x.le([1, 2])", TypeError, _method_refusal("le", "list", "list of [int, int]")),
    ('torch.gt(x, "a")', TypeError, _function_refusal("gt", "str")),
    ("torch.eq(x, None)", TypeError, _function_refusal("eq", "NoneType")),
    ("torch.lt(x, [1])", TypeError, _function_refusal("lt", "list")),
    ('torch.greater(x, "a")', TypeError, _function_refusal("greater", "str")),
    # sic: torch counts the keyword-only decimals among the required arguments
    ('torch.round_(x, "a")', TypeError,
     "round_() takes from 2 to 1 positional arguments but 2 were given"),
    ("torch.round_(x, 1)", TypeError,
     "round_() takes from 2 to 1 positional arguments but 2 were given"),
    ("torch.addmv_(x)", TypeError,
     f"addmv_() received an invalid combination of arguments - got (Tensor), but expected "
     f"{_ADDMV_}"),
    ("torch.addmv_(x, m)", TypeError,
     "addmv_() received an invalid combination of arguments - got (Tensor, Tensor), but "
     f"expected {_ADDMV_}"),
    ("torch.addmv_(x, m, v, v)", TypeError,
     "addmv_() takes 3 positional arguments but 4 were given"),
    ("i.bitwise_and_(1.5)", RuntimeError, _CAST),
    ("i.bitwise_or_(x)", RuntimeError, _CAST),
    ("i.bitwise_xor_(torch.tensor(0.5))", RuntimeError, _CAST),
    ("i.bitwise_left_shift_(1.5)", RuntimeError, _CAST),
    ("i.bitwise_right_shift_(x)", RuntimeError, _CAST),
    *((f"torch.{name}(None)", TypeError,
       f"{name}(): argument 'input' (position 1) must be Tensor, not NoneType")
      for name in ("sin", "exp", "abs", "sqrt", "tanh")),
]

# Functions of two tensors, given something else for the second: (name, its name there).
SECOND_TENSORS = [("allclose", "other"), ("isclose", "other"), ("equal", "other"),
                  ("cross", "other"), ("inner", "other"), ("dist", "other"),
                  ("take", "index"), ("masked_select", "mask"), ("diagonal_scatter", "src"),
                  ("slice_scatter", "src"), ("vdot", "other"), ("take_along_dim", "indices"),
                  ("logical_and", "other"), ("logical_or", "other"), ("logical_xor", "other")]
for _name, _argument in SECOND_TENSORS:
    for _value, _type in (('"a"', "str"), ("None", "NoneType"), ("[1, 2]", "list"),
                          ("1j", "complex")):
        CALLS.append((f"x.{_name}({_value})", TypeError,
                      f"{_name}(): argument '{_argument}' (position 1) must be Tensor, not "
                      f"{_type}"))
        CALLS.append((f"torch.{_name}(x, {_value})", TypeError,
                      f"{_name}(): argument '{_argument}' (position 2) must be Tensor, not "
                      f"{_type}"))
CALLS += [
    ("torch.select_scatter(x, None, 0, 0)", TypeError,
     "select_scatter(): argument 'src' (position 2) must be Tensor, not NoneType"),
    ("x.select_scatter(x)", TypeError,
     'select_scatter() missing 2 required positional argument: "dim", "index"'),
    ("x.equal(x, x)", TypeError, "equal() takes 1 positional argument but 2 were given"),
    ("torch.allclose(x, x, 1e-5, 1e-8, False, 1)", TypeError,
     "allclose() takes from 2 to 5 positional arguments but 6 were given"),
    ('torch.dist(x, x, "a")', TypeError,
     "dist(): argument 'p' (position 3) must be Number, not str"),
    ('torch.bitwise_not(i, "a")', TypeError,
     "bitwise_not() takes 1 positional argument but 2 were given"),
    ('torch.logical_not(x, "a")', TypeError,
     "logical_not() takes 1 positional argument but 2 were given"),
    ('x.logical_and(x, "a")', TypeError,
     "logical_and() takes 1 positional argument but 2 were given"),
    ('torch.logical_or(x, x, "a")', TypeError,
     "logical_or() takes 2 positional arguments but 3 were given"),
    ("torch.nan_to_num(x, [1])", TypeError,
     "nan_to_num(): argument 'nan' (position 2) must be float, not list"),
    ("x.nan_to_num(x)", TypeError,
     "nan_to_num(): argument 'nan' (position 1) must be float, not Tensor"),
    ('torch.copysign(x, "a")', TypeError, _function_refusal("copysign", "str")),
    ("x.copysign(None)", TypeError, _method_refusal("copysign", "NoneType", "NoneType")),
    ("x.copysign([1, 2])", TypeError, _method_refusal("copysign", "list", "list of [int, int]")),
    # a method called directly: torch's C method names its class TensorBase
    ("i.bitwise_not(1)", TypeError, "TensorBase.bitwise_not() takes no arguments (1 given)"),
    ("x.logical_not(None, 2)", TypeError,
     "TensorBase.logical_not() takes no arguments (2 given)"),
]


@pytest.mark.parametrize(("call", "kind", "message"), CALLS)
def test_bad_arguments(call, kind, message):
    with raises(kind, message):
        eval(call, _names())


def test_a_refused_in_place_comparison_leaves_the_tensor_as_it_was():
    x = torch.tensor([1.5, -2.0])
    with pytest.raises(TypeError):
        x.ge_("a")
    assert x.tolist() == [1.5, -2.0]
    assert x._version == 0


def test_a_refused_in_place_bitwise_op_writes_nothing():
    i = torch.tensor([3, 4])
    with pytest.raises(RuntimeError):
        i &= 1.5
    assert i.tolist() == [3, 4]
    assert i._version == 0


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge", "greater",
                                  "greater_equal", "less", "less_equal", "not_equal"])
def test_comparisons_write_into_out(name):
    x, y = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 2.0, 2.0])
    expected = getattr(x, name)(y)
    out = torch.empty(3, dtype=torch.bool)
    assert getattr(torch, name)(x, y, out=out) is out
    assert out.tolist() == expected.tolist()
    into_floats = torch.zeros(3)  # the bools are cast to out's dtype
    getattr(torch, name)(x, 2.0, out=into_floats)
    assert into_floats.tolist() == [float(b) for b in getattr(x, name)(2.0).tolist()]


def test_addmv_takes_the_old_order_with_the_scale_first():
    m, v = torch.ones(2, 2), torch.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert torch.addmv_(0.5, torch.zeros(2), 2, m, v).tolist() == [4.0, 4.0]
        assert torch.addmv_(0.5, torch.full((2,), 2.0), m, v).tolist() == [3.0, 3.0]


@pytest.mark.parametrize(("call", "expected"), [
    ("torch.allclose(x, x + 1e-4, rtol=1e-3, atol=0.0, equal_nan=True)", True),
    ("x.isclose(other=x, equal_nan=True).tolist()", [True, True]),
    ("torch.equal(input=x, other=x)", True),
    ("x.dist(x + 1, p=1).item()", 2.0),
    ("torch.take(x, index=torch.tensor([1])).tolist()", [-2.0]),
    ("x.masked_select(mask=x > 0).tolist()", [1.5]),
    ("torch.slice_scatter(x, torch.zeros(1), start=0, end=1).tolist()", [0.0, -2.0]),
    ("torch.take_along_dim(x, torch.tensor([1]), dim=0).tolist()", [-2.0]),
    ("torch.logical_and(x, other=x > 0).tolist()", [True, False]),
    ("x.logical_xor(other=x).tolist()", [False, False]),
    ("torch.vdot(x, other=x).item()", 6.25),
    ("torch.tensor([float('nan'), 1.0]).nan_to_num(None).tolist()", [0.0, 1.0]),
    ("torch.nan_to_num(torch.tensor([float('nan')]), nan=2.0).tolist()", [2.0]),
    ("x.copysign(-1).tolist()", [-1.5, -2.0]),
    ("torch.copysign(x, other=x.abs()).tolist()", [1.5, 2.0]),
])
def test_checked_functions_still_take_their_keywords(call, expected):
    assert eval(call, _names()) == expected


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda x: torch.relu(x), RuntimeError, "Boolean inputs not supported for relu"),
    (lambda x: x.relu_(), RuntimeError, "Boolean inputs not supported for relu"),
    (lambda x: torch.nn.functional.relu(x), RuntimeError, "Boolean inputs not supported for relu"),
    (lambda x: torch.abs(x), NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"),
    (lambda x: x.abs_(), NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"),
])
def test_relu_and_abs_refuse_bools(call, kind, message):
    x = torch.tensor([True, False])
    with raises(kind, message):
        call(x)
    assert x.tolist() == [True, False]
