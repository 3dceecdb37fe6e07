"""torch.save and torch.load: round trips, shared memory, weights_only and the errors."""

import collections
import io
import os
import pickle
import threading
import warnings

import pytest
import torch

from conformance._support import raises

ADVICE = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, "
    "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In "
    "PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
    "check the recommended steps in the following error message.\n\tWeightsUnpickler error: "
    "Unsupported global: GLOBAL {0} was not an allowed global by default. Please use "
    "`torch.serialization.add_safe_globals([{0}])` or the "
    "`torch.serialization.safe_globals([{0}])` context manager to allowlist this global if "
    "you trust this class/function.\n\nCheck the documentation of torch.load to learn more "
    "about types accepted by default with weights_only "
    "https://pytorch.org/docs/stable/generated/torch.load.html."
)
NO_CUDA = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
    "False. If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU."
)


class Settings:
    def __init__(self):
        self.rate = 0.5


def trip(obj, **load_args):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer, **load_args)


def saved_bytes(obj) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


def test_a_path_and_a_file_object_both_round_trip(tmp_path):
    x = torch.arange(6.0).reshape(2, 3)
    path = tmp_path / "x.pt"
    torch.save(x, path)
    assert torch.equal(torch.load(path), x)
    torch.save(x, str(path))
    assert torch.equal(torch.load(str(path)), x)
    with open(path, "wb") as f:
        torch.save(x * 2, f)
    with open(path, "rb") as f:
        assert torch.load(f).tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]


def test_values_dtype_layout_and_requires_grad_come_back():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    (x * 3).sum().backward()
    y = (x * 2).t()
    ints = torch.tensor([[1, -2], [3, 4]], dtype=torch.int8)
    back_x, back_y, back_ints, half = trip([x, y, ints, torch.tensor([-0.0, float("nan")]).half()])
    assert back_x.is_leaf and back_x.requires_grad and back_x.grad is None
    assert back_y.is_leaf and back_y.requires_grad and back_y.grad_fn is None
    assert back_y.shape == (3, 2) and back_y.stride() == (1, 3) and not back_y.is_contiguous()
    assert back_y.tolist() == y.tolist()
    assert back_ints.dtype == torch.int8 and back_ints.tolist() == [[1, -2], [3, 4]]
    assert half.dtype == torch.float16 and str(half[0].item()) == "-0.0" and half[1].isnan()
    assert back_x._version == 1 and not trip(torch.ones(2, requires_grad=True).long()).requires_grad


def test_containers_numbers_and_torch_objects_keep_their_types():
    weight = torch.nn.Parameter(torch.ones(2))
    frozen = torch.nn.Parameter(torch.zeros(1), requires_grad=False)
    obj = {
        "w": weight, "frozen": frozen, "size": torch.Size([2, 3]), "dtype": torch.float16,
        "device": torch.device("cpu"), "ordered": collections.OrderedDict(b=1, a=2),
        "items": [1, 2.5, "s", None, True, (3, 4)], "big": 2**100, "bytes": b"ab",
        "set": {1, 2}, "complex": 1 + 2j,
    }
    back = trip(obj)
    assert type(back["w"]) is torch.nn.Parameter and back["w"].requires_grad
    assert type(back["frozen"]) is torch.nn.Parameter and not back["frozen"].requires_grad
    assert type(back["size"]) is torch.Size and back["size"] == (2, 3)
    assert back["dtype"] is torch.float16 and back["device"] == torch.device("cpu")
    assert type(back["ordered"]) is collections.OrderedDict
    assert list(back["ordered"]) == ["b", "a"]
    assert back["items"] == [1, 2.5, "s", None, True, (3, 4)]
    assert (back["big"], back["bytes"], back["set"], back["complex"]) == (2**100, b"ab", {1, 2},
                                                                          1 + 2j)


def test_more_of_the_default_allow_list_loads_without_help():
    back = trip([torch.int64, torch.bool, torch.strided, bytearray(b"x"),
                 collections.Counter("aab")])
    assert back[:3] == [torch.int64, torch.bool, torch.strided]
    assert back[3] == bytearray(b"x") and type(back[3]) is bytearray
    assert back[4] == collections.Counter("aab") and type(back[4]) is collections.Counter


def test_a_refused_range_is_named_by_its_python_3_name():
    buffer = io.BytesIO()
    torch.save(range(3), buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=r"GLOBAL range was not an allowed"):
        torch.load(buffer)
    buffer.seek(0)
    with torch.serialization.safe_globals([range]):
        assert torch.load(buffer) == range(3)


def test_a_dtype_can_be_allowed_by_itself():
    with torch.serialization.safe_globals([torch.float16]):
        assert torch.load(_saved(torch.float16)) is torch.float16


class _First:
    pass


class _Second:
    pass


def test_leaving_safe_globals_takes_off_what_it_was_given_and_nothing_else():
    torch.serialization.add_safe_globals([_First])
    try:
        with torch.serialization.safe_globals([_First]):
            torch.serialization.add_safe_globals([_Second])
        names = [getattr(g, "__name__", None) for g in torch.serialization.get_safe_globals()]
        assert "_Second" in names and "_First" not in names
    finally:
        with torch.serialization.safe_globals([_First, _Second]):
            pass  # leaves the list as it was


def _saved(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return buffer


def test_views_saved_together_share_memory_after_the_load():
    base = torch.arange(5.0)
    whole, tail = trip([base, base[1:]])
    tail[0] = 100.0
    assert whole.tolist() == [0.0, 100.0, 2.0, 3.0, 4.0] and tail.storage_offset() == 1
    assert (whole._version, tail._version) == (1, 2)  # shared memory, not a shared counter
    assert base.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_a_view_saved_alone_brings_its_whole_storage():
    base = torch.arange(6.0).reshape(2, 3)
    column = trip(base[:, 2])
    assert column.tolist() == [2.0, 5.0]
    assert column.storage_offset() == 2 and column.stride() == (3,)
    expanded = trip(torch.ones(3).expand(2, 3))
    assert expanded.stride() == (0, 1) and expanded.tolist() == [[1.0] * 3] * 2


def test_a_state_dict_round_trips_into_a_new_model(tmp_path):
    model = torch.nn.Linear(3, 2)
    path = tmp_path / "model.pt"
    torch.save(model.state_dict(), path)
    state = torch.load(path)
    assert type(state) is collections.OrderedDict and list(state) == ["weight", "bias"]
    other = torch.nn.Linear(3, 2)
    other.load_state_dict(state)
    assert torch.equal(other.weight, model.weight) and torch.equal(other.bias, model.bias)


@pytest.mark.parametrize("weights_only", [True, None])
def test_weights_only_refuses_a_custom_class_with_torchs_message(weights_only):
    name = f"{Settings.__module__}.Settings"
    with raises(pickle.UnpicklingError, ADVICE.format(name)):
        trip(Settings(), weights_only=weights_only)


def test_weights_only_refuses_functions_and_frozensets():
    with raises(pickle.UnpicklingError, ADVICE.format("print")):
        trip({"f": [print]})
    with raises(pickle.UnpicklingError, ADVICE.format("frozenset")):
        trip((1, frozenset({3})))


def test_weights_only_false_or_a_pickle_module_loads_any_picklable_object():
    assert trip(Settings(), weights_only=False).rate == 0.5
    assert trip(Settings(), pickle_module=pickle).rate == 0.5


def test_safe_globals_allow_a_class_inside_the_block_only():
    with torch.serialization.safe_globals([Settings]):
        assert Settings in torch.serialization.get_safe_globals()
        assert trip(Settings()).rate == 0.5
    assert Settings not in torch.serialization.get_safe_globals()
    with pytest.raises(pickle.UnpicklingError):
        trip(Settings())


def test_pickle_load_args_warn_when_weights_only():
    buffer = io.BytesIO()
    torch.save(torch.ones(1), buffer)
    buffer.seek(0)
    message = r"\Apickle_load_args only works if `weights_only=False`\.\Z"
    with pytest.warns(UserWarning, match=message):
        assert torch.load(buffer, encoding="latin1").tolist() == [1.0]
    buffer.seek(0)
    assert torch.load(buffer, weights_only=False, encoding="latin1").tolist() == [1.0]


def test_a_missing_file_an_empty_one_and_a_plain_pickle_are_refused(tmp_path):
    with pytest.raises(FileNotFoundError):
        torch.load(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(EOFError):
        torch.load(empty)
    plain = tmp_path / "plain"
    plain.write_bytes(pickle.dumps([1, 2], protocol=4))
    with warnings.catch_warnings():  # torch warns that protocol 4 is not its own
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(pickle.UnpicklingError):
            torch.load(plain)


def test_what_cannot_be_pickled_is_refused_by_pickle():
    with raises(AttributeError, "Can't pickle local object "
                "'test_what_cannot_be_pickled_is_refused_by_pickle.<locals>.<lambda>'"):
        torch.save(lambda: 2, io.BytesIO())
    with raises(TypeError, "cannot pickle '_thread.lock' object"):
        torch.save(threading.Lock(), io.BytesIO())


def test_bad_targets_and_sources_get_torchs_errors(tmp_path):
    with raises(AttributeError, "expected 'f' to be string, path, or a file-like object with a "
                "'write' attribute"):
        torch.save(1, 3)
    with raises(AttributeError, "'int' object has no attribute 'seek'. You can only torch.load "
                "from a file that is seekable. Please pre-load the data into a buffer like "
                "io.BytesIO and try to load from it instead."):
        torch.load(3)
    missing = os.path.join(str(tmp_path), "no")
    with raises(RuntimeError, f"Parent directory {missing} does not exist."):
        torch.save(1, os.path.join(missing, "x.pt"))
    with raises(ValueError, "f must be a file path in order to use the mmap argument"):
        torch.load(io.BytesIO(saved_bytes(torch.ones(1))), mmap=True)


@pytest.mark.parametrize("where", ["cpu", "device", "dict", "keep", "none"])
def test_map_location_to_the_cpu_in_each_form(where):
    seen = []

    def keep(storage, location):
        seen.append(location)
        return storage

    def none(storage, location):
        seen.append(location)

    forms = {"cpu": "cpu", "device": torch.device("cpu"), "dict": {"cpu": "cpu"},
             "keep": keep, "none": none}
    base = torch.arange(4.0)
    whole, part = trip([base, base[2:]], map_location=forms[where])
    part[0] = 9.0
    assert whole.tolist() == [0.0, 1.0, 9.0, 3.0] and whole.device.type == "cpu"
    assert seen == (["cpu"] if where in ("keep", "none") else [])


def test_map_location_that_is_no_map_is_called_and_fails():
    with raises(TypeError, "'int' object is not callable"):
        trip(torch.ones(1), map_location=3)


def test_map_location_to_cuda_without_one_is_refused():
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with raises(RuntimeError, NO_CUDA):
        trip(torch.ones(1), map_location="cuda")


def unknown_location(tag):
    return ("don't know how to restore data location of torch.storage.UntypedStorage "
            f"(tagged with {tag})")


@pytest.mark.parametrize("where", ["cpu:0", "CPU", "foo", "", " cpu"])
def test_map_location_strings_are_location_tags_not_device_strings(where):
    with raises(RuntimeError, unknown_location(where)):
        trip(torch.ones(1), map_location=where)
    with raises(RuntimeError, unknown_location(where)):
        trip(torch.ones(1), map_location={"cpu": where})


def test_map_location_device_reads_as_its_tag():
    with raises(RuntimeError, unknown_location("cpu:0")):
        trip(torch.ones(1), map_location=torch.device("cpu", 0))
    assert trip(torch.arange(2.0), map_location=torch.device("cpu")).tolist() == [0.0, 1.0]


def test_map_location_tags_that_are_no_strings_are_refused():
    with raises(TypeError, "expected string or bytes-like object, got 'torch.device'"):
        trip(torch.ones(1), map_location={"cpu": torch.device("cpu")})
    with raises(TypeError, "expected string or bytes-like object, got 'int'"):
        trip(torch.ones(1), map_location={"cpu": 3})
    with raises(TypeError, "cannot use a string pattern on a bytes-like object"):
        trip(torch.ones(1), map_location=b"cpu")


def test_map_location_cuda_tags_are_read_as_devices():
    with raises(RuntimeError, "Invalid device string: 'cuda:x'"):
        trip(torch.ones(1), map_location="cuda:x")
    if not torch.cuda.is_available():
        for where in ("cuda:0", "cuda:1", {"cpu": "cuda:1"}):
            with raises(RuntimeError, NO_CUDA):
                trip(torch.ones(1), map_location=where)


def test_mmap_loads_copy_on_write_from_the_file(tmp_path):
    path = tmp_path / "x.pt"
    torch.save({"a": torch.arange(4.0), "empty": torch.zeros(0, 3)}, path)
    mapped = torch.load(path, mmap=True)
    mapped["a"][0] = 7.0
    assert mapped["a"].tolist() == [7.0, 1.0, 2.0, 3.0] and mapped["empty"].shape == (0, 3)
    assert torch.load(path)["a"].tolist() == [0.0, 1.0, 2.0, 3.0]


def test_threads_save_and_load_at_once():
    errors, results = [], {}

    def work(n):
        try:
            for _ in range(20):
                x = torch.full((50,), float(n))
                got = trip({"n": n, "x": x, "view": x[n:]})
                assert got["n"] == n and torch.equal(got["x"], x)
                assert got["view"].storage_offset() == n
            results[n] = True
        except Exception as error:  # collected, then reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and sorted(results) == [0, 1, 2, 3]
