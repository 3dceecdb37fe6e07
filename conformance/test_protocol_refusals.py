"""None as an operand, in-place refusals in torch's order, and the tensor's own protocols."""

import operator

import pytest
import torch

from conformance._support import raises

ONE_BOOL = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a "
           "single memory location. Please clone() the tensor before performing the operation.")


@pytest.mark.parametrize("shape", [(0,), (2, 0), (3,)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
def test_none_is_no_operand_whatever_the_size(shape, dtype):
    e = torch.zeros(shape, dtype=dtype)
    with raises(TypeError, "unsupported operand type(s) for +: 'Tensor' and 'NoneType'"):
        e + None
    with raises(TypeError, "unsupported operand type(s) for *: 'NoneType' and 'Tensor'"):
        None * e
    with raises(TypeError, "add(): argument 'other' (position 1) must be Tensor, not NoneType"):
        e.add(None)
    with raises(TypeError, "div(): argument 'other' (position 2) must be Tensor, not NoneType"):
        torch.div(e, None)
    with raises(TypeError, "unsupported operand type(s) for +=: 'Tensor' and 'NoneType'"):
        operator.iadd(e, None)
    with raises(TypeError, "mul(): argument 'other' (position 1) must be Tensor, not NoneType"):
        e.mul(None)


def test_empty_add_in_place_with_none_is_refused():
    e = torch.zeros(0)
    with raises(TypeError, "add_(): argument 'other' (position 1) must be Tensor, not NoneType"):
        e.add_(None)
    with raises(TypeError, "sub_(): argument 'other' (position 1) must be Tensor, not NoneType"):
        e.sub_(None)
    assert e._version == 0


def expanded(dtype=torch.float32):
    return torch.ones(1, dtype=dtype).expand(3)


def test_arguments_are_refused_before_the_overlap():
    with raises(TypeError, "unsupported operand type(s) for +=: 'Tensor' and 'NoneType'"):
        operator.iadd(expanded(), None)
    with raises(TypeError, "unsupported operand type(s) for *=: 'Tensor' and 'str'"):
        operator.imul(expanded(), "a")
    with raises(RuntimeError, ONE_BOOL):
        expanded().sub_(True)
    with raises(RuntimeError, ONE_BOOL):
        operator.isub(expanded(torch.bool), 1)
    with raises(RuntimeError, "Integers to negative integer powers are not allowed."):
        operator.ipow(expanded(torch.int64), -1)
    with raises(RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None"):
        expanded().clamp_(None)


def test_the_overlap_still_comes_first_for_the_cast_and_the_shape():
    with raises(RuntimeError, OVERLAP):
        operator.itruediv(expanded(torch.int64), 2)
    with raises(RuntimeError, OVERLAP):
        operator.iadd(expanded(), torch.ones(2))
    with raises(RuntimeError, OVERLAP):
        operator.ipow(expanded(torch.int64), torch.tensor(-1))


def test_a_leaf_is_refused_after_the_arguments_types_only():
    leaf = torch.ones(3, requires_grad=True)
    with raises(TypeError, "unsupported operand type(s) for +=: 'Tensor' and 'NoneType'"):
        operator.iadd(leaf, None)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                "in-place operation."):
        leaf.sub_(True)


@pytest.mark.parametrize("value, name", [(None, "NoneType"), ("a", "str"), ([1], "list"),
                                         (torch.ones(2), "Tensor"), ((1,), "tuple")])
def test_new_full_reads_fill_value_as_a_number(value, name):
    t = torch.ones(1)
    with raises(TypeError, f"new_full(): argument 'fill_value' (position 2) must be Number, "
                f"not {name}"):
        t.new_full((2,), value)
    with raises(TypeError, f"new_full(): argument 'fill_value' must be Number, not {name}"):
        t.new_full((2,), fill_value=value)


def test_new_full_takes_a_zero_dim_tensor():
    assert t_list(torch.ones(1).new_full((2,), torch.tensor(3.0))) == [3.0, 3.0]
    with raises(TypeError, "new_full(): argument 'fill_value' (position 2) must be Number, "
                "not Tensor"):
        torch.ones(1).new_full((2,), torch.tensor(3.0, requires_grad=True))


def t_list(t):
    return t.tolist()


def test_deletions_are_refused_in_torch_words():
    t = torch.ones(3)
    with raises(TypeError, "Tensor does not support deleting items"):
        del t[0]
    with raises(RuntimeError, "Deleting tensor data is not allowed. Delete tensor instead!"):
        del t.data
    with raises(RuntimeError, "requires_grad must be a bool"):
        del t.requires_grad
    assert "__delitem__" in dir(t)


def test_assigning_the_real_part_writes_in_place():
    t = torch.ones(3)
    t.real = torch.full((3,), 5.0)
    assert t.tolist() == [5.0, 5.0, 5.0] and t._version == 1
    t.real = 2
    assert t.tolist() == [2.0, 2.0, 2.0] and t._version == 2
    i = torch.ones(3, dtype=torch.int64)
    i.real = 2.7
    assert i.tolist() == [2, 2, 2]
    with raises(TypeError, "can't assign a NoneType to a torch.FloatTensor"):
        t.real = None
    with raises(RuntimeError, "value cannot be converted to type float without overflow"):
        t.real = 1e50
    u = torch.ones(3).requires_grad_().clone()
    u.real = 3
    assert type(u.grad_fn).__name__ == "CopyBackwards"
    with raises(RuntimeError, "imag is not implemented for tensors with non-complex dtypes."):
        t.imag = torch.zeros(3)


def test_three_argument_pow_is_pythons_refusal():
    t = torch.tensor([2, 3])
    with raises(TypeError, "unsupported operand type(s) for ** or pow(): 'Tensor', 'int', 'int'"):
        pow(t, 2, 5)
    with raises(TypeError, "unsupported operand type(s) for ** or pow(): 'int', 'Tensor', 'int'"):
        pow(2, t, 5)
    assert t.__pow__(2, None) is NotImplemented
    assert pow(t, 2, None).tolist() == [4, 9]


def test_hash_is_the_identity():
    t = torch.ones(2)
    assert hash(t) == id(t)
    p = torch.nn.Parameter(torch.ones(1))
    assert hash(p) == id(p)
