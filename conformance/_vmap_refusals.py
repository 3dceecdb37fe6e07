"""What the vmap sweeps' refusal tests share: the exact-text check and their operands."""

import torch

from conformance._support import raises

IN_BMM = "Expected size for first two dimensions of batch2 tensor to be: {} but got: {}."
# reading a number from a batched tensor, without and with a grad inside the vmap
ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
        "calling .item() on a Tensor, please try to rewrite what you're doing with other "
        "operations. If error is occurring somewhere inside PyTorch internals, please file a "
        "bug report.")
EITHER = ("vmap: It looks like you're either (1) calling .item() on a Tensor or (2) attempting "
          "to use a Tensor in some data-dependent control flow or (3) encountering this error "
          "in PyTorch internals. For (1): we don't support vmap over calling .item() on a "
          "Tensor, please try to rewrite what you're doing with other operations. For (2): we "
          "don't support data-dependent control flow in vmap yet, please file an issue at "
          "https://github.com/pytorch/pytorch/issues . For (3): please file an issue.")


def refused(error, text, call):
    """``call()`` raises ``error`` whose message is ``text``, to the letter."""
    with raises(error, text):
        call()


def ones(*shape, dtype=torch.float32):
    return torch.ones(*shape, dtype=dtype)
