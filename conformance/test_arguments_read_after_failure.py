"""Calls torch's parser refuses, refused in its words once refgrad's function has failed."""

import pytest
import torch

from conformance._support import raises, refuses_call

# (the call, with x a 2x2 tensor of ones; torch's exception; its message)
REFUSED = [
    ('torch.tril("a", 1)', TypeError,
        "tril(): argument 'input' (position 1) must be Tensor, not str"),
    ('torch.triu(None, 1)', TypeError,
        "triu(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ('torch.diag("a", 1)', TypeError,
        "diag(): argument 'input' (position 1) must be Tensor, not str"),
    ('torch.tril(x, "a")', TypeError,
        "tril(): argument 'diagonal' (position 2) must be int, not str"),
    ('torch.where("a", x, x)', TypeError,
        'where() received an invalid combination of arguments - got (str, Tensor, Tensor), but '
        'expected one of:\n'
        ' * (Tensor condition)\n'
        ' * (Tensor condition, Tensor input, Tensor other, *, Tensor out = None)\n'
        ' * (Tensor condition, Number self, Tensor other)\n'
        "      didn't match because some of the arguments have invalid types: (!str!, !Tensor!, "
        'Tensor)\n'
        ' * (Tensor condition, Tensor input, Number other)\n'
        "      didn't match because some of the arguments have invalid types: (!str!, Tensor, "
        '!Tensor!)\n'
        ' * (Tensor condition, Number self, Number other)\n'
        "      didn't match because some of the arguments have invalid types: (!str!, !Tensor!, "
        '!Tensor!)\n'),
    ('torch.where(x > 1, 1.5, "a")', TypeError,
        'where() received an invalid combination of arguments - got (Tensor, float, str), but '
        'expected one of:\n'
        ' * (Tensor condition)\n'
        ' * (Tensor condition, Tensor input, Tensor other, *, Tensor out = None)\n'
        ' * (Tensor condition, Number self, Tensor other)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !float!, "
        '!str!)\n'
        ' * (Tensor condition, Tensor input, Number other)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !float!, "
        '!str!)\n'
        ' * (Tensor condition, Number self, Number other)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !float!, "
        '!str!)\n'),
    ('torch.sort(None, 0)', TypeError,
        'sort() received an invalid combination of arguments - got (NoneType, int), but '
        'expected one of:\n'
        ' * (Tensor input, *, bool stable, int dim = -1, bool descending = False, tuple of '
        'Tensors out = None)\n'
        ' * (Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = '
        'None)\n'),
    ('torch.argsort("a", 1)', TypeError,
        'argsort() received an invalid combination of arguments - got (str, int), but expected '
        'one of:\n'
        ' * (Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = '
        'None)\n'
        ' * (Tensor input, int dim = -1, bool descending = False)\n'),
    ('torch.clamp("a", 0, 1)', TypeError,
        'clamp() received an invalid combination of arguments - got (str, int, int), but '
        'expected one of:\n'
        ' * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n'
        ' * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n'),
    ('torch.clamp("a")', TypeError,
        'clamp() received an invalid combination of arguments - got (str), but expected one '
        'of:\n'
        ' * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n'
        ' * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n'),
    ('torch.clip(None, 0)', TypeError,
        'clip() received an invalid combination of arguments - got (NoneType, int), but '
        'expected one of:\n'
        ' * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n'
        ' * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n'),
    ('torch.clamp(x, "a")', TypeError,
        'clamp() received an invalid combination of arguments - got (Tensor, str), but expected '
        'one of:\n'
        ' * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n'
        ' * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n'),
    ('torch.hstack("a")', TypeError,
        "hstack(): argument 'tensors' (position 1) must be tuple of Tensors, not str"),
    ('torch.vstack(None)', TypeError,
        "vstack(): argument 'tensors' (position 1) must be tuple of Tensors, not NoneType"),
    ('torch.dstack("a")', TypeError,
        "dstack(): argument 'tensors' (position 1) must be tuple of Tensors, not str"),
    ('torch.column_stack("a")', TypeError,
        "column_stack(): argument 'tensors' (position 1) must be tuple of Tensors, not str"),
    ('torch.row_stack(None)', TypeError,
        "row_stack(): argument 'tensors' (position 1) must be tuple of Tensors, not NoneType"),
    ('torch.concat("a")', TypeError,
        "concat(): argument 'tensors' (position 1) must be tuple of Tensors, not str"),
    ('torch.concatenate(None)', TypeError,
        "concatenate(): argument 'tensors' (position 1) must be tuple of Tensors, not NoneType"),
    ('torch.hstack([x, "a"])', TypeError,
        'expected Tensor as element 1 in argument 0, but got str'),
    ('torch.tensor_split("a", 2)', TypeError,
        'tensor_split() received an invalid combination of arguments - got (str, int), but '
        'expected one of:\n'
        ' * (Tensor input, tuple of ints indices, int dim = 0)\n'
        ' * (Tensor input, Tensor tensor_indices_or_sections, int dim = 0)\n'
        ' * (Tensor input, int sections, int dim = 0)\n'),
    ('torch.repeat_interleave("a", 2)', TypeError,
        'repeat_interleave() received an invalid combination of arguments - got (str, int), but '
        'expected one of:\n'
        ' * (Tensor input, Tensor repeats, int dim = None, *, int output_size = None)\n'
        ' * (Tensor repeats, *, int output_size = None)\n'
        ' * (Tensor input, int repeats, int dim = None, *, int output_size = None)\n'),
    ('torch.std_mean("a")', TypeError,
        'std_mean() received an invalid combination of arguments - got (str), but expected one '
        'of:\n'
        ' * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)\n'
        ' * (Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim '
        '= False)\n'
        ' * (Tensor input, bool unbiased = True)\n'),
    ('torch.var_mean(None, 0)', TypeError,
        'var_mean() received an invalid combination of arguments - got (NoneType, int), but '
        'expected one of:\n'
        ' * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)\n'
        ' * (Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim '
        '= False)\n'
        ' * (Tensor input, bool unbiased = True)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!, "
        '!int!)\n'),
    ('torch.std_mean(x, "a")', TypeError,
        'std_mean() received an invalid combination of arguments - got (Tensor, str), but '
        'expected one of:\n'
        ' * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)\n'
        ' * (Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim '
        '= False)\n'
        ' * (Tensor input, bool unbiased = True)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"),
    ('torch.atleast_1d("a")', TypeError,
        'atleast_1d() received an invalid combination of arguments - got (str), but expected '
        'one of:\n'
        ' * (Tensor input)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"
        ' * (tuple of Tensors tensors)\n'
        "      didn't match because some of the arguments have invalid types: (!str!)\n"),
    ('torch.atleast_2d(None)', TypeError,
        'atleast_2d() received an invalid combination of arguments - got (NoneType), but '
        'expected one of:\n'
        ' * (Tensor input)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
        ' * (tuple of Tensors tensors)\n'
        "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"),
    ('torch.atleast_3d(["a"])', TypeError,
        'expected Tensor as element 0 in argument 0, but got str'),
    ('torch.atleast_1d(x, "a")', TypeError,
        'expected Tensor as element 1 in argument 0, but got str'),
    ('torch.meshgrid("a")', TypeError, 'expected Tensor as element 0 in argument 0, but got str'),
    ('torch.meshgrid([x, None])', TypeError,
        'expected Tensor as element 1 in argument 0, but got NoneType'),
    ('torch.einsum("ij", "a")', TypeError,
        'expected Tensor as element 0 in argument 1, but got str'),
    ('torch.einsum("ij", [x, "a"])', TypeError,
        'expected Tensor as element 1 in argument 1, but got str'),
    ('torch.einsum(1, x)', TypeError,
        "einsum(): argument 'equation' (position 1) must be str, not int"),
    ('torch.einsum("ij")', ValueError,
        'einsum(): must specify the equation string and at least one operand, or at least one '
        'operand and its subscripts list'),
    ('torch.dot(x, "a")', TypeError,
        "dot(): argument 'tensor' (position 2) must be Tensor, not str"),
    ('torch.mv(x, None)', TypeError,
        "mv(): argument 'vec' (position 2) must be Tensor, not NoneType"),
    ('torch.addmm(x, x, "a")', TypeError,
        "addmm(): argument 'mat2' (position 3) must be Tensor, not str"),
    ('torch.addmv(x, x, None)', TypeError,
        "addmv(): argument 'vec' (position 3) must be Tensor, not NoneType"),
    ('x.dot([1, 2])', TypeError, "dot(): argument 'tensor' (position 1) must be Tensor, not list"),
    ('x.mv(1j)', TypeError, "mv(): argument 'vec' (position 1) must be Tensor, not complex"),
    ('x.addmm(x, "a")', TypeError, "addmm(): argument 'mat2' (position 2) must be Tensor, not str"),
    ('x.addmm_(x, None)', TypeError,
        "addmm_(): argument 'mat2' (position 2) must be Tensor, not NoneType"),
    ('x.addmv(x, "a")', TypeError, "addmv(): argument 'vec' (position 2) must be Tensor, not str"),
    ('x.addmv_(x, None)', TypeError,
        "addmv_(): argument 'vec' (position 2) must be Tensor, not NoneType"),
    ('x.lerp(x, "a")', TypeError,
        'lerp() received an invalid combination of arguments - got (Tensor, str), but expected '
        'one of:\n'
        ' * (Tensor end, Tensor weight)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"
        ' * (Tensor end, Number weight)\n'
        "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"),
    ('x.lerp_("a", 0.5)', TypeError,
        'lerp_() received an invalid combination of arguments - got (str, float), but expected '
        'one of:\n'
        ' * (Tensor end, Tensor weight)\n'
        "      didn't match because some of the arguments have invalid types: (!str!, !float!)\n"
        ' * (Tensor end, Number weight)\n'
        "      didn't match because some of the arguments have invalid types: (!str!, !float!)\n"),
    ('torch.lerp(x, x, "a")', TypeError,
        'lerp() received an invalid combination of arguments - got (Tensor, Tensor, str), but '
        'expected one of:\n'
        ' * (Tensor input, Tensor end, Tensor weight, *, Tensor out = None)\n'
        ' * (Tensor input, Tensor end, Number weight, *, Tensor out = None)\n'),
    ('torch.rsub(x, "a")', TypeError,
        'rsub() received an invalid combination of arguments - got (Tensor, str), but expected '
        'one of:\n'
        ' * (Tensor input, Tensor other, *, Number alpha = 1)\n'
        ' * (Tensor input, Number other, Number alpha = 1)\n'),
    ('torch.conj("a")', TypeError, "conj(): argument 'input' (position 1) must be Tensor, not str"),
    ('torch.resolve_conj(None)', TypeError,
        "resolve_conj(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ('torch.resolve_neg([1.0])', TypeError,
        "resolve_neg(): argument 'input' (position 1) must be Tensor, not list"),
    ('x.permute([1, 2])', IndexError,
        'Dimension out of range (expected to be in range of [-2, 1], but got 2)'),
    ('x.permute(0, -3)', IndexError,
        'Dimension out of range (expected to be in range of [-2, 1], but got -3)'),
    ('x.permute(0, 0)', RuntimeError, 'permute(): duplicate dims are not allowed.'),
    ('torch.addmv(x, "a")', TypeError,
        'addmv() received an invalid combination of arguments - got (Tensor, str), but expected '
        '(Tensor input, Tensor mat, Tensor vec, *, Number beta = 1, Number alpha = 1, Tensor '
        'out = None)'),
    ('torch.addcdiv(x, None)', TypeError,
        'addcdiv() received an invalid combination of arguments - got (Tensor, NoneType), but '
        'expected (Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, Tensor '
        'out = None)'),
    ('torch.baddbmm(x, "a")', TypeError,
        'baddbmm() received an invalid combination of arguments - got (Tensor, str), but '
        'expected one of:\n'
        ' * (Tensor input, Tensor batch1, Tensor batch2, *, Number beta = 1, Number alpha = 1, '
        'Tensor out = None)\n'
        ' * (Tensor input, Tensor batch1, Tensor batch2, torch.dtype out_dtype, *, Number beta '
        '= 1, Number alpha = 1, Tensor out = None)\n'),
    ('x.addr("a")', TypeError,
        'addr() received an invalid combination of arguments - got (str), but expected (Tensor '
        'vec1, Tensor vec2, *, Number beta = 1, Number alpha = 1)'),

]


@pytest.mark.parametrize("call, kind, message", REFUSED, ids=[row[0] for row in REFUSED])
def test_a_call_that_fits_no_signature_is_refused_in_torchs_words(call, kind, message):
    refuses_call(call, kind, message)


# A call that fits a signature keeps the failure of the function itself.
KEPT = [
    ("torch.dot(x, x)", "1D tensors expected, but got 2D and 2D tensors"),
    ("torch.mv(x, x)", "vector + matrix @ vector expected, got 1, 2, 2"),
    ("torch.clamp(x)", "torch.clamp: At least one of 'min' or 'max' must not be None"),
    ('torch.einsum("ij,jk", x)',
     "einsum(): fewer operands were provided than specified in the equation"),
    ("torch.where(x, x, x)",
     "where expected condition to be a boolean tensor, but got a tensor with dtype Float"),
    ("x.addmm_(x, torch.ones(3, 3))", "mat1 and mat2 shapes cannot be multiplied (2x2 and 3x3)"),
    ("torch.hstack([])", "hstack expects a non-empty TensorList"),
]


@pytest.mark.parametrize("call, message", KEPT, ids=[row[0] for row in KEPT])
def test_a_call_that_fits_keeps_its_own_failure(call, message):
    x = torch.ones(2, 2)
    with raises(RuntimeError, message):
        eval(call, {"torch": torch, "x": x})


def test_a_refused_in_place_call_leaves_the_tensor_as_it_was():
    x = torch.ones(2, 2)
    version = x._version
    for call in (lambda: x.addmm_(x, "a"), lambda: x.addmv_(x, None), lambda: x.lerp_(x, "a")):
        with pytest.raises(TypeError):
            call()
    assert x._version == version and x.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_the_wrapped_functions_still_work():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert torch.tril(x, -1).tolist() == [[0.0, 0.0], [3.0, 0.0]]
    assert torch.einsum("ij,jk", [x, x]).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert torch.atleast_2d(x, torch.tensor(1.0))[1].shape == (1, 1)
    grids = torch.meshgrid(torch.ones(2), torch.ones(3), indexing="ij")
    assert [tuple(g.shape) for g in grids] == [(2, 3), (2, 3)]
    assert x[0].dot(x[1]).item() == 11.0
    assert x.addmm(x, x, beta=0).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert torch.clamp(x, None, 2).tolist() == [[1.0, 2.0], [2.0, 2.0]]
    assert torch.std_mean(x, 0)[1].tolist() == [2.0, 3.0]
    assert torch.conj(x) is x and torch.resolve_conj(x) is x and torch.resolve_neg(x) is x
    assert x.permute(-1, 0).tolist() == [[1.0, 3.0], [2.0, 4.0]]
