"""Black-box tests: an out= tensor whose elements share memory (an expanded tensor) is refused
by nearly every function, before anything is computed or drawn; a few write into it anyway.
The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._out_calls import CALLS
from conformance._support import raises

OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a "
           "single memory location. Please clone() the tensor before performing the operation.")
# torch computes these in two steps into out, and refuses it only at the second: it has
# written the first. refgrad refuses first and writes nothing.
PARTLY_WRITTEN = {"logsumexp", "mean", "nanmean"}
TAKEN = {"all", "any", "amax", "amin", "argmax", "argmin", "histc", "mv", "nansum", "narrow_copy",
         "norm", "prod", "std", "sum", "threshold", "tril", "triu", "var"}


def _result_of(name):
    args, kwargs = CALLS[name](torch)
    function = getattr(torch, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = function(*args, **kwargs)
    return function, args, kwargs, result


def _shared_like(result):
    """An expanded tensor of the result's shape: its first dimension stretched."""
    return torch.zeros((1, *result.shape[1:]), dtype=result.dtype).expand(result.shape)


STRETCHABLE = [name for name in sorted(CALLS) if "." not in name and hasattr(torch, name)
               and isinstance(_result_of(name)[3], torch.Tensor)
               and _result_of(name)[3].dim() and _result_of(name)[3].shape[0] > 1]


@pytest.mark.parametrize("name", STRETCHABLE)
def test_a_shared_out_is_refused_unless_the_kernel_takes_it(name):
    function, args, kwargs, result = _result_of(name)
    out = _shared_like(result)
    if name in TAKEN:
        function(*args, out=out, **kwargs)
        assert out.shape == result.shape
    else:
        with raises(RuntimeError, OVERLAP):
            function(*args, out=out, **kwargs)
        if name not in PARTLY_WRITTEN:
            assert not out.any()  # nothing written


@pytest.mark.parametrize("make, refused", [
    (lambda out: torch.zeros(3, out=out), False), (lambda out: torch.ones(3, out=out), False),
    (lambda out: torch.full((3,), 2.0, out=out), False),
    (lambda out: torch.empty(3, out=out), False),
    (lambda out: torch.arange(3.0, out=out), True),
    (lambda out: torch.linspace(0, 1, 3, out=out), True),
    (lambda out: torch.logspace(0, 1, 3, out=out), True),
    (lambda out: torch.rand(3, out=out), True), (lambda out: torch.randn(3, out=out), True),
    (lambda out: torch.randint(5, (3,), out=out), True),
    (lambda out: torch.bernoulli(torch.full((3,), 0.5), out=out), True),
    (lambda out: torch.normal(torch.zeros(3), 1.0, out=out), True),
    (lambda out: torch.normal(0.0, 1.0, (3,), out=out), True),
])
def test_the_factories_and_draws(make, refused):
    out = torch.zeros(1).expand(3)
    torch.manual_seed(0)
    if refused:
        with raises(RuntimeError, OVERLAP):
            make(out)
        after = torch.rand(1)
        torch.manual_seed(0)
        assert torch.equal(after, torch.rand(1))  # refused before drawing
    else:
        assert make(out) is out


def test_eye_randperm_and_multinomial():
    assert torch.eye(3, out=torch.zeros(1, 1).expand(3, 3)).shape == (3, 3)
    assert torch.randperm(3, out=torch.zeros(1, dtype=torch.int64).expand(3)).shape == (3,)
    with raises(RuntimeError, OVERLAP):
        torch.multinomial(torch.ones(3), 3, out=torch.zeros(1, dtype=torch.int64).expand(3))
