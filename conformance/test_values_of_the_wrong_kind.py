"""A tensor, str or None where torch's parser wants an int, a number or a second tensor.

refgrad's functions would test such a value for its truth, or read its shape, and fail in
those words; torch's parser refuses it first, and so does refgrad once the function fails.
"""

import warnings

import pytest
import torch

from conformance._support import refuses_call

# (the call, with x a 2x2 tensor of ones; torch's exception; its message)
REFUSED = [
    ('x.outer("a")', TypeError, "outer(): argument 'vec2' (position 1) must be Tensor, not str"),
    ('torch.ger(x, None)', TypeError,
        "ger(): argument 'vec2' (position 2) must be Tensor, not NoneType"),
    ('x.addr(x, "a")', TypeError, "addr(): argument 'vec2' (position 2) must be Tensor, not str"),
    ('x.addbmm_(x, None)', TypeError,
        "addbmm_(): argument 'batch2' (position 2) must be Tensor, not NoneType"),
    ('x.baddbmm(x, "a")', TypeError,
        "baddbmm(): argument 'batch2' (position 2) must be Tensor, not str"),
    ('x.diff(x, "a")', TypeError, "diff(): argument 'n' (position 1) must be int, not Tensor"),
    ('torch.histc(x, x, "a")', TypeError,
        "histc(): argument 'bins' (position 2) must be int, not Tensor"),
    ('x.masked_fill(x > 0, "a")', TypeError,
        'masked_fill() received an invalid combination of arguments - got (Tensor, str), but '
        'expected one of:\n'
        ' * (Tensor mask, Tensor value)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"
        ' * (Tensor mask, Number value)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"),
    ('x.masked_fill_(x > 0, None)', TypeError,
        'masked_fill_() received an invalid combination of arguments - got (Tensor, NoneType), '
        'but expected one of:\n'
        ' * (Tensor mask, Tensor value)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, "
        '!NoneType!)\n'
        ' * (Tensor mask, Number value)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, "
        '!NoneType!)\n'),
    ('x.moveaxis(x, None)', TypeError,
        'moveaxis() received an invalid combination of arguments - got (Tensor, NoneType), but '
        'expected one of:\n'
        ' * (int source, int destination)\n'
        "      didn't match because some of the arguments have invalid types: (!Tensor!, "
        '!NoneType!)\n'
        ' * (tuple of ints source, tuple of ints destination)\n'
        "      didn't match because some of the arguments have invalid types: (!Tensor!, "
        '!NoneType!)\n'),
    ('x.rot90(x, "a")', TypeError, "rot90(): argument 'k' (position 1) must be int, not Tensor"),
    ('x.scatter_(0, x, "a")', TypeError,
        'scatter_() received an invalid combination of arguments - got (int, Tensor, str), but '
        'expected one of:\n'
        ' * (int dim, Tensor index, Tensor src)\n'
        "      didn't match because some of the arguments have invalid types: (int, Tensor, "
        '!str!)\n'
        ' * (int dim, Tensor index, Tensor src, *, str reduce)\n'
        ' * (int dim, Tensor index, Number value)\n'
        "      didn't match because some of the arguments have invalid types: (int, Tensor, "
        '!str!)\n'
        ' * (int dim, Tensor index, Number value, *, str reduce)\n'),
    ('x.transpose_(x, "a")', TypeError,
        "transpose_(): argument 'dim0' (position 1) must be int, not Tensor"),
    ('x.swapaxes_(x, None)', TypeError,
        "swapaxes_(): argument 'axis0' (position 1) must be int, not Tensor"),
    ('x.where(x > 0, "a")', TypeError,
        'where() received an invalid combination of arguments - got (Tensor, str), but expected '
        'one of:\n'
        ' * (Tensor condition, Tensor other)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"
        ' * (Tensor condition, Number other)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"),
    ('torch.diag_embed(x, x)', TypeError,
        "diag_embed(): argument 'offset' (position 2) must be int, not Tensor"),
    ('torch.index_add(x, x, x, x)', TypeError,
        "index_add(): argument 'dim' (position 2) must be int, not Tensor"),
    ('torch.index_copy(x, None, x, x)', TypeError,
        "index_copy(): argument 'dim' (position 2) must be int, not NoneType"),
    ('torch.index_fill(x, x, x, "a")', TypeError,
        'index_fill() received an invalid combination of arguments - got (Tensor, Tensor, '
        'Tensor, str), but expected one of:\n'
        ' * (Tensor input, int dim, Tensor index, Tensor value)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, "
        '!Tensor!, Tensor, !str!)\n'
        ' * (Tensor input, int dim, Tensor index, Number value)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, "
        '!Tensor!, Tensor, !str!)\n'),
    ('torch.narrow_copy(x, x, 0, 1)', TypeError,
        "narrow_copy(): argument 'dim' (position 2) must be int, not Tensor"),
    ('torch.renorm(x, x, 0, 1)', TypeError,
        "renorm(): argument 'p' (position 2) must be Number, not Tensor"),
    ('torch.scatter(x, 0, x, "a")', TypeError,
        'scatter() received an invalid combination of arguments - got (Tensor, int, Tensor, '
        'str), but expected one of:\n'
        ' * (Tensor input, int dim, Tensor index, Tensor src, *, Tensor out = None)\n'
        ' * (Tensor input, int dim, Tensor index, Tensor src, *, str reduce, Tensor out = '
        'None)\n'
        ' * (Tensor input, int dim, Tensor index, Number value, *, Tensor out = None)\n'
        ' * (Tensor input, int dim, Tensor index, Number value, *, str reduce, Tensor out = '
        'None)\n'),
    ('x.sort(x, "a")', TypeError,
        'sort() received an invalid combination of arguments - got (Tensor, str), but expected '
        'one of:\n'
        ' * (*, bool stable, int dim = -1, bool descending = False)\n'
        ' * (int dim = -1, bool descending = False)\n'
        "      didn't match because some of the arguments have invalid types: (!Tensor!, "
        '!str!)\n'),
    ('x.argsort(x, None)', TypeError,
        'argsort() received an invalid combination of arguments - got (Tensor, NoneType), but '
        'expected one of:\n'
        ' * (*, bool stable, int dim = -1, bool descending = False)\n'
        ' * (int dim = -1, bool descending = False)\n'
        "      didn't match because some of the arguments have invalid types: (!Tensor!, "
        '!NoneType!)\n'),
    ('x.clamp("a")', TypeError,
        'clamp() received an invalid combination of arguments - got (str), but expected one '
        'of:\n'
        ' * (Tensor min = None, Tensor max = None)\n'
        ' * (Number min = None, Number max = None)\n'),
    ('x.clip_(None, "a")', TypeError,
        'clip_() received an invalid combination of arguments - got (NoneType, str), but '
        'expected one of:\n'
        ' * (Tensor min = None, Tensor max = None)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!, "
        '!str!)\n'
        ' * (Number min = None, Number max = None)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!, "
        '!str!)\n'),
    ('x.clamp_min("a")', TypeError,
        'clamp_min() received an invalid combination of arguments - got (str), but expected one '
        'of:\n'
        ' * (Tensor min)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"
        ' * (Number min)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"),
    ('x.clamp_max_(None)', TypeError,
        'clamp_max_() received an invalid combination of arguments - got (NoneType), but '
        'expected one of:\n'
        ' * (Tensor max)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
        ' * (Number max)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"),
    ('torch.clamp_min(x, "a")', TypeError,
        'clamp_min() received an invalid combination of arguments - got (Tensor, str), but '
        'expected one of:\n'
        ' * (Tensor input, Tensor min, *, Tensor out = None)\n'
        ' * (Tensor input, Number min, *, Tensor out = None)\n'),
    ('torch.clamp_max(x, [1])', TypeError,
        'clamp_max() received an invalid combination of arguments - got (Tensor, list), but '
        'expected one of:\n'
        ' * (Tensor input, Tensor max, *, Tensor out = None)\n'
        ' * (Tensor input, Number max, *, Tensor out = None)\n'),
    ('x.bincount("a")', TypeError,
        "bincount(): argument 'weights' (position 1) must be Tensor, not str"),
    ('torch.bincount(x, [1])', TypeError,
        "bincount(): argument 'weights' (position 2) must be Tensor, not list"),
    ('x.bincount(None, "a")', TypeError,
        "bincount(): argument 'minlength' (position 2) must be int, not str"),
    ('x.repeat_interleave()', TypeError,
        'repeat_interleave() received an invalid combination of arguments - got (), but '
        'expected one of:\n'
        ' * (Tensor repeats, int dim = None, *, int output_size = None)\n'
        ' * (int repeats, int dim = None, *, int output_size = None)\n'),
    ('x.repeat_interleave(None)', TypeError,
        'repeat_interleave() received an invalid combination of arguments - got (NoneType), but '
        'expected one of:\n'
        ' * (Tensor repeats, int dim = None, *, int output_size = None)\n'
        ' * (int repeats, int dim = None, *, int output_size = None)\n'),
    ('torch.neg(torch.tensor([True]))', RuntimeError,
        'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to '
        'invert a mask, use the `~` or `logical_not()` operator instead.'),
    ('torch.tensor([True]).neg_()', RuntimeError,
        'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to '
        'invert a mask, use the `~` or `logical_not()` operator instead.'),
    ('-torch.tensor([True])', RuntimeError,
        'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to '
        'invert a mask, use the `~` or `logical_not()` operator instead.'),

    ('x.float_power_("a")', TypeError,
        'float_power_() received an invalid combination of arguments - got (str), but expected '
        'one of:\n'
        ' * (Tensor exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"
        ' * (Number exponent)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"),
    ('x.as_strided(x, "a")', TypeError,
        "as_strided(): argument 'size' (position 1) must be tuple of ints, not Tensor"),
    ('x.as_strided_(x, None)', TypeError,
        "as_strided_(): argument 'size' (position 1) must be tuple of ints, not Tensor"),

    ('x.maximum(1j)', TypeError,
        "maximum(): argument 'other' (position 1) must be Tensor, not complex"),
    ('torch.minimum(x, None)', TypeError,
        "minimum(): argument 'other' (position 2) must be Tensor, not NoneType"),
    ('torch.clamp_(x, None)', RuntimeError,
        "torch.clamp: At least one of 'min' or 'max' must not be None"),
    ('torch.clip_(x, None, "a")', TypeError,
        'clip_() received an invalid combination of arguments - got (Tensor, NoneType, str), '
        'but expected one of:\n'
        ' * (Tensor input, Tensor min = None, Tensor max = None)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, "
        '!NoneType!, !str!)\n'
        ' * (Tensor input, Number min = None, Number max = None)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, "
        '!NoneType!, !str!)\n'),
    ('x.repeat_interleave(x, None)', RuntimeError, 'repeats must be 0-dim or 1-dim tensor'),

    ('torch.bernoulli(None)', TypeError,
        "bernoulli(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ('torch.bernoulli(x, "a")', TypeError,
        'bernoulli() received an invalid combination of arguments - got (Tensor, str), but '
        'expected one of:\n'
        ' * (Tensor input, *, torch.Generator generator = None, Tensor out = None)\n'
        ' * (Tensor input, float p, *, torch.Generator generator = None)\n'),
    ('torch.bernoulli(x, 0.5, generator="a")', TypeError,
        'bernoulli() received an invalid combination of arguments - got (Tensor, float, '
        'generator=str), but expected one of:\n'
        ' * (Tensor input, *, torch.Generator generator = None, Tensor out = None)\n'
        ' * (Tensor input, float p, *, torch.Generator generator = None)\n'),

]


@pytest.mark.parametrize("call, kind, message", REFUSED, ids=[row[0] for row in REFUSED])
def test_a_value_of_the_wrong_kind_is_named_as_torch_names_it(call, kind, message):
    refuses_call(call, kind, message)


def test_a_refused_meshgrid_gives_no_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(TypeError):
            torch.meshgrid("a")
    assert caught == []


def test_the_same_functions_given_what_torch_takes():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x[0].outer(x[1]).tolist() == [[3.0, 4.0], [6.0, 8.0]]
    assert x.diff(1, 0).tolist() == [[2.0, 2.0]]
    assert x.masked_fill(x > 2, 0.0).tolist() == [[1.0, 2.0], [0.0, 0.0]]
    assert x.where(x > 2, torch.zeros(2, 2)).tolist() == [[0.0, 0.0], [3.0, 4.0]]
    assert x.rot90(1, [0, 1]).tolist() == [[2.0, 4.0], [1.0, 3.0]]
    assert x.clone().transpose_(0, 1).tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert x.sort(0, True)[0].tolist() == [[3.0, 4.0], [1.0, 2.0]]
    index = torch.tensor([1])
    assert torch.index_fill(x, 0, index, -1.0).tolist() == [[1.0, 2.0], [-1.0, -1.0]]
