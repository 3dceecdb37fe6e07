"""Oracle test: every public function of torch, torch.nn.functional, torch.linalg and
torch.special that refgrad has, called under vmap in a few argument forms, comes to the
same in refgrad as in torch: the same shapes, dtypes and values, or the same error.

A form where the two libraries already differ called slice by slice, without vmap, is
left out: that difference is not vmap's. Random functions are chapter
19id_random_under_vmap's, and are left out by name (chapter 19ie_functions_under_vmap)."""

import inspect
import warnings

import numpy as np
import pytest
import torch

import refgrad

MODULES = {"torch": (torch, refgrad), "F": (torch.nn.functional, refgrad.nn.functional),
           "linalg": (torch.linalg, refgrad.linalg), "special": (torch.special, refgrad.special)}
LEFT_OUT = (  # state, files, factories, random draws, and functions of no tensor argument
    "_", "set_", "use_", "manual_seed", "seed", "save", "load", "compile", "vmap", "jit", "is_",
    "get_", "initial_seed", "export", "cond", "while_loop", "sym_", "autocast", "register",
    "typename", "from_", "frombuffer", "empty", "ones", "zeros", "rand", "full", "arange",
    "range", "linspace", "logspace", "eye", "tensor", "as_tensor", "asarray", "scalar_tensor",
    "normal", "bernoulli", "multinomial", "poisson", "dropout", "alpha_dropout",
    "feature_alpha_dropout", "rrelu", "gumbel", "fractional", "no_grad", "enable_grad",
    "inference_mode", "compiled", "wait", "fork", "unravel", "tril_indices", "triu_indices",
    "hamming", "hann", "bartlett", "blackman", "kaiser", "can_cast", "promote_types",
    "result_type", "are_deterministic", "sparse", "quantize", "fake_", "fused", "cudnn",
    "miopen", "mkldnn", "native", "lobpcg", "pca_", "svd_lowrank", "stft", "istft",
    "broadcast_shapes", "chain_matmul", "block_diag", "meshgrid", "cartesian_prod", "einsum",
    "align", "unify", "classproperty", "lu_unpack", "print")
# What torch's rules do that refgrad's loop does not yet (chapter 19ih_functions_under_vmap_four)
LEFT = {
    *(("F.affine_grid", form) for form in ("x,y", "m,n", "c,x", "x,i", "m,n;1")),
}

RNG = np.random.default_rng(3)
A = RNG.uniform(0.1, 0.9, (3, 4)).astype(np.float32)
B = RNG.uniform(0.1, 0.9, (3, 4)).astype(np.float32)
M = RNG.uniform(0.1, 0.9, (3, 4, 4)).astype(np.float32) + 2 * np.eye(4, dtype=np.float32)
N = RNG.uniform(0.1, 0.9, (3, 4, 4)).astype(np.float32)
N2 = RNG.uniform(0.1, 0.9, (2, 3, 4)).astype(np.float32)
INTEGERS = RNG.integers(0, 4, (3, 4)).astype(np.int64)
FORMS = {  # form: (how vmap is called, the batched arrays, the slices' arguments)
    "x": ({}, (A,), [(a,) for a in A]),
    "m": ({}, (M,), [(m,) for m in M]),
    "x,y": ({}, (A, B), list(zip(A, B))),
    "m,n": ({}, (M, N), list(zip(M, N))),
    "x,c": ({"in_dims": (0, None)}, (A, B[0]), [(a, B[0]) for a in A]),
    "c,x": ({"in_dims": (None, 0)}, (B[0], A), [(B[0], a) for a in A]),
    "in1": ({"in_dims": 1}, (A.T.copy(),), [(a,) for a in A]),
    "out1": ({"out_dims": 1}, (M,), [(m,) for m in M]),
    "nested": (None, (N2,), [(r,) for r in N2.reshape(6, 4)]),
    "i,x": ({}, (INTEGERS, A), list(zip(INTEGERS, A))),
    "x,i": ({}, (A, INTEGERS), list(zip(A, INTEGERS))),
}
# Forms that pass numbers after the tensors: a dimension, and keepdim (chapter
# 19ig_functions_under_vmap_three); the batched tensors as in the form named.
EXTRA = {"m;-1": ("m", (-1,), {}), "m;0,keep": ("m", (0,), {"keepdim": True}),
         "x;0": ("x", (0,), {}), "m,n;1": ("m,n", (1,), {})}


def _names():
    found = []
    for tag, (theirs, ours) in MODULES.items():
        for name in sorted(dir(theirs)):
            f = getattr(theirs, name)
            if (name.startswith(LEFT_OUT) or not hasattr(ours, name) or inspect.isclass(f)
                    or inspect.ismodule(f) or not callable(f)):
                continue
            found.append((tag, name))
    return found


NAMES = _names()


def _outcome(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecations and torch's slow fallback
        try:
            return "ran", call()
        except Exception as error:  # noqa: BLE001 - every failure is compared
            return "raised", type(error).__name__, str(error).split("\n")[0]


def _with_numbers(f, form):
    """``f`` given the numbers of an EXTRA form after its tensors, and that form's tensors'."""
    if form not in EXTRA:
        return f, form
    tensors, numbers, kwargs = EXTRA[form]
    return (lambda *t: f(*t, *numbers, **kwargs)), tensors


def _under_vmap(lib, f, form):
    f, form = _with_numbers(f, form)
    how, arrays, _ = FORMS[form]
    wrapped = lib.vmap(lib.vmap(f)) if how is None else lib.vmap(f, **how)
    return _outcome(lambda: wrapped(*(lib.tensor(a) for a in arrays)))


def _slice_by_slice(lib, f, form):
    f, form = _with_numbers(f, form)
    return _outcome(lambda: [f(*(lib.tensor(a) for a in args)) for args in FORMS[form][2]])


def _leaves(result):
    if isinstance(result, tuple | list):
        for r in result:
            yield from _leaves(r)
    else:
        yield result


def _described(result):
    found = []
    for leaf in _leaves(result):
        if hasattr(leaf, "dtype") and hasattr(leaf, "shape"):
            found.append((tuple(leaf.shape), str(leaf.dtype), np.asarray(leaf.detach().numpy())))
        else:
            found.append(repr(leaf))
    return found


def _same(theirs, ours) -> bool:
    if theirs[0] != ours[0] or theirs[0] == "raised":
        return theirs == ours
    a, b = _described(theirs[1]), _described(ours[1])
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                return False
        elif x[:2] != y[:2] or not np.allclose(x[2], y[2], rtol=1e-3, atol=1e-4,
                                               equal_nan=True):
            return False
    return True


@pytest.mark.parametrize("form", [*FORMS, *EXTRA])
def test_every_function_under_vmap_comes_to_what_torch_comes_to(form):
    differing = {}
    for tag, name in NAMES:
        theirs, ours = (getattr(m, name) for m in MODULES[tag])
        if not _same(_slice_by_slice(torch, theirs, form), _slice_by_slice(refgrad, ours, form)):
            continue
        found = _under_vmap(torch, theirs, form), _under_vmap(refgrad, ours, form)
        if (f"{tag}.{name}", form) not in LEFT and not _same(*found):
            differing[f"{tag}.{name}"] = found[0][:3], found[1][:3]
    assert not differing


def test_the_sweep_reaches_the_namespaces_and_meets_refusals_and_results():
    tags = {tag for tag, _ in NAMES}
    assert tags == set(MODULES) and len(NAMES) > 500
    assert _under_vmap(torch, torch.tril, "x")[0] == "ran"
    assert _under_vmap(torch, torch.slice_inverse, "x,y")[0] == "raised"
