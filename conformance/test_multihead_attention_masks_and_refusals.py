"""Masks of torch.nn.MultiheadAttention and F.multi_head_attention_forward, and their refusals."""

import re
import warnings

import pytest
import torch
import torch.nn.functional as F
from torch import nn


def _module_and_inputs():
    torch.manual_seed(0)
    return nn.MultiheadAttention(8, 2), torch.randn(5, 3, 8), torch.randn(4, 3, 8)


def _padding():
    return torch.tensor([[False, False, True, True], [False] * 4, [True, False, False, False]])


def test_bool_masks_mean_minus_infinity():
    mha, x, y = _module_and_inputs()
    attn = torch.rand(5, 4) > 0.7
    attn[:, 1] = False  # every query keeps a key
    as_float = torch.zeros(5, 4).masked_fill(attn, float("-inf"))
    pad_float = torch.zeros(3, 4).masked_fill(_padding(), float("-inf"))
    for need_weights in (True, False):
        out_b, w_b = mha(x, y, y, attn_mask=attn, need_weights=need_weights)
        out_f, w_f = mha(x, y, y, attn_mask=as_float, need_weights=need_weights)
        torch.testing.assert_close(out_b, out_f)
        out_b = mha(x, y, y, key_padding_mask=_padding(), need_weights=need_weights)[0]
        out_f = mha(x, y, y, key_padding_mask=pad_float, need_weights=need_weights)[0]
        torch.testing.assert_close(out_b, out_f)
    weights = mha(x, y, y, attn_mask=attn, key_padding_mask=_padding())[1]
    blocked = attn.unsqueeze(0) | _padding().unsqueeze(1)
    assert bool((weights[blocked] == 0).all())
    torch.testing.assert_close(weights.sum(-1), torch.ones(3, 5))


def test_a_float_mask_is_added_to_the_scores():
    mha, x, y = _module_and_inputs()
    bias = torch.randn(5, 4)
    per_head = torch.randn(6, 5, 4)
    w_plain = mha(x, y, y, average_attn_weights=False)[1]
    w_bias = mha(x, y, y, attn_mask=bias, average_attn_weights=False)[1]
    w_heads = mha(x, y, y, attn_mask=per_head, average_attn_weights=False)[1]
    torch.testing.assert_close(w_bias, (w_plain.log() + bias).softmax(-1))
    torch.testing.assert_close(w_heads, (w_plain.log() + per_head.view(3, 2, 5, 4)).softmax(-1))
    fused = mha(x, y, y, attn_mask=per_head, need_weights=False)[0]
    torch.testing.assert_close(fused, mha(x, y, y, attn_mask=per_head)[0])


def test_causal_hint_with_its_mask():
    mha, x, _ = _module_and_inputs()
    causal = torch.triu(torch.full((5, 5), float("-inf")), diagonal=1)
    want = mha(x, x, x, attn_mask=causal)[0]
    for need_weights in (True, False):
        got = mha(x, x, x, attn_mask=causal, is_causal=True, need_weights=need_weights)[0]
        torch.testing.assert_close(got, want)
    with pytest.raises(RuntimeError, match=re.escape(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask.")):
        mha(x, x, x, is_causal=True)


def test_added_keys_bias_kv_and_zero_attn():
    torch.manual_seed(1)
    mha = nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True)
    x, y = torch.randn(5, 3, 8), torch.randn(4, 3, 8)
    out, weights = mha(x, y, y, key_padding_mask=_padding(),
                       attn_mask=torch.zeros(5, 4, dtype=torch.bool))
    assert out.shape == (5, 3, 8) and weights.shape == (3, 5, 6)  # two keys more
    assert bool((weights[:, :, 4:] > 0).all())  # the added keys are never masked
    assert bool((weights[0, :, 2:4] == 0).all())


def test_mismatched_mask_kinds_warn():
    mha, x, y = _module_and_inputs()
    with pytest.warns(UserWarning, match=re.escape(
            "Support for mismatched key_padding_mask and attn_mask is deprecated. Use same "
            "type for both instead.")):
        mha(x, y, y, key_padding_mask=_padding(), attn_mask=torch.zeros(5, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mha(x, y, y, key_padding_mask=_padding(), attn_mask=torch.zeros(5, 4, dtype=torch.bool))


REFUSALS = [
    ({"attn_mask": torch.zeros(5, 4, dtype=torch.int64)}, AssertionError,
     "only bool and floating types of attn_mask are supported"),
    ({"key_padding_mask": torch.zeros(3, 4, dtype=torch.int32)}, AssertionError,
     "only bool and floating types of key_padding_mask are supported"),
    ({"attn_mask": torch.zeros(5, 5)}, RuntimeError,
     "The shape of the 2D attn_mask is torch.Size([5, 5]), but should be (5, 4)."),
    ({"attn_mask": torch.zeros(4, 5, 4)}, RuntimeError,
     "The shape of the 3D attn_mask is torch.Size([4, 5, 4]), but should be (6, 5, 4)."),
    ({"attn_mask": torch.zeros(1, 6, 5, 4)}, AssertionError,
     "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
     "4-D tensor instead"),
    ({"key_padding_mask": torch.zeros(3, 5, dtype=torch.bool)}, AssertionError,
     "Expected key_padded_mask.shape[1] to be 4, but got 5"),
    ({"key_padding_mask": torch.zeros(2, 4, dtype=torch.bool)}, AssertionError,
     "Expected key_padded_mask.shape[0] to be 3, but got 2"),
    ({"key_padding_mask": torch.zeros(4, dtype=torch.bool)}, AssertionError,
     "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but found "
     "1-D tensor instead"),
]


@pytest.mark.parametrize(("kw", "kind", "message"), REFUSALS)
def test_bad_masks_refused(kw, kind, message):
    mha, x, y = _module_and_inputs()
    with pytest.raises(kind, match=f"^{re.escape(message)}$"):
        mha(x, y, y, **kw)


def test_bad_shapes_refused():
    mha, x, y = _module_and_inputs()
    cases = [
        ((x, y[:, :2], y), "key shape torch.Size([4, 2, 8]) does not match value shape "
                           "torch.Size([4, 3, 8])"),
        ((x[..., :6], y, y), "was expecting embedding dimension of 8, but got 6"),
        ((x, y[0], y[0]), "For batched (3-D) `query`, expected `key` and `value` to be 3-D but "
                          "found 2-D and 2-D tensors respectively"),
        ((x[0], y, y), "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but "
                       "found 3-D and 3-D tensors respectively"),
        ((x[0, 0], y[0, 0], y[0, 0]), "query should be unbatched 2D or batched 3D tensor but "
                                      "received 1-D query tensor"),
    ]
    for args, message in cases:
        with pytest.raises(AssertionError, match=f"^{re.escape(message)}$"):
            mha(*args)
    with pytest.raises(AssertionError, match=re.escape(
            "Expected `attn_mask` shape to be (2, 5, 4) but got torch.Size([3, 5, 4])")):
        mha(x[:, 0], y[:, 0], y[:, 0], attn_mask=torch.zeros(3, 5, 4))
    separate = nn.MultiheadAttention(8, 2, kdim=3, vdim=5)
    with pytest.raises(AssertionError, match=re.escape(
            "key's sequence and batch dims torch.Size([4, 3]) do not match value's "
            "torch.Size([2, 3])")):
        separate(x, torch.randn(4, 3, 3), torch.randn(2, 3, 5))
    with pytest.raises(AssertionError, match=re.escape(
            "expecting key weights shape of (8, 4), but got torch.Size([8, 3])")):
        separate(x, torch.randn(4, 3, 4), torch.randn(4, 3, 5))


def test_function_with_static_keys_and_refusals():
    mha, x, y = _module_and_inputs()
    args = (x, y, y, 8, 2, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0,
            mha.out_proj.weight, mha.out_proj.bias)
    out, weights = F.multi_head_attention_forward(*args)
    torch.testing.assert_close(out, mha(x, y, y)[0])
    static = torch.randn(6, 7, 4)
    out, weights = F.multi_head_attention_forward(*args, static_k=static, static_v=static)
    assert out.shape == (5, 3, 8) and weights.shape == (3, 5, 7)
    with pytest.raises(AssertionError, match=r"^expecting static_k.size\(0\) of 6, but got 5$"):
        F.multi_head_attention_forward(*args, static_k=torch.randn(5, 7, 4))
    with pytest.raises(AssertionError, match=r"^embed_dim 8 not divisible by num_heads 3$"):
        F.multi_head_attention_forward(x, y, y, 8, 3, *args[5:])
    with pytest.raises(AssertionError, match=r"^use_separate_proj_weight is False but "
                                             r"in_proj_weight is None$"):
        F.multi_head_attention_forward(x, y, y, 8, 2, None, *args[6:])
    bias = torch.zeros(1, 1, 8)
    with pytest.raises(AssertionError, match=r"^bias_k is set but bias_v is None$"):
        F.multi_head_attention_forward(*args[:7], bias, None, *args[9:])
    with pytest.raises(AssertionError, match=r"^bias cannot be added to static key.$"):
        F.multi_head_attention_forward(*args[:7], bias, bias, *args[9:], static_k=static)
