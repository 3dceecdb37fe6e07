"""Values torch's parser refuses that NumPy or a truth test would take: refused as torch does."""

import numpy as np
import pytest
import torch

from conformance._support import refuses_call

# (the call, with x a 2x2 tensor of ones; torch's exception; its message)
REFUSED = [
    ('torch.index_put(x, x, x)', TypeError,
        "index_put(): argument 'indices' (position 2) must be tuple of Tensors, not Tensor"),
    ('x.index_put(x, x)', TypeError,
        "index_put(): argument 'indices' (position 1) must be tuple of Tensors, not Tensor"),
    ('torch.index_put(x, (x,), "a")', TypeError,
        "index_put(): argument 'values' (position 3) must be Tensor, not str"),
    ('x.index_put_(x, x)', TypeError,
        "index_put_(): argument 'indices' (position 1) must be tuple of Tensors, not Tensor"),
    ('x.index_put((None, x), x)', TypeError,
        'expected Tensor as element 0 in argument 0, but got NoneType'),
    ('x.pow([1, 2])', TypeError,
        'pow() received an invalid combination of arguments - got (list), but expected one of:\n'
        ' * (Tensor exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!list of [int, "
        'int]!)\n'
        ' * (Number exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!list of [int, "
        'int]!)\n'),
    ('torch.pow(x, (1, 2))', TypeError,
        'pow() received an invalid combination of arguments - got (Tensor, tuple), but expected '
        'one of:\n'
        ' * (Tensor input, Tensor exponent, *, Tensor out = None)\n'
        ' * (Number self, Tensor exponent, *, Tensor out = None)\n'
        ' * (Tensor input, Number exponent, *, Tensor out = None)\n'),
    ('x.pow_(None)', TypeError,
        'pow_() received an invalid combination of arguments - got (NoneType), but expected one '
        'of:\n'
        ' * (Tensor exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
        ' * (Number exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"),
    ('x.pow("a")', TypeError,
        'pow() received an invalid combination of arguments - got (str), but expected one of:\n'
        ' * (Tensor exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"
        ' * (Number exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"),
    ('torch.rsub(x, [1])', TypeError,
        'rsub() received an invalid combination of arguments - got (Tensor, list), but expected '
        'one of:\n'
        ' * (Tensor input, Tensor other, *, Number alpha = 1)\n'
        ' * (Tensor input, Number other, Number alpha = 1)\n'),
    ('x.squeeze_(None)', TypeError,
        'squeeze_() received an invalid combination of arguments - got (NoneType), but expected '
        'one of:\n'
        ' * ()\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
        ' * (int dim)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
        ' * (tuple of ints dim)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"),
    ('x.squeeze_(dim=None)', TypeError,
        'squeeze_() received an invalid combination of arguments - got (dim=NoneType, ), but '
        'expected one of:\n'
        ' * ()\n'
        "      didn't match because some of the keywords were incorrect: dim\n"
        ' * (int dim)\n'
        "      didn't match because some of the arguments have invalid types: (!dim=NoneType!, "
        ')\n'
        ' * (tuple of ints dim)\n'
        "      didn't match because some of the arguments have invalid types: (!dim=NoneType!, "
        ')\n'),
    ('x.nan_to_num_([1, 2])', TypeError,
        "nan_to_num_(): argument 'nan' (position 1) must be float, not list"),
    ('x.nan_to_num_(x)', TypeError,
        "nan_to_num_(): argument 'nan' (position 1) must be float, not Tensor"),
    ('x.unique("a")', TypeError, "_unique2(): argument 'sorted' must be bool, not str"),
    ('x.unique(True, 1)', TypeError, "_unique2(): argument 'return_inverse' must be bool, not int"),
    ('x.unique(dim=0, sorted="a")', TypeError,
        "unique_dim(): argument 'sorted' must be bool, not str"),
    ('torch.unique(x, True, "a")', TypeError,
        "_unique2(): argument 'return_inverse' must be bool, not str"),
    ('torch.unique(x, x, x, "a")', RuntimeError,
        'Boolean value of Tensor with more than one value is ambiguous'),
    ('torch.unique("a", True)', TypeError,
        "_unique2(): argument 'input' (position 1) must be Tensor, not str"),
    ('x.unique_consecutive(None)', TypeError,
        "unique_consecutive(): argument 'return_inverse' must be bool, not NoneType"),
    ('x.unique_consecutive(True, True, "a")', TypeError,
        "unique_consecutive(): argument 'dim' must be int, not str"),
    ('x.unique_consecutive(x)', RuntimeError,
        'Boolean value of Tensor with more than one value is ambiguous'),
    ('torch.unique_consecutive(None, True)', TypeError,
        "unique_consecutive(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("torch.hardshrink(x, 1j)", RuntimeError,
        "value cannot be converted to type float without overflow"),
    ("x.hardshrink(1e300)", RuntimeError,
        "value cannot be converted to type float without overflow"),
    ("x.double().hardshrink(1j)", RuntimeError,
        "value cannot be converted to type double without overflow"),
    ('x.hardshrink("a")', TypeError,
        "hardshrink(): argument 'lambd' (position 1) must be Number, not str"),
    ('x ** [1, 2]', TypeError, "unsupported operand type(s) for ** or pow(): 'Tensor' and 'list'"),
    ('[1, 2] ** x', TypeError, "unsupported operand type(s) for ** or pow(): 'list' and 'Tensor'"),
    ('[1, 2] - x', TypeError, "unsupported operand type(s) for -: 'list' and 'Tensor'"),
    ('x ** None', TypeError,
        "unsupported operand type(s) for ** or pow(): 'Tensor' and 'NoneType'"),
    ('torch.pow([1, 2], x)', TypeError,
        'pow() received an invalid combination of arguments - got (list, Tensor), but expected '
        'one of:\n'
        ' * (Tensor input, Tensor exponent, *, Tensor out = None)\n'
        ' * (Number self, Tensor exponent, *, Tensor out = None)\n'
        ' * (Tensor input, Number exponent, *, Tensor out = None)\n'),
    ('torch.maximum(x, 2)', TypeError, "maximum(): argument 'other' (position 2) must be Tensor, "
        "not int"),
    ('x.minimum(2.0)', TypeError, "minimum(): argument 'other' (position 1) must be Tensor, "
        "not float"),
    ('torch.tril(x, 1.5)', TypeError, "tril(): argument 'diagonal' (position 2) must be int, "
        "not float"),
    ('x.triu(True)', TypeError, "triu(): argument 'diagonal' (position 1) must be int, not bool"),
    ('x.tril_("a")', TypeError, "tril_(): argument 'diagonal' (position 1) must be int, not str"),
    ('torch.addr(x, torch.ones(2), torch.ones(2), beta=[1])', TypeError,
        "addr(): argument 'beta' must be Number, not list"),
    ('x.sort(0, "a")', TypeError,
        'sort() received an invalid combination of arguments - got (int, str), but expected one '
        'of:\n'
        ' * (*, bool stable, int dim = -1, bool descending = False)\n'
        ' * (int dim = -1, bool descending = False)\n'
        "      didn't match because some of the arguments have invalid types: (!int!, !str!)\n"),
]


def test_what_torch_takes_for_a_number_or_an_int_is_taken():
    x = torch.tensor([[0.25, 1.0], [-2.0, 0.75]])
    assert torch.hardshrink(x, torch.tensor(0.5)).tolist() == [[0.0, 1.0], [-2.0, 0.75]]
    assert torch.tril(x, torch.tensor(0)).tolist() == [[0.25, 0.0], [-2.0, 0.75]]
    assert torch.addr(torch.zeros(2, 2), torch.ones(2), torch.ones(2),
                      beta=torch.tensor(2.0), alpha=np.float32(3)).tolist() == [[3.0] * 2] * 2


@pytest.mark.parametrize("call, kind, message", REFUSED, ids=[row[0] for row in REFUSED])
def test_a_value_torch_refuses_is_refused_in_its_words(call, kind, message):
    refuses_call(call, kind, message)


def test_the_values_torch_takes_still_work():
    x = torch.tensor([[1.0, 2.0], [1.0, 4.0]])
    assert x.pow(2).tolist() == [[1.0, 4.0], [1.0, 16.0]]
    assert x.__rsub__([1, 2]) is NotImplemented and x.__rpow__([1, 2]) is NotImplemented
    assert (2 ** x).tolist() == [[2.0, 4.0], [2.0, 16.0]]
    assert torch.rsub(x, 1).tolist() == [[0.0, -1.0], [0.0, -3.0]]
    assert x.clone().squeeze_().shape == (2, 2)
    assert torch.ones(1, 2).squeeze_(0).shape == (2,)
    assert torch.tensor([float("nan")]).nan_to_num_(1.5).tolist() == [1.5]
    values, counts = x.unique(True, False, True)
    assert values.tolist() == [1.0, 2.0, 4.0] and counts.tolist() == [2, 1, 1]
    assert x.unique_consecutive(dim=1).tolist() == [[1.0, 2.0], [1.0, 4.0]]
    index = torch.tensor([0])
    assert x.index_put((index,), torch.tensor(0.0)).tolist() == [[0.0, 0.0], [1.0, 4.0]]
