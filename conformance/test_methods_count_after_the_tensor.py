"""A method counts its arguments after the tensor it is called on, as torch's methods do.

These methods' functions count from the tensor ("position 2"); the method, read again once
it fails, names the place the argument has in the method's own call ("position 1").
"""

import pytest
import torch

from conformance._support import raises

X = object()  # stands for the 2x2 tensor of ones each call is made on

# (method, its arguments, torch's exception, its message)
REFUSED = [
    ('atan2', ('a',), TypeError,
     "atan2(): argument 'other' (position 1) must be Tensor, not str"),
    ('arctan2_', (None,), TypeError,
     "arctan2_(): argument 'other' (position 1) must be Tensor, not NoneType"),
    ('fmax', ([1],), TypeError,
     "fmax(): argument 'other' (position 1) must be Tensor, not list"),
    ('hypot_', ('a',), TypeError,
     "hypot_(): argument 'other' (position 1) must be Tensor, not str"),
    ('igammac', (None,), TypeError,
     "igammac(): argument 'other' (position 1) must be Tensor, not NoneType"),
    ('kron', ('a',), TypeError,
     "kron(): argument 'other' (position 1) must be Tensor, not str"),
    ('ldexp_', ('a',), TypeError,
     "ldexp_(): argument 'other' (position 1) must be Tensor, not str"),
    ('logaddexp2', (None,), TypeError,
     "logaddexp2(): argument 'other' (position 1) must be Tensor, not NoneType"),
    ('heaviside', ('a',), TypeError,
     "heaviside(): argument 'values' (position 1) must be Tensor, not str"),
    ('mvlgamma', ('a',), TypeError,
     "mvlgamma(): argument 'p' (position 1) must be int, not str"),
    ('cummax', ('a',), TypeError,
     "cummax(): argument 'dim' (position 1) must be int, not str"),
    ('cumprod_', (None,), TypeError,
     "cumprod_(): argument 'dim' (position 1) must be int, not NoneType"),
    ('logcumsumexp', ([0],), TypeError,
     "logcumsumexp(): argument 'dim' (position 1) must be int, not list"),
    ('matrix_power', ('a',), TypeError,
     "matrix_power(): argument 'n' (position 1) must be int, not str"),
    ('scatter_add_', ('a', X, X), TypeError,
     "scatter_add_(): argument 'dim' (position 1) must be int, not str"),
    ('scatter_reduce', (0, X, X, 1), TypeError,
     "scatter_reduce(): argument 'reduce' (position 4) must be str, not int"),
    ('masked_scatter', ('a', X), TypeError,
     "masked_scatter(): argument 'mask' (position 1) must be Tensor, not str"),
    ('addcdiv', ('a',), TypeError,
     "addcdiv() received an invalid combination of arguments - got (str), but expected "
     "(Tensor tensor1, Tensor tensor2, *, Number value = 1)"),
    ('addcmul_', (X, None), TypeError,
     "addcmul_(): argument 'tensor2' (position 2) must be Tensor, not NoneType"),
    ('broadcast_to', ('a',), TypeError,
     "broadcast_to(): argument 'size' (position 1) must be tuple of ints, not str"),
    ('bitwise_and', ('a',), TypeError,
     'bitwise_and() received an invalid combination of arguments - got (str), but expected one '
     'of:\n'
     ' * (Tensor other)\n'
     "      didn't match because some of the arguments have invalid types: (!str!)\n"
     ' * (Number other)\n'
     "      didn't match because some of the arguments have invalid types: (!str!)\n"),
    ('bitwise_xor_', (), TypeError,
     'bitwise_xor_() received an invalid combination of arguments - got (), but expected one '
     'of:\n'
     ' * (Tensor other)\n'
     ' * (Number other)\n'),
    ('floor_divide', (1, 2), TypeError,
     'floor_divide() received an invalid combination of arguments - got (int, int), but '
     'expected one of:\n'
     ' * (Tensor other)\n'
     ' * (Number other)\n'),
    ('remainder_', (None,), TypeError,
     'remainder_() received an invalid combination of arguments - got (NoneType), but expected '
     'one of:\n'
     ' * (Tensor other)\n'
     "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
     ' * (Number other)\n'
     "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"),
    ('fmod', ([1],), TypeError,
     'fmod() received an invalid combination of arguments - got (list), but expected one of:\n'
     ' * (Tensor other)\n'
     "      didn't match because some of the arguments have invalid types: (!list of [int]!)\n"
     ' * (Number other)\n'
     "      didn't match because some of the arguments have invalid types: (!list of [int]!)\n"),
    ('true_divide', ('a',), TypeError,
     'true_divide() received an invalid combination of arguments - got (str), but expected one '
     'of:\n'
     ' * (Tensor other)\n'
     "      didn't match because some of the arguments have invalid types: (!str!)\n"
     ' * (Number other)\n'
     "      didn't match because some of the arguments have invalid types: (!str!)\n"),
    ('xlogy_', (X, X), TypeError,
     'xlogy_() received an invalid combination of arguments - got (Tensor, Tensor), but '
     'expected one of:\n'
     ' * (Tensor other)\n'
     ' * (Number other)\n'),
    ('float_power', (), TypeError,
     'float_power() received an invalid combination of arguments - got (), but expected one '
     'of:\n'
     ' * (Tensor exponent)\n'
     ' * (Number exponent)\n'),
    ('logical_or_', (), TypeError,
     'logical_or_() missing 1 required positional arguments: "other"'),
    ('logical_xor_', ('a',), TypeError,
     "logical_xor_(): argument 'other' (position 1) must be Tensor, not str"),
]


@pytest.mark.parametrize("name, args, kind, message", REFUSED,
                         ids=[row[0] for row in REFUSED])
def test_a_method_names_the_place_of_its_argument(name, args, kind, message):
    x = torch.ones(2, 2)
    with raises(kind, message):
        getattr(x, name)(*(x if a is X else a for a in args))
    assert x.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_the_same_methods_given_tensors():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.cumprod(1).tolist() == [[1.0, 2.0], [3.0, 12.0]]
    assert x.fmax(torch.full((2, 2), 2.5)).tolist() == [[2.5, 2.5], [3.0, 4.0]]
    assert x.matrix_power(2).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert x.addcmul(x, x, value=0.5).tolist() == [[1.5, 4.0], [7.5, 12.0]]
    assert x[0].broadcast_to((2, 2)).tolist() == [[1.0, 2.0], [1.0, 2.0]]
