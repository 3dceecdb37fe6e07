"""Black-box tests: how torch.device reads a device string or a (type, index) pair, and that a
CPU device with an index makes ordinary host tensors. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

_INVALID = ["cpu:-1", "cuda:-1", "cpu:0:1", "cuda:x", " cpu", "cpu ", "cuda:01", "cuda: 1",
            "cuda:", "cpu:", "cuda:+1", "cuda:00", "cuda:-0", "cuda:0x1", "cuda:1e3",
            "cuda:1_0", "cuda:\u0661", "cuda1", "0", ":0", "cpu::0", "cpu\n"]


@pytest.mark.parametrize("spec", _INVALID)
def test_a_malformed_string_is_an_invalid_device_string(spec):
    with raises(RuntimeError, f"Invalid device string: '{spec}'"):
        torch.device(spec)


def test_empty_and_unparseable_strings():
    with raises(RuntimeError, "Device string must not be empty"):
        torch.device("")
    spec = "cuda:99999999999999999999"
    with raises(RuntimeError, f"Could not parse device index '99999999999999999999' in "
                              f"device string '{spec}'"):
        torch.device(spec)


@pytest.mark.parametrize("spec", ["CPU", "Cuda:0", "cpu_"])
def test_an_unknown_type_is_named_alone(spec):
    with pytest.raises(RuntimeError, match="device type at start of device string: "
                                           + spec.split(":")[0] + r"\Z"):
        torch.device(spec)


def test_good_strings_and_pairs():
    assert repr(torch.device("cpu:0")) == "device(type='cpu', index=0)"
    assert repr(torch.device("cuda:10")) == "device(type='cuda', index=10)"
    assert torch.device("cpu", 1).index == 1 and torch.device("cpu", None).index is None
    assert str(torch.device("cpu", 0)) == "cpu:0"
    assert torch.device("cpu", 0) != torch.device("cpu")
    assert torch.device("cpu", 0) == torch.device("cpu:0")


def test_a_pair_is_checked():
    with raises(RuntimeError, "Device index must not be negative"):
        torch.device("cuda", -1)
    with raises(RuntimeError, "Device index must not be negative"):
        torch.device("cpu", -1)
    for index in (1, 0, None):
        with raises(RuntimeError, "type (string) must not include an index because index "
                                  "was passed explicitly: cpu:0"):
            torch.device("cpu:0", index)
    for index, name in (("a", "str"), (1.0, "float"), (True, "bool")):
        with raises(TypeError, f"device(): argument 'index' (position 2) must be int, not "
                               f"{name}"):
            torch.device("cpu", index)
    with raises(TypeError, "device(): argument 'type' (position 1) must be str, not "
                           "torch.device"):
        torch.device(torch.device("cpu"), 1)
    with raises(RuntimeError, "Invalid device string: 'cpu:x'"):
        torch.device("cpu:x", 0)


def test_a_number_or_none_is_no_device_string():
    with pytest.raises(TypeError, match=r"got \(float\), but expected one of"):
        torch.device(1.0)
    with pytest.raises(TypeError, match=r"got \(NoneType\), but expected one of"):
        torch.device(None)


_FACTORIES = [
    lambda d: torch.ones(2, device=d), lambda d: torch.zeros(2, device=d),
    lambda d: torch.empty(2, device=d), lambda d: torch.tensor([1.0, 2.0], device=d),
    lambda d: torch.arange(3, device=d), lambda d: torch.randn(2, device=d),
    lambda d: torch.full((2,), 1.0, device=d), lambda d: torch.zeros_like(torch.ones(2), device=d),
    lambda d: torch.full_like(torch.ones(2), 3, device=d),
    lambda d: torch.ones(2).new_ones(2, device=d),
    lambda d: torch.ones(2).new_tensor([1.0], device=d),
    lambda d: torch.empty_strided((2,), (1,), device=d),
    lambda d: torch.as_tensor([1.0], device=d),
    lambda d: torch.linspace(0, 1, 3, device=d), lambda d: torch.eye(2, device=d),
    lambda d: torch.randint(3, (2,), device=d), lambda d: torch.randperm(3, device=d),
    lambda d: torch.ones(2).to(d), lambda d: torch.ones(2).to(device=d),
]


@pytest.mark.parametrize("make", _FACTORIES)
@pytest.mark.parametrize("where", ["cpu:0", "cpu:1", ("cpu", 0)])
def test_a_cpu_index_makes_a_host_tensor(make, where):
    d = torch.device(*where) if isinstance(where, tuple) else where
    t = make(d)
    assert t.device == torch.device("cpu") and t.device != torch.device("cpu", 0)
    assert t.is_cpu and repr(t.device) == "device(type='cpu')"


def test_a_cpu_indexed_leaf_takes_gradients():
    x = torch.ones(2, device="cpu:0", requires_grad=True)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0] and x.grad.device == torch.device("cpu")


def test_a_negative_cpu_index_fails_in_a_factory():
    with raises(RuntimeError, "Invalid device string: 'cpu:-1'"):
        torch.ones(2, device="cpu:-1")


def test_keywords_name_the_device_or_its_type_and_index():
    assert repr(torch.device(type="cpu")) == "device(type='cpu')"
    assert repr(torch.device(type="cpu", index=0)) == "device(type='cpu', index=0)"
    assert repr(torch.device(index=1, type="cpu")) == "device(type='cpu', index=1)"
    assert repr(torch.device("cpu", index=2)) == "device(type='cpu', index=2)"
    assert torch.device(type="cpu", index=None).index is None
    assert torch.device(device="cpu:1") == torch.device(device=torch.device("cpu", 1))


def _both_signatures(got: str, why: str = "") -> str:
    why = f"      didn't match because {why}\n" if why else ""
    return (f"device() received an invalid combination of arguments - got {got}, but "
            f"expected one of:\n * (torch.device device)\n{why} * (str type, int index = -1)\n")


_NO_SIGNATURE = [
    ((), {}, "()", ""),
    ((), {"typ": "cpu"}, "(typ=str, )", "some of the keywords were incorrect: typ"),
    ((), {"index": 0}, "(index=int, )", "some of the keywords were incorrect: index"),
    ((), {"type": 1}, "(type=int, )", "some of the keywords were incorrect: type"),
    ((), {"device": 1.5}, "(device=float, )",
     "some of the arguments have invalid types: (!device=float!, )"),
    ((True,), {}, "(bool)", "some of the arguments have invalid types: (!bool!)"),
    (("cpu", 1, 2), {}, "(str, int, int)", ""),
    (("cpu", 0), {"index": 0}, "(str, int, index=int)", ""),
]


@pytest.mark.parametrize("args, kwargs, got, why", _NO_SIGNATURE)
def test_a_call_fitting_neither_signature_lists_both(args, kwargs, got, why):
    with raises(TypeError, _both_signatures(got, why)):
        torch.device(*args, **kwargs)


def test_two_arguments_are_read_as_a_type_and_an_index():
    with raises(TypeError, "device() got multiple values for argument 'type'"):
        torch.device("cpu", type="cpu")
    with raises(TypeError, 'device() missing 1 required positional arguments: "type"'):
        torch.device(device="cpu", index=0)
    with raises(TypeError, "device() got an unexpected keyword argument 'typo'"):
        torch.device(type="cpu", typo=1)
    with raises(TypeError, "device(): argument 'index' must be int, not str"):
        torch.device("cpu", index="a")
    with raises(TypeError, "device(): argument 'type' (position 1) must be str, not int"):
        torch.device(1, index=0)
    with raises(RuntimeError, "Device index must not be negative"):
        torch.device(type="cpu", index=-1)
    with raises(RuntimeError, "type (string) must not include an index because index was "
                              "passed explicitly: cpu:1"):
        torch.device(type="cpu:1")
