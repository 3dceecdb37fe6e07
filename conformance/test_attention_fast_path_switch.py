"""Black-box tests: torch.backends.mha's switch of the attention fast path, and what turning
it off shows (a batch-first attention's output no longer contiguous, an encoder's padded
positions no longer zeroed); NonDynamicallyQuantizableLinear in torch.nn.modules.linear.
"""

import contextlib
import warnings

import torch
import torch.backends.mha as mha
from torch import nn


@contextlib.contextmanager
def _fast_path(value):
    mha.set_fastpath_enabled(value)
    try:
        yield
    finally:
        mha.set_fastpath_enabled(True)


def test_the_switch_keeps_what_it_is_given():
    assert mha.get_fastpath_enabled() is True
    with _fast_path(False):
        assert mha.get_fastpath_enabled() is False
        assert torch.backends.mha.get_fastpath_enabled() is False
    with _fast_path(0):  # not checked
        assert mha.get_fastpath_enabled() == 0
    assert mha.get_fastpath_enabled() is True


def test_attention_takes_the_ordinary_path_when_switched_off():
    torch.manual_seed(0)
    attention = nn.MultiheadAttention(4, 2, batch_first=True).eval()
    x = torch.randn(2, 3, 4)
    with torch.no_grad():
        fast = attention(x, x, x, need_weights=False)[0]
        with _fast_path(False):
            slow = attention(x, x, x, need_weights=False)[0]
    assert fast.is_contiguous() and not slow.is_contiguous()
    torch.testing.assert_close(fast, slow)


def test_an_encoder_keeps_padded_positions_when_switched_off():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, 8, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False).eval()
    nested = nn.TransformerEncoder(layer, 1).eval()
    x = torch.randn(2, 3, 4)
    padding = torch.tensor([[False, False, True], [False, False, False]])
    with torch.no_grad(), _fast_path(False):
        slow = nested(x, src_key_padding_mask=padding)
        plain = encoder(x, src_key_padding_mask=padding)
    assert slow[0, 2].abs().sum() > 0
    torch.testing.assert_close(slow, plain)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the first nested run says nested tensors are new
        fast = nested(x, src_key_padding_mask=padding)
    assert fast[0, 2].abs().sum() == 0


def test_non_dynamically_quantizable_linear_lives_with_linear():
    from torch.nn.modules.linear import Linear, NonDynamicallyQuantizableLinear

    assert NonDynamicallyQuantizableLinear.__mro__[1] is Linear
    assert NonDynamicallyQuantizableLinear.__module__.endswith("nn.modules.linear")
    attention = nn.MultiheadAttention(4, 2)
    assert type(attention.out_proj) is NonDynamicallyQuantizableLinear
    assert repr(attention.out_proj) == (
        "NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)")
