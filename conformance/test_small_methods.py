"""Black-box tests: the dtype and size questions tensors answer, split_with_sizes, put and
put_, and torch._softmax_backward_data. The same assertions run on torch.
"""

import torch

from conformance._support import raises


def test_the_dtype_and_size_questions():
    x = torch.ones(3)
    assert not x.is_complex() and not torch.is_complex(x)
    assert x.is_signed() and torch.is_signed(torch.tensor([1], dtype=torch.int8))
    assert not torch.tensor([1], dtype=torch.uint8).is_signed()
    assert not torch.tensor([True]).is_signed()
    assert x.is_cpu and x.itemsize == 4 and x.nbytes == 12
    assert torch.ones(3, dtype=torch.float64).nbytes == 24 and x[:2].nbytes == 8
    assert x.expand(2, 3).nbytes == 24
    assert torch.tensor([1], dtype=torch.int16).itemsize == 2
    real = torch.ones(2, requires_grad=True).isreal()
    assert real.tolist() == [True, True] and real.dtype == torch.bool
    assert torch.isreal(torch.ones(2, dtype=torch.int64)).tolist() == [True, True]
    assert x.is_same_size(torch.zeros(3)) and not torch.is_same_size(x, torch.ones(1))
    with raises(TypeError, "is_same_size(): argument 'other' (position 1) must be Tensor, "
                           "not int"):
        x.is_same_size(1)


def test_split_with_sizes_as_a_method():
    first, second = torch.arange(6.0).reshape(2, 3).split_with_sizes([1, 2], 1)
    assert first.tolist() == [[0.0], [3.0]] and second.tolist() == [[1.0, 2.0], [4.0, 5.0]]


def test_put_writes_flat_positions_of_a_copy_and_its_gradient_flows():
    x = torch.zeros(3, requires_grad=True)
    source = torch.tensor([1.0, 2.0], requires_grad=True)
    put = torch.put(x, torch.tensor([0, -1]), source)
    assert put.tolist() == [1.0, 0.0, 2.0] and put.grad_fn.name() == "PutBackward0"
    assert x.tolist() == [0.0, 0.0, 0.0]
    (put * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 0.0] and source.grad.tolist() == [1.0, 3.0]
    summed = torch.zeros(2, 2).put(torch.tensor([[0, 3]]), torch.tensor([1.0, 2.0]),
                                   accumulate=True)
    assert summed.tolist() == [[1.0, 0.0], [0.0, 2.0]]
    assert torch.zeros(3).put(torch.tensor([0, 0]), torch.tensor([1.0, 2.0]), True).tolist() == [
        3.0, 0.0, 0.0]


def test_put_in_place():
    y = torch.zeros(3, requires_grad=True) * 1
    version = y._version
    assert y.put_(torch.tensor([0, 0]), torch.tensor([1.0, 2.0]), accumulate=True) is y
    assert y.tolist() == [3.0, 0.0, 0.0] and y.grad_fn.name() == "PutBackward0"
    assert y._version == version + 1
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        torch.zeros(3, requires_grad=True).put_(torch.tensor([0]), torch.tensor([1.0]))


def test_put_refuses_what_torch_refuses():
    with raises(RuntimeError, "put_(): Expected a long tensor for index, but got Float"):
        torch.zeros(3).put_(torch.tensor([0.0]), torch.tensor([1.0]))
    with raises(RuntimeError, "put_(): self and source expected to have the same dtype, but got "
                              "self.dtype = Float and source.dtype = Long"):
        torch.zeros(3).put(torch.tensor([0]), torch.tensor([1]))
    with raises(IndexError, "put_(): Expected source and index to have the same number of "
                            "elements, but got source.numel() = 1, index.numel() = 2"):
        torch.zeros(3).put_(torch.tensor([0, 1]), torch.tensor([1.0]))
    with raises(IndexError, "out of range: tried to access index 5 on a tensor of 3 elements."):
        torch.zeros(3).put_(torch.tensor([5]), torch.tensor([1.0]))
    with raises(IndexError, "put_(): Tried to put elements into an empty tensor"):
        torch.zeros(0).put_(torch.tensor([0]), torch.tensor([1.0]))
    with raises(TypeError, "put(): argument 'index' (position 2) must be Tensor, not int"):
        torch.put(torch.zeros(3), 1, 2)


def test_the_softmax_backward_functions():
    logits = torch.tensor([[1.0, 2.0, 4.0]], requires_grad=True)
    grad = torch.tensor([[1.0, 2.0, 3.0]])
    for forward, backward, node in (
            (torch.softmax, torch._softmax_backward_data, "SoftmaxBackwardDataBackward0"),
            (torch.log_softmax, torch._log_softmax_backward_data,
             "LogSoftmaxBackwardDataBackward0")):
        output = forward(logits, 1)
        expected, = torch.autograd.grad(output, logits, grad, retain_graph=True)
        by_hand = backward(grad, output, 1, torch.float32)
        assert torch.allclose(by_hand, expected) and by_hand.grad_fn.name() == node
    with raises(TypeError, '_softmax_backward_data() missing 1 required positional arguments: '
                           '"input_dtype"'):
        torch._softmax_backward_data(grad, grad, 1)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            "got 5)"):
        torch._softmax_backward_data(grad, grad, 5, torch.float32)
