"""Views that re-lay strides work on a device: the strided view is made on the device."""

import refgrad as torch
from tests.devices import use


def test_unsqueeze_of_a_transposed_device_tensor_keeps_every_stride(monkeypatch):
    use("simulated", monkeypatch)
    x = torch.rand(2, 1).to("cuda").t()
    y = x.unsqueeze(0)
    assert y.stride() == (1, 1, 1)
    assert y.cpu().tolist() == x.cpu().unsqueeze(0).tolist()
