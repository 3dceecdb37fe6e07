"""Oracle test: attention and Transformer models built after one seed, refgrad against torch.

Both libraries build the same model from the same seed, run it on the same inputs and
differentiate it; parameters must be equal to the bit, outputs and gradients equal up to
the rounding of matrix products.
"""

import warnings

import numpy as np
import pytest
import torch

import refgrad

MHA = [{}, {"bias": False}, {"add_bias_kv": True, "add_zero_attn": True},
       {"kdim": 3, "vdim": 5}, {"batch_first": True}]


def _mha_run(lib, kw, need_weights, masks):
    lib.manual_seed(0)
    mha = lib.nn.MultiheadAttention(8, 2, **kw)
    q = lib.tensor(np.random.default_rng(1).standard_normal((5, 3, 8)), dtype=lib.float32)
    kv = np.random.default_rng(2).standard_normal((4, 3, 8))
    k = lib.tensor(kv[..., :kw.get("kdim", 8)], dtype=lib.float32)
    v = lib.tensor(kv[..., :kw.get("vdim", 8)], dtype=lib.float32)
    if kw.get("batch_first"):
        q, k, v = q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1)
    q.requires_grad_()
    extra = {}
    if masks:
        extra["key_padding_mask"] = lib.tensor([[False, False, True, True], [False] * 4,
                                                [True, False, False, False]])
        extra["attn_mask"] = lib.tensor(np.random.default_rng(3).random((5, 4)) > 0.8)
    out, weights = mha(q, k, v, need_weights=need_weights, **extra)
    loss = out.sum() if weights is None else out.sum() + (weights * weights).sum()
    loss.backward()
    grads = {n: p.grad.numpy().copy() for n, p in mha.named_parameters()}
    state = {n: t.numpy().copy() for n, t in mha.state_dict().items()}
    return (state, out.detach().numpy(), None if weights is None else weights.detach().numpy(),
            q.grad.numpy().copy(), grads, repr(mha), out.grad_fn.name())


@pytest.mark.parametrize("kw", MHA)
@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("masks", [False, True])
def test_multihead_attention_matches(kw, need_weights, masks):
    mine, theirs = (_mha_run(lib, kw, need_weights, masks) for lib in (refgrad, torch))
    assert list(mine[0]) == list(theirs[0]) and mine[5:] == theirs[5:]
    for key in theirs[0]:
        assert np.array_equal(mine[0][key], theirs[0][key]), key
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-4, atol=1e-5)
    if need_weights:
        np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(mine[3], theirs[3], rtol=1e-4, atol=1e-5)
    for name in theirs[4]:
        np.testing.assert_allclose(mine[4][name], theirs[4][name], rtol=1e-4, atol=1e-5)


def _transformer_run(lib, kw, train):
    lib.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = lib.nn.Transformer(8, 2, 2, 2, 16, **kw)
    model.train(train)
    shape = (2, 5, 8) if kw.get("batch_first") else (5, 2, 8)
    src = lib.tensor(np.random.default_rng(4).standard_normal(shape), dtype=lib.float32)
    tgt = lib.tensor(np.random.default_rng(5).standard_normal(shape)[:, :4] if kw.get(
        "batch_first") else np.random.default_rng(5).standard_normal(shape)[:4],
        dtype=lib.float32)
    lib.manual_seed(9)  # the dropout draws
    out = model(src, tgt, tgt_mask=lib.nn.Transformer.generate_square_subsequent_mask(4),
                src_key_padding_mask=lib.tensor([[False] * 5, [False] * 3 + [True] * 2]))
    out.sum().backward()
    grads = {n: p.grad.numpy().copy() for n, p in model.named_parameters()}
    state = {n: t.numpy().copy() for n, t in model.state_dict().items()}
    return state, out.detach().numpy(), grads, repr(model)


@pytest.mark.parametrize("kw", [{}, {"norm_first": True, "activation": "gelu"},
                                {"batch_first": True, "bias": False, "layer_norm_eps": 1e-3}])
@pytest.mark.parametrize("train", [False, True])
def test_transformer_matches(kw, train):
    mine, theirs = (_transformer_run(lib, kw, train) for lib in (refgrad, torch))
    assert list(mine[0]) == list(theirs[0]) and mine[3] == theirs[3]
    for key in theirs[0]:
        assert np.array_equal(mine[0][key], theirs[0][key]), key
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-4, atol=1e-5)
    for name in theirs[2]:
        np.testing.assert_allclose(mine[2][name], theirs[2][name], rtol=1e-3, atol=1e-5)


def _encoder_eval(lib):
    lib.manual_seed(0)
    layer = lib.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
    encoder = lib.nn.TransformerEncoder(layer, 2, lib.nn.LayerNorm(8)).eval()
    x = lib.tensor(np.random.default_rng(6).standard_normal((3, 5, 8)), dtype=lib.float32)
    padding = lib.tensor([[False] * 5, [False] * 3 + [True] * 2, [True] * 5])
    with lib.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return encoder(x, src_key_padding_mask=padding).numpy()


def test_encoder_eval_padding_matches():
    np.testing.assert_allclose(_encoder_eval(refgrad), _encoder_eval(torch), rtol=1e-4,
                               atol=1e-5)
