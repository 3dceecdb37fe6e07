"""torch.nn.attention: the backends scaled_dot_product_attention may choose, on a CPU."""

import warnings

import pytest
import torch
import torch.backends.cuda as cuda
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from conformance._support import raises

NAMES = ["ERROR", "MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION",
         "OVERRIDEABLE"]
SWITCHES = {"flash": cuda.flash_sdp_enabled, "math": cuda.math_sdp_enabled,
            "mem_efficient": cuda.mem_efficient_sdp_enabled, "cudnn": cuda.cudnn_sdp_enabled}
NO_VIABLE = ("No viable backend for scaled_dot_product_attention was found. This is likely due "
             "to turning off both the math kernel and the fused kernels.")


def _switches():
    return {name: read() for name, read in SWITCHES.items()}


def _qkv(*shapes, requires_grad=False):
    torch.manual_seed(0)
    shapes = shapes or ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8))
    return [torch.randn(s, requires_grad=requires_grad) for s in shapes]


def test_the_members_print_and_convert_as_torchs():
    assert list(SDPBackend.__members__) == NAMES
    assert [int(b) for b in SDPBackend.__members__.values()] == [-1, 0, 1, 2, 3, 4]
    assert repr(SDPBackend.MATH) == "<SDPBackend.MATH: 0>"
    assert str(SDPBackend.FLASH_ATTENTION) == "SDPBackend.FLASH_ATTENTION"
    assert SDPBackend.MATH.name == "MATH" and SDPBackend.MATH.value == 0
    assert SDPBackend.MATH != 0 and hash(SDPBackend.MATH) == 0
    assert hash(SDPBackend.OVERRIDEABLE) == 4
    assert SDPBackend(2) == SDPBackend.EFFICIENT_ATTENTION
    assert SDPBackend.__name__ == "SDPBackend" and SDPBackend.__qualname__ == "_SDPBackend"
    assert repr(SDPBackend) == f"<class '{SDPBackend.__module__}._SDPBackend'>"
    assert torch.nn.attention.WARN_FOR_UNFUSED_KERNELS is False


@pytest.mark.parametrize("backends, on", [
    (SDPBackend.MATH, {"math"}), (SDPBackend.FLASH_ATTENTION, {"flash"}),
    ([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH, SDPBackend.MATH], {"flash", "math"}),
    ([SDPBackend.CUDNN_ATTENTION, SDPBackend.EFFICIENT_ATTENTION], {"cudnn", "mem_efficient"}),
    ([], set()), (SDPBackend.ERROR, set()),
])
def test_only_the_backends_given_are_on_inside_and_all_are_again_after(backends, on):
    before = _switches()
    assert all(before.values())
    with sdpa_kernel(backends, set_priority=isinstance(backends, list)) as given:
        assert given == {}
        assert _switches() == {name: name in on for name in SWITCHES}
    assert _switches() == before
    with pytest.raises(ValueError), sdpa_kernel(backends):
        raise ValueError
    assert _switches() == before


@pytest.mark.parametrize("bad", [1, "math", (SDPBackend.MATH,), None])
def test_anything_but_a_backend_or_a_list_is_refused(bad):
    with raises(AssertionError, "Backend must be an instance of SDPBackend or a list of "
                f"SDPBackend instances, got {type(bad).__name__}"):
        with sdpa_kernel(bad):
            pass


def test_the_math_kernel_alone_gives_the_math_graph_and_close_values():
    q, k, v = _qkv(requires_grad=True)
    fused = F.scaled_dot_product_attention(q, k, v)
    with sdpa_kernel(SDPBackend.MATH):
        math = F.scaled_dot_product_attention(q, k, v)
    assert type(fused.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    assert type(math.grad_fn).__name__ == "UnsafeViewBackward0"
    torch.testing.assert_close(math, fused)
    g = torch.randn(fused.shape)
    torch.testing.assert_close(torch.autograd.grad(math, (q, k, v), g),
                               torch.autograd.grad(fused, (q, k, v), g))


def test_the_fused_kernel_alone_changes_nothing_where_it_can_run():
    q, k, v = _qkv(requires_grad=True)
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION]):
        alone = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert torch.equal(alone, F.scaled_dot_product_attention(q, k, v, is_causal=True))
    assert type(alone.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"


@pytest.mark.parametrize("backends", [SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION,
                                      SDPBackend.OVERRIDEABLE, []])
def test_no_cpu_kernel_on_is_refused_at_once(backends):
    q, k, v = _qkv()
    with warnings.catch_warnings(record=True) as caught, sdpa_kernel(backends):
        warnings.simplefilter("always")
        with raises(RuntimeError, NO_VIABLE):
            F.scaled_dot_product_attention(q, k, v)
    assert caught == []


_HERE = "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/transformers/"


@pytest.mark.parametrize("shapes, kwargs, reason", [
    ((), {"dropout_p": 0.3}, "Both fused kernels do not support non-zero dropout. "
     f"{_HERE}sdp_utils_cpp.h:241.)"),
    (((3, 4, 8), (3, 5, 8), (3, 5, 8)), {}, "All fused kernels requires query, key and value to "
     "be 4 dimensional, but got Query dim: 3, Key dim: 3, Value dim: 3 instead. "
     f"{_HERE}sdp_utils_cpp.h:327.)"),
    (((2, 3, 4, 8), (1, 3, 5, 8), (1, 3, 5, 8)), {}, "For dense inputs, both fused kernels "
     "require query, key and value to have the same batch_size. Query.sizes(): [2, 3, 4, 8], "
     "Key.sizes(): [1, 3, 5, 8], Value.sizes(): [1, 3, 5, 8] instead. To broadcast dense "
     "inputs, try using unsqueeze and expand_to before passing them into the kernel. "
     f"{_HERE}sdp_utils_cpp.h:417.)"),
    (((2, 3, 4, 8), (2, 2, 5, 8), (2, 2, 5, 8)), {}, "For dense input, both fused kernels "
     "require query, key and value to have the same num_heads. Query.sizes(): [2, 3, 4, 8], "
     "Key sizes(): [2, 2, 5, 8], Value sizes(): [2, 2, 5, 8] instead. To broadcast dense "
     "inputs, try using unsqueeze and expand_to before passing them into the kernel. "
     f"{_HERE}sdp_utils_cpp.h:437.)"),
    (((2, 3, 4, 8), (2, 2, 5, 8), (2, 2, 5, 8)), {"enable_gqa": True}, "The number of heads in "
     "key/value must divide number of heads in query.Got input Key sizes(): 2, Value sizes(): "
     f"2, Query sizes(): 3 instead. {_HERE}sdp_utils_cpp.h:381.)"),
    ((), {"attn_mask": "3d"}, "Please use the following attn mask shapes: 2d - ({Q_seq_len, 1} "
     " x {KV_seq_len, 1}); 4d - ({Batch, 1} x {Num_heads, 1} x {Q_seq_len, 1}  x {KV_seq_len, "
     f"1}}) {_HERE}sdp_utils_cpp.h:314.)"),
    (((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 6)), {}, "Flash attention requires q,k,v to have "
     "the same last dimension. Got Query.size(-1): 8, Key.size(-1): 8, Value.size(-1): 6 "
     f"instead. {_HERE}sdp_utils_cpp.cpp:21.)"),
])
def test_the_fused_kernel_alone_says_why_it_cannot_run(shapes, kwargs, reason):
    q, k, v = _qkv(*shapes)
    if kwargs.get("attn_mask") == "3d":
        kwargs = {"attn_mask": torch.zeros(3, 1, 4, 5)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION), raises(
                RuntimeError, "No available kernel.  Aborting execution."):
            F.scaled_dot_product_attention(q, k, v, **kwargs)
    assert [str(w.message) for w in caught] == [
        f"Flash attention kernel not used because: {_HERE}sdp_utils_cpp.cpp:99.)", reason]
    assert {w.category for w in caught} == {UserWarning}
    assert {w.filename for w in caught} == {__file__}


def test_a_query_not_contiguous_in_its_last_dimension_is_named():
    q = torch.randn(2, 3, 8, 4).transpose(-1, -2)
    k = v = torch.randn(2, 3, 5, 8)
    with warnings.catch_warnings(record=True) as caught, sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError):
            F.scaled_dot_product_attention(q, k, v)
    assert str(caught[1].message).startswith(
        "All fused kernels require the last dimension of the input to have stride 1. Got "
        "Query.stride(-1): 4, Key.stride(-1): 1, Value.stride(-1): 1 (Triggered")


@pytest.mark.parametrize("name", ["flash", "math", "mem_efficient", "cudnn"])
def test_the_switches_take_a_bool_and_nothing_else(name):
    enable = getattr(cuda, f"enable_{name}_sdp")
    for bad in (1, "x", None, 1.0):
        named = {"flash": "math", "mem_efficient": "math"}.get(name, name)
        slip = "%s" if name == "cudnn" else ""  # torch's own words, slips and all
        with raises(RuntimeError, f"set_sdp_use_{named} expects a bool, but got "
                    f"{slip}{type(bad).__name__}"):
            enable(bad)
    try:
        assert enable(False) is None and SWITCHES[name]() is False
    finally:
        enable(True)
    assert SWITCHES[name]() is True


def test_without_a_gpu_build_no_gpu_kernel_can_be_used_and_none_says_why():
    q, k, v = _qkv()
    params = cuda.SDPAParams(q, k, v, None, 0, True, False)
    assert (params.query is q and params.key is k and params.value is v
            and params.attn_mask is None)
    assert params.dropout == 0.0 and type(params.dropout) is float
    assert params.is_causal is True and params.enable_gqa is False
    with pytest.raises(AttributeError):
        params.dropout = 0.5
    assert type(params).__qualname__ == "_SDPAParams" and type(params).__name__ == "SDPAParams"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        answers = [f(params, debug) for f in (
            torch.nn.attention.can_use_flash_attention,
            torch.nn.attention.can_use_efficient_attention, cuda.can_use_cudnn_attention)
            for debug in (False, True)]
    assert answers == [False] * 6 and caught == []
    assert cuda.is_built() is False and cuda.is_flash_attention_available() is False


def test_the_deprecated_switches_warn_when_called_and_restrict_like_sdpa_kernel():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        block = cuda.sdp_kernel(enable_flash=False, enable_cudnn=False)
        assert [w.category for w in caught] == [FutureWarning]
        with block as given:
            assert given == {}
            assert _switches() == {"flash": False, "math": True, "mem_efficient": True,
                                   "cudnn": False}
            q, k, v = _qkv(requires_grad=True)
            y = F.scaled_dot_product_attention(q, k, v)
            assert type(y.grad_fn).__name__ == "UnsafeViewBackward0"
    assert all(_switches().values())
    assert str(caught[0].message) == (
        "`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager "
        "will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
        "manager, with updated signature.")
    assert caught[0].filename.endswith("contextlib.py") and len(caught) == 1
