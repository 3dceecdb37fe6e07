"""Black-box tests: calls once left to Python's reading are read as torch's parser reads
them: refused in torch's words, or run where torch runs them. The same assertions run on
torch.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def test_copy_names_a_keyword_without_its_position():
    t, u = torch.ones(2), torch.zeros(2)
    with raises(TypeError, "copy_(): argument 'non_blocking' must be bool, not int"):
        t.copy_(u, non_blocking=1)
    with raises(TypeError, "copy_(): argument 'non_blocking' (position 2) must be bool, not int"):
        t.copy_(u, 1)
    with raises(TypeError, "copy_(): argument 'other' must be Tensor, not str"):
        t.copy_(other="a")
    with raises(TypeError, "copy_(): argument 'non_blocking' must be bool, not NoneType"):
        t.copy_(u, non_blocking=None)
    with raises(TypeError, "copy_() received an invalid combination of arguments - got "
                           "unrecognized keyword arguments: non_blocking"):
        t.copy_(u, True, non_blocking=True)
    with raises(TypeError, 'copy_() missing 1 required positional arguments: "other"'):
        t.copy_(src=u)


def test_copy_by_keyword_still_copies():
    t = torch.ones(2)
    assert t.copy_(other=torch.zeros(2), non_blocking=True).tolist() == [0.0, 0.0]
    assert t.copy_(other=2.0).tolist() == [2.0, 2.0]
    assert t.copy_(torch.full((2,), 3.0)).tolist() == [3.0, 3.0]


def test_relu_counts_its_input_as_torch_counts_it():
    x = torch.ones(2)
    with raises(TypeError, 'relu() missing 1 required positional arguments: "input"'):
        torch.relu()
    with raises(TypeError, "relu() takes 1 positional argument but 2 were given"):
        torch.relu(x, 1)
    with raises(TypeError, "relu(): argument 'input' (position 1) must be Tensor, not str"):
        torch.relu("a")
    assert torch.relu(torch.tensor([-1.0, 2.0])).tolist() == [0.0, 2.0]
    assert torch.relu(input=torch.tensor([-1.0])).tolist() == [0.0]


@pytest.mark.parametrize("name", ["sin", "exp", "abs", "sigmoid", "isneginf", "signbit"])
def test_a_function_of_one_tensor_is_read_once_it_fails(name):
    function = getattr(torch, name)
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "input"'):
        function(zz=1)
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "input"'):
        function(cc=1, aa=2, bb=3)
    with raises(TypeError, f"{name}(): argument 'input' must be Tensor, not str"):
        function(input="a")
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'zz'"):
        function(torch.ones(2), zz=1)
    assert function(input=torch.ones(2)).shape == (2,)


@pytest.mark.parametrize("call, shapes", [
    (lambda x: x.hsplit(sections=3), [(2, 1, 4)] * 3),
    (lambda x: x.hsplit(indices=[1]), [(2, 1, 4), (2, 2, 4)]),
    (lambda x: x.vsplit(sections=2), [(1, 3, 4)] * 2),
    (lambda x: x.dsplit(sections=2), [(2, 3, 2)] * 2),
    (lambda x: x.dsplit(indices=(1,)), [(2, 3, 1), (2, 3, 3)]),
])
def test_splits_take_their_argument_by_keyword(call, shapes):
    x = torch.arange(24.0).reshape(2, 3, 4)
    assert [tuple(p.shape) for p in call(x)] == shapes


def test_splits_by_keyword_refuse_as_torch_does():
    x = torch.ones(2, 3, 4)
    with raises(RuntimeError, "torch.hsplit attempted to split along dimension 1, but the size "
                              "of the dimension 3 is not divisible by the split_size 2!"):
        x.hsplit(sections=2)


def test_type_takes_a_memory_format():
    x = torch.arange(120.0).reshape(2, 3, 4, 5)
    y = x.type(torch.float64, memory_format=torch.channels_last)
    assert y.dtype == torch.float64 and y.stride() == (60, 1, 15, 3)
    z = x.type(torch.float32, memory_format=torch.channels_last)
    assert z is not x and z.stride() == (60, 1, 15, 3) and torch.equal(z, x)
    assert x.type(torch.float32, memory_format=torch.contiguous_format) is x
    assert x.type("torch.DoubleTensor", memory_format=torch.channels_last).stride() == (
        60, 1, 15, 3)
    c = x.contiguous(memory_format=torch.channels_last)
    assert c.type(torch.float64, memory_format=torch.contiguous_format).stride() == (
        60, 20, 5, 1)
    assert c.type(torch.float64, memory_format=torch.preserve_format).stride() == (
        60, 1, 15, 3)
    assert x.type(memory_format=torch.channels_last) == "torch.FloatTensor"


def test_type_refuses_a_format_as_torch_does():
    x = torch.ones(2, 3, 4)
    with raises(RuntimeError, "required rank 4 tensor to use channels_last format"):
        x.type(torch.float64, memory_format=torch.channels_last)
    with raises(TypeError, "type(): argument 'memory_format' must be torch.memory_format, "
                           "not int"):
        x.type(torch.float64, memory_format=1)
    with raises(TypeError, "type() got an unexpected keyword argument 'zz'"):
        x.type(torch.float64, zz=1)


def _grid(*shape):
    return torch.arange(float(torch.zeros(shape).numel())).reshape(shape)


@pytest.mark.parametrize("sublists, equation", [
    (("a", [0, 1], "b", [1, 2], [0, 2]), ("ij,jk->ik", "a", "b")),
    (("a", [0, 1], "b", [1, 2]), ("ij,jk", "a", "b")),
    (("a", [0, Ellipsis], "b", [Ellipsis, 2], [0, 2]), ("i...,...k->ik", "a", "b")),
    (("sq", [0, 0]), ("ii", "sq")),
    (("sq", [0, 0], [0]), ("ii->i", "sq")),
    (("a", (0, 1), (1,)), ("ij->j", "a")),
    (("a", [26, 51], [51]), ("az->z", "a")),
])
def test_einsum_reads_sublists(sublists, equation):
    named = {"a": _grid(2, 3), "b": _grid(3, 4), "sq": _grid(3, 3)}
    given = [named[x] if isinstance(x, str) else x for x in sublists]
    expected = torch.einsum(equation[0], *(named[n] for n in equation[1:]))
    assert torch.equal(torch.einsum(*given), expected)


@pytest.mark.parametrize("call, kind, message", [
    ("torch.einsum(a, [0, 52])", ValueError,
     "einsum(): subscript in subscript list is not within the valid range [0, 52)"),
    ("torch.einsum(a, [0, -1])", ValueError,
     "einsum(): subscript in subscript list is not within the valid range [0, 52)"),
    ("torch.einsum(a, [[0, 1]])", TypeError,
     "'>=' not supported between instances of 'list' and 'int'"),
    ("torch.einsum(a, 'a')", TypeError, "'>=' not supported between instances of 'str' and 'int'"),
    ("torch.einsum(a, 1, 2)", TypeError, "'int' object is not iterable"),
    ("torch.einsum(a, [0, 1], b)", RuntimeError,
     "Boolean value of Tensor with more than one value is ambiguous"),
    ("torch.einsum(a, [0])", RuntimeError,
     "einsum(): the number of subscripts in the equation (1) does not match the number of "
     "dimensions (2) for operand 0 and no ellipsis was given"),
    ("torch.einsum(a, [0, 1], [0, 0])", RuntimeError,
     "einsum(): output subscript A appears more than once in the output"),
    ("torch.einsum(a, [0, 1], [2])", RuntimeError,
     "einsum(): output subscript C does not appear in the equation for any input operand"),
    ("torch.einsum('...i,...i', torch.ones(2, 3), torch.ones(4, 3))", RuntimeError,
     "einsum(): dimension 0 covered by ellipsis in operand 1has size 4 which does not "
     "broadcast with previously seen ellipsis with size 2 for the respective dimension"),
    ("torch.einsum('...i,i...', torch.ones(2, 5, 3), torch.ones(3, 3, 5))", RuntimeError,
     "einsum(): dimension 1 covered by ellipsis in operand 1has size 3 which does not "
     "broadcast with previously seen ellipsis with size 2 for the respective dimension"),
    ("torch.einsum('...i,...i,...i', torch.ones(2, 3), torch.ones(1, 3), torch.ones(4, 3))",
     RuntimeError, "einsum(): dimension 0 covered by ellipsis in operand 2has size 4 which "
     "does not broadcast with previously seen ellipsis with size 2 for the respective dimension"),
    ("torch.einsum('i....j', a)", RuntimeError,
     "einsum(): found '.' for operand 0 for which an ellipsis was already found"),
    ("torch.einsum('ij,i....', a, a)", RuntimeError,
     "einsum(): found '.' for operand 1 for which an ellipsis was already found"),
    ("torch.einsum('i.j', a)", RuntimeError,
     "einsum(): found '.' for operand 0 that is not part of any ellipsis"),
    ("torch.einsum('ij->i.', a)", RuntimeError,
     "einsum(): found '.' for output that is not part of any ellipsis (...)"),
    ("torch.einsum('ij->...i...', a)", RuntimeError,
     "einsum(): found '.' for output but an ellipsis (...) was already found"),
])
def test_einsum_refuses_as_torch_does(call, kind, message):
    a, b = _grid(2, 3), _grid(3, 4)
    with raises(kind, message):
        eval(call, {"torch": torch, "a": a, "b": b})


def test_einsum_broadcasts_ellipses_and_takes_diagonals():
    x, y = _grid(2, 1, 2, 3), _grid(4, 3, 5)
    assert torch.einsum("...ij,...jk->...ik", x, y).shape == (2, 4, 2, 5)
    assert torch.einsum("i...,i...->...", _grid(3, 2, 1), _grid(3, 4)).shape == (2, 4)
    cube = _grid(2, 2, 3)
    assert torch.einsum("iij->ij", cube).tolist() == [[0.0, 1.0, 2.0], [9.0, 10.0, 11.0]]
    assert torch.einsum("iji->j", _grid(2, 3, 2)).tolist() == [7.0, 11.0, 15.0]
    w = _grid(3, 3).requires_grad_()
    torch.einsum(w, [0, 0], []).backward()
    assert w.grad.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def test_norm_takes_out_and_dtype_by_position():
    a = _grid(2, 3)
    assert torch.norm(a, 2, 1, True, None, None).shape == (2, 1)
    r = torch.norm(a, 2, 1, False, None, torch.float64)
    assert r.dtype == torch.float64 and r.tolist() == torch.norm(a.double(), 2, 1).tolist()
    o = torch.empty(0)
    assert torch.norm(a, 2, 1, False, o) is o and o.shape == (2,)
    assert torch.norm(a, "fro", None, False, None, torch.float64).dtype == torch.float64
    assert torch.norm(a, "nuc", None, False, None, torch.float64).dtype == torch.float64


@pytest.mark.parametrize("call, message", [
    ("torch.norm(a, 1, 2, 3, 4, 5)",
     "linalg_vector_norm(): argument 'keepdim' (position 4) must be bool, not int"),
    ("torch.norm(a, 1, 2, 3, 4, 5, 6)",
     "norm() takes from 1 to 6 positional arguments but 7 were given"),
    ("torch.norm(a, 2, 1, False, None, out=None)", "norm() got multiple values for argument 'out'"),
    ("torch.norm(a, 2, 1, False, None, None, dtype=None)",
     "norm() got multiple values for argument 'dtype'"),
    ("torch.norm(a, 2, None, False, 'x')",
     "linalg_vector_norm(): argument 'out' must be Tensor, not str"),
    ("torch.norm(a, 2, None, False, None, 'x')",
     "linalg_vector_norm(): argument 'dtype' must be torch.dtype, not str"),
    ("torch.norm(a, out='x')", "linalg_vector_norm(): argument 'out' must be Tensor, not str"),
    ("torch.norm(a, p='fro', dim=1, out='x')",
     "linalg_vector_norm(): argument 'out' must be Tensor, not str"),
    ("torch.norm(a, p=1, dim=1, keepdim=3, out=4)",
     "linalg_vector_norm(): argument 'keepdim' (position 4) must be bool, not int"),
    ("torch.norm(a, p=2, dim=1, out='x', dtype='y')",
     "linalg_vector_norm(): argument 'dtype' must be torch.dtype, not str"),
    ("torch.norm(a, p='nuc', out='x')",
     "linalg_matrix_norm() received an invalid combination of arguments - got (Tensor, str, "
     "list, bool, out=str, dtype=NoneType), but expected one of:\n"
     " * (Tensor input, Number ord, tuple of ints dim = {-2,-1}, bool keepdim = False, *, "
     "torch.dtype dtype = None, Tensor out = None)\n"
     " * (Tensor input, str ord = \"fro\", tuple of ints dim = {-2,-1}, bool keepdim = False, *, "
     "torch.dtype dtype = None, Tensor out = None)\n"),
])
def test_norm_refuses_as_torch_does(call, message):
    a = _grid(2, 3)
    with raises(TypeError, message):
        eval(call, {"torch": torch, "a": a})


def _numpy_norm(x, p, dim):
    """The norm worked out in float64 from its definition, summed over what is kept."""
    dims = tuple(range(x.ndim)) if dim is None else (dim,) if isinstance(dim, int) else dim
    dims = tuple(range(x.ndim)) if dims == () else dims
    if p == "nuc":
        moved = np.moveaxis(x, dims, (-2, -1))
        return np.linalg.svd(moved, compute_uv=False).sum()
    a = np.abs(x)
    if p == "fro" or p == 2:
        return np.sqrt((a ** 2).sum(dims)).sum()
    if p == float("inf"):
        return a.max(dims).sum()
    if p == float("-inf"):
        return a.min(dims).sum()
    if p == 0:
        return (a != 0).sum(dims).sum()
    return ((a ** p).sum(dims) ** (1 / p)).sum()


@pytest.mark.parametrize("p, dim, keepdim, dtype", [
    ("fro", (0, 1), False, None), ("fro", 0, True, None), ("nuc", (1, 2), True, None),
    (float("inf"), None, False, None), (float("-inf"), (0, 1), False, None), (0, 1, False, None),
    (3, None, False, torch.float64), ("fro", None, False, torch.float64),
    ("nuc", (0, 2), False, torch.float64), (2, (), False, None), (0.5, 0, True, None),
])
def test_norm_odd_forms_give_torchs_values(p, dim, keepdim, dtype):
    values = np.arange(24.0).reshape(2, 3, 4) - 7.0
    x = torch.tensor(values, dtype=torch.float32, requires_grad=True)
    y = torch.norm(x, p=p, dim=dim, keepdim=keepdim, dtype=dtype)
    expected = _numpy_norm(values, p, dim)
    assert abs(y.double().sum().item() - expected) < 1e-5 * max(1.0, expected)
    assert y.dtype == (dtype or torch.float32)
    y.sum().backward()
    if p == 0:  # torch's backward of a count of nonzeros gives no gradient at all
        assert x.grad is None
    else:
        assert x.grad.shape == x.shape


def test_norm_fro_over_three_dimensions_is_refused():
    with raises(RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2"):
        torch.norm(torch.ones(2, 3, 4), p="fro", dim=(0, 1, 2))


@pytest.mark.parametrize("call, message", [
    ("torch.is_conj(input='a')", "is_conj(): argument 'input' must be Tensor, not str"),
    ("torch.is_conj('a')", "is_conj(): argument 'input' (position 1) must be Tensor, not str"),
    ("torch.is_neg(input=1)", "is_neg(): argument 'input' must be Tensor, not int"),
    ("torch.is_inference(zz=1)",
     'is_inference() missing 1 required positional arguments: "input"'),
    ("torch.is_inference(torch.ones(1), zz=1)",
     "is_inference() got an unexpected keyword argument 'zz'"),
    ("torch.unique(input='a')",
     "_unique2(): argument 'input' (position 1) must be Tensor, not str"),
    ("torch.unique_consecutive(input='a')",
     "unique_consecutive(): argument 'input' (position 1) must be Tensor, not str"),
])
def test_functions_of_one_tensor_refuse_what_is_not_one(call, message):
    with raises(TypeError, message):
        eval(call, {"torch": torch})


def test_functions_of_one_tensor_still_answer():
    x = torch.tensor([2.0, 1.0, 2.0])
    assert torch.is_conj(x) is False and torch.is_neg(input=x) is False and not x.is_conj()
    assert torch.is_inference(input=x) is False
    assert torch.unique(input=x).tolist() == [1.0, 2.0]
    assert torch.unique_consecutive(input=x).tolist() == [2.0, 1.0, 2.0]


@pytest.mark.parametrize("names, listed", [
    (("aa", "bb", "cc"), "cc, bb, aa"),
    (("cc", "aa", "bb"), "bb, aa, cc"),
    (("dd", "bb", "aa", "cc"), "cc, aa, bb, dd"),
    (("non_blocking_", "memory_format_", "zz"), None),
    (("memory", "format", "zz", "blocking"), None),
    (tuple(f"k{i}" for i in range(20)), None),  # past the table's first growth
])
def test_unknown_keywords_are_listed_in_torchs_order(names, listed):
    from refgrad._keyword_order import in_table_order

    x = torch.ones(2)
    with pytest.raises(TypeError) as refused:
        x.copy_(x, **dict.fromkeys(names, 1))
    text = str(refused.value)
    head = "copy_() received an invalid combination of arguments - got unrecognized keyword "
    assert text.startswith(head + "arguments: ")
    got = text[len(head + "arguments: "):]
    assert got == (listed or ", ".join(in_table_order(names)))


def test_keywords_got_and_incorrect_are_listed_in_torchs_order():
    x = torch.ones(2)
    with raises(TypeError, "view() received an invalid combination of arguments - got "
                           "(memory_format=int, zz=int, non_blocking=int, ), but expected one "
                           "of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n"):
        x.view(non_blocking=1, memory_format=2, zz=3)
    with raises(TypeError, "type() received an invalid combination of arguments - got "
                           "unrecognized keyword arguments: memory_format, zz, non_blocking"):
        x.type(torch.float64, non_blocking=True, memory_format=torch.channels_last, zz=1)


def test_type_takes_the_deprecated_async():
    x = torch.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that the form is deprecated
        assert x.type(torch.float64, **{"async": True}).dtype == torch.float64
    with raises(TypeError, "type() got an unexpected keyword argument 'async'"):
        x.type(torch.float64, non_blocking=True, **{"async": True})


@pytest.mark.parametrize("call, message", [
    ("torch.from_numpy(a, 1)", "takes exactly one argument (2 given)"),
    ("torch.from_numpy()", "takes exactly one argument (0 given)"),
    ("torch.from_numpy(ndarray=a)", "takes no keyword arguments"),
    ("torch.from_numpy(a, zz=1)", "takes no keyword arguments"),
    ("torch.from_numpy(1, 2, zz=1)", "takes no keyword arguments"),
])
def test_from_numpy_takes_one_argument_as_a_c_function_does(call, message):
    with raises(TypeError, "torch._VariableFunctionsClass.from_numpy() " + message):
        eval(call, {"torch": torch, "a": np.ones(2)})
    assert torch.from_numpy(np.ones(2)).tolist() == [1.0, 1.0]


def test_norm_with_an_out_goes_where_torchs_goes():
    a = _grid(2, 3)
    with raises(RuntimeError, "linalg.matrix_norm expected out tensor dtype Float but got: Double"):
        torch.norm(a, p="nuc", out=torch.empty(0, dtype=torch.float64))
    with raises(RuntimeError, "linalg.matrix_norm expected out tensor dtype Float but got: Long"):
        torch.norm(a, p="nuc", dim=(0, 1), out=torch.empty(0, dtype=torch.int64))
    with raises(RuntimeError, "Expected out tensor to have dtype float, but got double instead"):
        torch.norm(a, p="fro", out=torch.empty(0, dtype=torch.float64))
    o = torch.empty(0)
    r = torch.norm(a, p="nuc", out=o)
    expected = np.linalg.svd(np.arange(6.0).reshape(2, 3), compute_uv=False).sum()
    assert r is o and o.shape == () and abs(o.item() - expected) < 1e-5
    k = torch.empty(5)
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        torch.norm(_grid(2, 3, 3), p="nuc", dim=(1, 2), keepdim=True, out=k)
    assert k.shape == (2, 1, 1)


@pytest.mark.parametrize("name", ["ones", "zeros", "empty"])
def test_a_factory_without_a_size_is_refused_for_it(name):
    factory = getattr(torch, name)
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "size"'):
        factory(zz=1)
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "size"'):
        factory(aa=1, bb=2, cc=3)
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'zz'"):
        factory(size=(2,), zz=1)
    assert factory(size=(2,), dtype=torch.float64).shape == (2,)


@pytest.mark.parametrize("call, kind", [
    ("torch.norm('a')", "str"), ("torch.norm(input='a')", "str"), ("torch.norm(1.0)", "float"),
    ("torch.norm([1.0, 2.0])", "list"), ("torch.norm(None)", "NoneType"),
    ("torch.norm(input='a', p='nuc')", "str"), ("torch.norm('a', out='x')", "str"),
])
def test_norm_looks_at_its_input_first(call, kind):
    with raises(AttributeError, f"'{kind}' object has no attribute 'layout'"):
        eval(call, {"torch": torch})


def test_is_pinned_reads_its_deprecated_device():
    x = torch.ones(1)
    text = "The argument 'device' of Tensor.is_pinned() is deprecated. Please do not pass this"
    for device in ("cpu", "meta", torch.device("cpu")):
        with pytest.warns(DeprecationWarning) as caught:
            assert x.is_pinned(device) is False
        assert [str(w.message).startswith(text) for w in caught] == [True]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.is_pinned(None) is False and x.is_pinned() is False
    with pytest.raises(RuntimeError, match=r"\AExpected one of cpu, cuda, ipu, xpu, mkldnn, "
                                           r"opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                                           r"lazy, vulkan, mps, meta, hpu, mtia, privateuseone "
                                           r"device type at start of device string: a\Z"):
        x.is_pinned(device="a")


@pytest.mark.parametrize("device, kind", [("cpu", "CPU"), ("meta", "META"),
                                          (torch.device("cpu"), "CPU")])
def test_pin_memory_reads_its_deprecated_device(device, kind):
    x = torch.ones(2)
    with pytest.warns(DeprecationWarning) as caught:
        with raises(RuntimeError, f"{kind} device type not an accelerator."):
            x.pin_memory(device)
    said = [str(w.message).split(" is deprecated")[0] for w in caught]
    assert said == ["The argument 'device' of Tensor.pin_memory()",
                    "The argument 'device' of Tensor.is_pinned()"]


@pytest.mark.parametrize("call, message", [
    ("x.item(zz=1)", "TensorBase.item() takes no keyword arguments"),
    ("x.item(1, zz=1)", "TensorBase.item() takes no keyword arguments"),
    ("x.tolist(zz=1)", "TensorBase.tolist() takes no keyword arguments"),
    ("x.tolist(1)", "TensorBase.tolist() takes no arguments (1 given)"),
    ("x.numpy(zz=1)", "numpy() got an unexpected keyword argument 'zz'"),
    ("x.numpy(force=1)", "numpy(): argument 'force' must be bool, not int"),
    ("x.numpy(force=None)", "numpy(): argument 'force' must be bool, not NoneType"),
])
def test_methods_reading_values_refuse_keywords_as_torch_does(call, message):
    x = torch.ones(1)
    with raises(TypeError, message):
        eval(call, {"x": x})
    assert x.item() == 1.0 and x.tolist() == [1.0] and x.numpy(force=True).tolist() == [1.0]


@pytest.mark.parametrize("call, message", [
    ("x.cuda(1, 2, 3, 4, 5)", "cuda() received an invalid combination of arguments - got (int, "
     "int, int, int, int), but expected (torch.device device = None, bool non_blocking = False, "
     "*, torch.memory_format memory_format = None)"),
    ("x.cuda(1, 2, 3)", "cuda() takes from 0 to 2 positional arguments but 3 were given"),
    ("x.cuda(non_blocking=1)", "cuda(): argument 'non_blocking' must be bool, not int"),
    ("x.pin_memory(1, 2, 3, 4, 5)",
     "pin_memory() takes from 0 to 1 positional arguments but 5 were given"),
    ("x.pin_memory(zz=1)", "pin_memory() got an unexpected keyword argument 'zz'"),
])
def test_device_methods_count_as_torch_counts(call, message):
    with raises(TypeError, message):
        eval(call, {"x": torch.ones(1)})
