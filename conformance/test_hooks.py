"""Tensor and node hooks, their checks and their order (F33–F37, F52–F72, F189, F193, F194).

Black-box, against torch's API; every order and message here was recorded from torch 2.13.
"""

import pickle
import weakref
from collections import OrderedDict

import numpy as np
import pytest
import torch
from torch.utils.hooks import RemovableHandle

from conformance._support import leaf, raises

NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"


# F53: registration and replacement
def test_tensor_hook_replaces_the_gradient_and_handle_removes_it():
    a = leaf(1.0, 2.0, 3.0)
    h = a.register_hook(lambda g: g * 10)
    assert type(h) is RemovableHandle
    (a * 2).sum().backward()
    assert a.grad.tolist() == [20.0, 20.0, 20.0]
    h.remove()
    h.remove()
    a.grad = None
    (a * 2).sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 2.0]


def test_tensor_hook_needs_requires_grad():
    with raises(RuntimeError, NO_GRAD):
        torch.ones(3).register_hook(lambda g: g)


def backward_with_tensor_hook(hook):
    a = leaf(1.0, 2.0, 3.0)
    a.register_hook(hook)
    (a * 2).sum().backward()


def _a_raw_saved_value():
    with torch.enable_grad():  # hooks run with grad mode off
        return (leaf(1.0) * 2).grad_fn._raw_saved_self


@pytest.mark.parametrize(
    ("hook", "kind", "message"),
    [
        (lambda g: 5, TypeError, "expected Variable, but hook returned 'int'"),
        (lambda g: (g,), TypeError, "expected Variable, but hook returned 'tuple'"),
        (lambda g: np.ones(3, dtype=np.float32), TypeError,
         "expected Variable, but hook returned 'numpy.ndarray'"),
        (lambda g: np.float32(1), TypeError,
         "expected Variable, but hook returned 'numpy.float32'"),
        (lambda g: OrderedDict(), TypeError,
         "expected Variable, but hook returned 'collections.OrderedDict'"),
        (lambda g: torch.float32, TypeError, "expected Variable, but hook returned 'torch.dtype'"),
        (lambda g: _a_raw_saved_value(), TypeError,
         "expected Variable, but hook returned 'torch._C._autograd.SavedTensor'"),
        (lambda g: torch.nn.Parameter(torch.ones(2)), RuntimeError,
         "hook '<lambda>' has changed the size of value"),
        (lambda g: torch.ones(2), RuntimeError, "hook '<lambda>' has changed the size of value"),
        (lambda g: g.double(), RuntimeError,
         "hook '<lambda>' has changed the type of value (was torch.FloatTensor got "
         "torch.DoubleTensor)"),
        (lambda g: g.long(), RuntimeError,
         "hook '<lambda>' has changed the type of value (was torch.FloatTensor got "
         "torch.LongTensor)"),
    ],
)
def test_tensor_hook_results_are_checked(hook, kind, message):
    with raises(kind, message):
        backward_with_tensor_hook(hook)


def test_hook_names_come_from_dunder_name():
    def named_hook(g):
        return torch.ones(5)

    class Callable:
        def __call__(self, g):
            return torch.ones(5)

    with raises(RuntimeError, "hook 'named_hook' has changed the size of value"):
        backward_with_tensor_hook(named_hook)
    with raises(RuntimeError, "hook '<unknown>' has changed the size of value"):
        backward_with_tensor_hook(Callable())
    for name, shown in ((5, "<unknown>"), (None, "<unknown>"), (b"raw", "raw")):
        hook = Callable()
        hook.__name__ = name  # only a str or bytes name is shown
        with raises(RuntimeError, f"hook '{shown}' has changed the size of value"):
            backward_with_tensor_hook(hook)


def test_non_callable_hook_fails_only_when_called():
    a = leaf(1.0)
    a.register_hook(5)
    with raises(TypeError, "'int' object is not callable"):
        (a * 2).sum().backward()


def test_hook_returning_its_argument_is_not_checked_and_changes_nothing():
    a = leaf(1.0, 2.0)
    a.register_hook(lambda g: g)
    (a * 3).sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]


# F34, F35, F68, F69: node hook results
def backward_with_node_hooks(pre=None, post=None, scalar=True):
    a = leaf(1.0, 2.0, 3.0)
    b = a * 2 if scalar else a * torch.ones(3)
    if pre is not None:
        b.grad_fn.register_prehook(pre)
    if post is not None:
        b.grad_fn.register_hook(post)
    b.sum().backward()
    return a


@pytest.mark.parametrize(
    ("hooks", "kind", "message"),
    [
        ({"post": lambda gi, go: (gi[0], gi[0])}, RuntimeError,
         "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)"),
        ({"post": lambda gi, go: gi[0]}, TypeError, "expected tuple, but hook returned 'Tensor'"),
        ({"post": lambda gi, go: list(gi)}, TypeError, "expected tuple, but hook returned 'list'"),
        ({"post": lambda gi, go: np.ones(1)}, TypeError,
         "expected tuple, but hook returned 'numpy.ndarray'"),
        ({"pre": lambda go: torch.float32}, TypeError,
         "expected tuple, but hook returned 'torch.dtype'"),
        ({"post": lambda gi, go: (5,)}, TypeError, "expected Variable, but hook returned 'int'"),
        ({"post": lambda gi, go: (torch.ones(2),)}, RuntimeError,
         "hook '<lambda>' has changed the size of value"),
        ({"pre": lambda go: (go[0], go[0])}, RuntimeError,
         "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)"),
        ({"pre": lambda go: [go[0]]}, TypeError, "expected tuple, but hook returned 'list'"),
        ({"pre": lambda go: (torch.ones(2),)}, RuntimeError,
         "hook '<lambda>' has changed the size of value"),
    ],
)
def test_node_hook_results_are_checked(hooks, kind, message):
    def run():
        a = leaf(1.0, 2.0, 3.0)
        b = a.clone()
        if "pre" in hooks:
            b.grad_fn.register_prehook(hooks["pre"])
        if "post" in hooks:
            b.grad_fn.register_hook(hooks["post"])
        b.sum().backward()

    with raises(kind, message):
        run()


def test_post_hook_cannot_replace_a_none_entry():
    def hook(gi, go):
        return (gi[0], torch.ones(3))

    with raises(RuntimeError, "can't replace a None gradient with a non-None value"):
        backward_with_node_hooks(post=hook, scalar=False)


def test_post_hook_none_entry_drops_the_gradient():
    a = leaf(1.0, 2.0)
    b = a.clone()
    b.grad_fn.register_hook(lambda gi, go: (None,))
    b.sum().backward()
    assert a.grad is None


def test_chained_node_hooks_see_each_others_results():
    seen = []
    a = leaf(1.0)
    b = a * 2
    b.grad_fn.register_prehook(lambda go: (go[0] * 10,))
    b.grad_fn.register_prehook(lambda go: seen.append(("pre2", go[0].item())))
    b.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, gi[1]))
    b.grad_fn.register_hook(lambda gi, go: seen.append(("post2", gi[0].item(), go[0].item())))
    b.backward()
    assert seen == [("pre2", 10.0), ("post2", 21.0, 10.0)]
    assert a.grad.item() == 21.0


def test_accumulate_grad_pre_hook_changes_what_is_accumulated():
    a = leaf(1.0, 2.0)
    acc = a.clone().grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: (go[0] * 100,))
    (a * 2).sum().backward()
    assert a.grad.tolist() == [200.0, 200.0]


# F52: undefined gradients
def test_hook_on_output_without_gradient_is_called_with_none():
    calls = []
    x, y = leaf(1.0, 2.0).clone().unbind()
    x.register_hook(lambda g: calls.append(("x", g)))
    y.register_hook(lambda g: calls.append(("y", g)))
    x.backward()
    assert [name for name, _ in calls] == ["x", "y"]
    assert calls[0][1].item() == 1.0 and calls[1][1] is None


def test_replacing_a_none_gradient_raises():
    x, y = leaf(1.0, 2.0).clone().unbind()
    y.register_hook(lambda g: torch.ones(()))
    with raises(RuntimeError, "can't replace a None gradient with a non-None value"):
        x.backward()


def test_hook_on_a_tensor_outside_the_graph_is_not_called():
    calls = []
    a, b = leaf(1.0), leaf(2.0)
    b.register_hook(calls.append)
    (a * 2).backward()
    assert calls == []


def test_leaf_hook_and_post_accumulate_hook_with_an_undefined_gradient():
    calls = []
    a = leaf(1.0, 2.0)
    b = a.clone()
    b.grad_fn.register_hook(lambda gi, go: (None,))
    a.register_hook(lambda g: calls.append(("leaf hook", g)))
    a.register_post_accumulate_grad_hook(lambda p: calls.append(("post acc", p.grad)))
    b.sum().backward()
    assert calls == [("leaf hook", None), ("post acc", None)]


# F54, F193, F33
def test_backward_hooks_dict():
    a = leaf(1.0, 2.0)
    b = a * 2
    assert a._backward_hooks is None and b._backward_hooks is None
    h1 = b.register_hook(lambda g: None)
    h2 = b.register_hook(lambda g: None)
    assert type(b._backward_hooks) is OrderedDict
    assert list(b._backward_hooks) == [h1.id, h2.id] and h2.id == h1.id + 1
    a.register_hook(lambda g: None)
    assert type(a._backward_hooks) is OrderedDict and len(a._backward_hooks) == 1


def test_leaf_hook_added_after_the_graph_was_built_still_runs():
    a = leaf(1.0)
    b = a * 2
    a.register_hook(lambda g: g * 5)
    b.backward()
    assert a.grad.item() == 10.0


# F56, F57: order
def test_order_of_every_kind_of_hook_around_one_node_and_one_leaf():
    trace = []
    a = leaf(1.0, 2.0)
    b = a * 2
    node, acc = b.grad_fn, b.grad_fn.next_functions[0][0]
    b.register_hook(lambda g: trace.append(("tensor_hook1", g.tolist(), b.grad)) or g + 1)
    b.retain_grad()
    b.register_hook(lambda g: trace.append(("tensor_hook2", g.tolist())))
    node.register_prehook(lambda go: trace.append(("node_pre", go[0].tolist(), b.grad.tolist())))
    node.register_hook(lambda gi, go: trace.append(("node_post", gi[0].tolist(), go[0].tolist())))
    a.register_hook(lambda g: trace.append(("leaf_tensor_hook", g.tolist(), a.grad)))
    acc.register_prehook(lambda go: trace.append(("acc_pre", a.grad)))
    a.register_post_accumulate_grad_hook(lambda p: trace.append(("post_acc", p.grad.tolist())))
    acc.register_hook(lambda gi, go: trace.append(("acc_post", gi, a.grad.tolist())))
    b.sum().backward()
    assert trace == [
        ("tensor_hook1", [1.0, 1.0], None),
        ("tensor_hook2", [2.0, 2.0]),
        ("node_pre", [2.0, 2.0], [2.0, 2.0]),
        ("node_post", [4.0, 4.0], [2.0, 2.0]),
        ("leaf_tensor_hook", [4.0, 4.0], None),
        ("acc_pre", None),
        ("post_acc", [4.0, 4.0]),
        ("acc_post", (), [4.0, 4.0]),
    ]


def test_retain_grad_runs_after_later_registered_hooks():
    a = leaf(1.0, 2.0)
    b = a * 2
    b.retain_grad()
    b.register_hook(lambda g: g * 100)
    b.sum().backward()
    assert b.grad.tolist() == [100.0, 100.0]
    assert a.grad.tolist() == [200.0, 200.0]


def test_engine_order_seen_by_pre_hooks():
    ran = []
    a = leaf(1.0)
    x1, x2, x3 = a * 2, a * 3, a * 4
    s = x1 + x2
    t = s + x3
    for name, node in (("t", t), ("s", s), ("x3", x3), ("x2", x2), ("x1", x1)):
        node.grad_fn.register_prehook(lambda go, name=name: ran.append(name))
    a.register_hook(lambda g: ran.append("leaf hook"))
    x1.grad_fn.next_functions[0][0].register_prehook(lambda go: ran.append("acc"))
    t.backward()
    assert ran == ["t", "s", "x3", "x2", "x1", "leaf hook", "acc"]


def test_leaves_of_a_sum_fire_in_engine_order():
    ran = []
    p, q = leaf(1.0), leaf(2.0)
    p.register_hook(lambda g: ran.append("p"))
    q.register_hook(lambda g: ran.append("q"))
    (p * 2 + q * 3).backward()
    assert ran == ["q", "p"]


def test_multi_output_hooks_in_attach_order():
    calls = []
    x, y = leaf(1.0, 2.0).clone().unbind()
    y.register_hook(lambda g: calls.append("y"))
    x.register_hook(lambda g: calls.append("x"))
    (x + y).backward()
    assert calls == ["y", "x"]


# F58, F37, F194: registration and removal during backward
def test_removal_within_a_group_waits_for_the_next_dispatch():
    calls = []
    a = leaf(1.0)
    handles = []
    a.register_hook(lambda g: calls.append("t1") or handles[0].remove())
    handles.append(a.register_hook(lambda g: calls.append("t2")))
    (a * 2).backward(retain_graph=True)
    assert calls == ["t1", "t2"]


def test_addition_within_a_group_waits_for_the_next_dispatch():
    calls = []
    a = leaf(1.0)
    b = a * 2
    def t1(g):
        calls.append("t1")
        a.register_hook(lambda g: calls.append("late"))

    a.register_hook(t1)
    b.backward(retain_graph=True)
    calls.append("--")
    b.backward()
    assert calls == ["t1", "--", "t1", "late"]


def test_removing_a_later_group_takes_effect_at_once():
    calls = []
    a = leaf(1.0)
    b = a * 2
    post = b.grad_fn.register_hook(lambda gi, go: calls.append("post"))
    b.grad_fn.register_prehook(lambda go: calls.append("pre") or post.remove())
    b.backward()
    assert calls == ["pre"]


def test_post_hook_registered_from_a_pre_hook_fires_in_the_same_pass():
    calls = []
    a = leaf(1.0)
    b = a * 2

    def pre(go):
        calls.append("pre")
        b.grad_fn.register_hook(lambda gi, go: calls.append("late post") or (gi[0] * 0, gi[1]))

    b.grad_fn.register_prehook(pre)
    b.backward()
    assert calls == ["pre", "late post"]
    assert a.grad.item() == 0.0


def test_tensor_hook_registered_during_backward_on_a_later_node_fires():
    calls = []
    a = leaf(1.0, 1.0)
    b = a * 2
    c = b * 3

    def pre(go):
        b.register_hook(lambda g: calls.append(g.tolist()) or g * 0)

    c.grad_fn.register_prehook(pre)
    c.sum().backward()
    assert calls == [[3.0, 3.0]]
    assert a.grad.tolist() == [0.0, 0.0]


# F60, F189, F61, F62, F65, F66
def test_hooks_run_with_grad_mode_off_unless_create_graph():
    seen = []
    a = leaf(1.0)
    b = a * 2
    b.register_hook(lambda g: seen.append((torch.is_grad_enabled(), g.requires_grad)))
    b.grad_fn.register_prehook(lambda go: seen.append((torch.is_grad_enabled(),)))
    torch.autograd.grad(b, a, retain_graph=True)
    torch.autograd.grad(b, a, create_graph=True)
    assert seen == [(False, False), (False,), (True, False), (True,)]


def test_exception_in_a_hook_propagates():
    a = leaf(1.0)
    a.register_hook(lambda g: 1 / 0)
    with raises(ZeroDivisionError, "division by zero"):
        (a * 2).backward()


def test_hook_on_the_root_sees_the_seed():
    seen = []
    a = leaf(1.0, 2.0)
    b = a * 2
    b.register_hook(lambda g: seen.append(g.tolist()) or g * 3)
    b.backward(torch.tensor([1.0, 10.0]))
    assert seen == [[1.0, 10.0]] and a.grad.tolist() == [6.0, 60.0]


def test_same_function_twice_runs_twice_and_on_every_pass():
    calls = []
    a = leaf(1.0)
    b = a * 2
    for _ in range(2):
        b.register_hook(calls.append)
    b.backward(retain_graph=True)
    b.backward()
    assert len(calls) == 4


# F36, F72: grad() and backward(inputs=)
def test_hooks_under_grad_and_backward_inputs():
    calls = []
    a = leaf(1.0, 2.0)
    b = a * 2
    out = (b * 3).sum()
    b.register_hook(lambda g: calls.append("tensor"))
    b.grad_fn.register_prehook(lambda go: calls.append("pre"))
    b.grad_fn.register_hook(lambda gi, go: calls.append("post"))
    a.register_hook(lambda g: calls.append("leaf"))
    (gb,) = torch.autograd.grad(out, b, retain_graph=True)
    assert calls == ["tensor"] and gb.tolist() == [3.0, 3.0]
    calls.clear()
    out.backward(inputs=[b])
    assert calls == ["tensor", "pre", "post"]
    assert b.grad.tolist() == [3.0, 3.0] and a.grad is None


# F64
def test_post_accumulate_grad_hook_checks():
    with raises(
        RuntimeError,
        "post accumulate grad hooks cannot be registered on non-leaf tensors",
    ):
        (leaf(1.0) * 2).register_post_accumulate_grad_hook(print)
    with raises(RuntimeError, NO_GRAD):
        torch.ones(1).register_post_accumulate_grad_hook(print)


def post_accumulate_results(first):
    """Backward through a leaf whose first post-accumulate hook returns ``first``."""
    a, seen = leaf(1.0, 2.0), []
    a.register_post_accumulate_grad_hook(lambda p: first(p))
    a.register_post_accumulate_grad_hook(lambda p: seen.append(p is a))
    try:
        (a * 2).sum().backward()
    finally:
        assert a.grad.tolist() == [2.0, 2.0]
    return seen


def test_post_accumulate_grad_hook_results_are_checked_like_gradient_hooks():
    assert post_accumulate_results(lambda p: p) == [True]
    with raises(TypeError, "expected Variable, but hook returned 'int'"):
        post_accumulate_results(lambda p: 0)
    with raises(RuntimeError, "hook '<lambda>' has changed the size of value"):
        post_accumulate_results(lambda p: torch.ones(3))
    with raises(
        RuntimeError,
        "hook '<lambda>' has changed the type of value "
        "(was torch.FloatTensor got torch.DoubleTensor)",
    ):
        post_accumulate_results(lambda p: p.double())


def test_post_accumulate_grad_hook_tensor_result_passes_on_then_fails():
    other = torch.zeros(2)
    a, seen = leaf(1.0, 2.0), []
    a.register_post_accumulate_grad_hook(lambda p: other)
    a.register_post_accumulate_grad_hook(lambda p: seen.append(p is other))
    with raises(RuntimeError, "Tensor post accumulate grad hooks should return None."):
        (a * 2).sum().backward()
    assert seen == [True]


def test_post_accumulate_grad_hook_as_an_optimizer_step():
    w = leaf(1.0, -1.0)

    def step(p):
        with torch.no_grad():
            p.sub_(0.5 * p.grad)
        p.grad = None

    w.register_post_accumulate_grad_hook(step)
    (w * 2).sum().backward()
    assert w.tolist() == [0.0, -2.0] and w.grad is None


# F67: RemovableHandle
def test_handles_share_a_dict_per_kind_of_node_hook():
    b = leaf(1.0) * 2
    pre1, pre2 = b.grad_fn.register_prehook(print), b.grad_fn.register_prehook(print)
    post = b.grad_fn.register_hook(print)
    assert pre1.hooks_dict_ref() is pre2.hooks_dict_ref()
    assert pre1.hooks_dict_ref() is not post.hooks_dict_ref()
    assert pre2.id == pre1.id + 1


def test_handle_as_context_manager():
    calls = []
    a = leaf(1.0)
    b = a * 2
    with b.grad_fn.register_prehook(lambda go: calls.append("pre")) as handle:
        assert isinstance(handle, RemovableHandle)
        b.backward(retain_graph=True)
    b.backward()
    assert calls == ["pre"]


def test_handle_pickles_with_its_dict_and_id():
    hooks = OrderedDict()
    handle = RemovableHandle(hooks)
    hooks[handle.id] = "hook"
    hooks_copy, copy = pickle.loads(pickle.dumps((hooks, handle)))
    assert copy.id == handle.id
    assert copy.hooks_dict_ref() is hooks_copy and hooks_copy == {handle.id: "hook"}
    assert RemovableHandle.next_id > handle.id
    copy.remove()
    assert hooks_copy == {} and hooks == {handle.id: "hook"}


def test_handle_is_silent_when_its_dict_is_gone():
    handle = RemovableHandle(OrderedDict())
    assert handle.hooks_dict_ref() is None
    handle.remove()


def test_handle_removes_from_extra_dicts():
    main, extra = OrderedDict(), OrderedDict()
    handle = RemovableHandle(main, extra_dict=extra)
    main[handle.id] = extra[handle.id] = "hook"
    handle.remove()
    assert main == {} and extra == {}


def test_handle_takes_extra_dicts_only_as_a_dict_or_a_list():
    main, extra = OrderedDict(), OrderedDict()
    handle = RemovableHandle(main, extra_dict=(extra,))  # a tuple names no extra dict
    main[handle.id] = extra[handle.id] = "hook"
    handle.remove()
    assert main == {} and extra == {handle.id: "hook"}
    assert RemovableHandle(OrderedDict(), extra_dict=3).extra_dict_ref == ()
    with raises(TypeError, "cannot create weak reference to 'NoneType' object"):
        RemovableHandle(OrderedDict(), extra_dict=[None])


def test_handle_unpickled_without_dicts():
    handle = RemovableHandle.__new__(RemovableHandle)
    handle.__setstate__((None, 7))
    assert type(handle.hooks_dict_ref) is weakref.ref and handle.hooks_dict_ref() is None
    assert handle.extra_dict_ref == () and handle.id == 7
    handle.remove()
    handle.__setstate__((OrderedDict(), 8, None))
    assert handle.extra_dict_ref == () and handle.id == 8
    extra = OrderedDict({9: "hook"})
    handle.__setstate__((OrderedDict(), 9, (extra,)))
    handle.remove()
    assert extra == {}
    with raises(TypeError, "cannot create weak reference to 'NoneType' object"):
        handle.__setstate__((OrderedDict(), 10, (None,)))


def test_hooks_registered_before_an_in_place_op_stay_with_the_old_grad_fn():
    # F63: the hook registered after cos_ sees the gradient of the cos output,
    # the one registered before sees the gradient of the sin output.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    t = a.sin()
    seen = []
    t.register_hook(lambda g: seen.append(("before", [round(v, 4) for v in g.tolist()])))
    t.cos_()
    t.register_hook(lambda g: seen.append(("after", g.tolist())))
    t.sum().backward()
    assert seen == [("after", [1.0, 1.0]), ("before", [-0.7456, -0.7891])]


def test_base_hooks_stay_with_its_old_history_after_a_write_through_a_view():
    a = leaf(1.0, 1.0, 1.0, 1.0)
    b = a * 1
    seen = []
    b.register_hook(lambda g: seen.append(("before", g.tolist())))
    b[:2].mul_(3)
    b.register_hook(lambda g: seen.append(("after", g.tolist())))
    (b * torch.arange(4.0)).sum().backward()
    assert seen == [("after", [0.0, 1.0, 2.0, 3.0]), ("before", [0.0, 3.0, 2.0, 3.0])]


@pytest.mark.parametrize("make", [
    lambda a: a.max(1), lambda a: a.sort(1), lambda a: a.topk(2), lambda a: a.kthvalue(2, 1),
    lambda a: a.cummax(1), lambda a: a.median(1), lambda a: a.mode(1),
])
def test_a_node_hook_sees_only_the_outputs_that_carry_gradients(make):
    a = torch.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]], requires_grad=True)
    values = make(a)[0]
    node, seen = values.grad_fn, []
    node.register_prehook(lambda grads: seen.append(("pre", len(grads))))
    node.register_prehook(lambda grads: (grads[0] * 2,))
    node.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        ("post", len(grad_inputs), len(grad_outputs), grad_outputs[0].reshape(-1).tolist())))
    values.sum().backward()
    assert seen == [("pre", 1), ("post", 1, 1, [2.0] * values.numel())]
    assert len(node._input_metadata) == 1
    assert a.grad.sum().item() == 2 * values.numel()  # the doubled gradient went on
