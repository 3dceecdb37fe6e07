"""Black-box tests: argument forms torch accepts (dim=None with keepdim, 0-d tensors for ints),
and the words it refuses the others with."""

import pytest
import torch

from conformance._support import raises


def _x():
    return torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], requires_grad=True)


def _T(value, **options):
    return torch.tensor(value, **options)


# name: the node torch records for a reduction of every dimension asked for with a dim.
KEEPING = {
    "sum": "SumBackward1", "mean": "MeanBackward1", "nansum": "NansumBackward0",
    "nanmean": "DivBackward0", "amax": "AmaxBackward0", "amin": "AminBackward0",
    "std": "StdBackward0", "var": "VarBackward0", "all": None, "any": None, "argmax": None,
    "argmin": None,
}
FORMS = {
    "method, positional": lambda name, x: getattr(x, name)(None, True),
    "method, keywords": lambda name, x: getattr(x, name)(dim=None, keepdim=True),
    "function, positional": lambda name, x: getattr(torch, name)(x, None, True),
    "function, keywords": lambda name, x: getattr(torch, name)(x, dim=None, keepdim=True),
}


# std and var read a second positional argument as unbiased: see the test after this one.
CASES = [(name, form) for name in KEEPING for form in FORMS
         if not (name in ("std", "var") and form.endswith("positional"))]


@pytest.mark.parametrize(("name", "form"), CASES)
def test_dim_none_with_keepdim_reduces_everything_and_keeps_the_dimensions(name, form):
    x = _x()
    kept = FORMS[form](name, x)
    whole = getattr(x, name)()
    assert kept.shape == (1, 1)
    assert kept.dtype == whole.dtype
    assert (kept.grad_fn.name() if kept.grad_fn else None) == KEEPING[name]
    assert torch.equal(kept.detach(), whole.detach().reshape(1, 1))
    if kept.requires_grad:
        (g_kept,) = torch.autograd.grad(kept.sum(), x)
        (g_whole,) = torch.autograd.grad(whole, x)
        assert torch.allclose(g_kept, g_whole)


def test_a_dim_of_none_takes_the_form_with_a_dim():
    x = _x()
    assert x.sum().grad_fn.name() == "SumBackward0"
    assert x.sum(None).grad_fn.name() == "SumBackward1"
    assert x.sum(dim=None).shape == ()
    assert x.mean().grad_fn.name() == "MeanBackward0"
    assert x.mean(None).grad_fn.name() == "MeanBackward1"
    kept = x.sum(None, True)
    assert kept.grad_fn._saved_dim is None
    assert kept.grad_fn._saved_keepdim is True
    assert x.amax(None, True).grad_fn._saved_dim == ()
    (g,) = torch.autograd.grad(x.sum(None).sum(), x)
    assert torch.equal(g, torch.ones(2, 3))
    (g,) = torch.autograd.grad(x.mean(None, True).sum(), x)
    assert torch.allclose(g, torch.full((2, 3), 1 / 6))


@pytest.mark.parametrize("name", ["std", "var"])
def test_std_and_var_read_a_second_positional_argument_as_unbiased(name):
    x = _x()
    unbiased = getattr(x, name)(None, True)
    assert unbiased.shape == ()
    assert torch.equal(unbiased, getattr(x, name)())
    biased = getattr(torch, name)(x, None, False)
    assert torch.allclose(biased, getattr(x, name)(correction=0))


def test_all_and_any_keep_dimensions_without_a_dim():
    x = _x()
    assert x.all(keepdim=True).shape == (1, 1)
    assert torch.any(x, keepdim=True).shape == (1, 1)


REFUSED_NONE = [
    ("x.prod(None, True)", "prod(): argument 'dim' (position 1) must be int, not NoneType"),
    ("x.prod(dim=None, keepdim=True)", "prod(): argument 'dim' must be int, not NoneType"),
    ("torch.prod(x, None, True)", "prod(): argument 'dim' (position 2) must be int, not NoneType"),
    ("x.prod(None)",
     "prod() received an invalid combination of arguments - got (NoneType), but expected one "
     "of:\n * (*, torch.dtype dtype = None)\n * (int dim, bool keepdim = False, *, torch.dtype "
     "dtype = None)\n"),
    ("x.logsumexp(None, True)",
     "logsumexp(): argument 'dim' (position 1) must be tuple of ints, not NoneType"),
    ("torch.logsumexp(x, dim=None, keepdim=True)",
     "logsumexp(): argument 'dim' must be tuple of ints, not NoneType"),
    ("x.count_nonzero(None, True)",
     "count_nonzero() received an invalid combination of arguments - got (NoneType, bool), but "
     "expected one of:\n * (int dim = None)\n * (tuple of ints dim)\n"),
    ("x.count_nonzero(dim=None, keepdim=True)",
     "count_nonzero() received an invalid combination of arguments - got (keepdim=bool, "
     "dim=NoneType, ), but expected one of:\n * (int dim = None)\n * (tuple of ints dim)\n"),
    ("torch.count_nonzero(x, dim=None, keepdim=True)",
     "count_nonzero() received an invalid combination of arguments - got (Tensor, keepdim=bool, "
     "dim=NoneType), but expected one of:\n * (Tensor input, int dim = None)\n * (Tensor input, "
     "tuple of ints dim)\n"),
    ("x.max(None, True)", "max(): argument 'dim' (position 1) must be int, not NoneType"),
    ("x.min(dim=None, keepdim=True)", "min(): argument 'dim' must be int, not NoneType"),
    ("x.median(None, True)", "median(): argument 'dim' (position 1) must be int, not NoneType"),
    ("x.max(None)",
     "max() received an invalid combination of arguments - got (NoneType), but expected one of:"
     "\n * ()\n      didn't match because some of the arguments have invalid types: "
     "(!NoneType!)\n * (Tensor other)\n      didn't match because some of the arguments have "
     "invalid types: (!NoneType!)\n * (int dim, bool keepdim = False)\n"),
    ("torch.max(x, None, True)",
     "max() received an invalid combination of arguments - got (Tensor, NoneType, bool), but "
     "expected one of:\n * (Tensor input, *, Tensor out = None)\n      didn't match because some "
     "of the arguments have invalid types: (Tensor, !NoneType!, !bool!)\n * (Tensor input, "
     "Tensor other, *, Tensor out = None)\n * (Tensor input, int dim, bool keepdim = False, *, "
     "tuple of Tensors out = None)\n"),
    ("x.max((0,))",
     "max() received an invalid combination of arguments - got (tuple), but expected one of:\n"
     " * ()\n      didn't match because some of the arguments have invalid types: (!tuple of "
     "(int,)!)\n * (Tensor other)\n      didn't match because some of the arguments have invalid "
     "types: (!tuple of (int,)!)\n * (int dim, bool keepdim = False)\n"),
    ("x.sum(keepdim=True)",
     "sum() received an invalid combination of arguments - got (keepdim=bool, ), but expected "
     "one of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, *, "
     "torch.dtype dtype = None)\n"),
    ("x.mean(keepdim=True)",
     "mean() received an invalid combination of arguments - got (keepdim=bool, ), but expected "
     "one of:\n * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, *, "
     "torch.dtype dtype = None)\n"),
]


@pytest.mark.parametrize(("call", "message"), REFUSED_NONE)
def test_reductions_that_refuse_a_dim_of_none(call, message):
    x = _x()
    with raises(TypeError, message):
        eval(call, {"torch": torch, "x": x})


# Each call gives an index tensor where torch's signature has an int; T builds a tensor.
READ_AS_INTS = [
    ("x.sum(T(1))", (2,), "SumBackward1"),
    ("x.sum(dim=T(1))", (2,), "SumBackward1"),
    ("torch.sum(x, T(1))", (2,), "SumBackward1"),
    ("x.sum(T([1]))", (2,), "SumBackward1"),
    ("x.sum(T(True))", (2,), "SumBackward1"),
    ("x.sum(T(1, dtype=torch.uint8))", (2,), "SumBackward1"),
    ("x.sum((T(0), 1))", (), "SumBackward1"),
    ("x.sum((0, T([1])), keepdim=True)", (1, 1), "SumBackward1"),
    ("x.mean(T(1))", (2,), "MeanBackward1"),
    ("x.nansum(T(0))", (3,), "NansumBackward0"),
    ("x.amax(T(1))", (2,), "AmaxBackward0"),
    ("x.prod(T(1))", (2,), "ProdBackward1"),
    ("x.logsumexp((T(1),))", (2,), "LogsumexpBackward0"),
    ("x.argmax(T(1))", (2,), None),
    ("x.all(T(1))", (2,), None),
    ("x.count_nonzero(T(1))", (2,), None),
    ("x.cumsum(T(1))", (2, 3), "CumsumBackward0"),
    ("x.softmax(T(1))", (2, 3), "SoftmaxBackward0"),
    ("x.transpose(T(0), 1)", (3, 2), "TransposeBackward0"),
    ("torch.transpose(x, T(0), T(1))", (3, 2), "TransposeBackward0"),
    ("x.unsqueeze(T(0))", (1, 2, 3), "UnsqueezeBackward0"),
    ("x.squeeze(T(0))", (2, 3), "SqueezeBackward1"),
    ("x.flatten(T(0))", (6,), "ViewBackward0"),
    ("x.narrow(T(1), T(0), T(2))", (2, 2), "SliceBackward0"),
    ("x.select(T(1), T(2))", (2,), "SelectBackward0"),
    ("x.view(T(3), T(2))", (3, 2), "ViewBackward0"),
    ("x.view((T(3), 2))", (3, 2), "ViewBackward0"),
    ("x.view(T([3]), 2)", (3, 2), "ViewBackward0"),
    ("x.view(T(6))", (6,), "ViewBackward0"),
    ("x.reshape(T(3), 2)", (3, 2), "ViewBackward0"),
    ("torch.reshape(x, (T(6),))", (6,), "ViewBackward0"),
    ("x.expand(T(2), 2, 3)", (2, 2, 3), "ExpandBackward0"),
    ("x.expand((2, T(2), 3))", (2, 2, 3), "ExpandBackward0"),
    ("x.repeat(T(2), 1)", (4, 3), "RepeatBackward0"),
    ("x.permute(T(1), 0)", (3, 2), "PermuteBackward0"),
    ("x.permute((T(1), 0))", (3, 2), "PermuteBackward0"),
    ("x.movedim(T(0), 1)", (3, 2), "PermuteBackward0"),
    ("x.flip(T(0))", (2, 3), "FlipBackward0"),
    ("x.roll(T(1), T(0))", (2, 3), "RollBackward0"),
    ("x.tile(T(2))", (2, 6), "RepeatBackward0"),
    ("x.diagonal(T(0))", (2,), "DiagonalBackward0"),
    ("x.index_select(T(0), T([1]))", (1, 3), "IndexSelectBackward0"),
    ("x.gather(T(1), T([[0]]))", (1, 1), "GatherBackward0"),
    ("x.chunk(T(2), 1)[0]", (2, 2), "SplitBackward0"),
    ("x.unbind(T(1))[0]", (2,), "UnbindBackward0"),
    ("torch.stack([x, x], T(1))", (2, 2, 3), "StackBackward0"),
    ("torch.cat([x, x], T(1))", (2, 6), "CatBackward0"),
    ("x.topk(T(1)).values", (2, 1), "TopkBackward0"),
    ("x.kthvalue(T(1), T(1)).values", (2,), "KthvalueBackward0"),
    ("x.median(T(1)).values", (2,), "MedianBackward1"),
    ("x.mode(T(1)).values", (2,), "ModeBackward0"),
    ("x.max(dim=T(1)).values", (2,), "MaxBackward0"),
    ("x.aminmax(dim=T(0)).max", (3,), "AminmaxBackward0"),
    ("x.unflatten(T(1), (3, 1))", (2, 3, 1), "ViewBackward0"),
    ("torch.unflatten(x, T(1), (T(3), 1))", (2, 3, 1), "ViewBackward0"),
    ("torch.ones(T(2), 3)", (2, 3), None),
    ("torch.zeros((3, T([2])))", (3, 2), None),
    ("torch.empty([T(2)])", (2,), None),
    ("x.new_zeros(T(2), 3)", (2, 3), None),
    ("torch.full((T(2),), 1.0)", (2,), None),
]


@pytest.mark.parametrize(("call", "shape", "node"), READ_AS_INTS)
def test_index_tensors_are_read_as_ints(call, shape, node):
    x = _x()
    out = eval(call, {"torch": torch, "x": x, "T": _T})
    assert out.shape == shape
    assert (out.grad_fn.name() if out.grad_fn else None) == node


def test_what_a_node_keeps_is_the_int():
    x = _x()
    assert x.sum(_T(1)).grad_fn._saved_dim == (1,)
    assert x.sum((_T(0), _T(1))).grad_fn._saved_dim == (0, 1)
    dim0 = x.transpose(_T(0), 1).grad_fn._saved_dim0
    assert dim0 == 0 and type(dim0) is int
    index = x.select(0, _T(1)).grad_fn._saved_index
    assert index == 1 and type(index) is int
    assert torch.equal(x.sum(_T(1)), x.sum(1))
    (g,) = torch.autograd.grad(x.expand(_T(2), 2, 3).sum(), x)
    assert torch.equal(g, torch.full((2, 3), 2.0))


REFUSED_TENSORS = [
    ("x.transpose(T(0.0), 1)", "transpose(): argument 'dim0' (position 1) must be int, not Tensor"),
    ("x.transpose(T([0]), 1)", "transpose(): argument 'dim0' (position 1) must be int, not Tensor"),
    ("x.unsqueeze(T(0.5))", "unsqueeze(): argument 'dim' (position 1) must be int, not Tensor"),
    ("x.select(0, T(1.0))", "select(): argument 'index' (position 2) must be int, not Tensor"),
    ("x.cumsum(T([1]))", "cumsum(): argument 'dim' (position 1) must be int, not Tensor"),
    ("x.argmax(T([1]))", "argmax(): argument 'dim' (position 1) must be int, not Tensor"),
    ("x.sum(T(1.0))",
     "sum() received an invalid combination of arguments - got (Tensor), but expected one of:\n"
     " * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, *, "
     "torch.dtype dtype = None)\n"),
    ("x.sum(T([0, 1]))",
     "sum() received an invalid combination of arguments - got (Tensor), but expected one of:\n"
     " * (*, torch.dtype dtype = None)\n * (tuple of ints dim, bool keepdim = False, *, "
     "torch.dtype dtype = None)\n"),
    ("x.view(T(2.0), 3)",
     "view() received an invalid combination of arguments - got (Tensor, int), but expected one "
     "of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n"),
    ("x.sum(T(1), T(True))", "sum(): argument 'keepdim' (position 2) must be bool, not Tensor"),
    ("x.aminmax(T(0))", "aminmax() takes 0 positional arguments but 1 was given"),
]


@pytest.mark.parametrize(("call", "message"), REFUSED_TENSORS)
def test_tensors_that_are_not_read_as_ints(call, message):
    x = _x()
    with raises(TypeError, message):
        eval(call, {"torch": torch, "x": x, "T": _T})


# The function forms of the one-tensor functions and the arithmetic refuse a wrong count or
# keyword with torch's words.
REFUSED_COUNTS = [
    ("torch.sin(x, x)", "sin() takes 1 positional argument but 2 were given"),
    ("torch.tanh(x, x)", "tanh() takes 1 positional argument but 2 were given"),
    ("torch.sqrt(x, x)", "sqrt() takes 1 positional argument but 2 were given"),
    ("torch.abs(x, x)", "abs() takes 1 positional argument but 2 were given"),
    ("torch.erf(x, x)", "erf() takes 1 positional argument but 2 were given"),
    ("torch.exp(x, foo=1)", "exp() got an unexpected keyword argument 'foo'"),
    ("torch.log1p(x, foo=1)", "log1p() got an unexpected keyword argument 'foo'"),
    ("torch.sin()", 'sin() missing 1 required positional arguments: "input"'),
    ("torch.mul(x)", 'mul() missing 1 required positional arguments: "other"'),
    ("torch.sub(x, foo=1)", 'sub() missing 1 required positional arguments: "other"'),
    ("torch.add(x)",
     "add() received an invalid combination of arguments - got (Tensor), but expected (Tensor "
     "input, Tensor other, *, Number alpha = 1, Tensor out = None)"),
    ("torch.mul(x, x, x)", "mul() takes 2 positional arguments but 3 were given"),
    ("torch.atan2(x, x, x)", "atan2() takes 2 positional arguments but 3 were given"),
]


@pytest.mark.parametrize(("call", "message"), REFUSED_COUNTS)
def test_function_forms_refuse_a_count_or_keyword_in_torch_words(call, message):
    x = _x()
    with raises(TypeError, message):
        eval(call, {"torch": torch, "x": x})


SHAPE_METHOD_ERRORS = [
    ("x.flip()", 'flip() missing 1 required positional arguments: "dims"'),
    ("x.tile()", 'tile() missing 1 required positional arguments: "dims"'),
    ("x.unbind(0, 1)", "unbind() takes from 0 to 1 positional arguments but 2 were given"),
    ("x.expand_as(x, foo=1)", "expand_as() got an unexpected keyword argument 'foo'"),
    ("x.unflatten(1, 3)",
     "unflatten(): argument 'sizes' (position 2) must be tuple of ints, not int"),
    ("torch.unflatten(x, 1)", 'unflatten() missing 1 required positional arguments: "sizes"'),
    ("x.view_as(x, foo=1)", "view_as() got an unexpected keyword argument 'foo'"),
    ("x.all(None, 'a')",
     "all() received an invalid combination of arguments - got (NoneType, str), but expected "
     "one of:\n * ()\n * (tuple of ints dim = None, bool keepdim = False)\n      didn't match "
     "because some of the arguments have invalid types: (!NoneType!, !str!)\n * (int dim, bool "
     "keepdim = False)\n      didn't match because some of the arguments have invalid types: "
     "(!NoneType!, !str!)\n"),
    ("x.movedim(0, 'a')",
     "movedim() received an invalid combination of arguments - got (int, str), but expected one "
     "of:\n * (int source, int destination)\n      didn't match because some of the arguments "
     "have invalid types: (int, !str!)\n * (tuple of ints source, tuple of ints destination)\n"
     "      didn't match because some of the arguments have invalid types: (!int!, !str!)\n"),
]


@pytest.mark.parametrize(("call", "message"), SHAPE_METHOD_ERRORS)
def test_shape_methods_refuse_in_torch_words(call, message):
    x = _x()
    with raises(TypeError, message):
        eval(call, {"torch": torch, "x": x})


def test_a_method_takes_the_ints_of_its_tuple_one_by_one():
    y = torch.ones(1, 2, 1, requires_grad=True)
    assert y.squeeze(0, 2).shape == (2,)
    assert y.squeeze(0, 2).grad_fn.name() == "SqueezeBackward2"
    assert y.squeeze(_T(0), 2).shape == (2,)
    assert _x().flip(0, 1).shape == (2, 3)


SPREAD_ERRORS = [
    ("x.std(0, 1)",
     "std() received an invalid combination of arguments - got (int, int), but expected one "
     "of:\n * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n * (tuple of ints "
     "dim = None, *, Number correction = None, bool keepdim = False)\n * (bool unbiased = "
     "True)\n"),
    ("x.std(1, unbiased=True, correction=0)",
     "std() received an invalid combination of arguments - got (int, correction=int, "
     "unbiased=bool), but expected one of:\n * (tuple of ints dim, bool unbiased = True, bool "
     "keepdim = False)\n      didn't match because some of the keywords were incorrect: "
     "correction, unbiased\n * (tuple of ints dim = None, *, Number correction = None, bool "
     "keepdim = False)\n * (bool unbiased = True)\n"),
    ("x.var(0, keepdim=True, foo=1)",
     "var() received an invalid combination of arguments - got (int, foo=int, keepdim=bool), "
     "but expected one of:\n * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
     "      didn't match because some of the keywords were incorrect: foo, keepdim\n * (tuple of "
     "ints dim = None, *, Number correction = None, bool keepdim = False)\n * (bool unbiased = "
     "True)\n"),
    ("x.std(None, 1, True)",
     "std() received an invalid combination of arguments - got (NoneType, int, bool), but "
     "expected one of:\n * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n    "
     "  didn't match because some of the arguments have invalid types: (!NoneType!, !int!, "
     "!bool!)\n * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)"
     "\n * (bool unbiased = True)\n"),
    ("x.all(dim=0, keepdim='a')",
     "all() received an invalid combination of arguments - got (keepdim=str, dim=int, ), but "
     "expected one of:\n * ()\n * (tuple of ints dim = None, bool keepdim = False)\n      didn't "
     "match because some of the keywords were incorrect: keepdim, dim\n * (int dim, bool "
     "keepdim = False)\n      didn't match because some of the keywords were incorrect: "
     "keepdim\n"),
]


@pytest.mark.parametrize(("call", "message"), SPREAD_ERRORS)
def test_invalid_combinations_say_what_torch_says(call, message):
    x = _x()
    with raises(TypeError, message):
        eval(call, {"torch": torch, "x": x})


def test_std_and_var_read_tensors_and_numpy_names():
    x = _x()
    assert x.std(_T(1)).grad_fn._saved_dim == (1,)
    assert torch.equal(x.var((_T(1),)), x.var(1))
    assert x.var(axis=1).shape == (2,)
    assert x.std(1, keepdims=True).shape == (2, 1)
    assert x.mean(axis=1).shape == (2,)
    assert x.amax(axis=0).shape == (3,)
