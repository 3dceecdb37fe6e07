"""Black-box tests: Module.to, double(), float() and half() convert parameters in place,
keeping each Parameter and its .grad, but replace buffers with converted tensors. The same
assertions run on torch.
"""

import warnings

import torch
from torch import nn


class _Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.zeros(2))
        self.register_buffer("count", torch.zeros(2, dtype=torch.long))
        self.w = nn.Parameter(torch.ones(2))


def test_a_held_buffer_keeps_its_dtype():
    m = _Holder()
    buffer, count, w = m.mean, m.count, m.w
    m.to(torch.float64)
    assert m.mean is not buffer and buffer.dtype == torch.float32
    assert m.mean.dtype == torch.float64 and m.get_buffer("mean") is m.mean
    assert m.count is count and m.w is w and w.dtype == torch.float64
    converted = m.mean
    m.double()  # nothing to convert: the buffer stays
    assert m.mean is converted
    m.half()
    assert converted.dtype == torch.float64 and m.mean.dtype == torch.float16
    assert m.state_dict()["mean"].dtype == torch.float16


def test_a_parameters_grad_stays_the_same_tensor():
    m = nn.Linear(2, 2)
    m(torch.ones(2)).sum().backward()
    grad = m.weight.grad
    m.double()
    assert m.weight.grad is grad and grad.dtype == torch.float64


def test_a_buffer_in_a_graph_is_converted_through_the_graph():
    m = _Holder()
    x = torch.ones(2, requires_grad=True)
    m.mean = m.mean * 0.9 + x
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reading the buffer's .grad would warn
        m.to(torch.float64)
    assert type(m.mean.grad_fn).__name__ == "ToCopyBackward0"
    assert m.mean.dtype == torch.float64
    m.mean.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_a_buffer_requiring_grad_is_converted_with_grad_recorded_or_not():
    m = nn.Module()
    m.register_buffer("x", torch.ones(2, requires_grad=True))
    m.double()
    assert m.x.grad_fn.name() == "ToCopyBackward0" and not m.x.is_leaf
    m.register_buffer("y", torch.ones(2, requires_grad=True))
    with torch.no_grad():
        m.half()
    assert m.y.grad_fn is None and not m.y.requires_grad and m.y.dtype == torch.float16


def test_a_memory_format_replaces_only_buffers_it_lays_out_anew():
    m = nn.Module()
    m.register_buffer("x", torch.ones(1, 2, 2, 2))
    m.register_buffer("flat", torch.ones(2))
    x, flat = m.x, m.flat
    m.to(memory_format=torch.channels_last)
    assert m.x is not x and m.x.stride() == (8, 1, 4, 2) and x.stride() == (8, 4, 2, 1)
    assert m.flat is flat
    laid = m.x
    m.to(memory_format=torch.channels_last)
    assert m.x is laid
