"""torch.nn.attention.bias: causal masks that scaled_dot_product_attention reads by kind."""

import warnings

import pytest
import torch
import torch.nn.attention as attention
import torch.nn.functional as F
from torch.nn.attention.bias import CausalBias, CausalVariant, causal_lower_right, causal_upper_left

from conformance._support import raises


def _qkv(queries, keys, dtype=torch.float32):
    torch.manual_seed(0)
    q = torch.randn(2, 3, queries, 8, dtype=dtype, requires_grad=True)
    return q, torch.randn(2, 3, keys, 8, dtype=dtype), torch.randn(2, 3, keys, 8, dtype=dtype)


def test_the_variants_and_what_a_bias_holds():
    assert [(v.name, int(v)) for v in CausalVariant] == [("UPPER_LEFT", 1), ("LOWER_RIGHT", 2)]
    assert CausalVariant.LOWER_RIGHT == 2 and repr(CausalVariant.UPPER_LEFT) == (
        "<CausalVariant.UPPER_LEFT: 1>")
    bias = causal_lower_right(3, 4)
    assert type(bias) is CausalBias and isinstance(bias, torch.Tensor)
    assert (bias.variant, bias.seq_len_q, bias.seq_len_kv) == (CausalVariant.LOWER_RIGHT, 3, 4)
    assert bias.shape == (2, 3, 4) and bias.dtype == torch.float32  # the legacy constructor's
    assert causal_upper_left(3, 4).variant is CausalVariant.UPPER_LEFT


@pytest.mark.parametrize("make, size, diagonal", [
    (causal_lower_right, (3, 4), 1), (causal_upper_left, (3, 4), 0),
    (causal_lower_right, (4, 3), -1), (causal_upper_left, (2, 2), 0),
])
def test_a_bias_prints_as_the_mask_it_stands_for(make, size, diagonal):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bias = make(*size)
    assert repr(bias) == repr(torch.ones(*size, dtype=torch.bool).tril(diagonal))


def test_more_queries_than_keys_below_right_warns_of_nans():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        causal_lower_right(4, 3)
        causal_upper_left(4, 3)
    assert [(str(w.message), w.category) for w in caught] == [(
        "Lower right causal bias will produce NaNs in the output when seq_len_q > seq_len_kv!",
        UserWarning)]


@pytest.mark.parametrize("call, kind, message", [
    (lambda: causal_upper_left(3), AssertionError, "causal_upper_left only supports 2D tensors"),
    (lambda: causal_lower_right(3, 4, 5), AssertionError,
     "causal_lower_right only supports 2D tensors"),
    (lambda: CausalBias(1, 2, 3), AssertionError, "variant must be a CausalVariant, got int"),
])
def test_refusals_in_torchs_words(call, kind, message):
    with raises(kind, message):
        call()


def test_below_right_attention_is_attention_with_the_mask():
    q, k, v = _qkv(3, 4)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(3, 4))
    want = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(
        3, 4, dtype=torch.bool).tril(1))
    assert type(y) is torch.Tensor and torch.equal(y, want)
    assert type(y.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    g = torch.randn(y.shape)
    torch.testing.assert_close(torch.autograd.grad(y, q, g), torch.autograd.grad(want, q, g))


@pytest.mark.parametrize("bias, queries, keys", [
    (causal_upper_left(3, 4), 3, 4), (causal_lower_right(3, 3), 3, 3)])
def test_square_or_upper_left_attention_is_is_causal(bias, queries, keys):
    q, k, v = _qkv(queries, keys)
    assert torch.equal(F.scaled_dot_product_attention(q, k, v, bias),
                       F.scaled_dot_product_attention(q, k, v, is_causal=True))


def test_the_bias_refuses_is_causal_and_mismatched_dtypes():
    q, k, v = _qkv(3, 4)
    bias = causal_lower_right(3, 4)
    with raises(ValueError, "CausalBias should not be used with causal=True"):
        F.scaled_dot_product_attention(q, k, v, attn_mask=bias, is_causal=True)
    with raises(ValueError, "Expected query, key, and value to have the same dtype, but got "
                "query.dtype: torch.float32, key.dtype: torch.float64, and value.dtype: "
                "torch.float32 instead."):
        F.scaled_dot_product_attention(q, k.double(), v, attn_mask=bias)


def test_the_unfused_warnings_come_when_asked_for():
    q, k, v = _qkv(3, 4)
    bias = causal_lower_right(3, 4)
    try:
        attention.WARN_FOR_UNFUSED_KERNELS = True
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    finally:
        attention.WARN_FOR_UNFUSED_KERNELS = False
    assert [str(w.message) for w in caught] == ["Efficient attention can't be used because:",
                                                "Flash attention can't be used because:"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    assert caught == []
