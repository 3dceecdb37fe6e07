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


def test_a_device_tensor_set_to_a_device_storage(monkeypatch):
    counts = use("simulated", monkeypatch)
    x = torch.arange(6, dtype=torch.float32).to("cuda")
    s = x.untyped_storage()
    before = dict(counts) if isinstance(counts, dict) else None
    y = torch.empty(0, device="cuda").set_(s, 1, (2,), (2,))
    assert y.device.type == "cuda" and y.stride() == (2,)
    if before is not None:
        assert counts["to_host"] == before["to_host"]  # no copy through the host
    assert y.cpu().tolist() == [1.0, 3.0]


def test_writes_into_a_device_storage(monkeypatch):
    use("simulated", monkeypatch)
    x = torch.arange(4, dtype=torch.float32).to("cuda")
    s = x.untyped_storage()
    s[0:4] = 0
    s[3] = 64
    assert x.cpu().tolist()[0] == 2.0
    s.copy_(torch.ones(4).untyped_storage())  # a host source is carried to the device
    assert x.cpu().tolist() == [1.0] * 4
    assert s.fill_(0) is s and x.cpu().tolist() == [0.0] * 4
    assert s.get_device() == 0 and s.float().device.type == "cuda"


def test_resizing_a_device_storage(monkeypatch):
    use("simulated", monkeypatch)
    x = torch.arange(4, dtype=torch.float32).to("cuda")
    view = x[1:]
    s = x.untyped_storage()
    s.resize_(32)  # the old bytes are kept, and the tensors move with them
    assert s.nbytes() == 32 and s.device.type == "cuda" and x.untyped_storage() is s
    view[0] = 7.0
    assert x.cpu().tolist() == [0.0, 7.0, 2.0, 3.0]
    assert x.data_ptr() == s.data_ptr() and view.data_ptr() - s.data_ptr() == 4
    s.resize_(0)
    assert s.nbytes() == 0 and x.untyped_storage() is s and x.data_ptr() == 0


def test_moving_sharing_and_pickling_a_device_storage(monkeypatch):
    import pickle
    import warnings

    use("simulated", monkeypatch)
    host = torch.tensor([1, 2, 3], dtype=torch.uint8).untyped_storage()
    s = host.to(device="cuda")
    assert s.device.type == "cuda" and s.tolist() == [1, 2, 3] and s.to(device="cuda") is s
    assert s.to(device="cpu").device.type == "cpu" and s.to(device="cpu").tolist() == [1, 2, 3]
    assert s.is_shared() and not host.is_shared() and not s.is_pinned()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        typed = torch.TypedStorage(wrap_storage=s, dtype=torch.uint8)
        back = pickle.loads(pickle.dumps(typed))
        moved = typed.to(device="cpu")
    assert back.device.type == "cuda" and back.tolist() == [1, 2, 3]
    assert moved.device.type == "cpu" and moved.tolist() == [1, 2, 3]


def test_a_view_past_a_shrunk_device_storage_is_refused(monkeypatch):
    import pytest

    use("simulated", monkeypatch)
    x = torch.arange(6, dtype=torch.float32).to("cuda")
    s = x.untyped_storage()  # held: a device's smaller size lasts as long as its storage
    s.resize_(8)
    assert x[:2].cpu().tolist() == [0.0, 1.0]
    with pytest.raises(RuntimeError, match="requiring a storage size of 12 are out of bounds"):
        x[1:3]
