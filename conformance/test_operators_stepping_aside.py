"""Black-box tests: an arithmetic operator whose function refuses its operand steps aside, as
torch's do, so that Python asks the other operand's reflected method, repeats a sequence by the
tensor's index, hands a NumPy array to NumPy, or refuses in its own words; in place too. The
same assertions run on torch.
"""

import operator
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import torch

from conformance._support import raises

_BINARY = ("+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>")
_REFLECTED = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
              "xor", "lshift", "rshift")
_COMPARED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NAMES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


class Reflecting:
    """Answers every reflected operator and comparison with the method's name."""


for _name in _REFLECTED:
    setattr(Reflecting, f"__r{_name}__", (lambda name: lambda self, other: f"r{name}")(_name))
for _name in _NAMES.values():
    setattr(Reflecting, f"__{_name}__", (lambda name: lambda self, other: name)(_name))


def _tensors():
    return [torch.tensor(2.0), torch.tensor([1, 2]), torch.tensor(True),
            torch.tensor(2.0, requires_grad=True)]


@pytest.mark.parametrize("symbol, name", list(zip(_BINARY, _REFLECTED)))
def test_a_tensor_on_the_left_asks_the_other_operands_reflected_method(symbol, name):
    for x in _tensors():
        assert eval(f"x {symbol} obj", {"x": x, "obj": Reflecting()}) == f"r{name}"


@pytest.mark.parametrize("symbol", list(_COMPARED))
def test_a_comparison_asks_the_other_operands_reflection(symbol):
    for x in _tensors():
        assert eval(f"x {symbol} obj", {"x": x, "obj": Reflecting()}) == \
            _NAMES[_COMPARED[symbol]]


@pytest.mark.parametrize("symbol, name", list(zip(_BINARY, _REFLECTED)))
def test_an_augmented_operator_falls_to_the_reflected_method(symbol, name):
    for x in _tensors():
        y = x.detach().clone()
        before = y._version
        scope = {"y": y, "obj": Reflecting()}
        exec(f"y {symbol}= obj", scope)
        assert scope["y"] == f"r{name}"
        assert y._version == before  # nothing was written


def test_dividing_an_object_by_a_tensor_multiplies_by_the_reciprocal():
    class Scaling:
        def __rmul__(self, other):
            return other.tolist()

    assert Scaling() / torch.tensor([2.0, 4.0]) == [0.5, 0.25]


@pytest.mark.parametrize("call, value", [
    ("'ab' * torch.tensor(2)", "abab"),
    ("torch.tensor(2) * 'ab'", "abab"),
    ("[0] * torch.tensor(3)", [0, 0, 0]),
    ("torch.tensor([3]) * (1,)", (1, 1, 1)),
    ("'ab' * torch.tensor(True)", "ab"),
    ("b'a' * torch.tensor(2, dtype=torch.uint8)", b"aa"),
])
def test_a_sequence_repeats_by_an_integer_tensor(call, value):
    assert eval(call) == value


@pytest.mark.parametrize("call, message", [
    ("'a' * torch.tensor(2.0)", "only integer tensors of a single element can be converted "
     "to an index"),
    ("torch.tensor([1, 2]) * 'a'", "only integer tensors of a single element can be converted "
     "to an index"),
    ("'a' + torch.tensor(2)", 'can only concatenate str (not "Tensor") to str'),
    ("[1] + torch.tensor(2)", 'can only concatenate list (not "Tensor") to list'),
    ("(1,) + torch.tensor(2)", 'can only concatenate tuple (not "Tensor") to tuple'),
    ("b'a' + torch.tensor(2)", "can't concat Tensor to bytes"),
    ("torch.tensor(2.0) + b'a'", "unsupported operand type(s) for +: 'Tensor' and 'bytes'"),
    ("torch.tensor(2.0) + Fraction(1, 2)", "unsupported operand type(s) for +: 'Tensor' and "
     "'Fraction'"),
    ("Decimal(1) * torch.tensor(2.0)", "unsupported operand type(s) for *: 'decimal.Decimal' "
     "and 'Tensor'"),
    ("torch.tensor(True) - [1]", "unsupported operand type(s) for -: 'Tensor' and 'list'"),
    ("{1} - torch.tensor(True)", "unsupported operand type(s) for -: 'set' and 'Tensor'"),
    ("[1.0] / torch.tensor(2.0)", "unsupported operand type(s) for /: 'list' and 'Tensor'"),
    ("None / torch.tensor(2)", "unsupported operand type(s) for /: 'NoneType' and 'Tensor'"),
    ("torch.tensor(2.0) < Fraction(1, 2)", "'<' not supported between instances of 'Tensor' "
     "and 'Fraction'"),
])
def test_what_no_one_answers_is_refused_in_pythons_words(call, message):
    with raises(TypeError, message):
        eval(call)


@pytest.mark.parametrize("call, message", [
    ("torch.add(x, Fraction(1, 2))", "add(): argument 'other' (position 2) must be Tensor, not "
     "Fraction"),
    ("torch.mul(x, b'a')", "mul(): argument 'other' (position 2) must be Tensor, not bytes"),
    ("torch.sub(x, Decimal(1))", "sub(): argument 'other' (position 2) must be Tensor, not "
     "decimal.Decimal"),
    ("torch.sub(torch.tensor(True), [1])", "sub(): argument 'other' (position 2) must be "
     "Tensor, not list"),
])
def test_the_functions_take_only_pythons_numbers(call, message):
    with raises(TypeError, message):
        eval(call, globals(), {"x": torch.tensor(2.0)})


@pytest.mark.parametrize("symbol", ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<",
                                    ">>"])
@pytest.mark.parametrize("operand, shown", [
    ("None", "NoneType"), ("'a'", "str"), ("[1]", "list"), ("{1: 2}", "dict"),
    ("Fraction(3, 2)", "Fraction"), ("Decimal(1)", "decimal.Decimal"), ("object()", "object"),
])
def test_an_augmented_operator_no_one_answers_is_pythons_refusal(symbol, operand, shown):
    x = torch.tensor([1, 2])
    scope = {"x": x, "Fraction": Fraction, "Decimal": Decimal}
    if symbol == "**" and operand == "Fraction(3, 2)":  # Fraction's __rpow__ answers: x ** 1.5
        exec(f"x {symbol}= {operand}", scope)
        assert scope["x"] is not x and torch.equal(scope["x"], x ** 1.5)
        return
    with raises(TypeError, f"unsupported operand type(s) for {symbol}=: 'Tensor' and "
                           f"'{shown}'"):
        exec(f"x {symbol}= {operand}", scope)
    assert x.tolist() == [1, 2] and x._version == 0


# NumPy 2 warns that torch's own __array_wrap__ takes too few arguments: not what is tested.
@pytest.mark.filterwarnings("ignore:__array_wrap__ must accept context:DeprecationWarning")
def test_numpy_computes_with_the_tensors_array_when_the_tensor_steps_aside():
    x = torch.tensor([1.0, 2.0])
    total = x + np.array([0.5, 0.5])
    assert total.dtype == torch.float64 and total.tolist() == [1.5, 2.5]
    assert (x * np.array(3.0)).tolist() == [3.0, 6.0]
    assert (torch.tensor(2.0) + np.uint64(2**63)) == 2.0 + 2**63  # NumPy's float
    with raises(RuntimeError, "Can't call numpy() on Tensor that requires grad. Use "
                              "tensor.detach().numpy() instead."):
        torch.tensor([1.0, 2.0], requires_grad=True) - np.ones(2)


def test_equality_alone_reads_an_array_as_a_tensor():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert (x == np.array([1.0, 3.0])).tolist() == [True, False]
    assert (np.array([1, 2]) == torch.tensor([1, 5])).tolist() == [True, False]
    assert (x == np.array(["a", "b"])) is False
    assert (x != np.array(["a", "b"])) is True
    assert operator.eq(torch.tensor(2), np.array([2.5, 2.0])).tolist() == [False, True]


@pytest.mark.parametrize("call, kind, message", [
    ("x.__ior__(np.int64(1))", NotImplementedError,
     "\"bitwise_or_cpu\" not implemented for 'Float'"),
    ("n.__iand__(np.float64(1.5))", RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
])
def test_numpy_scalars_in_place_meet_torchs_refusals(call, kind, message):
    with raises(kind, message):
        eval(call, {"np": np, "x": torch.tensor(2.0), "n": torch.tensor([1, 2])})


@pytest.mark.parametrize("make", ["torch.tensor(3)", "torch.tensor([3], dtype=torch.uint8)",
                                  "torch.tensor([[True]])", "torch.tensor(3, dtype=torch.int8)"])
def test_an_integer_tensor_of_one_element_is_an_index(make):
    x = eval(make)
    value = operator.index(x)
    assert type(value) is int and value == int(x) and [5, 6, 7, 8][x] == [5, 6, 7, 8][value]


@pytest.mark.parametrize("make, message", [
    ("torch.tensor(3.0)", "only integer tensors of a single element can be converted to an "
     "index"),
    ("torch.tensor([1, 2])", "only integer tensors of a single element can be converted to an "
     "index"),
    ("torch.tensor([], dtype=torch.int64)", "only integer tensors of a single element can be "
     "converted to an index"),
    ("torch.tensor(3.0, requires_grad=True)", "only integer tensors of a single element can "
     "be converted to an index"),
])
def test_others_are_no_index(make, message):
    x = eval(make)
    for convert in (operator.index, hex, range):
        with raises(TypeError, message):
            convert(x)


@pytest.mark.parametrize("convert, kind, message", [
    (int, ValueError, "only one element tensors can be converted to Python scalars"),
    (float, ValueError, "only one element tensors can be converted to Python scalars"),
    (complex, ValueError, "only one element tensors can be converted to Python scalars"),
    (bool, RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"),
])
def test_many_elements_are_no_number(convert, kind, message):
    with raises(kind, message):
        convert(torch.tensor([1.0, 2.0]))


def test_one_element_of_any_shape_is_a_number():
    for x in (torch.tensor(2.5), torch.tensor([2.5]), torch.tensor([[2.5]], dtype=torch.float64)):
        assert (int(x), float(x), complex(x), bool(x)) == (2, 2.5, 2.5 + 0j, True)
    with raises(RuntimeError, "Boolean value of Tensor with no values is ambiguous"):
        bool(torch.tensor([]))
