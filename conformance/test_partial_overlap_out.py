"""Black-box tests: a function whose ``out=`` lies partly in the memory of one of its inputs
refuses before anything is computed; ``out`` may be the very input where torch allows it.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._overlaps import allowed, refused_and_untouched, row

# (name, write into the window ``w`` reading the window ``i``)
OUT = [
    ("add", lambda w, i: torch.add(i, 1, out=w)),
    ("mul", lambda w, i: torch.mul(i, 2, out=w)),
    ("neg", lambda w, i: torch.neg(i, out=w)),
    ("exp", lambda w, i: torch.exp(i, out=w)),
    ("maximum", lambda w, i: torch.maximum(i, i, out=w)),
    ("clamp", lambda w, i: torch.clamp(i, 0, 1, out=w)),
    ("where", lambda w, i: torch.where(i > 0, i, i, out=w)),
    ("addcmul", lambda w, i: torch.addcmul(i, i, i, out=w)),
    ("cumsum", lambda w, i: torch.cumsum(i, 0, out=w)),
    ("lt", lambda w, i: torch.lt(i, 0.5, out=w.view(torch.bool)[:6])),
    ("special.expit", lambda w, i: torch.special.expit(i, out=w)),
    ("sort", lambda w, i: torch.sort(i, out=(w, torch.empty(6, dtype=torch.long)))),
    ("addmm", lambda w, i: torch.addmm(i[:4].view(2, 2), torch.ones(2, 2), torch.ones(2, 2),
                                       out=w[:4].view(2, 2))),
    ("addmv", lambda w, i: torch.addmv(i[:2], torch.ones(2, 2), torch.ones(2), out=w[:2])),
    ("index_add", lambda w, i: torch.index_add(i, 0, torch.arange(6), torch.ones(6), out=w)),
]
OUT_ANY = [
    ("cat", lambda w, i: torch.cat([i[:2], i[2:]], out=w)),
    ("index_select", lambda w, i: torch.index_select(i, 0, torch.arange(6), out=w)),
    ("gather", lambda w, i: torch.gather(i, 0, torch.arange(6), out=w)),
    ("take", lambda w, i: torch.take(i, torch.arange(6), out=w)),
]


SAME_OUT = [c for c in OUT if c[0] != "lt"]




@pytest.mark.parametrize("name, write", OUT, ids=[c[0] for c in OUT])
def test_out_refuses_an_input_shifted_by_one(name, write):
    refused_and_untouched(row, write, lambda x: x[1:], lambda x: x[:-1])


@pytest.mark.parametrize("name, write", SAME_OUT, ids=[c[0] for c in SAME_OUT])
def test_out_may_be_the_very_input(name, write):
    allowed(row, write, lambda x: x[:-1], lambda x: x[:-1])


@pytest.mark.parametrize("name, write", OUT_ANY, ids=[c[0] for c in OUT_ANY])
def test_out_of_a_gathering_function_refuses_any_overlap(name, write):
    refused_and_untouched(row, write, lambda x: x[1:], lambda x: x[:-1])
    refused_and_untouched(row, write, lambda x: x[:-1], lambda x: x[:-1])
