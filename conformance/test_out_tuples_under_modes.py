"""Black-box tests: under a dispatch mode, the func of an out= call with several outs hands
back a plain tuple, and the caller still gets the named tuple, even where the mode hands
back a plain tuple of its own. The same assertions run on torch."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

A = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


class Kinds(TorchDispatchMode):
    def __init__(self, plain=False):
        super().__init__()
        self.plain, self.kinds = plain, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if isinstance(out, tuple):
            self.kinds.append((str(func), type(out).__name__))
            return tuple(out) if self.plain else out
        return out


def _long():
    return torch.empty(0, dtype=torch.long)


CALLS = {  # id: (call, the op, the caller's named tuple)
    "max": (lambda a: torch.max(a, 0, out=(torch.empty(0), _long())), "aten.max.dim_max",
            "max_out"),
    "sort": (lambda a: torch.sort(a, out=(torch.empty(0), _long())), "aten.sort.values",
             "sort_out"),
    "linalg_qr": (lambda a: torch.linalg.qr(a, out=(torch.empty(0), torch.empty(0))),
                  "aten.linalg_qr.out", "linalg_qr_out"),
    "linalg_svd": (lambda a: torch.linalg.svd(a, out=(torch.empty(0), torch.empty(0),
                                                      torch.empty(0))),
                   "aten._linalg_svd.U", "linalg_svd_out"),
    "histogram": (lambda a: torch.histogram(a, 2, out=(torch.empty(0), torch.empty(0))),
                  "aten.histogram.bin_ct_out", "histogram_out"),
}


@pytest.mark.parametrize("plain", [False, True], ids=["as_handed", "made_plain"])
@pytest.mark.parametrize("case", CALLS.values(), ids=CALLS.keys())
def test_func_hands_back_a_plain_tuple_and_the_caller_a_named_one(case, plain):
    call, op, named = case
    a = torch.tensor(A)
    with Kinds(plain) as mode:
        result = call(a)
    assert mode.kinds == [(op, "tuple")]
    assert type(result).__name__ == named
