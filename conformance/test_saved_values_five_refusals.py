"""The slow convolutions called by name refuse in their kernels' own words and order: the
kernel size, the stride, the weight's dimensions, the bias, the input's dimensions and
channels, each family its own way."""

import pytest
import torch

_NN = torch._C._nn


def L(*shape):
    return torch.rand(*shape, dtype=torch.float64)


x2, w2, wt2 = L(1, 2, 5, 5), L(3, 2, 2, 2), L(2, 3, 2, 2)
x3, w3, wt3 = L(1, 2, 4, 4, 4), L(3, 2, 2, 2, 2), L(2, 3, 2, 2, 2)

CASES = {  # what is wrong: (the call, torch's message)
    "3d input4d": (lambda: _NN.slow_conv3d(x2, w3, 2),
        "non-empty 5D input tensor expected but got: [1, 2, 5, 5]"),
    "3d weight4d": (lambda: _NN.slow_conv3d(x3, w2, 2),
        "non-empty 2D or 5D weight tensor expected, but got: [3, 2, 2, 2]"),
    "3d chan": (lambda: _NN.slow_conv3d(x3, L(3, 3, 2, 2, 2), 2),
        "none zero group size expected"),
    "3d ks len": (lambda: _NN.slow_conv3d(x3, w3, [2, 2, 2, 2]),
        "It is expected kernel_size equals to 3, but got size 4"),
    "3d stride0": (lambda: _NN.slow_conv3d(x3, w3, 2, None, 0),
        "stride should be greater than zero, but got: 0 x 0 x 0 (TxHxW)"),
    "3d bias": (lambda: _NN.slow_conv3d(x3, w3, 2, L(4)),
        "Expected a tensor of dimension 1 and tensor.size[0] == 3 but got: dimension 1 and "
        "tensor.size[0] = 4"),
    "3d unbatched": (lambda: _NN.slow_conv3d(x3[0], w3, 2),
        "non-empty 5D input tensor expected but got: [2, 4, 4, 4]"),
    "3d empty w": (lambda: _NN.slow_conv3d(x3, w3[:0], 2),
        "non-empty 2D or 5D weight tensor expected, but got: [0, 2, 2, 2, 2]"),
    "d2 input5d": (lambda: _NN.slow_conv_dilated2d(x3, w2, 2),
        "input must be 4D or 5D tensor but got 5D tensor"),
    "d2 weight": (lambda: _NN.slow_conv_dilated2d(x2, w3, 2),
        "weight must be 4D tensor but got 5D tensor dim=2"),
    "d2 chan": (lambda: _NN.slow_conv_dilated2d(x2, L(3, 3, 2, 2), 2),
        "Need input of dimension 4 and input.size[1] == 3 but got input to be of shape [1, "
        "2, 5, 5]"),
    "d2 ks": (lambda: _NN.slow_conv_dilated2d(x2, w2, 3),
        "weight[2:] shape [2, 2] must be equal to kernel_size [3, 3]"),
    "d2 ks len": (lambda: _NN.slow_conv_dilated2d(x2, w2, [2, 2, 2]),
        "kernel sizes length should be 2, but got 3"),
    "d2 stride0": (lambda: _NN.slow_conv_dilated2d(x2, w2, 2, None, 0),
        "stride should be greater than zero, but got [0, 0]"),
    "d2 bias": (lambda: _NN.slow_conv_dilated2d(x2, w2, 2, L(4)),
        "Need bias of dimension 1 and bias.size[0] == 3 but got input to be of shape [4]"),
    "d3 ks": (lambda: _NN.slow_conv_dilated3d(x3, w3, 3),
        "weight[2:] shape [2, 2, 2] must be equal to kernel_size [3, 3, 3]"),
    "d3 chan": (lambda: _NN.slow_conv_dilated3d(x3, L(3, 3, 2, 2, 2), 2),
        "Need input of dimension 5 and input.size[1] == 3 but got input to be of shape [1, "
        "2, 4, 4, 4]"),
    "d3 input": (lambda: _NN.slow_conv_dilated3d(x2, w3, 2),
        "Need input of dimension 4 and input.size[0] == 2 but got input to be of shape [1, "
        "2, 5, 5]"),
    "d3 stride0": (lambda: _NN.slow_conv_dilated3d(x3, w3, 2, None, 0),
        "stride should be greater than zero, but got [0, 0, 0]"),
    "t2 input5d": (lambda: _NN.slow_conv_transpose2d(x3, wt2, 2),
        "non-empty 3D or 4D input tensor expected but got a tensor with size [1, 2, 4, 4, 4]"),
    "t2 weight": (lambda: _NN.slow_conv_transpose2d(x2, wt3, 2),
        "non-empty 2D or 4D weight tensor expected, but got: [2, 3, 2, 2, 2]"),
    "t2 chan": (lambda: _NN.slow_conv_transpose2d(x2, L(3, 3, 2, 2), 2),
        "Expected a tensor of dimension 4 and tensor.size[1] == 3 but got: dimension 4 and "
        "tensor.size[1] = 2"),
    "t2 stride0": (lambda: _NN.slow_conv_transpose2d(x2, wt2, 2, None, 0),
        "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    "t2 bias": (lambda: _NN.slow_conv_transpose2d(x2, wt2, 2, L(4)),
        "Expected a tensor of dimension 1 and tensor.size[0] == 3 but got: dimension 1 and "
        "tensor.size[0] = 4"),
    "t3 chan": (lambda: _NN.slow_conv_transpose3d(x3, L(3, 3, 2, 2, 2), 2),
        "Expected a tensor of dimension 5 and tensor.size[1] == 3 but got: dimension 5 and "
        "tensor.size[1] = 2"),
    "t3 input": (lambda: _NN.slow_conv_transpose3d(x2, wt3, 2),
        "Expected a tensor of dimension 4 and tensor.size[0] == 2 but got: dimension 4 and "
        "tensor.size[0] = 1"),
    "t3 stride0": (lambda: _NN.slow_conv_transpose3d(x3, wt3, 2, None, 0),
        "stride should be greater than zero, but got stride_depth: 0 stride_height: 0 "
        "stride_width: 0"),
    "t3 bias": (lambda: _NN.slow_conv_transpose3d(x3, wt3, 2, L(4)),
        "Expected a tensor of dimension 1 and tensor.size[0] == 3 but got: dimension 1 and "
        "tensor.size[0] = 4"),
    "3d ks+chan": (lambda: _NN.slow_conv3d(x3, L(3, 3, 2, 2, 2), [2, 2, 2, 2]),
        "It is expected kernel_size equals to 3, but got size 4"),
    "3d stride+weight": (lambda: _NN.slow_conv3d(x3, L(3, 2, 2, 2), 2, None, 0),
        "stride should be greater than zero, but got: 0 x 0 x 0 (TxHxW)"),
    "3d chan+stride": (lambda: _NN.slow_conv3d(x3, L(3, 3, 2, 2, 2), 2, None, 0),
        "stride should be greater than zero, but got: 0 x 0 x 0 (TxHxW)"),
    "3d bias+input": (lambda: _NN.slow_conv3d(x2, w3, 2, L(4)),
        "Expected a tensor of dimension 1 and tensor.size[0] == 3 but got: dimension 1 and "
        "tensor.size[0] = 4"),
    "3d weight+bias": (lambda: _NN.slow_conv3d(x3, L(3, 2, 2, 2), 2, L(4)),
        "non-empty 2D or 5D weight tensor expected, but got: [3, 2, 2, 2]"),
    "d2 stride+ks": (lambda: _NN.slow_conv_dilated2d(x2, w2, 3, None, 0),
        "stride should be greater than zero, but got [0, 0]"),
    "d2 ks+bias": (lambda: _NN.slow_conv_dilated2d(x2, w2, 3, L(4)),
        "weight[2:] shape [2, 2] must be equal to kernel_size [3, 3]"),
    "d2 bias+input": (lambda: _NN.slow_conv_dilated2d(x3, w2, 2, L(4)),
        "input must be 4D or 5D tensor but got 5D tensor"),
    "d2 bias+chan": (lambda: _NN.slow_conv_dilated2d(x2, L(3, 3, 2, 2), 2, L(4)),
        "Need input of dimension 4 and input.size[1] == 3 but got input to be of shape [1, "
        "2, 5, 5]"),
    "t2 stride+weight": (lambda: _NN.slow_conv_transpose2d(x2, wt3, 2, None, 0),
        "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    "t2 weight+bias": (lambda: _NN.slow_conv_transpose2d(x2, wt3, 2, L(4)),
        "non-empty 2D or 4D weight tensor expected, but got: [2, 3, 2, 2, 2]"),
    "t2 bias+input": (lambda: _NN.slow_conv_transpose2d(x3, wt2, 2, L(4)),
        "Expected a tensor of dimension 1 and tensor.size[0] == 3 but got: dimension 1 and "
        "tensor.size[0] = 4"),
    "t2 input+chan": (lambda: _NN.slow_conv_transpose2d(x2, L(3, 3, 2, 2), 2, None, 1, 0, 1),
        "output padding must be smaller than either stride or dilation, but got "
        "output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 "
        "dilation_height: 1 dilation_width: 1"),
    "t2 ks0": (lambda: _NN.slow_conv_transpose2d(x2, wt2, 0),
        "kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 0"),
    "d2 ks0": (lambda: _NN.slow_conv_dilated2d(x2, w2, 0),
        "kernel size should be greater than zero, but got [0, 0]"),
    "3d ks0": (lambda: _NN.slow_conv3d(x3, w3, 0),
        "kernel size should be greater than zero, but got: 0 x 0 x 0 (TxHxW)"),
    "t3 weight4d": (lambda: _NN.slow_conv_transpose3d(x3, wt2, 2),
        "non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
        "kernel_width) tensor expected for weight, but got: [2, 3, 2, 2]"),
    "t3 weight empty": (lambda: _NN.slow_conv_transpose3d(x3, wt3[:0], 2),
        "non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
        "kernel_width) tensor expected for weight, but got: [0, 3, 2, 2, 2]"),
    "t3 input6d": (lambda: _NN.slow_conv_transpose3d(L(1, 1, 2, 4, 4, 4), wt3, 2),
        "non-empty 4D or 5D (batch mode) tensor expected for input, but got: [1, 1, 2, 4, 4, "
        "4]"),
    "d3 weight4d": (lambda: _NN.slow_conv_dilated3d(x3, w2, 2),
        "weight must be 5D tensor but got 4D tensor dim=3"),
    "d3 input6d": (lambda: _NN.slow_conv_dilated3d(L(1, 1, 2, 4, 4, 4), w3, 2),
        "input must be 4D or 5D tensor but got 6D tensor"),
    "d3 bias": (lambda: _NN.slow_conv_dilated3d(x3, w3, 2, L(4)),
        "Need bias of dimension 1 and bias.size[0] == 3 but got input to be of shape [4]"),
    "d3 ks len": (lambda: _NN.slow_conv_dilated3d(x3, w3, [2, 2]),
        "kernel sizes length should be 3, but got 2"),
    "t2 empty w": (lambda: _NN.slow_conv_transpose2d(x2, wt2[:0], 2),
        "non-empty 2D or 4D weight tensor expected, but got: [0, 3, 2, 2]"),
    "3d weight2d": (lambda: _NN.slow_conv3d(x3, L(3, 16), 2),
        "none zero group size expected"),
    "t2 unb chan": (lambda: _NN.slow_conv_transpose2d(L(3, 5, 5), wt2, 2),
        "Expected a tensor of dimension 3 and tensor.size[0] == 2 but got: dimension 3 and "
        "tensor.size[0] = 3"),
    "d2 unb chan": (lambda: _NN.slow_conv_dilated2d(L(3, 5, 5), w2, 2),
        "Need input of dimension 3 and input.size[0] == 2 but got input to be of shape [3, "
        "5, 5]"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_slow_convolution_refuses_in_its_kernels_words(case):
    call, message = CASES[case]
    with pytest.raises(RuntimeError) as caught:
        call()
    assert str(caught.value) == message
