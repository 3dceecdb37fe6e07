"""The table of the ops torch's kernels call: how it is read, and what its conditions ask."""

import refgrad as torch
from refgrad.autograd import _profiler_kernels as kernels
from refgrad.autograd._state import state
from refgrad.autograd.profiler import profile
from refgrad.utils._python_dispatch import TorchDispatchMode


def _names(events) -> list:
    """Each event's name with the names inside it, nested as the table nests them."""
    return [(name, condition, _names(inside)) for name, _, condition, inside in events]


def test_an_entry_nests_its_macros_and_takes_their_condition():
    assert _names(kernels.entry("t", "default")) == [  # $VIEW?matrix0: the macro's condition
        ("transpose", None, [("as_strided", "matrix0", []), ("alias", "unmatrix0", [])])]
    wrapped = kernels.entry("mul", "Tensor")[2]
    assert wrapped[0] == "to" and wrapped[2] == "wrap"
    assert _names(wrapped[3]) == [("_to_copy", None, [("empty_strided", None, []),
                                                        ("copy_", None, [])])]


def test_an_overload_wins_over_its_operator_and_unknown_ops_have_none():
    assert kernels.entry("mean", "dim")[0][1] == ("0", ".", ".", ".", "r")
    assert kernels.entry("mean", "default")[0][1] == ("0", ".", ".", ".", ".")
    assert kernels.entry("no_such_op", "default") is None
    assert kernels.entry("neg", "default") is None


def test_kept_sizes_and_matrix_orders():
    x = torch.ones(2, 3, 4)
    assert kernels._kept((x, [0, -1]), {}) == [1, 3, 1]
    assert kernels._kept((x,), {"dim": 1}) == [2, 1, 4]
    assert kernels._kept((x,), {}) == [1, 1, 1]
    m = torch.ones(2, 3)
    assert kernels._rows(m, 1) and not kernels._rows(m, 2)
    assert kernels._rows(m.t(), 2) and not kernels._rows(m.t(), 1)
    assert not kernels._rows(torch.ones(1, 3).expand(2, 3), 1 | 2)
    assert kernels._dense(m.t()) and not kernels._dense(m[:, ::2])


def test_a_number_is_wrapped_only_when_its_type_is_not_the_tensors():
    f, d, i = torch.ones(2), torch.ones(2, dtype=torch.float64), torch.ones(2).long()
    assert kernels._wrapped((f, 2.0), {}, None)
    assert not kernels._wrapped((d, 2.0), {}, None)
    assert kernels._wrapped((d, 2), {}, None)
    assert not kernels._wrapped((i, 2), {}, None)
    assert not kernels._wrapped((f, f), {}, None)
    wrapped_first = kernels._CONDITIONS["wrap0"]  # a number given first
    assert wrapped_first((2.0, f), {}, None) and not wrapped_first((2.0, d), {}, None)
    assert wrapped_first((True, d), {}, None) and not wrapped_first((f, 2.0), {}, None)


def test_a_composite_run_apart_leaves_the_stack_and_the_func_as_they_were():
    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **(kwargs or {}))

    a, w = torch.ones(2, 3), torch.ones(4, 3)
    with Seen() as mode, profile() as prof, torch.inference_mode():
        out = torch.nn.functional.linear(a, w)
        assert [m for m in state.dispatch_modes if m is mode] == [mode]
    assert state.dispatch_modes == []
    assert out.tolist() == [[3.0] * 4] * 2
    names = [e.name for e in prof.function_events]
    assert names.count("aten::linear") == 2 and "aten::mm" in names
    seen.clear()
    with Seen(), torch.inference_mode():  # no profile: the mode sees the composite whole
        torch.nn.functional.linear(a, w)
    assert [f.overloadpacket.__name__ for f in seen] == ["linear"]
