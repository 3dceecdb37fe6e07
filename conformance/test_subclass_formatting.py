"""format() and f-strings: only a plain 0-d Tensor formats as its number; __repr__'s keyword."""

import torch

from conformance._support import raises

nn = torch.nn


class Marked(torch.Tensor):
    pass


def test_a_plain_zero_dim_tensor_formats_as_its_number():
    t = torch.tensor(0.5, requires_grad=True)
    assert f"{t:.3f}" == "0.500" and f"{t}" == "0.5"
    assert f"{torch.tensor(3):>4}" == "   3" and f"{torch.tensor(True)}" == "True"


def test_a_parameter_formats_as_its_str_and_refuses_a_spec():
    p = nn.Parameter(torch.tensor(0.5))
    assert f"{p}" == str(p) and str(p).startswith("Parameter containing:\n")
    with raises(TypeError, "unsupported format string passed to Parameter.__format__"):
        format(p, ".3f")


def test_a_user_subclass_formats_as_its_str_and_refuses_a_spec():
    t = torch.tensor(0.5).as_subclass(Marked)
    assert format(t, "") == str(t) and str(t).startswith("Marked(")
    with raises(TypeError, "unsupported format string passed to Marked.__format__"):
        format(t, ".2f")


def test_a_bigger_tensor_takes_only_the_empty_spec():
    t = torch.tensor([0.5, 1.0])
    assert f"{t}" == str(t)
    with raises(TypeError, "unsupported format string passed to Tensor.__format__"):
        format(t, ".2f")


def test_repr_prints_the_given_contents_with_the_tensors_suffixes():
    t = torch.ones(2, requires_grad=True)
    assert t.__repr__(tensor_contents=None) == repr(t)
    assert t.__repr__(tensor_contents="[...]") == "tensor([...], requires_grad=True)"
    assert torch.ones(2).__repr__(tensor_contents="x") == "tensor(x)"
    marked = torch.ones(2).as_subclass(Marked)
    assert marked.__repr__(tensor_contents="x") == "Marked(x)"
