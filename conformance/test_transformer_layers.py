"""torch.nn's Transformer layers, stacks and model: structure, first values, forms, refusals."""

import inspect
import re
import warnings

import pytest
import torch
import torch.nn.functional as F
from torch import nn


def _quiet(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the nested-tensor notice of a stack
        return make()


def test_encoder_layer_is_its_parts_post_norm_and_pre_norm():
    torch.manual_seed(0)
    for norm_first in (False, True):
        layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first)
        x = torch.randn(5, 3, 8)

        def sa(h, layer=layer):
            return layer.self_attn(h, h, h)[0]

        def ff(h, layer=layer):
            return layer.linear2(F.relu(layer.linear1(h)))

        if norm_first:
            h = x + sa(layer.norm1(x))
            want = h + ff(layer.norm2(h))
        else:
            h = layer.norm1(x + sa(x))
            want = layer.norm2(h + ff(h))
        torch.testing.assert_close(layer(x), want)


def test_decoder_layer_is_its_parts():
    torch.manual_seed(1)
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, activation="gelu")
    x, memory = torch.randn(5, 3, 8), torch.randn(4, 3, 8)
    mask = nn.Transformer.generate_square_subsequent_mask(5)
    h = layer.norm1(x + layer.self_attn(x, x, x, attn_mask=mask)[0])
    h = layer.norm2(h + layer.multihead_attn(h, memory, memory)[0])
    want = layer.norm3(h + layer.linear2(F.gelu(layer.linear1(h))))
    torch.testing.assert_close(layer(x, memory, tgt_mask=mask), want)
    torch.testing.assert_close(layer(x, memory, tgt_mask=mask, tgt_is_causal=True), want)


def test_activations():
    assert nn.TransformerEncoderLayer(8, 2).activation is F.relu
    assert nn.TransformerEncoderLayer(8, 2, activation="gelu").activation is F.gelu
    assert inspect.signature(nn.TransformerEncoderLayer).parameters["activation"].default \
        is F.relu
    codes = [nn.TransformerEncoderLayer(8, 2, activation=a).activation_relu_or_gelu
             for a in ("relu", "gelu", nn.ReLU(), nn.GELU(), torch.tanh)]
    assert codes == [1, 2, 1, 2, 0]
    with pytest.raises(RuntimeError, match="^activation should be relu/gelu, not tanh$"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")
    with pytest.raises(RuntimeError, match="^activation should be relu/gelu, not elu$"):
        nn.TransformerDecoderLayer(8, 2, activation="elu")


def test_state_dict_keys_and_repr():
    layer = nn.TransformerDecoderLayer(8, 2, 16, bias=False, layer_norm_eps=1e-3)
    assert list(layer.state_dict()) == [
        "self_attn.in_proj_weight", "self_attn.out_proj.weight",
        "multihead_attn.in_proj_weight", "multihead_attn.out_proj.weight", "linear1.weight",
        "linear2.weight", "norm1.weight", "norm2.weight", "norm3.weight"]
    text = repr(nn.TransformerEncoderLayer(8, 2, 16))
    assert text.splitlines()[:4] == [
        "TransformerEncoderLayer(", "  (self_attn): MultiheadAttention(",
        "    (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, "
        "bias=True)", "  )"]
    assert text.splitlines()[-3:] == ["  (dropout1): Dropout(p=0.1, inplace=False)",
                                      "  (dropout2): Dropout(p=0.1, inplace=False)", ")"]
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 3,
                                    nn.LayerNorm(8))
    assert repr(encoder).splitlines()[:3] == [
        "TransformerEncoder(", "  (layers): ModuleList(",
        "    (0-2): 3 x TransformerEncoderLayer("]


def test_stacks_hold_copies():
    layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 2)
    assert encoder.num_layers == 2 and encoder.norm is None and len(encoder.layers) == 2
    assert all(m is not layer for m in encoder.layers)
    assert encoder.layers[0].linear1.weight is not encoder.layers[1].linear1.weight
    assert torch.equal(encoder.layers[1].linear1.weight, layer.linear1.weight)
    assert not any(m is layer for m in encoder.modules())


def test_transformer_draws_matrices_again_after_building():
    torch.manual_seed(0)
    model = _quiet(lambda: nn.Transformer(8, 2, 1, 1, 16))
    assert len(model.state_dict()) == 34 and (model.d_model, model.nhead) == (8, 2)
    torch.manual_seed(0)  # the same model, built by hand in the same order
    encoder = _quiet(lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 1,
                                                   nn.LayerNorm(8)))
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 1, nn.LayerNorm(8))
    by_hand = [*encoder.parameters(), *decoder.parameters()]
    for p in by_hand:
        if p.dim() > 1:
            nn.init.xavier_uniform_(p)  # the model's second drawing, in parameters() order
    for (name, p), q in zip(model.named_parameters(), by_hand, strict=True):
        assert torch.equal(p, q), name
    assert torch.equal(model.encoder.norm.weight, torch.ones(8))


def test_causal_mask():
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.dtype == torch.float32
    assert mask.tolist() == [[0.0, float("-inf"), float("-inf")], [0.0, 0.0, float("-inf")],
                             [0.0, 0.0, 0.0]]
    assert nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.float64).dtype \
        == torch.float64


def test_transformer_call_and_refusals():
    torch.manual_seed(2)
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True)
    src, tgt = torch.randn(3, 5, 8), torch.randn(3, 4, 8)
    out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(4))
    memory = model.encoder(src)
    want = model.decoder(tgt, memory, tgt_mask=model.generate_square_subsequent_mask(4))
    assert out.shape == (3, 4, 8) and out.grad_fn.name() == "NativeLayerNormBackward0"
    torch.testing.assert_close(out, want)
    out.sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    with pytest.raises(RuntimeError, match="^the batch number of src and tgt must be equal$"):
        model(src, tgt[:2])
    with pytest.raises(RuntimeError, match="^the feature number of src and tgt must be equal "
                                           "to d_model$"):
        model(src[..., :4], tgt)


NOT_NESTED = [
    ({"norm_first": True, "batch_first": True}, "encoder_layer.norm_first was True"),
    ({}, "encoder_layer.self_attn.batch_first was not True(use batch_first for better "
         "inference performance)"),
    ({"bias": False, "batch_first": True}, "encoder_layer.self_attn was passed bias=False"),
    ({"activation": torch.tanh, "batch_first": True},
     "encoder_layer.activation_relu_or_gelu was not True"),
    ({"nhead": 1, "batch_first": True}, "encoder_layer.self_attn.num_heads is odd"),
]


@pytest.mark.parametrize(("kw", "why"), NOT_NESTED)
def test_encoder_says_why_it_cannot_nest(kw, why):
    kw = {"d_model": 8, "nhead": 2, **kw}
    layer = nn.TransformerEncoderLayer(**kw)
    with pytest.warns(UserWarning, match=re.escape(
            f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why}")):
        encoder = nn.TransformerEncoder(layer, 1)
    assert encoder.enable_nested_tensor and not encoder.use_nested_tensor
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
    assert not quiet.use_nested_tensor and quiet.mask_check
    fit = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, batch_first=True), 1)
    assert fit.use_nested_tensor
