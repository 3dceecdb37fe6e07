"""Black-box tests: every in-place method refuses bad arguments as torch's parser does, under
its own name, counting positions after the tensor. The calls are a sweep of bad shapes over
each method: a string at each position, too many positional arguments, none, an unknown
keyword, and a string for each keyword the method's signatures name. What torch 2.13 gives
for each is in _inplace_arguments_expected.py; `python3 -m conformance.test_inplace_argument_sweep`
writes it again from torch. The same assertions run on torch.
"""

import re

import pytest
import torch

from conformance._inplace_arguments_expected import EXPECTED, METHODS

_NAMES = ("other", "alpha", "value", "dim", "min", "max", "exponent", "weight", "end",
          "tensor1", "tensor2", "index", "src", "source", "mask", "rounding_mode", "p", "eps",
          "decimals", "mat1", "mat", "vec1", "batch1", "beta", "nan", "diagonal", "dim0",
          "non_blocking", "generator", "requires_grad", "reduce", "from", "to", "mean", "lambd",
          "median", "fill_value", "values", "n", "include_self", "dtype")


def calls(name: str, names=_NAMES):
    """The sweep's calls of ``t.<name>``, as source, with ``u`` another tensor."""
    yield f"t.{name}()"
    for n in range(3):
        yield f"t.{name}({'u, ' * n}'a')"
    yield f"t.{name}(u, u, u, u, u, u, u)"
    yield f"t.{name}(bogus=1)"
    yield f"t.{name}(u, bogus=1)"
    for keyword in names:
        if keyword != "from":  # a keyword of Python's
            yield f"t.{name}(u, {keyword}='a')"


def outcome(source: str) -> str:
    t, u = torch.ones(2, 2), torch.ones(2, 2)
    try:
        eval(source, {}, {"t": t, "u": u})
    except Exception as error:  # noqa: BLE001 - the sweep compares every failure
        return f"{type(error).__name__}: {error}"
    return "ok"


@pytest.mark.parametrize("source", list(EXPECTED))
def test_an_in_place_method_refuses_as_torch_does(source):
    assert outcome(source) == EXPECTED[source]


def test_the_sweep_covers_every_in_place_method():
    swept = {re.match(r"t\.(\w+)\(", source)[1] for source in EXPECTED}
    assert swept == set(METHODS)
    assert all(hasattr(torch.Tensor, name) for name in METHODS)


def _named(name: str) -> tuple:
    """The keywords the method's signatures name, read from torch's own refusals."""
    said = " ".join(outcome(s) for s in calls(name, ()))
    return tuple(k for k in _NAMES if re.search(rf"\b{k}\b", said))


if __name__ == "__main__":  # torch's outcomes, written as _inplace_arguments_expected.py
    import pprint
    import sys

    methods = sys.argv[1].split()
    expected = {s: outcome(s) for name in methods for s in calls(name, _named(name))}
    print('"""What torch 2.13 gives for the calls of test_inplace_argument_sweep.py (taken from '
          'torch)."""\n\n# ruff: noqa: E501\nMETHODS = ' + pprint.pformat(tuple(methods), width=99)
          + "\nEXPECTED = {\n" + "".join(f"    {s!r}: {o!r},\n" for s, o in expected.items())
          + "}")
