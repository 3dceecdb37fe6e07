"""Black-box tests: a bool tensor in a size, a stride or an output size, read as SymInts, is
refused by torch's reader of sizes, and one for a lone SymInt (eye's n, as_strided's offset,
repeat_interleave's output_size) fails its assert; a plain int (group_norm's) refuses it."""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

BOOL_IN_SIZES = ("Expected scalar.isIntegral( false) to be true, but got false.  (Could this "
                 "error message be improved?  If so, please report an enhancement request to "
                 "PyTorch.)")
NOT_INTEGRAL = ('scalar.isIntegral( false) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/'
                'torch/csrc/utils/pybind.cpp":27, please report a bug to PyTorch. ')

IN_SIZES = ("x.expand(b, 4)", "x.expand((b, 4))", "x.expand(size=(b, 4))", "o.expand(b)",
            "x.broadcast_to((b, 4))", "torch.broadcast_to(x, (b, 4))",
            "torch.view_copy(v, (b, 2))", "torch.expand_copy(v.reshape(1, 2), (b, 2))",
            "v.as_strided((1,), (b,))", "torch.as_strided_copy(v, (1,), (b,))",
            "v.clone().as_strided_((1,), (b,))", "F.layer_norm(torch.ones(2, 1), (b,))",
            "F.interpolate(x4, size=(b, 1))", "F.interpolate(x4, size=(1, b), mode='bilinear')")
FOR_A_SYMINT = ("v.as_strided((1,), (1,), b)", "torch.eye(b)", "torch.eye(2, b)",
                "v.repeat_interleave(2, output_size=b)", "torch.narrow_copy(v, 0, 0, b)")


def _names():
    return {"torch": torch, "F": F, "b": torch.tensor(True), "x": torch.ones(1, 4),
            "o": torch.ones(1), "v": torch.ones(2), "x4": torch.ones(1, 1, 2, 2)}


@pytest.mark.parametrize("call", IN_SIZES)
def test_a_bool_tensor_in_a_size_is_refused(call):
    with raises(RuntimeError, BOOL_IN_SIZES):
        eval(call, _names())


@pytest.mark.parametrize("call", FOR_A_SYMINT)
def test_a_bool_tensor_for_a_lone_symint_fails_its_assert(call):
    with raises(RuntimeError, NOT_INTEGRAL):
        eval(call, _names())


def test_integer_tensors_still_stand_for_sizes():
    x, three = torch.ones(1, 4), torch.tensor(3)
    assert x.expand(three, 4).shape == (3, 4)
    assert x.broadcast_to((three, 4)).shape == (3, 4)
    assert torch.eye(torch.tensor(2)).shape == (2, 2)
    assert torch.ones(2).repeat_interleave(2, output_size=torch.tensor(4)).shape == (4,)


@pytest.mark.parametrize("groups", (torch.tensor(True), torch.tensor([2]), torch.tensor(1.0)))
def test_group_norm_takes_num_groups_as_a_plain_int(groups):
    with raises(TypeError, "group_norm(): argument 'num_groups' (position 2) must be int, "
                           "not Tensor"):
        torch.group_norm(torch.ones(2, 2), groups)


def test_group_norm_takes_a_0d_integer_tensor():
    x = torch.arange(4.0).reshape(2, 2)
    assert torch.equal(torch.group_norm(x, torch.tensor(2)), torch.group_norm(x, 2))
