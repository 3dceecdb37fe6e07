"""torch.serialization's options: skip_data, the mmap flags, CRC and byte-order settings,
clear_safe_globals and get_unsafe_globals_in_checkpoint. The same assertions run on torch."""

import io
import mmap
import pickle
import threading
import warnings

import pytest
import torch
from torch import serialization


class _Settings:
    pass


def _helper():
    pass


@pytest.fixture
def path(tmp_path):
    where = tmp_path / "weights.pt"
    torch.save({"w": torch.arange(3.0), "v": torch.arange(6.0).view(2, 3)[:, 1]}, where)
    return where


def test_loading_inside_skip_data_reads_no_bytes(path):
    with serialization.skip_data():
        skipped = torch.load(path)
        with serialization.skip_data():
            pass
        again = torch.load(path)
    for loaded in (skipped, again):
        assert (loaded["w"].shape, loaded["v"].shape, loaded["v"].stride()) == ((3,), (2,), (3,))
    assert torch.equal(torch.load(path)["v"], torch.tensor([1.0, 4.0]))


def test_saving_inside_skip_data_leaves_the_bytes_empty(path):
    with serialization.skip_data():
        torch.save({"w": torch.arange(3.0)}, path)
    assert torch.equal(torch.load(path)["w"], torch.zeros(3))


def test_skip_data_is_per_thread(path):
    seen = []
    with serialization.skip_data():
        worker = threading.Thread(target=lambda: seen.append(torch.load(path)["w"]))
        worker.start()
        worker.join()
    assert torch.equal(seen[0], torch.arange(3.0))
    block = serialization.skip_data()
    assert block.__enter__() is None
    block.__exit__(None, None, None)
    assert serialization.skip_data(True).materialize_fake_tensors is True


def test_shared_maps_write_through_to_the_file(path):
    assert serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
    with serialization.set_default_mmap_options(mmap.MAP_SHARED):
        assert serialization.get_default_mmap_options() == mmap.MAP_SHARED
        loaded = torch.load(path, mmap=True)
        loaded["w"].add_(1)
        del loaded
    assert serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
    assert torch.equal(torch.load(path)["w"], torch.tensor([1.0, 2.0, 3.0]))
    private = torch.load(path, mmap=True)
    private["w"].add_(1)
    del private
    assert torch.equal(torch.load(path)["w"], torch.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="^Invalid argument in function set_default_mmap_options, "
                       "expected mmap.MAP_PRIVATE or mmap.MAP_SHARED, but got 5$"):
        serialization.set_default_mmap_options(5)


def test_crc_and_byte_order_settings():
    assert serialization.get_crc32_options() is True
    serialization.set_crc32_options(False)
    try:
        assert serialization.get_crc32_options() is False
    finally:
        serialization.set_crc32_options(True)
    assert serialization.get_default_load_endianness() is None
    assert [e.value for e in serialization.LoadEndianness] == [1, 2, 3]
    serialization.set_default_load_endianness(serialization.LoadEndianness.BIG)
    try:
        assert serialization.get_default_load_endianness() is serialization.LoadEndianness.BIG
    finally:
        serialization.set_default_load_endianness(None)
    with pytest.raises(TypeError, match="^Invalid argument type in function "
                       "set_default_load_endianness$"):
        serialization.set_default_load_endianness("big")
    assert issubclass(serialization.SourceChangeWarning, Warning)


def test_the_globals_a_weights_only_load_would_refuse():
    saved = [_Settings(), _helper, frozenset([1]), {1, 2}, torch.ones(1), torch.float64,
             torch.nn.Parameter(torch.ones(1)), range(3), slice(1), torch.Size([2])]
    buffer = io.BytesIO()
    torch.save(saved, buffer)
    buffer.seek(0)
    unsafe = serialization.get_unsafe_globals_in_checkpoint(buffer)
    assert sorted(unsafe) == sorted([f"{__name__}._Settings", f"{__name__}._helper",
                                     "builtins.frozenset", "builtins.range", "builtins.slice"])
    serialization.add_safe_globals([_Settings])
    try:
        buffer.seek(0)
        assert f"{__name__}._Settings" not in serialization.get_unsafe_globals_in_checkpoint(buffer)
    finally:
        serialization.clear_safe_globals()
    assert serialization.get_safe_globals() == []


def test_unsafe_globals_refusals(path):
    assert serialization.get_unsafe_globals_in_checkpoint(path) == []
    plain = io.BytesIO()
    pickle.dump([1], plain)
    plain.seek(0)
    with pytest.raises(ValueError, match="^Expected input to be a checkpoint returned by "
                       "torch.save$"):
        serialization.get_unsafe_globals_in_checkpoint(plain)
    newer = io.BytesIO()
    torch.save([1], newer, pickle_protocol=4)
    newer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="^Unsupported operand 149$"):
        serialization.get_unsafe_globals_in_checkpoint(newer)
    newer.seek(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pickle.UnpicklingError, match="Unsupported operand 149"):
            torch.load(newer)
