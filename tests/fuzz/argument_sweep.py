"""Argument sweep: the public functions called with arguments of the wrong kind.

    python3 tests/fuzz/argument_sweep.py [--only NAME ...]

Each public function of ``torch``, ``torch.nn.functional``, ``torch.linalg``
and ``torch.special`` that refgrad also has is called, in one process, under
both, on a small tensor followed by one argument of a kind users get wrong (an
int where a tuple is expected and the reverse, a tensor where an int or a list
of dims is expected, a float where an int is expected, negative and
out-of-range dims, None), and on empty tensors of shapes (0,), (0, 3) and
(3, 0) alone and with a dim. The outcome is compared: the result's shape,
dtype and values, or the exception's type and text. Differences are printed
one a line, grouped by function. Needs torch installed.
"""

import argparse
import hashlib
import signal
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import torch  # noqa: E402

import refgrad  # noqa: E402

SKIPPED_PREFIXES = ("set_", "use_", "_", "is_", "get_", "compile", "manual_seed", "seed",
                    "initial_seed", "save", "load", "export", "jit", "vmap", "autocast",
                    "from_", "empty_cache", "cond", "while_loop", "sym_", "typename")
DRAWN = ("rand", "lowrank", "dropout", "bernoulli", "multinomial", "normal", "poisson", "empty",
         "gumbel", "rrelu")
NAMESPACES = (("torch", torch, refgrad), ("F", torch.nn.functional, refgrad.nn.functional),
              ("linalg", torch.linalg, refgrad.linalg), ("special", torch.special,
                                                         refgrad.special))


def kinds(lib):
    """The second arguments tried, each made for ``lib``: (label, value)."""
    return [
        ("0", 0), ("5", 5), ("-1", -1), ("-5", -5), ("1.5", 1.5), ("None", None),
        ("(1,)", (1,)), ("[0, 1]", [0, 1]), ("(0, 0)", (0, 0)),
        ("tensor(1)", lib.tensor(1)), ("tensor([1])", lib.tensor([1])),
        ("tensor([0, 1])", lib.tensor([0, 1])), ("tensor(1.)", lib.tensor(1.0)),
        ("empty(0)", lib.zeros(0)), ("empty(0, long)", lib.zeros(0, dtype=lib.int64)),
    ]


def calls(lib):
    """Each call as (label, args): a (2, 3) tensor and a kind, or an empty tensor."""
    x = lib.tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 4 + 0.25)
    for label, value in kinds(lib):
        yield f"x, {label}", (x, value)
    for shape in ((0,), (0, 3), (3, 0)):
        empty = lib.zeros(shape)
        yield f"zeros{shape}", (empty,)
        yield f"zeros{shape}, 0", (empty, 0)
        yield f"zeros{shape}, zeros{shape}", (empty, lib.zeros(shape))


def outcome(function, args, values: bool) -> str:
    """What a call gives, as text both libraries can be compared by."""
    signal.alarm(5)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = function(*args)
    except Exception as error:  # noqa: BLE001 - every refusal is an outcome
        return f"{type(error).__name__}: {error}"
    finally:
        signal.alarm(0)
    return described(result, values)


def described(result, values: bool) -> str:
    if isinstance(result, (tuple, list)):
        return "(" + ", ".join(described(r, values) for r in result) + ")"
    if hasattr(result, "dtype") and hasattr(result, "shape") and hasattr(result, "detach"):
        shown = f"{tuple(result.shape)} {str(result.dtype).replace('refgrad', 'torch')}"
        if values:
            try:
                shown += " " + fingerprint(result.detach().numpy())
            except Exception as error:  # noqa: BLE001 - a tensor numpy cannot hold
                shown += f" ({type(error).__name__})"
        return shown
    return type(result).__name__ if callable(result) else repr(result)


def fingerprint(data) -> str:
    """The values to four significant digits, nan and -0.0 as one: last bits may differ."""
    data = np.asarray(data)
    if data.dtype.kind == "f":
        data = np.where(np.isnan(data), 7.25, data).astype(np.float64)
        data = np.array([float(f"{v:.4g}") for v in data.ravel()]) + 0.0
    return hashlib.md5(np.ascontiguousarray(data).tobytes()).hexdigest()[:8]


def names(theirs, ours):
    for name in sorted(dir(theirs)):
        if name.startswith(SKIPPED_PREFIXES) or not hasattr(ours, name):
            continue
        if callable(getattr(theirs, name)) and not isinstance(getattr(theirs, name), type):
            yield name


def _timeout(signum, frame):
    raise TimeoutError("took more than 5 seconds")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", help="the functions to sweep, by name")
    parser.add_argument("--namespace", nargs="*", help="torch, F, linalg or special")
    options = parser.parse_args()
    signal.signal(signal.SIGALRM, _timeout)
    differences = 0
    for label, theirs, ours in NAMESPACES:
        if options.namespace and label not in options.namespace:
            continue
        for name in names(theirs, ours):
            if options.only and name not in options.only:
                continue
            values = not any(word in name for word in DRAWN)
            for (shown, torch_args), (_, our_args) in zip(calls(torch), calls(refgrad)):
                expected = outcome(getattr(theirs, name), torch_args, values)
                got = outcome(getattr(ours, name), our_args, values)
                if expected.split("\n")[0] != got.split("\n")[0]:
                    differences += 1
                    print(f"{label}.{name}({shown})\n    torch:   {expected[:200]!r}\n"
                          f"    refgrad: {got[:200]!r}", flush=True)
    print(f"{differences} differences")


if __name__ == "__main__":
    main()
