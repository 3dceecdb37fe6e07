"""The profiler's input shapes and its events for composite ops, as torch 2.13 records them.

Shapes list one entry per argument of the operator's schema, given or not. Composite ops
(``matmul``, ``linear``, ``reshape``, ``to``, ``dropout``, ...) are events
around the ops they call. As in test_profiler.py, the events inside an op's kernel are left
aside: the outline keeps every event whose parent is not an op, a composite not counting as
one.
"""

import pytest
import torch
from torch.autograd.profiler import profile

from conformance._profiler_shapes_expected import OUTLINES

COMPOSITES = ("aten::matmul", "aten::linear", "aten::reshape", "aten::flatten",
              "aten::contiguous", "aten::softmax", "aten::log_softmax", "aten::to",
              "aten::square", "aten::expand_as", "aten::view_as", "aten::dropout",
              "aten::cross_entropy_loss", "aten::nll_loss_nd", "aten::nll_loss",
              "aten::nll_loss2d", "aten::layer_norm", "aten::broadcast_to", "aten::movedim",
              "aten::moveaxis", "aten::ravel", "aten::reshape_as", "aten::chunk",
              "aten::unflatten", "aten::mT", "aten::swapaxes", "aten::swapdims",
              "aten::sum_to_size", "aten::type_as")


def _a():
    return torch.ones(2, 3, requires_grad=True)


def sums():
    a = torch.ones(2, 3)
    a.sum()
    a.sum(1, keepdim=True)
    a.sum(dtype=torch.float64)
    a.mean()
    a.var(1)


def arithmetic():
    a = torch.ones(2, 3)
    a.add(a, alpha=2)
    a + 1
    a * 2
    a ** 2
    a.clamp(min=0)
    torch.where(a > 0, a, a)


def shapes_and_lists():
    a = torch.ones(2, 3)
    a.view(6)
    a.split(1)
    torch.cat([a, a])
    torch.stack([a, a], 1)
    a[torch.ones(2, dtype=torch.long)]
    a.t().clone()


def factories_and_writes():
    a = torch.ones(2, 3)
    torch.zeros_like(a)
    b = a.clone()
    b.add_(1)
    b.copy_(a)
    b.zero_()


def products():
    a, b = _a(), torch.ones(3, 4, requires_grad=True)
    a.mm(b)
    a @ b
    a @ torch.ones(3)
    torch.ones(2, 2, 3) @ b


LAYER = torch.nn.Linear(3, 2)  # made outside the profile: torch records its Parameter's detach


def linear_layers():
    a = _a()
    w, bias = torch.ones(4, 3, requires_grad=True), torch.ones(4, requires_grad=True)
    torch.nn.functional.linear(a, w, bias)
    torch.nn.functional.linear(a, w)
    torch.nn.functional.linear(torch.ones(5, 2, 3), w, bias)
    LAYER(a)


def reshaping():
    a = _a()
    a.reshape(6)
    a.t().reshape(6)
    a.flatten()
    a.t().contiguous()
    a.contiguous()
    torch.ones(2, 3).reshape(3, 2)


def softmaxes():
    a = _a()
    a.softmax(1)
    torch.nn.functional.log_softmax(a, 0)


def conversions():
    a = _a()
    a.to(torch.float64)
    a.to(torch.float32)  # nothing to do: an event with nothing inside
    a.double()
    a.float()
    a.to(torch.ones(1, dtype=torch.float64))
    a.to("cpu")
    a.to(dtype=torch.float64)
    a.type(torch.float64)
    a.to(None, torch.float64)
    a.type_as(a)
    a.type_as(a.double())
    a.softmax(1, dtype=torch.float64)


def more_composites():
    a = _a()
    a.square()
    torch.ones(1, 3).expand_as(a)
    a.view_as(a)
    torch.nn.functional.dropout(a, 0.5)
    torch.nn.functional.dropout(a, 0.5, training=False)


TARGETS = torch.zeros(2, dtype=torch.long)


def losses():
    a = _a()
    torch.nn.functional.cross_entropy(a, TARGETS)
    torch.nn.functional.cross_entropy(a, torch.ones(2, 3))
    torch.nn.functional.cross_entropy(a, TARGETS, reduction="none").sum().backward()
    torch.nn.functional.nll_loss(a, TARGETS)
    torch.nn.functional.nll_loss(a, TARGETS, reduction="sum")
    torch.nn.functional.nll_loss(a[0], TARGETS[0])
    torch.nn.functional.nll_loss(a.log_softmax(1), TARGETS).backward()


def layer_norms():
    a = _a()
    torch.nn.functional.layer_norm(a, (3,))
    torch.nn.functional.layer_norm(a, [3], torch.ones(3), torch.zeros(3))
    torch.nn.functional.layer_norm(a, (2, 3), eps=1e-3).sum().backward()


def moves_and_pieces():
    a = _a()
    a.broadcast_to(2, 2, 3)
    a.movedim(0, 1)
    a.moveaxis(0, 1)
    a.ravel()
    a.t().ravel()
    a.reshape_as(a)
    a.chunk(2)
    a.unflatten(1, (3, 1))
    a.mT
    a.swapaxes(0, 1)
    a.swapdims(0, 1)
    a.sum_to_size(1, 3)


def composites_in_a_backward():
    a = _a()
    w = torch.ones(6, requires_grad=True)
    (a.reshape(6) * w).sum().backward()
    torch.nn.functional.linear(a, torch.ones(4, 3)).sum().backward()


def without_grad():
    a = _a()
    with torch.no_grad():
        a @ torch.ones(3, 4)
        a.reshape(6)


PROGRAMS = [sums, arithmetic, shapes_and_lists, factories_and_writes, products, linear_layers,
            reshaping, softmaxes, conversions, more_composites, losses, layer_norms,
            moves_and_pieces, composites_in_a_backward, without_grad]


def outline(events, composites=COMPOSITES) -> list:
    """(name, parent's name, sequence number from the profile's first, input shapes) of each
    event not inside an op's kernel (the ``composites`` hold events of their own)."""
    kept = [e for e in events if e.cpu_parent is None
            or not e.cpu_parent.name.startswith("aten::") or e.cpu_parent.name in composites]
    kept = [e for e in kept if e.cpu_parent is None or e.cpu_parent in kept]
    numbers = [e.sequence_nr for e in kept if e.sequence_nr >= 0]
    first = min(numbers) if numbers else 0
    return [(e.name, e.cpu_parent.name if e.cpu_parent is not None else None,
             e.sequence_nr - first if e.sequence_nr >= 0 else -1, e.input_shapes)
            for e in kept]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_shapes_and_composite_events(program):
    with profile(record_shapes=True) as prof:
        program()
    assert outline(prof.function_events) == OUTLINES[program.__name__]


def test_without_record_shapes_there_are_none():
    with profile() as prof:
        reshaping()
    assert all(e.input_shapes == [] for e in prof.function_events)


if __name__ == "__main__":  # run with torch to print the expected outlines
    import pprint

    found = {}
    for program in PROGRAMS:
        with profile(record_shapes=True) as prof:
            program()
        found[program.__name__] = outline(prof.function_events)
    pprint.pprint(found, width=100)
