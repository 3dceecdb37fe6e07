"""torch.nn.MultiheadAttention: its parameters, first values, printed form and its attention."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn


def _reference(mha, query, key, value, float_mask=None):
    """Attention written out head by head, sequence first, from the module's parameters."""
    E, H = mha.embed_dim, mha.num_heads
    d = E // H
    if mha._qkv_same_embed_dim:
        w_q, w_k, w_v = mha.in_proj_weight.chunk(3)
    else:
        w_q, w_k, w_v = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
    b_q, b_k, b_v = (None,) * 3 if mha.in_proj_bias is None else mha.in_proj_bias.chunk(3)
    q, k, v = F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)
    heads, weights = [], []
    for h in range(H):
        part = slice(h * d, (h + 1) * d)
        scores = q[..., part].permute(1, 0, 2) @ k[..., part].permute(1, 2, 0) / math.sqrt(d)
        if float_mask is not None:
            scores = scores + float_mask
        w = scores.softmax(-1)
        weights.append(w)
        heads.append((w @ v[..., part].permute(1, 0, 2)).permute(1, 0, 2))
    out = F.linear(torch.cat(heads, -1), mha.out_proj.weight, mha.out_proj.bias)
    return out, torch.stack(weights, 1)


def test_parameters_and_state_dict_in_torch_order():
    mha = nn.MultiheadAttention(8, 2)
    assert [n for n, _ in mha.named_parameters()] == [
        "in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    assert list(mha.state_dict()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight",
                                      "out_proj.bias"]
    assert mha.in_proj_weight.shape == (24, 8) and mha.in_proj_bias.shape == (24,)
    assert mha.q_proj_weight is None and mha.bias_k is None and mha.bias_v is None
    assert (mha.embed_dim, mha.kdim, mha.vdim, mha.num_heads, mha.head_dim, mha.dropout,
            mha.batch_first, mha.add_zero_attn) == (8, 8, 8, 2, 4, 0.0, False, False)
    assert type(mha.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    assert isinstance(mha.out_proj, nn.Linear)
    separate = nn.MultiheadAttention(8, 4, kdim=3, vdim=5, add_bias_kv=True, bias=False)
    assert list(separate.state_dict()) == ["q_proj_weight", "k_proj_weight", "v_proj_weight",
                                           "bias_k", "bias_v", "out_proj.weight"]
    assert separate.k_proj_weight.shape == (8, 3) and separate.v_proj_weight.shape == (8, 5)
    assert separate.in_proj_weight is None and separate.in_proj_bias is None
    assert separate.bias_k.shape == (1, 1, 8) and not separate._qkv_same_embed_dim


def test_repr():
    assert repr(nn.MultiheadAttention(8, 2, bias=False)) == (
        "MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, "
        "out_features=8, bias=False)\n)")


def test_first_values_are_drawn_in_torch_order():
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2, add_bias_kv=True)
    torch.manual_seed(0)
    out_proj = nn.Linear(8, 8)  # the output projection draws first, as any Linear does
    in_proj = nn.init.xavier_uniform_(torch.empty(24, 8))
    bias_k = nn.init.xavier_normal_(torch.empty(1, 1, 8))
    bias_v = nn.init.xavier_normal_(torch.empty(1, 1, 8))
    assert torch.equal(mha.out_proj.weight, out_proj.weight)
    assert torch.equal(mha.in_proj_weight, in_proj)
    assert torch.equal(mha.bias_k, bias_k) and torch.equal(mha.bias_v, bias_v)
    assert not mha.in_proj_bias.any() and not mha.out_proj.bias.any()
    torch.manual_seed(0)
    separate = nn.MultiheadAttention(8, 2, kdim=3)
    torch.manual_seed(0)
    nn.Linear(8, 8)
    for name, cols in (("q_proj_weight", 8), ("k_proj_weight", 3), ("v_proj_weight", 8)):
        assert torch.equal(getattr(separate, name),
                           nn.init.xavier_uniform_(torch.empty(8, cols))), name


def test_dtype_and_refused_sizes():
    mha = nn.MultiheadAttention(4, 2, dtype=torch.float64)
    assert all(p.dtype == torch.float64 for p in mha.parameters())
    with pytest.raises(ValueError, match=r"^embed_dim and num_heads must be greater than 0, "
                       r"got embed_dim=0 and num_heads=2 instead$"):
        nn.MultiheadAttention(0, 2)
    with pytest.raises(AssertionError, match="^embed_dim must be divisible by num_heads$"):
        nn.MultiheadAttention(8, 3)


@pytest.mark.parametrize("kw", [{}, {"bias": False}, {"kdim": 3, "vdim": 5}])
def test_output_and_weights_are_attention_head_by_head(kw):
    torch.manual_seed(1)
    mha = nn.MultiheadAttention(8, 2, **kw)
    query = torch.randn(5, 3, 8)
    key, value = torch.randn(4, 3, mha.kdim), torch.randn(4, 3, mha.vdim)
    out, weights = mha(query, key, value, average_attn_weights=False)
    want_out, want_weights = _reference(mha, query, key, value)
    assert out.shape == (5, 3, 8) and weights.shape == (3, 2, 5, 4)
    assert out.grad_fn.name() == "ViewBackward0"
    torch.testing.assert_close(out, want_out)
    torch.testing.assert_close(weights, want_weights)
    averaged = mha(query, key, value)[1]
    assert averaged.grad_fn.name() == "MeanBackward1"
    torch.testing.assert_close(averaged, want_weights.mean(1))
    fused, none = mha(query, key, value, need_weights=False)
    assert none is None
    torch.testing.assert_close(fused, want_out)


def test_gradients_reach_every_parameter_and_input():
    torch.manual_seed(2)
    mha = nn.MultiheadAttention(4, 2, add_bias_kv=True, dtype=torch.float64)
    x = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
    out, weights = mha(x, x, x)
    (out.sum() + weights.square().sum()).backward()
    assert x.grad is not None and x.grad.abs().sum() > 0
    for name, p in mha.named_parameters():
        assert p.grad is not None and p.grad.shape == p.shape, name
    for need_weights in (True, False):
        inputs = (x, *mha.parameters())
        assert torch.autograd.gradcheck(
            lambda x, *_, nw=need_weights: mha(x, x, x, need_weights=nw)[0], inputs)


def test_batch_first_and_unbatched_calls():
    torch.manual_seed(3)
    mha = nn.MultiheadAttention(8, 2)
    first = nn.MultiheadAttention(8, 2, batch_first=True)
    first.load_state_dict(mha.state_dict())
    x = torch.randn(5, 3, 8)
    out, weights = mha(x, x, x)
    out_first, weights_first = first(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1))
    assert out_first.shape == (3, 5, 8) and out_first.grad_fn.name() == "TransposeBackward0"
    torch.testing.assert_close(out_first, out.transpose(0, 1))
    torch.testing.assert_close(weights_first, weights)
    one, one_weights = mha(x[:, 1], x[:, 1], x[:, 1], average_attn_weights=False)
    assert one.shape == (5, 8) and one_weights.shape == (2, 5, 5)
    torch.testing.assert_close(one, out[:, 1])
    unbatched_first = first(x[:, 1], x[:, 1], x[:, 1])[0]  # no batch: nothing to swap
    torch.testing.assert_close(unbatched_first, out[:, 1])


def test_dropout_in_training_only():
    torch.manual_seed(4)
    mha = nn.MultiheadAttention(8, 2, dropout=0.5)
    x = torch.randn(5, 3, 8)
    weights = mha(x, x, x, average_attn_weights=False)[1]
    assert (weights == 0).any() and bool(((weights == 0) | (weights > 0)).all())
    mha.eval()
    weights = mha(x, x, x)[1]
    torch.testing.assert_close(weights.sum(-1), torch.ones(3, 5))
