"""Black-box tests: the arithmetic operators refuse what is neither a tensor nor a number in
Python's words, as torch's do, and so do the losses torch writes with them;
torch.special.logsumexp reads its dim as its own operator. The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F  # noqa: F401 - the calls below name it

from conformance._support import raises

x = torch.tensor([[-1.0, 0.5], [2.0, -3.0]])


@pytest.mark.parametrize("call, message", [
    ("x - None", "unsupported operand type(s) for -: 'Tensor' and 'NoneType'"),
    ("x - 'a'", "unsupported operand type(s) for -: 'Tensor' and 'str'"),
    ("x + None", "unsupported operand type(s) for +: 'Tensor' and 'NoneType'"),
    ("None + x", "unsupported operand type(s) for +: 'NoneType' and 'Tensor'"),
    ("x * None", "unsupported operand type(s) for *: 'Tensor' and 'NoneType'"),
    ("None * x", "unsupported operand type(s) for *: 'NoneType' and 'Tensor'"),
    ("x / None", "unsupported operand type(s) for /: 'Tensor' and 'NoneType'"),
    ("x - [1.0]", "unsupported operand type(s) for -: 'Tensor' and 'list'"),
    ("'a' * x", "only integer tensors of a single element can be converted to an index"),
    ("[1.0] * x", "only integer tensors of a single element can be converted to an index"),
    ("F.gaussian_nll_loss(x, None, x.abs())", "unsupported operand type(s) for -: 'Tensor' and "
     "'NoneType'"),
    ("F.gaussian_nll_loss(x, 'a', x.abs())", "unsupported operand type(s) for -: 'Tensor' and "
     "'str'"),
    ("F.multilabel_soft_margin_loss(x, None)", "unsupported operand type(s) for *: 'NoneType' "
     "and 'Tensor'"),
    ("F.multilabel_soft_margin_loss(x, 'a')", "only integer tensors of a single element can be "
     "converted to an index"),
])
def test_operators_refuse_in_pythons_words(call, message):
    with raises(TypeError, message):
        eval(call)


def test_the_functions_and_methods_keep_the_parsers_words():
    with raises(TypeError, "sub(): argument 'other' (position 2) must be Tensor, not NoneType"):
        torch.sub(x, None)
    with raises(TypeError, "mul(): argument 'other' (position 2) must be Tensor, not str"):
        torch.mul(x, "a")
    assert (x - 1).tolist() == [[-2.0, -0.5], [1.0, -4.0]]
    assert (2 * x / 2 + x).tolist() == (x * 2).tolist()


@pytest.mark.parametrize("dim, message", [
    ("torch.tensor(0.5)", "special_logsumexp(): argument 'dim' (position 2) must be tuple of "
     "ints, not Tensor"),
    ("torch.tensor([0, 1])", "special_logsumexp(): argument 'dim' (position 2) must be tuple "
     "of ints, not Tensor"),
    ("None", "special_logsumexp(): argument 'dim' (position 2) must be tuple of ints, not "
     "NoneType"),
    ("1.0", "special_logsumexp(): argument 'dim' (position 2) must be tuple of ints, not float"),
])
def test_special_logsumexp_reads_its_dim_as_its_own_operator(dim, message):
    with raises(TypeError, message):
        torch.special.logsumexp(x, eval(dim))


def test_special_logsumexp_takes_an_index_tensor_for_its_dim():
    for dim in (torch.tensor(1), torch.tensor([1])):
        assert torch.equal(torch.special.logsumexp(x, dim), torch.special.logsumexp(x, 1))
    out = torch.empty(2)
    assert torch.special.logsumexp(x, 0, out=out) is out
