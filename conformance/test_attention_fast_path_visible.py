"""What shows of torch's fused attention kernels in eval mode without grad: nan rows, layout.

A query whose keys are all masked gets nan from the fused kernels (the softmax computed in
the open), and zeros from the slow path's scaled_dot_product_attention.
"""

import torch
from torch import nn

ALL_PADDING = torch.tensor([[False] * 4, [True] * 4])


def _mha(**kw):
    torch.manual_seed(0)
    return nn.MultiheadAttention(8, 2, batch_first=True, **kw).eval()


def test_fused_attention_gives_nan_for_fully_masked_queries():
    mha, x = _mha(), torch.randn(2, 4, 8)
    with torch.no_grad():
        fast, none = mha(x, x, x, key_padding_mask=ALL_PADDING, need_weights=False)
    assert none is None and fast.is_contiguous() and fast.shape == (2, 4, 8)
    assert bool(fast[1].isnan().all()) and not fast[0].isnan().any()
    slow = mha(x, x, x, key_padding_mask=ALL_PADDING, need_weights=False)[0]  # wants grads
    assert not slow.is_contiguous() and not slow.isnan().any()
    assert not slow[1].detach().any()  # zeros through the output projection's zero bias
    torch.testing.assert_close(fast[0], slow[0].detach())


def test_conditions_that_keep_the_slow_path():
    x = torch.randn(2, 4, 8)
    float_padding = torch.zeros(2, 4).masked_fill(ALL_PADDING, float("-inf"))
    cases = [(_mha(), (x, x, x), {"key_padding_mask": float_padding}),
             (_mha(), (x, x.clone(), x), {"key_padding_mask": ALL_PADDING}),
             (_mha(add_zero_attn=True), (x, x, x), {"key_padding_mask": ALL_PADDING}),
             (_mha().train(), (x, x, x), {"key_padding_mask": ALL_PADDING})]
    for mha, args, kw in cases:
        with torch.no_grad():
            out = mha(*args, need_weights=False, **kw)[0]
        assert not out.isnan().any()


def test_fused_encoder_layer_gives_nan_for_fully_padded_items():
    torch.manual_seed(1)
    layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True).eval()
    x = torch.randn(2, 4, 8)
    with torch.no_grad():
        fast = layer(x, src_key_padding_mask=ALL_PADDING)
        layer.linear1.register_forward_hook(lambda *args: None)  # a hook: the slow path
        hooked = layer(x, src_key_padding_mask=ALL_PADDING)
    assert bool(fast[1].isnan().all()) and not fast[0].isnan().any()
    assert not hooked.isnan().any()
    torch.testing.assert_close(fast[0], hooked[0])
    slow = layer(x, src_key_padding_mask=ALL_PADDING)  # the parameters want grads
    assert not slow.isnan().any()
