"""Black-box tests: an in-place method refuses bad arguments under its own name, counting
positions after the tensor, against its own signatures, and writes nothing. The same
assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises, recording_mode, refuses_call

ADD = "(Tensor other, *, Number alpha = 1)"
REFUSED = [
    ("x.add_('a')", "add_(): argument 'other' (position 1) must be Tensor, not str"),
    ("x.add_(other='a')", "add_(): argument 'other' must be Tensor, not str"),
    ("x.mul_('a')", "mul_(): argument 'other' (position 1) must be Tensor, not str"),
    ("x.add_(1, 2, 3)", "add_() received an invalid combination of arguments - got (!int!, "
                        f"!int!, !int!), but expected {ADD}"),
    ("x.add_(x, x, x, 'a')", "add_() received an invalid combination of arguments - got "
                             f"(Tensor, Tensor, Tensor, str), but expected {ADD}"),
    ("x.add_()", f"add_() received an invalid combination of arguments - got (), but "
                 f"expected {ADD}"),
    ("x.add_(alpha='a')", 'add_() missing 1 required positional arguments: "other"'),
    ("x.add_(x, alpha='a')", "add_(): argument 'alpha' must be Number, not str"),
    ("x.add_(x, beta=1)", "add_() got an unexpected keyword argument 'beta'"),
    ("x.mul_()", 'mul_() missing 1 required positional arguments: "other"'),
    ("x.mul_(x, 'a')", "mul_() takes 1 positional argument but 2 were given"),
    ("x.exp_(1)", "TensorBase.exp_() takes no arguments (1 given)"),
    ("x.neg_(x)", "TensorBase.neg_() takes no arguments (1 given)"),
    ("x.exp_(x, bogus=1)", "TensorBase.exp_() takes no keyword arguments"),
    ("x.fix_(1)", "TensorBase.fix_() takes no arguments (1 given)"),
    ("x.absolute_(1)", "TensorBase.absolute_() takes no arguments (1 given)"),
    ("x.zero_(1, 2)", "TensorBase.zero_() takes no arguments (2 given)"),
    ("x.abs_(alpha=2)", "TensorBase.abs_() takes no keyword arguments"),
    ("x.cumsum_('a')", "cumsum_(): argument 'dim' (position 1) must be int, not str"),
    ("x.cumsum_()", 'cumsum_() missing 1 required positional arguments: "dim"'),
    ("x.unsqueeze_(0, 1)", "unsqueeze_() takes 1 positional argument but 2 were given"),
    ("x.logit_(x)", "logit_(): argument 'eps' (position 1) must be float, not Tensor"),
    ("x.round_('a')", "round_() takes from 1 to 0 positional arguments but 1 were given"),
    ("x.index_add_(x, alpha='a')",
     "index_add_(): argument 'dim' (position 1) must be int, not Tensor"),
    ("x.requires_grad_(True, 1)",
     "requires_grad_() takes from 0 to 1 positional arguments but 2 were given"),
    ("x.normal_(generator='a')", "normal_(): argument 'generator' must be torch.Generator, "
                                 "not str"),
    ("x.copy_(x, 1)", "copy_(): argument 'non_blocking' (position 2) must be bool, not int"),
    ("x.copy_(x, None)",
     "copy_(): argument 'non_blocking' (position 2) must be bool, not NoneType"),
    ("x.copy_(non_blocking=True)", 'copy_() missing 1 required positional arguments: "other"'),
    ("x.addcmul_(bogus=1)", "addcmul_() received an invalid combination of arguments - got "
                            "unrecognized keyword arguments: bogus"),
    ("x.addcmul_(x, x, x, 'a')", "addcmul_() received an invalid combination of arguments - "
                                 "got (Tensor, Tensor, !Tensor!, !str!), but expected (Tensor "
                                 "tensor1, Tensor tensor2, *, Number value = 1)"),
]


@pytest.mark.parametrize(("call", "message"), REFUSED)
def test_an_in_place_method_is_refused_in_its_own_words(call, message):
    refuses_call(call, TypeError, message)


def _one_of(name: str, got: str, *lines: str) -> str:
    return (f"{name}() received an invalid combination of arguments - got {got}, but expected "
            "one of:\n" + "".join(f"{line}\n" for line in lines))


EXPLAINED = [
    ("x.div_(x, rounding_mode=3)", _one_of(
        "div_", "(Tensor, rounding_mode=int)", " * (Tensor other)",
        " * (Tensor other, *, str rounding_mode)", " * (Number other, *, str rounding_mode)")),
    # a value by position meets the piece at its position, "*" included
    ("x.div_(x, x, 'a')", _one_of(
        "div_", "(Tensor, Tensor, str)", " * (Tensor other)",
        " * (Tensor other, *, str rounding_mode)",
        "      didn't match because some of the arguments have invalid types: "
        "(Tensor, !Tensor!, str)",
        " * (Number other, *, str rounding_mode)",
        "      didn't match because some of the arguments have invalid types: "
        "(!Tensor!, !Tensor!, str)")),
    ("x.copysign_('a')", _one_of(
        "copysign_", "(str)", " * (Tensor other)",
        "      didn't match because some of the arguments have invalid types: (!str!)",
        " * (Number other)",
        "      didn't match because some of the arguments have invalid types: (!str!)")),
    ("x.eq_(x, 'a')", _one_of("eq_", "(Tensor, str)", " * (Tensor other)",
                              " * (Number other)")),
    # a keyword is looked for among the last pieces only
    ("x.lerp_(x, end='a')", _one_of(
        "lerp_", "(Tensor, end=str)", " * (Tensor end, Tensor weight)",
        "      didn't match because some of the keywords were incorrect: end",
        " * (Tensor end, Number weight)",
        "      didn't match because some of the keywords were incorrect: end")),
    ("x.lerp_(x, weight='a')", _one_of(
        "lerp_", "(Tensor, weight=str)", " * (Tensor end, Tensor weight)",
        "      didn't match because some of the arguments have invalid types: "
        "(Tensor, !weight=str!)",
        " * (Tensor end, Number weight)",
        "      didn't match because some of the arguments have invalid types: "
        "(Tensor, !weight=str!)")),
    ("x.divide_(x, 3)", _one_of(  # divide_ takes a number without rounding_mode
        "divide_", "(Tensor, int)", " * (Tensor other)", " * (Tensor other, *, str rounding_mode)",
        " * (Number other)", " * (Number other, *, str rounding_mode)")),
]


@pytest.mark.parametrize(("call", "message"), EXPLAINED)
def test_an_in_place_method_lists_its_own_signatures(call, message):
    refuses_call(call, TypeError, message)


def test_a_refused_call_leaves_the_version_alone():
    x = torch.ones(2)
    with raises(TypeError, "mul_(): argument 'other' (position 1) must be Tensor, not str"):
        x.mul_("a")
    assert x._version == 0


def test_calls_that_fit_still_run():
    x = torch.ones(2)
    x.add_(1).add_(x, alpha=2).mul_(True).div_(2, rounding_mode="floor").divide_(2)
    x.cumsum_(torch.tensor(0)).round_(decimals=1).random_(0, None).requires_grad_(False)
    assert x.shape == (2,) and x._version == 8


_Seen = recording_mode()


@pytest.mark.parametrize("call", ["x.add_('a')", "x.exp_(1)", "x.cumsum_('a')", "x.mul_(x, x)",
                                  "x.zero_(1)", "x.divide_(x, 3)"])
def test_a_mode_never_sees_a_refused_call(call):
    x = torch.ones(2)
    with _Seen() as seen, pytest.raises(TypeError):
        eval(call, {"x": x})
    assert seen.seen == [] and x._version == 0


def test_a_mode_sees_the_calls_that_fit():
    x = torch.ones(2)
    with _Seen() as seen:
        x.add_(x, alpha=2).exp_().divide_(2)
    assert seen.seen == ["aten.add_.Tensor", "aten.exp_.default", "aten.div_.Tensor"]
