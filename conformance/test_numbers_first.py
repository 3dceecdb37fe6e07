"""A number where torch's functions take only a tensor: first, or as the values searched."""

import pytest
import torch

from conformance._support import raises

T = "Tensor"
COMPARED = "(Tensor input, {} other, *, Tensor out = None)"


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge", "copysign"])
@pytest.mark.parametrize("number", [3, 2.5, True])
def test_a_number_first_fits_no_form(name, number):
    forms = "".join(f" * {COMPARED.format(kind)}\n" for kind in ("Tensor", "Number"))
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got "
                           f"({type(number).__name__}, Tensor), but expected one of:\n{forms}"):
        getattr(torch, name)(number, torch.ones(2))


@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin", "atan2", "arctan2",
                                  "ldexp"])
@pytest.mark.parametrize("number", [3, 2.5, True])
def test_a_number_first_is_not_a_tensor(name, number):
    with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not "
                           f"{type(number).__name__}"):
        getattr(torch, name)(number, torch.ones(2))


def test_arctan2_names_itself():
    with raises(TypeError, "arctan2(): argument 'other' (position 2) must be Tensor, not int"):
        torch.arctan2(torch.ones(2), 3)


def test_rsub_and_clamp_have_no_form_with_a_number_first():
    with raises(TypeError, "rsub() received an invalid combination of arguments - got (int, "
                           "Tensor), but expected one of:\n * (Tensor input, Tensor other, *, "
                           "Number alpha = 1)\n * (Tensor input, Number other, Number alpha = "
                           "1)\n"):
        torch.rsub(3, torch.ones(2))
    with raises(TypeError, "clamp() received an invalid combination of arguments - got (int, "
                           "int, int), but expected one of:\n * (Tensor input, Tensor min = "
                           "None, Tensor max = None, *, Tensor out = None)\n * (Tensor input, "
                           "Number min = None, Number max = None, *, Tensor out = None)\n"):
        torch.clamp(3, 0, 1)


SEARCH = "bool out_int32 = False, bool right = False"


@pytest.mark.parametrize("call, got", [
    (lambda t: torch.searchsorted(t, "a"), "Tensor, str"),
    (lambda t: torch.searchsorted(3, t), "int, Tensor"),
    (lambda t: torch.searchsorted(t, None), "Tensor, NoneType"),
])
def test_searchsorted_takes_a_tensor_or_a_number_to_look_for(call, got):
    forms = "".join(f" * (Tensor sorted_sequence, {kind}, *, {SEARCH}, str side = None, Tensor "
                    "sorter = None, Tensor out = None)\n" for kind in ("Tensor input",
                                                                      "Number self"))
    with raises(TypeError, f"searchsorted() received an invalid combination of arguments - got "
                           f"({got}), but expected one of:\n{forms}"):
        call(torch.tensor([1.0, 2.0, 3.0]))


@pytest.mark.parametrize("call, got", [
    (lambda t: torch.bucketize("a", t), "str, Tensor"),
    (lambda t: torch.bucketize(t, 3), "Tensor, int"),
    (lambda t: torch.bucketize(t, [1, 2]), "Tensor, list"),
])
def test_bucketize_takes_boundaries_that_are_a_tensor(call, got):
    with raises(TypeError, f"bucketize() received an invalid combination of arguments - got "
                           f"({got}), but expected one of:\n * (Tensor input, Tensor boundaries, "
                           f"*, {SEARCH}, Tensor out = None)\n * (Number self, Tensor "
                           f"boundaries, *, {SEARCH})\n"):
        call(torch.tensor([1.0, 2.0, 3.0]))


def test_a_number_searched_for_still_works():
    t = torch.tensor([1.0, 2.0, 3.0])
    assert torch.searchsorted(t, 2.5).item() == 2
    assert torch.bucketize(2.5, t).item() == 2


@pytest.mark.parametrize("args, got", [
    ((T, None), "Tensor, Tensor, NoneType"),
    ((None, T), "Tensor, NoneType, Tensor"),
    ((1, None), "Tensor, int, NoneType"),
])
def test_where_refuses_none_for_a_value(args, got):
    condition, x = torch.tensor([True, False]), torch.tensor([1.0, 2.0])
    values = tuple(x if a is T else a for a in args)
    with pytest.raises(TypeError, match=r"\Awhere\(\) received an invalid combination of "
                                        rf"arguments - got \({got}\), but expected one of:\n"):
        torch.where(condition, *values)


@pytest.mark.parametrize("input, other, message", [
    (lambda x: x, lambda x: 0.0, "argument 'other' (position 3) must be Tensor, not float"),
    (lambda x: 0.0, lambda x: x, "argument 'input' (position 2) must be Tensor, not float"),
    (lambda x: 1, lambda x: 2.0, "argument 'input' (position 2) must be Tensor, not int"),
    (lambda x: x, lambda x: True, "argument 'other' (position 3) must be Tensor, not bool"),
])
def test_where_with_out_takes_tensors_only(input, other, message):
    x = torch.arange(4.0)
    with raises(TypeError, "where(): " + message):
        torch.where(x.bool(), input(x), other(x), out=x)
    assert x._version == 0
    assert torch.where(x.bool(), input(x), other(x)).shape == (4,)  # without out=, numbers do
