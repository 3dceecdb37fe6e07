"""What the vmap sweeps' refusal tests share: the exact-text check and their operands."""

import torch

from conformance._support import raises

IN_BMM = "Expected size for first two dimensions of batch2 tensor to be: {} but got: {}."


def refused(error, text, call):
    """``call()`` raises ``error`` whose message is ``text``, to the letter."""
    with raises(error, text):
        call()


def ones(*shape, dtype=torch.float32):
    return torch.ones(*shape, dtype=dtype)
