"""Black-box tests: torch.return_types are struct sequences, made from one sequence (and an
optional dict), refused in the words of CPython's struct sequences, and pickled as that
sequence. The same assertions run on torch."""

import copy
import pickle

import pytest
import torch

NAMES = ["max", "min", "sort", "topk", "cummax", "aminmax", "kthvalue", "max_out", "frexp",
         "linalg_svd", "svd", "linalg_qr", "linalg_lu", "linalg_slogdet", "linalg_lstsq",
         "linalg_inv_ex", "histogram", "triangular_solve", "linalg_lu_factor_ex"]


@pytest.mark.parametrize("name", NAMES)
def test_a_named_result_is_made_from_one_sequence(name):
    cls = getattr(torch.return_types, name)
    n = cls.n_fields
    made = cls(list(range(n)))
    assert tuple(made) == tuple(range(n)) and type(made) is cls
    assert tuple(cls(iter(range(n)), {})) == tuple(range(n))
    assert tuple(cls(sequence=range(n), dict={})) == tuple(range(n))
    assert made.__reduce__() == (cls, (tuple(range(n)), {}))
    assert pickle.loads(pickle.dumps(made)) == made and type(copy.copy(made)) is cls


@pytest.mark.parametrize("name", ["linalg_svd", "max_out"])
@pytest.mark.parametrize("call, message", [
    (lambda cls: cls([1]), "torch.return_types.{}() takes a {}-sequence (1-sequence given)"),
    (lambda cls: cls(5), "constructor requires a sequence"),
    (lambda cls: cls(range(9), 3), "torch.return_types.{}() takes a dict as second arg, if any"),
    (lambda cls: cls(), "structseq() missing required argument 'sequence' (pos 1)"),
    (lambda cls: cls([1], {}, 3), "structseq() takes at most 2 arguments (3 given)"),
    (lambda cls: cls([1], x=1), "'x' is an invalid keyword argument for structseq()"),
    (lambda cls: cls([1], sequence=[1]),
     "argument for structseq() given by name ('sequence') and position (1)"),
])
def test_a_named_result_refuses_as_a_struct_sequence(name, call, message):
    cls = getattr(torch.return_types, name)
    with pytest.raises(TypeError) as caught:
        call(cls)
    assert str(caught.value) == message.format(name, cls.n_fields)


def test_a_named_result_from_an_op_is_its_class():
    made = torch.linalg.svd(torch.eye(2))
    assert type(made) is torch.return_types.linalg_svd
    assert pickle.loads(pickle.dumps(made)).S.tolist() == [1.0, 1.0]
