"""Saves written one after another into one stream load back in the order they were
written, each from where it begins."""

import io

import torch


def test_each_save_in_a_stream_loads_from_where_it_begins():
    saved = [torch.ones(2), torch.full((2, 2), 7.0)]
    buffer = io.BytesIO(b"head")
    buffer.seek(4)
    starts = []
    for obj in saved:
        starts.append(buffer.tell())
        torch.save(obj, buffer)
    for start, obj in zip(starts, saved):
        buffer.seek(start)
        assert torch.load(buffer).tolist() == obj.tolist()
        buffer.seek(start)
        assert torch.load(buffer, weights_only=False).tolist() == obj.tolist()


def test_a_file_of_two_saves_loads_each_in_turn(tmp_path):
    path = tmp_path / "two.pt"
    with open(path, "wb") as f:
        torch.save(torch.arange(3.0), f)
        second = f.tell()
        torch.save(torch.arange(5.0), f)
    assert torch.load(path).tolist() == [0.0, 1.0, 2.0]
    assert torch.load(path, mmap=True).tolist() == [0.0, 1.0, 2.0]
    with open(path, "rb") as f:
        f.seek(second)
        assert torch.load(f).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
