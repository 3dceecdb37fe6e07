"""torch.save refuses paths it cannot open and file objects it cannot write, before the
object is pickled, in torch's words."""

import io
import os

import pytest
import torch

from conformance._support import raises

IS_A_DIRECTORY = ("[enforce fail at inline_container.cc:747] . open file failed with "
                  "strerror: Is a directory")


def _unpicklable():
    return lambda: 2


@pytest.mark.parametrize("make", [lambda: torch.ones(2), _unpicklable])
def test_a_directory_or_an_empty_path_is_refused(tmp_path, make):
    with raises(RuntimeError, IS_A_DIRECTORY):
        torch.save(make(), str(tmp_path))
    with raises(RuntimeError, IS_A_DIRECTORY):
        torch.save(make(), tmp_path)
    with raises(RuntimeError, "[enforce fail at inline_container.cc:720] . invalid file name: "):
        torch.save(make(), "")


def test_a_path_under_a_file_has_no_parent_directory(tmp_path):
    (tmp_path / "file").write_bytes(b"")
    under = os.path.join(str(tmp_path), "file")
    with raises(RuntimeError, f"Parent directory {under} does not exist."):
        torch.save(torch.ones(2), os.path.join(under, "x.pt"))


@pytest.mark.parametrize("make", [lambda: torch.ones(2), _unpicklable])
def test_a_file_that_cannot_be_written_is_refused_first(tmp_path, make):
    with open(tmp_path / "closed.pt", "wb") as closed:
        pass
    with raises(ValueError, "write to closed file"):
        torch.save(make(), closed)
    memory = io.BytesIO()
    memory.close()
    with raises(ValueError, "I/O operation on closed file."):
        torch.save(make(), memory)
    with raises(TypeError, "string argument expected, got 'memoryview'"):
        torch.save(make(), io.StringIO())
    with open(tmp_path / "closed.pt", "rb") as for_reading, raises(io.UnsupportedOperation,
                                                                    "write"):
        torch.save(make(), for_reading)


def test_a_file_object_at_an_offset_still_round_trips():
    buffer = io.BytesIO(b"head")
    buffer.seek(4)
    torch.save(torch.arange(3.0), buffer)
    buffer.seek(4)
    assert torch.load(buffer).tolist() == [0.0, 1.0, 2.0]
