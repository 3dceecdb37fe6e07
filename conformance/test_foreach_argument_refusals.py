"""torch._foreach_* read against torch's signatures: what fits none is refused with torch's
TypeError before any element is computed or written, and keywords name the overload's own."""

import pytest
import torch

from conformance._support import raises

_ADD = """ * (tuple of Tensors self, Number scalar)
      didn't match because some of the arguments have invalid types: (!Tensor!, !int!)
 * (tuple of Tensors self, tuple of Scalars scalars)
      didn't match because some of the arguments have invalid types: (!Tensor!, !int!)
 * (tuple of Tensors self, Tensor other, *, Number alpha = 1)
 * (tuple of Tensors self, tuple of Tensors other, *, Number alpha = 1)
"""


def _list():
    return [torch.ones(2), torch.ones(1)]


def test_a_tensor_for_the_list_is_refused_with_every_signature():
    with raises(TypeError, "_foreach_add() received an invalid combination of arguments - got "
                           "(Tensor, int), but expected one of:\n" + _ADD):
        torch._foreach_add(torch.ones(2), 1)
    with raises(TypeError, "_foreach_sqrt(): argument 'self' (position 1) must be tuple of "
                           "Tensors, not Tensor"):
        torch._foreach_sqrt(torch.ones(2))
    with raises(TypeError, "_foreach_norm(): argument 'self' (position 1) must be tuple of "
                           "Tensors, not NoneType"):
        torch._foreach_norm(None)


def test_a_zero_dim_tensor_with_alpha_where_no_tensor_overload_takes_it():
    with raises(TypeError, "_foreach_sub(): argument 'other' (position 2) must be tuple of "
                           "Tensors, not Tensor"):
        torch._foreach_sub(_list(), torch.ones(()), alpha=2)
    with raises(TypeError, "_foreach_mul() received an invalid combination of arguments - got "
                           "(list, Tensor, alpha=int), but expected one of:\n"
                           " * (tuple of Tensors self, tuple of Scalars scalars)\n"
                           " * (tuple of Tensors self, Tensor other)\n"
                           " * (tuple of Tensors self, tuple of Tensors other)\n"
                           " * (tuple of Tensors self, Number scalar)\n"):
        torch._foreach_mul(_list(), torch.ones(()), alpha=2)


@pytest.mark.parametrize("call, message", [
    ("torch._foreach_add_(a, [1, x])",
     "expected Tensor as element 0 in argument 1, but got int"),
    ("torch._foreach_add_(a, [torch.tensor(1.0), 2])",
     "expected Tensor as element 1 in argument 1, but got int"),
    ("torch._foreach_sqrt_([x, None])",
     "expected Tensor as element 1 in argument 0, but got NoneType"),
    ("torch._foreach_norm(a, 'fro')",
     "_foreach_norm(): argument 'ord' (position 2) must be Number, not str"),
    ("torch._foreach_copy_(a, a, 'yes')",
     "_foreach_copy_(): argument 'non_blocking' (position 3) must be bool, not str"),
    ("torch._foreach_clone(a, memory_format=1)",
     "_foreach_clone(): argument 'memory_format' must be torch.memory_format, not int"),
    ("torch._foreach_sqrt_(a, alpha=1)",
     "_foreach_sqrt_() got an unexpected keyword argument 'alpha'"),
    ("torch._foreach_max(a, a, a)", "_foreach_max() takes 1 positional argument but 3 were given"),
])
def test_element_and_argument_refusals(call, message):
    a, x = _list(), torch.ones(2)
    with raises(TypeError, message):
        eval(call, {"torch": torch, "a": a, "x": x})
    assert [t.tolist() for t in a] == [[1.0, 1.0], [1.0]]  # nothing was written


@pytest.mark.parametrize("call, head", [
    ("torch._foreach_add(a, a, alpha=None)", "_foreach_add() received an invalid combination of "
                                             "arguments - got (list, list, alpha=NoneType)"),
    ("torch._foreach_add_(a, 1, alpha=2)", "_foreach_add_() received an invalid combination of "
                                           "arguments - got (list, int, alpha=int)"),
    ("torch._foreach_maximum(a, 'a')", "_foreach_maximum() received an invalid combination of "
                                       "arguments - got (list, str)"),
    ("torch._foreach_pow(x, a)", "_foreach_pow() received an invalid combination of arguments "
                                 "- got (Tensor, list)"),
    ("torch._foreach_lerp_(a, a, x)", "_foreach_lerp_() received an invalid combination of "
                                      "arguments - got (list, list, Tensor)"),
    ("torch._foreach_addcmul_(a, a, a, value=None)", "_foreach_addcmul_() received an invalid "
                                                     "combination of arguments - got (list, "
                                                     "list, list, value=NoneType)"),
    ("torch._foreach_addcdiv(a, a, a, None)", "_foreach_addcdiv() received an invalid "
                                              "combination of arguments - got (list, list, "
                                              "list, NoneType)"),
])
def test_invalid_combinations_list_every_signature(call, head):
    a, x = _list(), torch.ones(2)
    with pytest.raises(TypeError) as caught:
        eval(call, {"torch": torch, "a": a, "x": x})
    text = str(caught.value)
    assert text.startswith(head + ", but expected one of:\n * (")
    assert [t.tolist() for t in a] == [[1.0, 1.0], [1.0]]


def test_keywords_by_the_overloads_names_and_a_number_value_by_position():
    a = _list()
    for got, expected in [
        (torch._foreach_add(a, scalar=2), [x + 2 for x in a]),
        (torch._foreach_add(self=a, other=a, alpha=3), [x + 3 * x for x in a]),
        (torch._foreach_addcmul(a, a, a, 2), [torch.addcmul(x, x, x, value=2) for x in a]),
        (torch._foreach_norm(a, 1, torch.float64),
         [torch.linalg.vector_norm(x, 1, dtype=torch.float64) for x in a]),
    ]:
        assert [g.dtype for g in got] == [e.dtype for e in expected]
        assert all(torch.equal(g, e) for g, e in zip(got, expected))
