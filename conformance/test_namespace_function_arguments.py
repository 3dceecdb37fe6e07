"""torch's namespace functions refused in torch's words: its parser's, or Python's for the
functions torch writes in Python."""

import pickle

import pytest
import torch

from conformance._support import raises, refuses_call

# (the call, with x a 2x2 tensor of ones; torch's TypeError message)
REFUSED = [
    ('torch.absolute()',
        'absolute() missing 1 required positional arguments: "input"'),
    ('torch.arcsin()',
        'arcsin() missing 1 required positional arguments: "input"'),
    ('torch.bilinear()',
        'bilinear() missing 3 required positional argument: "input1", "input2", '
        '"weight"'),
    ('torch.as_strided()',
        'as_strided() missing 3 required positional argument: "input", "size", "stride"'),
    ('torch.arccos(x, zz=1)',
        "arccos() got an unexpected keyword argument 'zz'"),
    ("torch.layer_norm(x, other='a')",
        'layer_norm() missing 1 required positional arguments: "normalized_shape"'),
    ('torch.batch_norm(x, zz=1)',
        'batch_norm() missing 8 required positional argument: "weight", "bias", '
        '"running_mean", "running_var", "training", "momentum", "eps", "cudnn_enabled"'),
    ("torch.layer_norm(x, 'a')",
        "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of "
        'ints, not str'),
    ("torch.group_norm(x, 'a')",
        "group_norm(): argument 'num_groups' (position 2) must be int, not str"),
    ("torch.bilinear(x, 'a')",
        "bilinear(): argument 'input2' (position 2) must be Tensor, not str"),
    ("torch.celu(x, 'a')",
        "celu(): argument 'alpha' (position 2) must be Number, not str"),
    ("torch.select_copy(x, 'a')",
        "select_copy(): argument 'dim' (position 2) must be int, not str"),
    ("torch.hann_window(x, 'a')",
        'hann_window() received an invalid combination of arguments - got '
        '(Tensor, str), but expected one of:\n * (int window_length, *, '
        'torch.dtype dtype = None, torch.layout layout = None, torch.device '
        'device = None, bool pin_memory = False, bool requires_grad = False)\n * '
        '(int window_length, bool periodic, *, torch.dtype dtype = None, '
        'torch.layout layout = None, torch.device device = None, bool pin_memory '
        '= False, bool requires_grad = False)\n'),
    ('torch.kaiser_window()',
        'kaiser_window() received an invalid combination of arguments - got (), '
        'but expected one of:\n * (int window_length, *, torch.dtype dtype = '
        'None, torch.layout layout = None, torch.device device = None, bool '
        'pin_memory = False, bool requires_grad = False)\n * (int window_length, '
        'bool periodic, *, torch.dtype dtype = None, torch.layout layout = None, '
        'torch.device device = None, bool pin_memory = False, bool requires_grad '
        '= False)\n * (int window_length, bool periodic, float beta, *, '
        'torch.dtype dtype = None, torch.layout layout = None, torch.device '
        'device = None, bool pin_memory = False, bool requires_grad = False)\n'),
    ('torch.hsplit()',
        'hsplit() received an invalid combination of arguments - got (), but '
        'expected one of:\n * (Tensor input, int sections)\n * (Tensor input, '
        'tuple of ints indices)\n'),
    ("torch.vsplit(x, 'a')",
        'vsplit() received an invalid combination of arguments - got (Tensor, '
        "str), but expected one of:\n * (Tensor input, int sections)\n      didn't "
        'match because some of the arguments have invalid types: (Tensor, '
        "!str!)\n * (Tensor input, tuple of ints indices)\n      didn't match "
        'because some of the arguments have invalid types: (Tensor, !str!)\n'),
    ("torch.rand_like(x, 'a')",
        'rand_like() received an invalid combination of arguments - got (Tensor, '
        'str), but expected one of:\n * (Tensor input, *, torch.Generator '
        'generator, torch.memory_format memory_format = None, torch.dtype dtype '
        '= None, torch.layout layout = None, torch.device device = None, bool '
        'pin_memory = False, bool requires_grad = False)\n * (Tensor input, *, '
        'torch.memory_format memory_format = None, torch.dtype dtype = None, '
        'torch.layout layout = None, torch.device device = None, bool pin_memory '
        '= False, bool requires_grad = False)\n'),
    ('torch.randint_like(x, zz=1)',
        'randint_like() received an invalid combination of arguments - got '
        '(Tensor, zz=int), but expected one of:\n * (Tensor input, int low, int '
        'high, *, torch.Generator generator, torch.memory_format memory_format = '
        'None, torch.dtype dtype = None, torch.layout layout = None, '
        'torch.device device = None, bool pin_memory = False, bool requires_grad '
        '= False)\n * (Tensor input, int low, int high, *, torch.memory_format '
        'memory_format = None, torch.dtype dtype = None, torch.layout layout = '
        'None, torch.device device = None, bool pin_memory = False, bool '
        'requires_grad = False)\n * (Tensor input, Tensor high, *, '
        'torch.Generator generator, torch.memory_format memory_format = None, '
        'torch.dtype dtype = None, torch.layout layout = None, torch.device '
        'device = None, bool pin_memory = False, bool requires_grad = False)\n * '
        '(Tensor input, Tensor high, *, torch.memory_format memory_format = '
        'None, torch.dtype dtype = None, torch.layout layout = None, '
        'torch.device device = None, bool pin_memory = False, bool requires_grad '
        '= False)\n * (Tensor input, int high, *, torch.Generator generator, '
        'torch.memory_format memory_format = None, torch.dtype dtype = None, '
        'torch.layout layout = None, torch.device device = None, bool pin_memory '
        '= False, bool requires_grad = False)\n * (Tensor input, int high, *, '
        'torch.memory_format memory_format = None, torch.dtype dtype = None, '
        'torch.layout layout = None, torch.device device = None, bool pin_memory '
        '= False, bool requires_grad = False)\n'),
    ("torch.round(x, 'a')",
        'round() received an invalid combination of arguments - got (Tensor, '
        'str), but expected one of:\n * (Tensor input, *, Tensor out = None)\n * '
        '(Tensor input, *, int decimals, Tensor out = None)\n'),
    ('torch.gradient(x, zz=1)',
        'gradient() received an invalid combination of arguments - got (Tensor, '
        'zz=int), but expected one of:\n * (Tensor input, *, tuple of ints dim, '
        'int edge_order = 1)\n * (Tensor input, *, Number spacing, tuple of ints '
        'dim, int edge_order = 1)\n * (Tensor input, *, Number spacing = None, '
        'int dim = None, int edge_order = 1)\n * (Tensor input, *, tuple of '
        'Scalars spacing, int dim = None, int edge_order = 1)\n * (Tensor input, '
        '*, tuple of Scalars spacing, tuple of ints dim, int edge_order = 1)\n * '
        '(Tensor input, *, tuple of Tensors spacing, int dim = None, int '
        'edge_order = 1)\n * (Tensor input, *, tuple of Tensors spacing, tuple of '
        'ints dim, int edge_order = 1)\n'),
    ("torch.view_copy(x, 'a')",
        'view_copy() received an invalid combination of arguments - got (Tensor, '
        'str), but expected one of:\n * (Tensor input, torch.dtype dtype, *, '
        'Tensor out = None)\n * (Tensor input, tuple of ints size, *, Tensor out '
        '= None)\n'),
    ('torch.divide()',
        'divide() received an invalid combination of arguments - got (), but '
        'expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n '
        '* (Tensor input, Tensor other, *, str rounding_mode, Tensor out = '
        'None)\n * (Tensor input, Number other)\n * (Tensor input, Number other, '
        '*, str rounding_mode)\n'),
    ('torch.isin(x, zz=1)',
        'isin() received an invalid combination of arguments - got (Tensor, '
        'zz=int), but expected one of:\n * (Tensor elements, Tensor '
        'test_elements, *, bool assume_unique = False, bool invert = False, '
        'Tensor out = None)\n * (Number element, Tensor test_elements, *, bool '
        'assume_unique = False, bool invert = False, Tensor out = None)\n * '
        '(Tensor elements, Number test_element, *, bool assume_unique = False, '
        'bool invert = False, Tensor out = None)\n'),
    ('torch.addbmm(x, zz=1)',
        'addbmm() received an invalid combination of arguments - got '
        'unrecognized keyword arguments: zz'),
    ('torch.addcdiv(x, 1, 2, 3, 4, 5)',
        'addcdiv() received an invalid combination of arguments - got (Tensor, '
        '!int!, !int!, !int!, !int!, !int!), but expected (Tensor input, Tensor '
        'tensor1, Tensor tensor2, *, Number value = 1, Tensor out = None)'),
    ('torch.addcdiv(x, 1, 2, 3, 4, value=5)',
        'addcdiv() received an invalid combination of arguments - got '
        'unrecognized keyword arguments: value'),
    ('torch.addcdiv(x, x, x, 1, value=2)',
        'addcdiv() takes 3 positional arguments but 4 were given'),
    ('x.addbmm(zz=1)',
        'addbmm() received an invalid combination of arguments - got '
        'unrecognized keyword arguments: zz'),
    ('x.addcdiv(1, 2, 3, 4, 5)',
        'addcdiv() received an invalid combination of arguments - got (int, int, '
        'int, int, int), but expected (Tensor tensor1, Tensor tensor2, *, Number '
        'value = 1)'),
    ('torch.tensordot()',
        "tensordot() missing 2 required positional arguments: 'a' and 'b'"),
    ('torch.tensordot(x, x, 1, None, 5)',
        'tensordot() takes from 2 to 4 positional arguments but 5 were given'),
    ('torch.norm()',
        "norm() missing 1 required positional argument: 'input'"),
    ('torch.unique()',
        "_return_output() missing 1 required positional argument: 'input'"),
    ('torch.unique(x, 1, 2, 3, 4, 5)',
        '_return_inverse_and_counts() takes from 1 to 5 positional arguments but '
        '6 were given'),
    ('torch.unique(x, zz=1)',
        "_return_output() got an unexpected keyword argument 'zz'"),
    ('torch.unique_consecutive(x, 1, 2, 3, 4)',
        '_consecutive_return_inverse_and_counts() takes from 1 to 4 positional '
        'arguments but 5 were given'),
    ("torch.linalg.svdvals(x, driver=1)",
        "linalg_svdvals(): argument 'driver' must be str, not int"),
    ('torch.linalg.svdvals(x, 1)',
        'linalg_svdvals() takes 1 positional argument but 2 were given'),
    ("torch.linalg.svd(x, driver=1)",
        "linalg_svd(): argument 'driver' must be str, not int"),
    ('torch.lu()',
        "_lu_no_infos() missing 1 required positional argument: 'A'"),
    ("torch.lu(x, 'a')",
        "_lu_with_info(): argument 'pivot' must be bool, not str"),
    ('torch.lu(x, True, True, None, 5)',
        '_lu_with_infos() takes from 1 to 4 positional arguments but 5 were given'),
    ("torch.atleast_2d(x, other='a')",
        "atleast_2d() got an unexpected keyword argument 'other'"),
    ('torch.meshgrid(x, zz=1)',
        "meshgrid() got an unexpected keyword argument 'zz'"),
    ("torch.einsum('i', x, zz=1)",
        "einsum() got an unexpected keyword argument 'zz'"),
    ('torch.to_dlpack(x, 1)',
        '_to_dlpack() takes 1 positional argument but 2 were given'),
    ('torch.to_dlpack()',
        '_to_dlpack() missing 1 required positional arguments: "data"'),
    ('torch.to_dlpack(x, dl_device=1)',
        "_to_dlpack(): argument 'dl_device' must be tuple of ints, not int"),
    ("torch.cdist(x, 'a')",
        "cdist(): argument 'x2' (position 2) must be Tensor, not str"),
    ("torch.cdist(x, x, 'a')",
        "cdist(): argument 'p' (position 3) must be float, not str"),
    ('torch.cdist(x)',
        "cdist() missing 1 required positional argument: 'x2'"),
    ("torch.chain_matmul(x, 'a')",
        'expected Tensor as element 1 in argument 0, but got str'),
    ('torch.chain_matmul(x, zz=1)',
        "chain_matmul() got an unexpected keyword argument 'zz'"),
    ('torch.cartesian_prod(x, 1)',
        'expected Tensor as element 1 in argument 0, but got int'),
    ('torch.get_default_dtype(1, 2)',
        'torch.get_default_dtype() takes no arguments (2 given)'),
    ('torch.get_default_dtype(a=1)',
        'torch.get_default_dtype() takes no keyword arguments'),
    ('torch.ones(x, other=1)',
        "ones(): argument 'size' (position 1) must be tuple of ints, not Tensor"),
    ("torch.empty('a', zz=1)",
        "empty(): argument 'size' (position 1) must be tuple of ints, not str"),
    ("torch.zeros((2, 'a'), zz=1)",
        "zeros() got an unexpected keyword argument 'zz'"),
    ("torch.ones(2, 'a', other=1)",
        "ones() got an unexpected keyword argument 'other'"),
    ("torch.add(x, other='a')",
        "add(): argument 'other' must be Tensor, not str"),
    ("torch.div(x, other='a')",
        "div(): argument 'other' must be Tensor, not str"),
    ('torch.qr(x, "a")',
        "qr(): argument 'some' (position 2) must be bool, not str"),
    ('torch.isin(x, "a")',
        'isin() received an invalid combination of arguments - got (Tensor, str), but expected '
        'one of:\n'
        ' * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert = '
        'False, Tensor out = None)\n'
        ' * (Number element, Tensor test_elements, *, bool assume_unique = False, bool invert = '
        'False, Tensor out = None)\n'
        ' * (Tensor elements, Number test_element, *, bool assume_unique = False, bool invert = '
        'False, Tensor out = None)\n'),
    ("torch.bernoulli(x, 0.5, 2)",
        'bernoulli() received an invalid combination of arguments - got (Tensor, float, int), '
        'but expected one of:\n'
        ' * (Tensor input, *, torch.Generator generator = None, Tensor out = None)\n'
        ' * (Tensor input, float p, *, torch.Generator generator = None)\n'),
]


@pytest.mark.parametrize("call, message", REFUSED, ids=[row[0] for row in REFUSED])
def test_a_bad_call_is_refused_in_torchs_words(call, message):
    refuses_call(call, TypeError, message)


def test_the_checked_functions_still_work():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert torch.absolute(-x).tolist() == x.tolist()
    assert torch.arcsin(torch.zeros(2)).tolist() == [0.0, 0.0]
    assert [p.shape for p in torch.hsplit(x, 2)] == [(2, 1), (2, 1)]
    assert torch.hann_window(4, False).shape == (4,)
    assert torch.layer_norm(x, [2]).shape == (2, 2)
    assert torch.gradient(x, spacing=[1.0, 2.0])[1].tolist() == [[0.5, 0.5], [0.5, 0.5]]
    assert torch.round(x * 1.26, decimals=1).tolist() == torch.round(x * 12.6).div(10).tolist()
    assert torch.tensordot(x, x, 1).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    values, counts = torch.unique(torch.tensor([2, 1, 2]), return_counts=True)
    assert values.tolist() == [1, 2] and counts.tolist() == [1, 2]
    assert torch.unique_consecutive(torch.tensor([1, 1, 2])).tolist() == [1, 2]
    assert [g.shape for g in torch.meshgrid(x[0], x[1], indexing="ij")] == [(2, 2), (2, 2)]
    assert torch.addbmm(x, x[None], x[None], beta=0).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert torch.isin(x, torch.tensor([2.0, 4.0])).tolist() == [[False, True], [False, True]]
    assert torch.isin(2.0, x).item() and not torch.isin(x, 5).any()


def test_a_call_that_fits_keeps_its_own_failure():
    x = torch.ones(2, 2)
    with pytest.raises(RuntimeError):
        torch.gradient(x, spacing=[1.0])  # a list of numbers, one too short
    with pytest.raises(RuntimeError):
        torch.layer_norm(x, [3])


def test_the_checked_functions_pickle_by_name():
    for function in (torch.absolute, torch.arccos, torch.batch_norm, torch.hsplit, torch.qr,
                     torch.tensordot, torch.meshgrid, torch.get_default_dtype):
        assert pickle.loads(pickle.dumps(function)) is function


def test_torch_functional_holds_the_same_functions():
    import torch.functional as F

    for name in ("tensordot", "norm", "lu", "unique", "unique_consecutive", "atleast_1d",
                 "meshgrid", "einsum"):
        assert getattr(F, name) is getattr(torch, name), name


def test_broadcast_shapes_refuses_what_is_neither_an_int_nor_a_sequence():
    x = torch.ones(2, 2)
    with raises(RuntimeError, "Input shapes should be of type ints, a tuple of ints, or a list of "
                              "ints, got tensor([[1., 1.],\n        [1., 1.]])"):
        torch.broadcast_shapes(x, 1)
    with raises(RuntimeError, "Input shapes should be of type ints, a tuple of ints, or a list of "
                              "ints, got 2.5"):
        torch.broadcast_shapes((2,), 2.5)
    assert torch.broadcast_shapes(None, (2,), 1) == (2,)


def test_a_refused_draw_draws_nothing():
    x = torch.full((2, 2), 0.5)
    torch.manual_seed(0)
    with pytest.raises(TypeError):
        torch.bernoulli(x, 0.5, 2)
    drawn = torch.bernoulli(x, 0.3)
    torch.manual_seed(0)
    assert torch.bernoulli(x, p=0.3).equal(drawn)
