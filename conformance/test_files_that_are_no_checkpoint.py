"""torch.load of files that are no checkpoint: cut short, other zips, plain pickles, bytes
that are no pickle, and mmap of a file that is no archive."""

import io
import pickle
import zipfile

import pytest
import torch

from conformance._support import raises

UNREADABLE = (
    "PytorchStreamReader failed reading zip archive: {}. This is an internal miniz error. If "
    "you are seeing this error, there is a high likelihood that your checkpoint file is "
    "corrupted. This can happen if the checkpoint was not saved properly, was transferred "
    "incorrectly, or the file was modified after saving."
)
NO_VERSION = (
    'Expected hasRecord("version") to be true, but got false.  (Could this error message be '
    "improved?  If so, please report an enhancement request to PyTorch.)"
)
OPERAND = (
    "Weights only load failed. In PyTorch 2.6, we changed the default value of the "
    "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` "
    "with `weights_only` set to `False` will likely succeed, but it can result in arbitrary "
    "code execution. Do it only if you got the file from a trusted source.\nPlease file an "
    "issue with the following so that we can make `weights_only=True` compatible with your "
    "use case: WeightsUnpickler error: \n\nUnsupported operand {}\n\nCheck the documentation "
    "of torch.load to learn more about types accepted by default with weights_only "
    "https://pytorch.org/docs/stable/generated/torch.load.html."
)


def _checkpoint() -> bytes:
    buffer = io.BytesIO()
    x = torch.ones(2)
    torch.save([x, x], buffer)
    return buffer.getvalue()


def _zip(*names) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, "hi")
    buffer.seek(0)
    return buffer


@pytest.mark.parametrize("weights_only", [True, False])
def test_a_checkpoint_cut_short_is_refused_by_the_zip_reader(weights_only):
    data = _checkpoint()
    with raises(RuntimeError, UNREADABLE.format("failed finding central directory")):
        torch.load(io.BytesIO(data[:len(data) // 2]), weights_only=weights_only)
    with raises(RuntimeError, UNREADABLE.format("not a ZIP archive")):
        torch.load(io.BytesIO(data[:10]), weights_only=weights_only)


@pytest.mark.parametrize("weights_only", [True, False])
def test_zips_without_a_checkpoints_records_are_refused(weights_only):
    with raises(RuntimeError, "[enforce fail at inline_container.cc:180] . file in archive is "
                "not in a subdirectory: a.txt"):
        torch.load(_zip("a.txt", "d/b.txt"), weights_only=weights_only)
    for names in (["d/a.txt"], ["d/a.txt", "e/b.txt"]):
        with raises(RuntimeError, NO_VERSION):
            torch.load(_zip(*names), weights_only=weights_only)


@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("obj", [[1, 2], {"a": 1}, 5])
def test_a_plain_pickle_has_no_magic_number(weights_only, obj):
    with raises(RuntimeError, "Invalid magic number; corrupt file?"):
        torch.load(io.BytesIO(pickle.dumps(obj, protocol=2)), weights_only=weights_only)


def test_bytes_that_are_no_pickle_fail_as_their_loader_reads_them():
    with raises(pickle.UnpicklingError, "Memo value not found at index 101"):
        torch.load(io.BytesIO(b"hello world"), weights_only=False)
    with raises(KeyError, "101"):
        torch.load(io.BytesIO(b"hello world"))
    with raises(pickle.UnpicklingError, "invalid load key, '\\x00'."):
        torch.load(io.BytesIO(b"\x00\x01\x02"), weights_only=False)
    with raises(pickle.UnpicklingError, OPERAND.format(0)):
        torch.load(io.BytesIO(b"\x00\x01\x02"))


def test_an_empty_zip_is_no_archive_to_the_loader():
    with raises(pickle.UnpicklingError, OPERAND.format(80)):
        torch.load(_zip())


@pytest.mark.parametrize("as_text", [True, False])
def test_mmap_of_a_file_that_is_no_archive_is_refused(tmp_path, as_text):
    path = tmp_path / "plain.pt"
    path.write_bytes(pickle.dumps([1, 2], protocol=2))
    shown = f"{path}, " if as_text else ""
    with raises(RuntimeError, "mmap can only be used with files saved with "
                f"`torch.save({shown}_use_new_zipfile_serialization=True), please torch.save "
                "your checkpoint with this option in order to use mmap."):
        torch.load(str(path) if as_text else path, mmap=True)
