"""torch.nn.TransformerEncoder in eval mode with a padding mask: padded positions come out zero.

Torch runs such a batch as nested tensors when its layers allow; what a user sees of that
run is the output padded back with zeros, and the positions kept attending to each other
only. Everywhere else the padded positions are computed as any other.
"""

import warnings

import torch
from torch import nn


def _encoder(**kw):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, **kw)
    return nn.TransformerEncoder(layer, 2)


def _run(encoder, x, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch's notice that nesting is new
        return encoder(x, **kw)


PADDING = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [True] * 5])


def test_eval_without_grad_zeros_the_padding():
    encoder = _encoder().eval()
    x = torch.randn(3, 5, 8)
    with torch.no_grad():
        out = _run(encoder, x, src_key_padding_mask=PADDING)
        alone = _run(encoder, x[1:2, :3])  # the kept positions of the second item, alone
    assert out.shape == (3, 5, 8)
    assert not out[1, 3:].any() and not out[2].any()
    torch.testing.assert_close(out[1, :3], alone[0])


def test_padding_is_computed_where_torch_runs_padded():
    encoder = _encoder()
    x = torch.randn(3, 5, 8)
    padding = PADDING[:2]
    x = x[:2]
    with torch.no_grad():
        training = _run(encoder, x, src_key_padding_mask=padding)  # dropout, but not nested
    assert training[1, 3:].abs().sum() > 0
    encoder.eval()
    with_grad = _run(encoder, x, src_key_padding_mask=padding)  # the parameters want grads
    assert with_grad[1, 3:].abs().sum() > 0 and with_grad.requires_grad
    with torch.no_grad():
        masked = _run(encoder, x, src_key_padding_mask=padding, mask=torch.zeros(5, 5))
        not_prefix = torch.tensor([[False] * 5, [True, False, True, False, False]])
        gaps = _run(encoder, x, src_key_padding_mask=not_prefix)
        nested = _run(encoder, x, src_key_padding_mask=padding)
    assert masked[1, 3:].abs().sum() > 0 and gaps[1, 0].abs().sum() > 0
    torch.testing.assert_close(masked[1, :3], nested[1, :3])


def test_unchecked_masks_are_read_as_lengths():
    encoder = _encoder().eval()
    encoder.mask_check = False
    x = torch.randn(2, 5, 8)
    with torch.no_grad():
        gaps = _run(encoder, x, src_key_padding_mask=torch.tensor(
            [[False] * 5, [True, False, True, True, True]]))  # one position kept
        first = _run(encoder, x, src_key_padding_mask=torch.tensor(
            [[False] * 5, [False, True, True, True, True]]))
    torch.testing.assert_close(gaps, first)
    assert not gaps[1, 1:].any()


def test_layers_unfit_for_nesting_compute_the_padding():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        encoder = _encoder(norm_first=True).eval()
    with torch.no_grad():
        out = _run(encoder, torch.randn(2, 5, 8), src_key_padding_mask=PADDING[:2])
    assert out[1, 3:].abs().sum() > 0
