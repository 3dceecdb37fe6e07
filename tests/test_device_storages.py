"""A device tensor's storage: its size and address on the device, its bytes copied to the host."""

import refgrad as torch
from tests.devices import use


def test_a_device_tensors_storage(monkeypatch):
    use("simulated", monkeypatch)
    x = torch.arange(6, dtype=torch.float32).to("cuda").reshape(2, 3)
    s = x.untyped_storage()
    assert s is x.t()[1:].untyped_storage()
    assert (s.nbytes(), s.device.type, s.is_cuda) == (24, "cuda", True)
    v = x[1]
    assert v.data_ptr() - s.data_ptr() == 12
    assert s[4:8].tolist() == [0, 0, 128, 63] and s[7] == 63
    assert s.tolist() == x.cpu().untyped_storage().tolist()
    assert s.cpu().device.type == "cpu" and s.cpu().tolist() == s.tolist()
