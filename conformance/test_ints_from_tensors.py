"""Black-box tests: tensors given where split, norm, vector_norm, quantile and nanquantile
take ints or numbers, read or refused as torch reads them. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises

SIZES = ("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, ")


def _shapes(pieces):
    return [tuple(p.shape) for p in pieces]


def _split_combination(got, marks):
    return (f"split() received an invalid combination of arguments - got ({got}), but expected "
            "one of:\n * (Tensor input, int split_size, int dim = 0)\n      didn't match "
            f"because some of the arguments have invalid types: ({marks[0]})\n * (Tensor input, "
            "tuple of ints split_size, int dim = 0)\n      didn't match because some of the "
            f"arguments have invalid types: ({marks[1]})\n")


@pytest.mark.parametrize("size", [torch.tensor(3), torch.tensor([3]), torch.tensor(3.7)])
def test_split_reads_a_tensor_of_one_element_as_its_int(size):
    x = torch.arange(10.0, requires_grad=True)
    pieces = torch.split(x, size)
    assert _shapes(pieces) == [(3,), (3,), (3,), (1,)]
    assert type(pieces[0].grad_fn).__name__ == "SplitBackward0"
    assert pieces[0].grad_fn._saved_split_size == 3
    assert _shapes(x.split(size)) == _shapes(x.split(split_size=size)) == _shapes(pieces)
    assert _shapes(torch.split(x, split_size_or_sections=size, dim=torch.tensor(0))) == [
        (3,), (3,), (3,), (1,)]
    assert len(torch.split(x, torch.tensor(True))) == 10  # int(True) is 1


def test_split_reads_index_tensors_inside_its_list_of_sizes():
    x = torch.arange(10.0, requires_grad=True)
    for sizes in ([torch.tensor(3), torch.tensor(7)], (3, torch.tensor(7)),
                  [torch.tensor([3]), 7], [np.int64(3), 7]):
        pieces = torch.split(x, sizes)
        assert _shapes(pieces) == [(3,), (7,)]
        assert pieces[0].grad_fn._saved_split_sizes == (3, 7)
    assert _shapes(x.split([torch.tensor(4), 6], torch.tensor(0))) == [(4,), (6,)]
    assert _shapes(x.split_with_sizes([torch.tensor(4), 6])) == [(4,), (6,)]
    with raises(RuntimeError, "split_with_sizes expects split_sizes have only non-negative "
                "entries, but got split_sizes=[-3, 13]"):
        torch.split(x, [torch.tensor(-3), 13])
    with raises(RuntimeError, "split_with_sizes expects split_sizes to sum exactly to 10 "
                "(input tensor's size at dimension 0), but got split_sizes=[3, 3]"):
        torch.split(x, [torch.tensor(3), 3])


def test_split_refuses_what_torchs_parsers_refuse():
    x = torch.arange(10.0)
    for size, name in ((torch.tensor([3, 7]), "Tensor"), (torch.tensor(float("nan")), "Tensor"),
                       (np.int64(3), "numpy.int64"), (3.0, "float"), (None, "NoneType")):
        with raises(TypeError, SIZES + f"not {name}"):
            torch.split(x, size)
    for sizes, name in (([torch.tensor(3.0), 7], "Tensor"), ([torch.tensor([3, 1]), 6], "Tensor"),
                        ([3.0, 7], "float"), ([True, 9], "bool")):
        with raises(TypeError, SIZES + f"but found element of type {name} at pos 0"):
            torch.split(x, sizes)
    with raises(TypeError, _split_combination("Tensor, bool, int",
                                              ("Tensor, !bool!, !int!", "Tensor, !bool!, !int!"))):
        torch.split(x, True)
    for dim in (torch.tensor(0.0), torch.tensor(False), torch.tensor([0])):
        with raises(TypeError, _split_combination(
                "Tensor, int, Tensor", ("Tensor, int, !Tensor!", "Tensor, !int!, !Tensor!"))):
            torch.split(x, 3, dim)
    with raises(TypeError, "split_with_sizes(): argument 'dim' (position 3) must be int, not "
                "Tensor"):
        torch.split(x, [3, 7], torch.tensor([0]))
    with raises(TypeError, "split_with_sizes(): argument 'split_sizes' (position 1) must be "
                "tuple of ints, but found element of type float at pos 0"):
        x.split_with_sizes([3.0, 7])
    with raises(TypeError, "Tensor.split() missing 1 required positional argument: "
                "'split_size'"):
        x.split()
    with raises(TypeError, "Tensor.split() got an unexpected keyword argument "
                "'split_size_or_sections'"):
        x.split(split_size_or_sections=3)
    with raises(RuntimeError, "split expects split_size be non-negative, but got "
                "split_size=-1"):
        torch.split(x, torch.tensor(-1))


def test_norms_read_a_0d_tensor_as_a_number_and_as_a_dim():
    y = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
    norm = torch.norm(y, torch.tensor(3.0))
    assert torch.allclose(norm, torch.tensor(100.0) ** (1 / 3))
    assert norm.grad_fn._saved_ord == 3.0
    assert torch.norm(y, p=torch.tensor(1)).item() == 10.0
    assert torch.norm(y, torch.tensor(True)).item() == 10.0  # the 1-norm
    assert torch.linalg.vector_norm(y, torch.tensor(float("inf"))).item() == 4.0
    rows = torch.norm(y, 2, torch.tensor(1))
    assert rows.grad_fn._saved_dim == (1,)
    assert torch.allclose(rows, torch.tensor([5.0, 25.0]).sqrt())
    assert y.norm(torch.tensor(1), torch.tensor(0)).tolist() == [4.0, 6.0]
    assert torch.norm(y, None, torch.tensor(1)).shape == (2,)
    assert torch.norm(y, "fro", [torch.tensor(1)]).shape == (2,)
    assert torch.norm(y, "fro", (torch.tensor(0), torch.tensor(1))).shape == ()
    assert torch.linalg.vector_norm(y, 2, [torch.tensor(1), 0]).shape == ()
    assert torch.linalg.vector_norm(y, dim=torch.tensor([1])).shape == (2,)


def test_norms_refuse_what_torch_refuses():
    y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
    prefix = "linalg_vector_norm(): argument"
    with raises(TypeError, "len() of a 0-d tensor"):
        torch.norm(y, dim=torch.tensor(1))  # p="fro" asks for the dim's length
    with raises(TypeError, "len() of a 0-d tensor"):
        y.norm(dim=torch.tensor(1))
    for ord in (torch.tensor([1.0]), torch.tensor(1.0, requires_grad=True)):
        with raises(TypeError, f"{prefix} 'ord' (position 2) must be Number, not Tensor"):
            torch.linalg.vector_norm(y, ord)
    with raises(TypeError, f"{prefix} 'ord' (position 2) must be Number, not str"):
        torch.linalg.vector_norm(y, "fro")
    with raises(TypeError, f"{prefix} 'dim' (position 3) must be tuple of ints, not Tensor"):
        torch.norm(y, 2, torch.tensor(1.0))
    with raises(TypeError, f"{prefix} 'dim' (position 3) must be tuple of ints, not Tensor"):
        torch.norm(y, 2, torch.tensor([1, 0]))
    with raises(TypeError, f"{prefix} 'keepdim' (position 4) must be bool, not Tensor"):
        torch.linalg.vector_norm(y, 2, 1, torch.tensor(True))
    with raises(TypeError, f"{prefix} 'keepdim' (position 4) must be bool, not int"):
        torch.linalg.vector_norm(y, 2, 1, 1)
    with raises(TypeError, f"{prefix} 'dim' (position 3) must be tuple of ints, but found "
                "element of type bool at pos 0"):
        torch.norm(y, 2, True)


def _quantile_combination(name, got):
    signature = ("int dim = None, bool keepdim = False, *, str interpolation = \"linear\", "
                 "Tensor out = None)")
    return (f"{name}() received an invalid combination of arguments - got ({got}), but "
            f"expected one of:\n * (Tensor input, Tensor q, {signature}\n"
            f" * (Tensor input, float q, {signature}\n")


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_quantiles_read_a_0d_integer_tensor_as_their_dim(name):
    y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
    q = torch.tensor([0.25, 0.5])
    function = getattr(torch, name)
    expected = function(y, q, dim=1).tolist()
    assert function(y, q, dim=torch.tensor(1)).tolist() == expected
    assert function(y, q, torch.tensor(1)).tolist() == expected
    assert getattr(y, name)(q, torch.tensor(1)).tolist() == expected
    assert function(y, 0.5, dim=torch.tensor(0)).tolist() == [2.0, 1.0]
    assert function(y, torch.tensor(0.5), dim=torch.tensor(0)).tolist() == [2.0, 1.0]
    for dim in (torch.tensor(1.0), torch.tensor(True)):
        with raises(TypeError, _quantile_combination(name, "Tensor, Tensor, dim=Tensor")):
            function(y, q, dim=dim)
    with raises(TypeError, _quantile_combination(name, "Tensor, Tensor, keepdim=Tensor, "
                                                 "dim=int")):
        function(y, q, dim=1, keepdim=torch.tensor(True))
