"""What torch.save asks of its pickle_module, and the keywords the weights-only loader
takes, on torch's API."""

import io
import pickle

import pytest
import torch


@pytest.mark.parametrize(("module", "new_format", "message"), [
    (None, True, "'NoneType' object has no attribute 'Pickler'"),
    (None, False, "'NoneType' object has no attribute 'dump'"),
    (5, True, "'int' object has no attribute '__name__'"),
])
def test_save_refuses_what_is_not_a_pickle_module(module, new_format, message):
    with pytest.raises(AttributeError) as caught:
        torch.save(torch.ones(2), io.BytesIO(), module,
                   _use_new_zipfile_serialization=new_format)
    assert str(caught.value) == message


def test_the_module_is_asked_its_name_before_the_file_is_checked():
    with pytest.raises(AttributeError, match="^'int' object has no attribute '__name__'$"):
        torch.save(torch.ones(2), 3, 5)
    with pytest.raises(AttributeError, match="^expected 'f' to be string"):
        torch.save(torch.ones(2), 3, None)  # None has no name to ask


def test_a_missing_directory_is_refused_before_the_pickler_is_asked_for(tmp_path):
    with pytest.raises(RuntimeError, match="does not exist"):
        torch.save(torch.ones(2), str(tmp_path / "none" / "x.pt"), None)


def test_save_with_a_pickle_module_and_a_protocol_of_none_works():
    buffer = io.BytesIO()
    torch.save(torch.arange(3.0), buffer, pickle, None)
    buffer.seek(0)
    assert torch.equal(torch.load(buffer, weights_only=False), torch.arange(3.0))


def saved() -> bytes:
    buffer = io.BytesIO()
    torch.save(torch.ones(2), buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("key", ["zz", "errors", "fix_imports"])
def test_the_weights_only_loader_takes_encoding_alone(key):
    with pytest.raises(TypeError) as caught, pytest.warns(UserWarning, match="pickle_load_args"):
        torch.load(io.BytesIO(saved()), **{key: 1})
    assert str(caught.value) == f"Unpickler.__init__() got an unexpected keyword argument '{key}'"
    with pytest.warns(UserWarning, match="pickle_load_args only works"):
        loaded = torch.load(io.BytesIO(saved()), encoding="latin1")
    assert torch.equal(loaded, torch.ones(2))


def test_the_full_loader_refuses_in_pickle_s_words():
    with pytest.raises(TypeError) as caught:
        torch.load(io.BytesIO(saved()), weights_only=False, zz=1)
    assert str(caught.value) == "'zz' is an invalid keyword argument for Unpickler()"


@pytest.mark.parametrize("contents", [b"", b"garbage"])
def test_a_file_that_is_no_archive_is_refused_for_its_keywords_first(contents):
    with pytest.raises(TypeError) as caught, pytest.warns(UserWarning, match="pickle_load_args"):
        torch.load(io.BytesIO(contents), errors="strict")
    assert str(caught.value) == "load() got an unexpected keyword argument 'errors'"
    with pytest.raises(TypeError) as caught:
        torch.load(io.BytesIO(contents), weights_only=False, encoding="latin1", zz=2)
    assert str(caught.value) == "'zz' is an invalid keyword argument for load()"


def test_an_empty_file_runs_out_of_input_in_the_full_loader_alone():
    with pytest.raises(EOFError) as caught:
        torch.load(io.BytesIO(b""))
    assert str(caught.value) == ""
    with pytest.raises(EOFError, match="^Ran out of input$"):
        torch.load(io.BytesIO(b""), weights_only=False, errors="strict")
