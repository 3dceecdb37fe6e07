"""Black-box tests: tensor methods that take no positional arguments refuse them in torch's
words, by their own count, which leaves the tensor out. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

KEYWORDS_ONLY = ("contiguous", "clone", "numpy", "cpu", "is_contiguous", "float", "double",
                 "half", "int", "long", "bool", "short", "char", "byte")


@pytest.mark.parametrize("name", KEYWORDS_ONLY)
def test_a_method_of_keywords_only_counts_without_the_tensor(name):
    x = torch.ones(1, 1)
    with raises(TypeError, f"{name}() takes 0 positional arguments but 1 was given"):
        getattr(x, name)(1)
    with raises(TypeError, f"{name}() takes 0 positional arguments but 2 were given"):
        getattr(x, name)(1, 2)


@pytest.mark.parametrize("name", [n for n in KEYWORDS_ONLY if n != "numpy"])
def test_a_wrong_keyword_is_refused_by_name(name):
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'bogus'"):
        getattr(torch.ones(1, 1), name)(bogus=1)


CALLED = {
    "detach": (lambda x: x.detach(1), lambda x: x.detach(1, 2)),
    "detach_": (lambda x: x.detach_(1), lambda x: x.detach_(1, 2)),
    "item": (lambda x: x.item(1), lambda x: x.item(1, 2)),
    "tolist": (lambda x: x.tolist(1), lambda x: x.tolist(1, 2)),
    "retain_grad": (lambda x: x.retain_grad(1), lambda x: x.retain_grad(1, 2)),
}


@pytest.mark.parametrize("name", CALLED)
def test_a_method_that_takes_nothing_is_named_after_the_class_defining_it(name):
    x = torch.ones(1, requires_grad=True) * 1
    one, two = CALLED[name]
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (1 given)"):
        one(x)
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (2 given)"):
        two(x)
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (1 given)"):
        getattr(torch.Tensor, name)(x, 1)
    assert x.requires_grad and x.grad_fn is not None  # detach_ refused before it ran


def test_contiguous_with_an_argument_no_longer_runs():
    t = torch.ones(2, 3).t()
    with raises(TypeError, "contiguous() takes 0 positional arguments but 1 was given"):
        t.contiguous(1)
    assert t.contiguous().is_contiguous() and not t.is_contiguous()


def test_clone_counts_the_tensor_as_a_function_and_not_as_a_method():
    x = torch.ones(2)
    with raises(TypeError, "clone() takes 1 positional argument but 2 were given"):
        torch.clone(x, 1)
    with raises(TypeError, "clone() takes 0 positional arguments but 1 was given"):
        x.clone(1)
    assert torch.clone(x, memory_format=None).tolist() == [1.0, 1.0]
    assert x.float().dtype == torch.float32 and x.double(memory_format=None).dtype == torch.float64
