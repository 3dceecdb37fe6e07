"""Oracle test: every public in-place method of torch's Tensor that refgrad has, called
under vmap to write a batched value into a tensor the batch does not reach, is refused by
refgrad exactly where and as torch refuses it, and refgrad refuses nothing torch runs.

A method reaches the write by its own way in (NOTE [The way in to a write]); a way in that
refgrad does not know lets the write through, slice after slice, and shows here."""

import warnings

import numpy as np
import pytest
import torch

import refgrad

DATA = np.random.default_rng(7).uniform(0.1, 0.9, (2, 3)).astype(np.float32)
INDEX = [0, 2, 1]
FORMS = {  # the arguments after self, made from the batched value o
    "o": lambda lib, o: (o,),
    "o, o": lambda lib, o: (o, o),
    "o, 0.5": lambda lib, o: (o, 0.5),
    "0, index, o": lambda lib, o: (0, lib.tensor(INDEX), o),
    "mask, o": lambda lib, o: (lib.tensor([True, False, True]), o),
}
NAMES = sorted(n for n in dir(torch.Tensor) if n.endswith("_") and not n.startswith("_")
               and hasattr(refgrad.Tensor, n))
NAMES += ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__", "__iand__",
          "__ior__", "__ixor__", "__ilshift__", "__irshift__", "__setitem__"]


def _outcome(lib, name, form):
    """What the call came to: run, refused by vmap (with the text), or failed otherwise."""
    def write(o):
        return getattr(lib.zeros(3), name)(*FORMS[form](lib, o))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns of its slow fallback; refgrad does not
        try:
            lib.func.vmap(write)(lib.tensor(DATA))
        except Exception as error:  # noqa: BLE001 - every failure is classified
            text = str(error)
            if text.startswith("vmap:") or "doesn't match the broadcast shape" in text:
                return "refused", type(error).__name__, text
            return "failed"
    return "ran"


@pytest.mark.parametrize("form", list(FORMS))
def test_every_in_place_method_is_refused_as_torch_refuses_it(form):
    differing = {}
    for name in NAMES:
        theirs, ours = _outcome(torch, name, form), _outcome(refgrad, name, form)
        if "refused" in (theirs[0], ours[0]) and theirs != ours:
            differing[name] = theirs, ours
    assert not differing


def test_the_sweep_meets_the_refusals_of_every_kind():
    seen = {_outcome(torch, n, "o")[2].split("(")[0] for n in NAMES
            if _outcome(torch, n, "o")[0] == "refused"}
    assert {"vmap: inplace arithmetic", "vmap: aten::greater_", "vmap: aten::subtract_",
            "vmap: aten::set_", "vmap: aten::resize_as_", "vmap: aten::float_power_",
            "output with shape [3] doesn't match the broadcast shape [2, 3]"} <= seen
