"""Oracle test: float16 rsqrt, to the last bit, over every finite float16 and many layouts."""

import numpy as np
import pytest
import torch

import refgrad

FINITE = np.arange(0, 0x7C00, dtype=np.uint16).view(np.float16)
LAYOUTS = {
    "row-major": lambda t: t,
    "rows of 150 of 200": lambda t: t.reshape(300, 200)[:, :150],
    "transposed": lambda t: t.reshape(-1, 3).t(),
    "every other": lambda t: t[::2],
    "rows apart": lambda t: t[:36000].reshape(-1, 50)[:, :37],
    "permuted": lambda t: t[:30000].reshape(20, 30, 50).permute(2, 0, 1),
    "expanded": lambda t: t[:37].reshape(1, 37).expand(5, 37),
    "short": lambda t: t[:7],
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("threads", [1, 2])
def test_float16_rsqrt_bit_for_bit(layout, threads):
    array = np.concatenate([FINITE, -FINITE])[:60000]
    before = torch.get_num_threads(), refgrad.get_num_threads()
    torch.set_num_threads(threads)
    refgrad.set_num_threads(threads)
    try:
        theirs = LAYOUTS[layout](torch.tensor(array)).rsqrt()
        ours = LAYOUTS[layout](refgrad.tensor(array)).rsqrt()
    finally:
        torch.set_num_threads(before[0])
        refgrad.set_num_threads(before[1])
    assert ours.dtype == refgrad.float16 and ours.stride() == theirs.stride()
    assert np.array_equal(ours.numpy(), theirs.numpy(), equal_nan=True)
