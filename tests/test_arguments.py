"""The declared signatures and torch's argument errors made from them."""

import pytest

import refgrad as torch
from refgrad._argument_forms import (
    function_form,
    is_plain,
    method_copy,
    method_form,
    plain_kinds,
    refuse,
)
from refgrad._arguments import Arguments
from refgrad._signatures import signature

SUM = ("sum(Tensor input, *, torch.dtype dtype = None)",
       "sum(Tensor input, tuple of ints[1]? dim, bool keepdim = False, *, "
       "torch.dtype dtype = None, Tensor out = None)")


def test_a_signature_reads_torch_s_printed_form():
    s = signature(SUM[1])
    assert [p.name for p in s.parameters] == ["input", "dim", "keepdim", "dtype", "out"]
    dim = s.parameters[1]
    assert (dim.kind, dim.size, dim.takes_none, dim.default) == ("tuple of ints", 1, True, None)
    assert s.parameters[2].default == "False" and s.parameters[3].keyword_only
    assert s.shown == ("(Tensor input, tuple of ints dim, bool keepdim = False, *, "
                       "torch.dtype dtype = None, Tensor out = None)")


def test_a_method_leaves_out_the_tensor_and_out():
    s = signature(SUM[1], method=True)
    assert s.shown == "(tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)"
    assert signature("view(Tensor input, tuple of ints size)", method=True).varargs
    assert not signature("permute(Tensor input, tuple of ints dims)").varargs


def test_the_single_signature_messages():
    a = Arguments("transpose(Tensor input, int dim0, int dim1)")
    x = torch.ones(2, 3)
    assert str(a.error((x,), {})) == ('transpose() missing 2 required positional argument: '
                                      '"dim0", "dim1"')
    assert str(a.error((x, 0, 1, 2), {})) == ("transpose() takes 3 positional arguments but 4 "
                                              "were given")
    assert str(a.error((x, 0), {"dim1": 1.5})) == ("transpose(): argument 'dim1' must be int, "
                                                   "not float")
    assert str(a.error((x, 0, 1), {"dim1": 1})) == ("transpose() got multiple values for "
                                                    "argument 'dim1'")
    assert str(a.error((x, 0, 1), {"dim2": 1})) == ("transpose() got an unexpected keyword "
                                                    "argument 'dim2'")
    assert a.error((x, 0, 1), {}) is None


def test_lists_are_read_first_element_then_the_rest():
    a = Arguments("permute(Tensor input, tuple of ints dims)", method=True)
    assert str(a.error(([1.0, 0],), {})) == ("permute(): argument 'dims' (position 1) must be "
                                             "tuple of ints, but found element of type float "
                                             "at pos 0")
    assert "at pos 2" in str(a.error((0, "a"), {}))
    assert a.error((1, 0), {}) is None and a.error(((1, 0),), {}) is None


def test_several_signatures_list_the_reasons_of_those_that_match_in_count():
    a = Arguments("squeeze(Tensor input)", "squeeze(Tensor input, int dim)",
                  "squeeze(Tensor input, tuple of ints dim)", method=True)
    assert str(a.error((), {"dim": None})) == (
        "squeeze() received an invalid combination of arguments - got (dim=NoneType, ), but "
        "expected one of:\n * ()\n      didn't match because some of the keywords were "
        "incorrect: dim\n * (int dim)\n      didn't match because some of the arguments have "
        "invalid types: (!dim=NoneType!, )\n * (tuple of ints dim)\n      didn't match because "
        "some of the arguments have invalid types: (!dim=NoneType!, )\n")
    # With one plausible signature, its own complaint is the error.
    one = Arguments("squeeze(Tensor input)", "squeeze(Tensor input, int dim)", method=True)
    assert str(one.error((), {"dim": None})) == ("squeeze(): argument 'dim' must be int, not "
                                                "NoneType")


def test_plain_calls_skip_the_check():
    x = torch.ones(2)
    a = plain_kinds(Arguments("transpose(Tensor input, int dim0, int dim1)"))
    assert is_plain(a, (x, 0, 1), {}) and is_plain(a, (x, 0), {"dim1": 1})
    assert not is_plain(a, (x,), {"dim1": 1})  # a missing argument is the parser's to report
    assert not is_plain(a, (x, True, 1), {}) and not is_plain(a, (x, 0, 1, 2), {})
    assert not is_plain(a, (x, 0), {"dim2": 1})
    view = plain_kinds(Arguments("view(Tensor input, tuple of ints size)", method=True))
    assert is_plain(view, (2, 3), {}) and is_plain(view, (torch.Size([2, 3]),), {})
    assert not is_plain(view, (2, 3.0), {}) and not is_plain(view, ((2, "a"),), {})
    total = plain_kinds(Arguments(SUM[1], method=True))
    assert is_plain(total, (0,), {"keepdim": True}) and is_plain(total, ([0, 1],), {})
    assert not is_plain(total, (0,), {"keepdim": 1})


def test_a_fitting_call_keeps_its_own_error():
    def broken(input, dim):
        raise RuntimeError("the function's own error")

    checked = function_form(broken, Arguments("f(Tensor input, int dim)"))
    with pytest.raises(RuntimeError, match="own error"):
        checked(torch.ones(1), 0)
    with pytest.raises(TypeError, match=r"^f\(\): argument 'dim' \(position 2\) must be int"):
        checked(torch.ones(1), "a")
    method = method_form(broken, Arguments("f(Tensor input, int dim)", method=True))
    with pytest.raises(TypeError, match=r"\(position 1\)"):
        method(torch.ones(1), "a")


def test_a_method_copy_tells_its_failures_apart():
    forms = (Arguments("f(Tensor input, Tensor other)"),
             Arguments("f(Tensor input, Tensor other)", method=True))

    def f(input, other):
        refuse(forms, (input, other), {}, f.__code__ if plain else copy.__code__)

    copy = method_copy(f)
    assert copy.__code__ is not f.__code__ and copy.__code__ == f.__code__
    plain = True
    with pytest.raises(TypeError, match=r"\(position 2\)"):
        f(torch.ones(1), "a")
    plain = False
    with pytest.raises(TypeError, match=r"\(position 1\)"):
        copy(torch.ones(1), "a")
