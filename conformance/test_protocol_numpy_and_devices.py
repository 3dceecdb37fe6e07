"""NumPy's view of empty tensors, odd NumPy scalars as operands, and host-only protocols."""

import operator

import numpy as np
import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("make", [
    lambda: torch.arange(6.0).reshape(2, 3)[:0],
    lambda: torch.arange(6.0).reshape(2, 3)[:, :0],
    lambda: torch.empty_strided((0, 3), (3, 1)),
    lambda: torch.zeros(3, 0).t(),
])
def test_the_array_of_an_empty_tensor_has_no_strides(make):
    t = make()
    assert t.numpy().strides == (0, 0)
    assert np.asarray(t).strides == (0, 0)


def test_a_datetime_is_no_operand():
    with raises(TypeError, "add(): argument 'other' (position 1) must be Tensor, not "
                "numpy.datetime64"):
        torch.tensor([1.0]).add(np.datetime64("2020-01-01"))
    with pytest.raises(TypeError):  # NumPy's own refusal, once the tensor declines
        torch.tensor([1.0]) + np.datetime64("2020-01-01")


def test_a_host_tensor_has_no_cuda_array_interface():
    with raises(AttributeError, "Can't get __cuda_array_interface__ on non-CUDA tensor type: "
                "torch.LongTensor If CUDA data is required use tensor.cuda() to copy tensor "
                "to device memory."):
        torch.ones(1, dtype=torch.int64).__cuda_array_interface__
    assert not hasattr(torch.ones(1), "__cuda_array_interface__")


def test_in_place_pow_of_a_bool_checks_the_shape_first():
    with raises(RuntimeError, "output with shape [] doesn't match the broadcast shape [1, 3]"):
        operator.ipow(torch.tensor(True), torch.tensor([[True, False, True]]))
