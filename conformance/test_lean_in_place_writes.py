"""In-place writes whose inputs lie apart, meet in bounds only, or share elements, and
written tensors of one or more dimensions: values, versions, nodes and refusals."""

import pytest
import torch

SHARED = ("unsupported operation: some elements of the input tensor and the written-to "
          "tensor refer to a single memory location. Please clone() the tensor before "
          "performing the operation.")
OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to "
           "a single memory location. Please clone() the tensor before performing the "
           "operation.")


def test_inputs_apart_write_and_count_once():
    x, y = torch.arange(6.0), torch.full((6,), 2.0)
    out = x.mul_(y).add_(y, alpha=0.5).addcmul_(y, y, value=0.25)
    assert out is x and x._version == 3 and y._version == 0
    assert x.tolist() == [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]


def test_input_that_is_the_written_tensor():
    x = torch.tensor([1.0, 2.0, 3.0])
    x.mul_(x)
    assert x.tolist() == [1.0, 4.0, 9.0] and x._version == 1


def test_interleaved_inputs_meet_in_bounds_but_share_nothing():
    base = torch.arange(12.0).reshape(3, 4)
    even, odd = base[:, ::2], base[:, 1::2]
    even.add_(odd)
    assert base.tolist() == [[1.0, 1.0, 5.0, 3.0], [9.0, 5.0, 13.0, 7.0], [17.0, 9.0, 21.0, 11.0]]
    assert base._version == 1 and even._version == 1


def test_input_reading_elements_already_written():
    x = torch.arange(8.0)
    x[1:].add_(x[:-1].clone())  # a clone: apart
    assert x.tolist() == [0.0, 1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0]
    y = torch.arange(8.0)
    with pytest.raises(RuntimeError) as caught:
        y[1:].add_(y[:-1])
    assert str(caught.value) == SHARED and y._version == 0


def test_written_tensor_whose_elements_share_memory():
    x = torch.zeros(3)
    with pytest.raises(RuntimeError) as caught:
        x.expand(2, 3).mul_(2.0)
    assert str(caught.value) == OVERLAP and x._version == 0
    x.expand(2, 3).zero_()  # one value everywhere: allowed
    assert x._version == 1


@pytest.mark.parametrize("shape", [(6,), (2, 3), (3, 2, 1)])
def test_results_of_another_dtype_are_cast_into_the_written_tensor(shape):
    x = torch.zeros(shape, dtype=torch.float64)
    x.add_(torch.ones(shape, dtype=torch.float32), alpha=0.5)
    assert x.dtype == torch.float64 and x.flatten().tolist() == [0.5] * 6
    n = torch.zeros(shape, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        n.add_(torch.ones(shape))
    assert n._version == 0


def test_a_view_written_with_grad_rebases_its_base():
    leaf = torch.ones(4, requires_grad=True)
    x = leaf * 1
    v = x[::2]
    v.mul_(torch.tensor([2.0, 3.0]))
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert type(x.grad_fn).__name__ == "CopySlices" and x._version == 1
    x.sum().backward()
    assert leaf.grad.tolist() == [2.0, 1.0, 3.0, 1.0]


def test_one_element_tensors_given_to_in_place_ops():
    x = torch.ones(3)
    x.lerp_(torch.zeros(3), torch.tensor([0.25]))
    assert x.tolist() == [0.75, 0.75, 0.75]
    x.addcmul_(torch.ones(1), torch.ones(3), value=2)
    assert x.tolist() == [2.75, 2.75, 2.75] and x._version == 2
