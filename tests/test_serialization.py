"""refgrad's own file format, and what save and load leave behind when they fail."""

import copy
import io
import pickle
import zipfile

import numpy as np
import pytest

import refgrad
from refgrad import _archive
from refgrad._weights_only import get_safe_globals, safe_globals
from tests.devices import use


class Unsafe:
    pass


def test_the_archive_holds_a_format_line_a_pickle_and_one_entry_per_storage():
    base = refgrad.arange(6.0)
    buffer = io.BytesIO()
    refgrad.save({"base": base, "view": base[2:], "other": refgrad.ones(3)}, buffer)
    with zipfile.ZipFile(buffer) as archive:
        names = sorted(archive.namelist())
        assert names == ["refgrad/data.pkl", "refgrad/format", "refgrad/storages/0",
                         "refgrad/storages/1"]
        assert archive.read("refgrad/format") == _archive.FORMAT
        assert archive.read("refgrad/storages/0") == np.arange(6.0, dtype=np.float32).tobytes()
        assert all(i.compress_type == zipfile.ZIP_STORED for i in archive.infolist())


def test_a_failed_save_leaves_an_existing_file_and_a_stream_untouched(tmp_path):
    path = tmp_path / "x.pt"
    refgrad.save(refgrad.ones(2), path)
    before = path.read_bytes()
    with pytest.raises(AttributeError):
        refgrad.save([refgrad.ones(3), lambda: 2], path)
    assert path.read_bytes() == before
    stream = io.BytesIO()
    with pytest.raises(AttributeError):
        refgrad.save(lambda: 2, stream)
    assert stream.getvalue() == b""
    fresh = tmp_path / "fresh.pt"
    with pytest.raises(AttributeError):
        refgrad.save(lambda: 2, fresh)
    assert not fresh.exists()


def test_torchs_files_are_refused_with_a_message_naming_the_format(tmp_path):
    torch_like = io.BytesIO()
    with zipfile.ZipFile(torch_like, "w") as archive:
        archive.writestr("archive/data.pkl", pickle.dumps(1, protocol=2))
        archive.writestr("archive/version", "3\n")
    torch_like.seek(0)
    with pytest.raises(RuntimeError, match="not written by refgrad.save"):
        refgrad.load(torch_like)
    older = pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2)  # torch's older files begin so
    for weights_only in (True, False):
        with pytest.raises(pickle.UnpicklingError, match="torch.save cannot be loaded"):
            refgrad.load(io.BytesIO(older + b"more"), weights_only=weights_only)


def test_a_map_location_callable_sees_the_bytes_of_each_storage_once():
    seen = []

    def look(storage, location):
        seen.append((storage.dtype, storage.shape, location))

    base = refgrad.arange(3.0)
    buffer = io.BytesIO()
    refgrad.save([base, base[1:], base[2:]], buffer)
    buffer.seek(0)
    refgrad.load(buffer, map_location=look)
    assert seen == [(refgrad.uint8, (12,), "cpu")]


def test_safe_globals_put_the_list_back_after_an_error():
    assert Unsafe not in get_safe_globals()
    with pytest.raises(ValueError), safe_globals([Unsafe]):
        raise ValueError("inside")
    assert Unsafe not in get_safe_globals()


def test_a_failed_weights_only_load_leaves_the_stream_loadable():
    buffer = io.BytesIO()
    refgrad.save({"t": refgrad.ones(2), "u": Unsafe()}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError):
        refgrad.load(buffer)
    buffer.seek(0)
    assert type(refgrad.load(buffer, weights_only=False)["u"]) is Unsafe


def test_map_location_cuda_moves_each_storage_to_the_device_once(monkeypatch):
    counts = use("simulated", monkeypatch)
    x = refgrad.arange(4.0, requires_grad=True)
    buffer = io.BytesIO()
    refgrad.save([x, x.detach()[1:]], buffer)
    for where in ("cuda", refgrad.device("cuda", 0), {"cpu": "cuda:0"},
                  lambda storage, location: storage.cuda()):
        buffer.seek(0)
        before = counts["to_device"]
        whole, tail = refgrad.load(buffer, map_location=where)
        assert whole.device == refgrad.device("cuda", 0) and whole.requires_grad
        assert whole.cpu().tolist() == [0.0, 1.0, 2.0, 3.0]
        assert tail.device.type == "cuda" and tail.cpu().tolist() == [1.0, 2.0, 3.0]
        whole.detach().fill_(7.0)  # one memory on the device
        assert tail.cpu().tolist() == [7.0, 7.0, 7.0]
        asked = 1 if callable(where) else 0  # the callable's own storage.cuda()
        assert counts["to_device"] - before == 1 + asked


def test_device_tensors_keep_their_layout_through_copies_and_files(monkeypatch):
    use("simulated", monkeypatch)
    x = refgrad.arange(12.0).reshape(4, 3).cuda()
    for v in (x, x[:, 1], x.t(), x.reshape(-1)[5:]):
        buffer = io.BytesIO()
        refgrad.save(v, buffer)
        buffer.seek(0)
        for back in (copy.deepcopy(v), pickle.loads(pickle.dumps(v)), refgrad.load(buffer)):
            assert back.device.type == "cuda" and back.cpu().tolist() == v.cpu().tolist()
            assert back.stride() == v.stride()
    whole, tail = copy.deepcopy([x, x[1:]])
    whole.fill_(5.0)
    assert tail.cpu().tolist()[0] == [5.0, 5.0, 5.0]


def test_a_device_tensor_saves_its_values_and_its_location(monkeypatch):
    use("simulated", monkeypatch)
    x = refgrad.arange(3.0).cuda()
    buffer = io.BytesIO()
    refgrad.save(x, buffer)
    buffer.seek(0)
    back = refgrad.load(buffer)
    assert back.device.type == "cuda" and back.cpu().tolist() == [0.0, 1.0, 2.0]
    buffer.seek(0)
    assert refgrad.load(buffer, map_location="cpu").tolist() == [0.0, 1.0, 2.0]


def test_views_of_one_device_memory_are_saved_as_one_storage(monkeypatch):
    use("simulated", monkeypatch)
    x = refgrad.arange(6.0).cuda()
    buffer = io.BytesIO()
    refgrad.save([x, x[2:], x.reshape(2, 3).t()], buffer)
    buffer.seek(0)
    with zipfile.ZipFile(buffer) as archive:
        assert [n for n in archive.namelist() if n.startswith(_archive.STORAGES)] == [
            _archive.STORAGES + "0"]
    buffer.seek(0)
    whole, tail, turned = refgrad.load(buffer)
    whole.fill_(1.0)
    assert tail.cpu().tolist() == [1.0] * 4 and turned.stride() == (1, 3)
