"""What several test files share: torch's long messages, a strict ``raises``, small builders.

Importing this module imports no torch: ``tests/`` uses the repr stand-ins without it, and
``leaf`` looks ``torch`` up when called, so it builds whichever tensor the conformance
session bound that name to.
"""

import contextlib
import logging
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)
MULTI_VIEW = (
    "This view is the output of a function that returns multiple views. Such functions do "
    "not allow the output views to be modified inplace. You should replace the inplace "
    "operation by an out-of-place one."
)
CUSTOM_VIEW = (
    "This view was created inside a custom Function (or because an input was returned "
    "as-is) and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function."
)
OUT_GRAD = ("{}(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad.")
UNUSED = (
    "The differentiated Tensor at index {} appears to not have been used in the graph. "
    "Set allow_unused=True if this is the desired behavior."
)


def cpu_computes_half() -> bool:
    """Whether this CPU has float16 arithmetic (x86's AVX512-FP16 or AMX-FP16), which
    sends torch's float16 convolutions to oneDNN and changes the words of its refusals."""
    cpuinfo = Path("/proc/cpuinfo")
    text = cpuinfo.read_text() if cpuinfo.exists() else ""
    return re.search(r"\b(avx512_fp16|amx_fp16)\b", text) is not None


def mkl_reads_before_it_writes() -> bool:
    """Whether a matrix product or triangular solve whose output is also an operand reads
    that operand whole before writing: always in refgrad; in torch where its matrix library
    (MKL) runs its kernels for Intel's processors. On others (an AMD EPYC, measured) MKL
    writes the output while it still reads it, clearing it first where ``beta`` is zero,
    so an operand that is the output reads zeros. The book names the difference."""
    if os.environ.get("REFGRAD_CONFORMANCE_TARGET", "refgrad") != "torch":
        return True
    cpuinfo = Path("/proc/cpuinfo")
    text = cpuinfo.read_text() if cpuinfo.exists() else ""
    return re.search(r"^vendor_id\s*:\s*GenuineIntel$", text, re.MULTILINE) is not None


def raises(kind, message):
    """pytest.raises that checks the whole message, to the letter, not a pattern."""
    return pytest.raises(kind, match=r"\A" + re.escape(message) + r"\Z")


def refuses_call(call: str, kind, message: str) -> None:
    """``call``, read with ``x`` a 2x2 tensor of ones, raises torch's error and leaves ``x``."""
    import torch

    x = torch.ones(2, 2)
    with raises(kind, message):
        eval(call, {"torch": torch, "x": x})
    assert x.tolist() == [[1.0, 1.0], [1.0, 1.0]]  # an in-place form changed nothing


def first_edges(t) -> list:
    """The names of the nodes met following each node's first edge, down to the leaf."""
    found, node = [], t.grad_fn
    while node is not None and type(node).__name__ != "AccumulateGrad":
        found.append(type(node).__name__)
        node = node.next_functions[0][0]
    return found


def graph_nodes(t) -> list:
    """Every node of ``t``'s graph as (depth, name), depth first, edges in order."""
    found, stack = [], [(t.grad_fn, 0)]
    while stack:
        node, depth = stack.pop()
        found.append((depth, None if node is None else type(node).__name__))
        if node is not None:
            stack.extend((n, depth + 1) for n, _ in reversed(node.next_functions))
    return found


def preorder_names(node, depth: int) -> str:
    """``node`` and the nodes below it, to ``depth`` edges, in preorder: one dot per level,
    ``None`` for an edge that leads nowhere."""
    found, stack = [], [(0, node)]
    while stack:
        level, here = stack.pop()
        found.append("." * level + ("None" if here is None else type(here).__name__))
        if here is not None and level < depth:
            stack.extend((level + 1, child) for child, _ in reversed(here.next_functions))
    return " ".join(found)


def recording_mode(describe=str, with_arguments=False):
    """A dispatch mode class whose ``seen`` lists ``describe(func)`` for each op handed to it
    (``describe(func, args, kwargs)`` with ``with_arguments``)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Recording(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.seen = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.seen.append(describe(func, args, kwargs) if with_arguments else describe(func))
            return func(*args, **(kwargs or {}))

    return Recording


def arguments_shown(func, args, kwargs) -> tuple:
    """(op, the kind of each positional argument, the keywords) as a mode is handed them."""
    import torch

    kinds = ["T" if isinstance(a, torch.Tensor) else type(a).__name__ for a in args]
    return str(func), kinds, dict(kwargs or {})


def shapes_mode():
    """A dispatch mode class whose ``seen`` lists, for each op, (func's name, its arguments
    with each tensor as its sizes before the op ran, its keywords' names, what func
    returned's type name)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Shapes(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.seen = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            import torch

            shown = [list(a.shape) if isinstance(a, torch.Tensor) else a for a in args]
            out = func(*args, **(kwargs or {}))
            self.seen.append((str(func), shown, sorted(kwargs or {}), type(out).__name__))
            return out

    return Shapes


def tensors_as_t(value):
    """``value`` as the tests compare it: each tensor as "T", inside lists and tuples too."""
    import torch

    if isinstance(value, torch.Tensor):
        return "T"
    if isinstance(value, list | tuple):
        return type(value)(tensors_as_t(v) for v in value)
    return value


def calling_mode(show=tensors_as_t):
    """A dispatch mode class whose ``seen`` lists (func's name, the args shown, the kwargs
    shown) and whose ``kept`` lists the calls themselves, (func, args, kwargs)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Calls(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.seen, self.kept = [], []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            self.seen.append((str(func), show(args), {k: show(v) for k, v in kwargs.items()}))
            self.kept.append((func, args, kwargs))
            return func(*args, **kwargs)

    return Calls


def mode_inputs():
    """The float32 x and y and the index i that the mode-argument cases are called with."""
    import torch

    x = torch.arange(6.0).reshape(2, 3) * 0.25 - 0.5
    return x, x * 2 + 1, torch.tensor([1, 0])


def transposed_leaf():
    """The float64 leaf the gradient sweeps take: a transposed (2, 3), strides (1, 2)."""
    import torch

    return (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


def other_operand(x):
    """A second float64 operand of ``x``'s shape, with other values, requiring nothing."""
    import torch

    return torch.arange(6, dtype=torch.float64).reshape(x.shape) * 0.3 + 0.2


def seen_and_called_again(calls, call, expected):
    """Run ``call`` on ``mode_inputs()`` alone and under a ``calling_mode`` class ``calls``:
    the mode's last call must be ``expected`` (name, args shown, kwargs shown) and give
    what the call alone gave. Returns that result, and what the last func gives when
    called again outside the mode with the arguments it was handed."""
    import torch

    x, y, i = mode_inputs()
    alone = call(x, y, i)
    with calls() as mode:
        made = call(x, y, i)
    assert mode.seen[-1] == expected
    assert torch.equal(made, alone) and made.dtype == alone.dtype
    func, given, named = mode.kept[-1]
    return alone, func(*given, **named)


def node_names(node) -> list:
    """The names (``node.name()``) of the graph below ``node``, first edges first; a node
    reached along two paths is named twice."""
    names, stack = [], [node]
    while stack:
        here = stack.pop()
        if here is not None:
            names.append(here.name())
            stack.extend(child for child, _ in reversed(here.next_functions))
    return names


def distinct_values(*shape):
    """Fixed float64 values of ``shape``, no two equal."""
    import torch

    n = 1
    for s in shape:
        n *= s
    k = torch.arange(n, dtype=torch.float64).reshape(shape)
    return k * 0.37 % 1.0 + 0.01 * k / n


def unique_preorder(node) -> list:
    """The names of ``node`` and the nodes below it, each once, in preorder."""
    seen, names, stack = set(), [], [node]
    while stack:
        here = stack.pop()
        if here is None or here in seen:
            continue
        seen.add(here)
        names.append(type(here).__name__)
        stack.extend(child for child, _ in reversed(here.next_functions))
    return names


def leaf(*values, dtype=None):
    """A 1-d tensor of ``values`` that requires grad."""
    import torch

    return torch.tensor(list(values), dtype=dtype, requires_grad=True)


class _MaskedLines(logging.Handler):
    """Keeps each record's message, with addresses masked as ``0x?``."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(re.sub(r"0x[0-9a-f]+", "0x?", record.getMessage()))


@contextlib.contextmanager
def graph_log_lines():
    """The debug records of torch.autograd.graph's logger, while open, as a list of lines."""
    import torch

    log = logging.getLogger(torch.autograd.graph.__name__)
    handler, level = _MaskedLines(), log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        yield handler.lines
    finally:
        log.setLevel(level)
        log.removeHandler(handler)


def doubling_function(torch, name: str = "Doubled", base=None):
    """A custom Function class ``name`` (on ``base``, torch.autograd.Function unless
    given) that doubles its one input, forward and backward, and saves nothing. Made on
    each call, so that a test's node class is its own; ``torch`` is the module under test."""

    def forward(ctx, x):
        return x * 2

    def backward(ctx, g):
        return g * 2

    return type(name, (base or torch.autograd.Function,),
                {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def matrix_leaf(values, dtype=None):
    """A tensor of ``values`` (float64 unless ``dtype`` says) that requires grad."""
    import torch

    return torch.tensor(values, dtype=dtype or torch.float64, requires_grad=True)


def saved_names(node) -> list:
    """The ``_saved_*`` attributes a node shows, sorted."""
    return sorted(name for name in dir(node) if name.startswith("_saved_"))


def numeric_gradient(f, a, eps=1e-6):
    """Central differences of the scalar function ``f`` of the NumPy array ``a``."""
    grad = np.zeros_like(a)
    for index in np.ndindex(a.shape):
        step = np.zeros_like(a)
        step[index] = eps
        grad[index] = (f(a + step) - f(a - step)) / (2 * eps)
    return grad


class DType:
    """Stands in for a torch dtype in repr tests: only its repr is read."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


@dataclass
class StandIn:
    """Stands in for a tensor in repr tests: exactly the attributes the printer reads."""

    _data: np.ndarray
    requires_grad: bool = False
    grad_fn: object = None
    device: str = "cpu"
    dtype: DType = field(init=False)

    def __post_init__(self) -> None:
        self.dtype = DType(self._data.dtype.name)  # NumPy's dtype names are torch's


def forward_ad_refusal(row: str) -> str:
    """torch's words refusing forward AD through ``row``, which has no forward formula."""
    return (f"Trying to use forward AD with {row} that does not support it because it has not "
            "been implemented yet.\nPlease file an issue to PyTorch at https://github.com/"
            "pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize "
            "its implementation or submit a PR adding the implementation to derivatives.yaml")


def shape_and_dtype(value):
    """What a calling mode shows for a value: a tensor as ``T[2, 3] float32``, inside tuples
    and lists too; anything else as it is."""
    import torch

    if isinstance(value, torch.Tensor):
        return f"T{list(value.shape)} {str(value.dtype).replace('torch.', '')}"
    if isinstance(value, tuple | list):
        return type(value)(shape_and_dtype(v) for v in value)
    return value


def event_tree(events) -> list:
    """(depth, name, input shapes) of every profiler event, in the order they began."""
    depth: dict = {}
    rows = []
    for e in events:
        parent = e.cpu_parent
        depth[e.id] = 0 if parent is None else depth[parent.id] + 1
        rows.append((depth[e.id], e.name, e.input_shapes))
    return rows


@contextlib.contextmanager
def compile_side_effects_put_back(*libraries):
    """torch's first compile turns off the distributions' default checks and patches
    Module.__init__ and __setstate__ for the process: put all three back afterwards, in
    each library given."""
    before = [(lib.distributions.Distribution._validate_args,
               {k: vars(lib.nn.Module).get(k) for k in ("__init__", "__setstate__")})
              for lib in libraries]
    try:
        yield
    finally:
        for lib, (checks, methods) in zip(libraries, before, strict=True):
            lib.distributions.Distribution.set_default_validate_args(checks)
            for key, method in methods.items():
                if method is not None:
                    setattr(lib.nn.Module, key, method)
                elif key in vars(lib.nn.Module):  # defined by a base class before
                    delattr(lib.nn.Module, key)


def printed_in_a_fresh_process(code: str, **fields) -> str:
    """What ``code`` prints in a new Python process; ``{module}`` in it names the library
    ``torch`` is bound to here (refgrad, where it stands in for torch)."""
    import torch

    done = subprocess.run([sys.executable, "-c", code.format(module=torch.__name__, **fields)],
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    return done.stdout
