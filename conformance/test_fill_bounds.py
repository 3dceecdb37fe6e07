"""Black-box tests: the random fills read their bounds as torch's parser reads a float: a
number (a bool too), or a 0-d tensor as its number; anything else gets the parser's
TypeError, and the tensor is left as it was. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

one, two = torch.tensor([0.5]), torch.tensor([0.5, 1.0])


@pytest.mark.parametrize("call, message", [
    ("x.normal_(mean=one)", "normal_(): argument 'mean' must be float, not Tensor"),
    ("x.normal_(one)", "normal_(): argument 'mean' (position 1) must be float, not Tensor"),
    ("x.normal_(std=two)", "normal_(): argument 'std' must be float, not Tensor"),
    ("x.normal_(None)", "normal_(): argument 'mean' (position 1) must be float, not NoneType"),
    ("x.normal_(0, 'a')", "normal_(): argument 'std' (position 2) must be float, not str"),
    ("x.uniform_(one)", "uniform_(): argument 'from' (position 1) must be float, not Tensor"),
    ("x.uniform_(to=None)", "uniform_(): argument 'to' must be float, not NoneType"),
    ("x.uniform_(1j)", "uniform_(): argument 'from' (position 1) must be float, not complex"),
    ("x.exponential_(two)", "exponential_(): argument 'lambd' (position 1) must be float, not "
     "Tensor"),
    ("x.exponential_(lambd='a')", "exponential_(): argument 'lambd' must be float, not str"),
])
def test_a_bound_that_is_not_a_float_gets_the_parsers_error(call, message):
    x = torch.zeros(3)
    with raises(TypeError, message):
        eval(call)
    assert x.tolist() == [0.0, 0.0, 0.0]


def test_a_0d_tensor_or_a_bool_is_read_as_its_number():
    x = torch.empty(4)
    assert x.normal_(torch.tensor(2.0), torch.tensor(0)).tolist() == [2.0] * 4
    assert x.uniform_(torch.tensor(3), 3.0).tolist() == [3.0] * 4
    assert x.normal_(True, std=0).tolist() == [1.0] * 4
    assert x.uniform_(**{"from": -1, "to": -1}).tolist() == [-1.0] * 4
    g = torch.Generator().manual_seed(0)
    drawn = x.exponential_(lambd=torch.tensor(2.0), generator=g).clone()
    assert torch.equal(x.exponential_(2.0, generator=g.manual_seed(0)), drawn)


@pytest.mark.parametrize("call, got, marked", [
    ("x.fill_('a')", "(str)", "(!str!)"), ("x.fill_(None)", "(NoneType)", "(!NoneType!)"),
    ("x.fill_(value=None)", "(value=NoneType, )", "(!value=NoneType!, )"),
    ("x.fill_([1])", "(list)", "(!list of [int]!)"),
])
def test_fill_refuses_what_is_neither_tensor_nor_number(call, got, marked):
    x = torch.zeros(3)
    reason = f"      didn't match because some of the arguments have invalid types: {marked}\n"
    with raises(TypeError, f"fill_() received an invalid combination of arguments - got {got}, "
                f"but expected one of:\n * (Tensor value)\n{reason} * (Number value)\n{reason}"):
        eval(call)
    assert x.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", ["index_fill", "index_fill_"])
def test_index_fill_methods_refuse_what_is_neither_tensor_nor_number(name):
    x = torch.zeros(3)
    reason = ("      didn't match because some of the arguments have invalid types: "
              "(int, Tensor, !str!)\n")
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got (int, "
                f"Tensor, str), but expected one of:\n * (int dim, Tensor index, Tensor value)\n"
                f"{reason} * (int dim, Tensor index, Number value)\n{reason}"):
        getattr(x, name)(0, torch.tensor([0]), "a")
    assert x.tolist() == [0.0, 0.0, 0.0]
    assert getattr(x, name)(0, torch.tensor([1]), torch.tensor(2.0)).tolist() == [0.0, 2.0, 0.0]
