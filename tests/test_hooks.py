"""White-box tests of refgrad.autograd._hooks: the checks and the snapshot rule."""

from collections import OrderedDict

import pytest

import refgrad
from refgrad.autograd._hooks import (
    call_hooks,
    check_single_result,
    check_tuple_result,
    hook_name,
)


def test_hook_name():
    def named(g):
        return g

    assert hook_name(named) == "named"
    assert hook_name(lambda g: g) == "<lambda>"
    assert hook_name(object()) == "<unknown>"


def test_call_hooks_chains_results_and_keeps_the_value_when_none():
    hooks = OrderedDict([(0, lambda v: v * 2), (1, lambda v: None), (2, lambda v: v + 1)])
    value = call_hooks(hooks, refgrad.tensor([1.0]))
    assert value.tolist() == [3.0]


def test_call_hooks_passes_the_extra_arguments_unchanged():
    seen = []
    hooks = OrderedDict([(0, lambda v, extra: seen.append(extra))])
    call_hooks(hooks, (refgrad.tensor(1.0),), ("extra",))
    assert seen == [("extra",)]


def test_call_hooks_snapshots_the_group():
    calls = []
    hooks = OrderedDict()
    hooks[0] = lambda v: calls.append(0) or hooks.pop(1) and None
    hooks[1] = lambda v: calls.append(1)
    call_hooks(hooks, refgrad.tensor(1.0))
    assert calls == [0, 1] and list(hooks) == [0]


def test_returning_the_argument_is_not_a_replacement():
    value = refgrad.tensor([1.0])
    assert call_hooks(OrderedDict([(0, lambda v: v)]), value) is value


def test_check_single_result_order_of_checks():
    f32, f64 = refgrad.ones(2), refgrad.ones(3, dtype=refgrad.float64)
    with pytest.raises(RuntimeError, match="can't replace a None gradient"):
        check_single_result(None, 5, print)
    with pytest.raises(TypeError, match="hook returned 'int'"):
        check_single_result(f32, 5, print)
    # The type is checked before the size.
    with pytest.raises(RuntimeError, match=r"type of value \(was torch.FloatTensor got "
                                            r"torch.DoubleTensor\)"):
        check_single_result(f32, f64, print)


def test_check_tuple_result_allows_none_entries():
    values = (refgrad.ones(2), None)
    check_tuple_result(values, (None, None), print)
    with pytest.raises(RuntimeError, match="incorrect number of values .got 1, but expected 2."):
        check_tuple_result(values, (None,), print)
    with pytest.raises(TypeError, match="expected tuple, but hook returned 'list'"):
        check_tuple_result(values, [None, None], print)


def test_register_hook_binds_the_dict_to_the_grad_fn_once():
    a = refgrad.tensor([1.0], requires_grad=True)
    b = a * 2
    b.register_hook(print)
    b.register_hook(print)
    assert b.grad_fn._tensor_pre_hooks == [(0, b._backward_hooks)]
    a.register_hook(print)
    accumulate = b.grad_fn.next_functions[0][0]
    assert accumulate._tensor_pre_hooks is None and len(a._backward_hooks) == 1


def test_batched_grad_runs_each_hook_once_per_row():
    # A named difference (chapter "backward and grad"): torch runs each hook once, under vmap.
    a = refgrad.tensor([1.0, 2.0], requires_grad=True)
    m = a * 2
    calls = []
    m.register_hook(lambda g: calls.append(("tensor", g.tolist())))
    m.register_hook(lambda g: g * 10)
    m.grad_fn.register_hook(lambda gi, go: calls.append(("post", gi[0].tolist())))
    (jacobian,) = refgrad.autograd.grad(m * 3, a, refgrad.eye(2), is_grads_batched=True)
    assert calls == [("tensor", [3.0, 0.0]), ("post", [60.0, 0.0]),
                     ("tensor", [0.0, 3.0]), ("post", [0.0, 60.0])]
    assert jacobian.tolist() == [[60.0, 0.0], [0.0, 60.0]]
