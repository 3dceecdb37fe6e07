"""The fp32_precision switches of torch.backends, and how the older switches keep step."""

import pytest
import torch

from conformance._support import printed_in_a_fresh_process

B = torch.backends
SWITCHES = {"generic": lambda: B, "cuda.matmul": lambda: B.cuda.matmul, "cudnn": lambda: B.cudnn,
            "cudnn.conv": lambda: B.cudnn.conv, "cudnn.rnn": lambda: B.cudnn.rnn,
            "mkldnn": lambda: B.mkldnn, "mkldnn.matmul": lambda: B.mkldnn.matmul,
            "mkldnn.conv": lambda: B.mkldnn.conv, "mkldnn.rnn": lambda: B.mkldnn.rnn}
SEE = ("See also: https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-"
       "and-later-devices")
MATMUL_MIXED = ("PyTorch is checking the matmul precision without a specific backend name,Current "
                "status indicate that you have used mix of the legacy and new APIs to set the "
                "matmul precision. We suggest only using the new API for matmul precision. " + SEE)
CUBLAS_MIXED = ("PyTorch is checking whether allow_tf32_new is enabled for cuBlas matmul,Current "
                "status indicate that you have used mix of the legacy and new APIs to set the TF32"
                " status for cublas matmul. We suggest only using the new API to set the TF32 "
                "flag. " + SEE)
CUDNN_MIXED = ("PyTorch is checking whether allow_tf32 is enabled for cuDNN without a specific "
               "operator name,but the current flag(s) indicate that cuDNN conv and cuDNN RNN have"
               " different TF32 flags.This combination indicates that you have used a mix of the "
               "legacy and new APIs to set the TF32 flags. We suggest only using the new API to "
               "set the TF32 flag(s). " + SEE)


def readings():
    return {name: get().fp32_precision for name, get in SWITCHES.items()}


def refused(kind, words, call):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == words


@pytest.fixture(autouse=True)
def _switches_put_back():
    """Set every switch back to what a fresh process reads (cuDNN's conv and rnn become set
    to "tf32" rather than unset, which no public call can undo)."""
    yield
    for target in (B, B.cudnn, B.cudnn.conv, B.cudnn.rnn, B.mkldnn.matmul, B.mkldnn.conv,
                   B.mkldnn.rnn):
        target.fp32_precision = "none"
    B.mkldnn.set_flags(_fp32_precision="none")
    torch.set_float32_matmul_precision("highest")
    B.cuda.matmul.fp32_precision = B.mkldnn.matmul.fp32_precision = "none"
    B.cudnn.allow_tf32 = True


_FRESH = """
import {module} as torch
B = torch.backends
def show():
    print(B.fp32_precision, B.cuda.matmul.fp32_precision, B.cudnn.fp32_precision,
          B.cudnn.conv.fp32_precision, B.cudnn.rnn.fp32_precision, B.mkldnn.fp32_precision,
          B.mkldnn.matmul.fp32_precision)
show()
B.fp32_precision = "ieee"
show()
B.fp32_precision = "none"
B.cudnn.fp32_precision = "ieee"
show()
B.cudnn.fp32_precision = "none"
B.cudnn.rnn.fp32_precision = "none"
show()
B.fp32_precision = "bf16"
show()
"""


def test_a_fresh_process_reads_through_the_parents_and_cudnn_starts_unset():
    printed = printed_in_a_fresh_process(_FRESH)
    assert [line.split() for line in printed.splitlines()] == [
        ["none", "none", "none", "tf32", "tf32", "none", "none"],
        ["ieee", "ieee", "ieee", "ieee", "ieee", "ieee", "ieee"],
        ["none", "ieee", "ieee", "ieee", "ieee", "none", "none"],
        ["none", "none", "none", "tf32", "none", "none", "none"],
        ["bf16", "none", "none", "none", "none", "bf16", "bf16"]]


def test_an_own_value_hides_its_parents():
    B.mkldnn.matmul.fp32_precision = "bf16"
    B.cudnn.conv.fp32_precision = "ieee"
    B.fp32_precision = "tf32"
    seen = readings()
    assert (seen["mkldnn.matmul"], seen["cudnn.conv"], seen["mkldnn.conv"]) == (
        "bf16", "ieee", "tf32")
    B.cudnn.fp32_precision = "ieee"
    assert (B.cuda.matmul.fp32_precision, B.cudnn.conv.fp32_precision) == ("ieee", "ieee")
    B.cudnn.conv.fp32_precision = "none"
    assert B.cudnn.conv.fp32_precision == "ieee"


@pytest.mark.parametrize("name", list(SWITCHES))
def test_each_switch_takes_four_words_and_refuses_the_rest(name):
    target = SWITCHES[name]()
    for word in ("ieee", "tf32", "none"):
        target.fp32_precision = word
        assert target.fp32_precision == word
    for word in ("IEEE", "", "fp32"):
        refused(RuntimeError, f"Unknown precision: {word}",
                lambda word=word: setattr(target, "fp32_precision", word))


@pytest.mark.parametrize("name, pair", [
    ("generic", "'generic', 'all'"), ("cuda.matmul", "'cuda', 'matmul'"),
    ("cudnn", "'cuda', 'all'"), ("cudnn.conv", "'cuda', 'conv'"), ("cudnn.rnn", "'cuda', 'rnn'"),
    ("mkldnn", "'generic', 'all'"), ("mkldnn.rnn", "'mkldnn', 'rnn'")])
def test_a_non_string_is_refused_naming_the_switch_it_sets(name, pair):
    for value, shown in ((1, "1"), (None, "None"), (1.5, "1.5")):
        refused(TypeError, "_set_fp32_precision_setter(): incompatible function arguments. The "
                "following argument types are supported:\n    1. (arg0: str, arg1: str, arg2: "
                f"str) -> str\n\nInvoked with: {pair}, {shown}",
                lambda value=value: setattr(SWITCHES[name](), "fp32_precision", value))


def test_bfloat16_is_refused_on_cuda_and_read_there_as_none():
    for name in ("cuda.matmul", "cudnn", "cudnn.conv", "cudnn.rnn"):
        refused(RuntimeError, "backend 'cuda' does not support precision 'bf16'",
                lambda name=name: setattr(SWITCHES[name](), "fp32_precision", "bf16"))
    for name in ("mkldnn.matmul", "mkldnn.conv", "mkldnn.rnn"):
        SWITCHES[name]().fp32_precision = "bf16"
        assert SWITCHES[name]().fp32_precision == "bf16"
    B.fp32_precision = "bf16"
    seen = readings()
    assert seen["generic"] == "bf16" and seen["cuda.matmul"] == seen["cudnn"] == "none"


def test_onednns_module_switch_reads_its_own_and_sets_the_generic_one():
    B.mkldnn.fp32_precision = "bf16"
    assert (B.fp32_precision, B.mkldnn.fp32_precision, B.mkldnn.rnn.fp32_precision) == (
        "bf16", "bf16", "bf16")
    B.mkldnn.set_flags(_fp32_precision="ieee")  # oneDNN's own
    B.mkldnn.fp32_precision = "none"
    assert (B.fp32_precision, B.mkldnn.fp32_precision) == ("none", "ieee")


def test_the_switch_objects():
    conv = B.cudnn.conv
    assert type(conv).__name__ == "_FP32Precision" and type(conv) is B._FP32Precision
    assert (conv.backend, conv.op, B.mkldnn.matmul.backend, B.mkldnn.matmul.op) == (
        "cuda", "conv", "mkldnn", "matmul")
    refused(AttributeError, "Unknown attribute bogus", lambda: conv.bogus)
    refused(AttributeError, "Unknown attribute bogus", lambda: setattr(conv, "bogus", 1))
    assert type(B).__name__ == "GenericModule" and isinstance(B, B.PropModule)
    assert B.m.__name__ == B.__name__


def test_set_float32_matmul_precision_sets_both_matmul_switches():
    for name, cuda, onednn, tf32 in (("high", "tf32", "tf32", True),
                                     ("medium", "tf32", "bf16", True),
                                     ("highest", "ieee", "ieee", False)):
        torch.set_float32_matmul_precision(name)
        assert (B.cuda.matmul.fp32_precision, B.mkldnn.matmul.fp32_precision) == (cuda, onednn)
        assert torch.get_float32_matmul_precision() == name
        assert B.cuda.matmul.allow_tf32 is tf32
    assert B.fp32_precision == B.cudnn.fp32_precision == "none"


def test_the_allow_tf32_flags_set_the_new_switches():
    B.cuda.matmul.allow_tf32 = True
    assert (B.cuda.matmul.fp32_precision, torch.get_float32_matmul_precision()) == ("tf32", "high")
    assert B.mkldnn.matmul.fp32_precision == "none"
    B.cuda.matmul.allow_tf32 = False
    assert (B.cuda.matmul.fp32_precision, torch.get_float32_matmul_precision()) == (
        "ieee", "highest")
    B.cudnn.allow_tf32 = False
    assert (B.cudnn.conv.fp32_precision, B.cudnn.rnn.fp32_precision) == ("none", "none")
    assert B.cudnn.allow_tf32 is False
    B.cudnn.allow_tf32 = True
    B.cudnn.fp32_precision = "ieee"  # conv and rnn now have values of their own
    assert (B.cudnn.conv.fp32_precision, B.cudnn.allow_tf32) == ("tf32", True)


def test_the_older_switches_refuse_to_answer_when_the_newer_ones_disagree():
    B.cuda.matmul.fp32_precision = "tf32"
    refused(RuntimeError, CUBLAS_MIXED, lambda: B.cuda.matmul.allow_tf32)
    refused(RuntimeError, MATMUL_MIXED, torch.get_float32_matmul_precision)
    B.cuda.matmul.fp32_precision = "none"
    B.mkldnn.matmul.fp32_precision = "bf16"
    refused(RuntimeError, MATMUL_MIXED, torch.get_float32_matmul_precision)
    assert B.cuda.matmul.allow_tf32 is False
    B.mkldnn.matmul.fp32_precision = "none"
    B.cudnn.rnn.fp32_precision = "ieee"
    refused(RuntimeError, CUDNN_MIXED, lambda: B.cudnn.allow_tf32)
    refused(RuntimeError, CUDNN_MIXED, B.cudnn.set_flags)  # it reads the flag first


def test_flags_set_the_backends_own_switch_and_put_it_back():
    assert B.set_flags("ieee") == ("none",)
    assert B.set_flags() == ("ieee",) and B.fp32_precision == "none"
    with B.flags(fp32_precision="tf32"):
        assert readings()["mkldnn.rnn"] == "tf32"
    assert B.fp32_precision == "none"
    old = B.cudnn.set_flags(_fp32_precision="tf32")
    assert old[4:6] == (True, "none") and B.cuda.matmul.fp32_precision == "tf32"
    assert B.cudnn.set_flags()[5] == "tf32" and B.cudnn.fp32_precision == "none"
    assert B.mkldnn.set_flags(_fp32_precision="bf16")[3] == "none"
    assert (B.fp32_precision, B.mkldnn.fp32_precision) == ("none", "bf16")
    with pytest.raises(KeyError):
        with B.cudnn.flags(enabled=True, fp32_precision="ieee"):
            assert B.cudnn.fp32_precision == "ieee"
            raise KeyError
    assert B.cudnn.fp32_precision == "none"


def test_the_guard_covers_the_module_switches_only():
    home = B.flags_frozen.__globals__
    B.disable_global_flags()
    try:
        for name, module in (("torch.backends", B), ("torch.backends.cudnn", B.cudnn),
                             ("torch.backends.mkldnn", B.mkldnn)):
            refused(RuntimeError, f"not allowed to set {name} flags after disable_global_flags;"
                    " please use flags() context manager instead",
                    lambda module=module: setattr(module, "fp32_precision", "ieee"))
        B.cudnn.rnn.fp32_precision = "ieee"
        B.cudnn.conv.fp32_precision = "ieee"
        B.cuda.matmul.fp32_precision = "ieee"
        with B.flags(fp32_precision="tf32"):
            assert B.fp32_precision == "tf32"
    finally:
        home["__allow_nonbracketed_mutation_flag"] = True
    assert readings()["generic"] == "none" and readings()["cudnn.rnn"] == "ieee"
