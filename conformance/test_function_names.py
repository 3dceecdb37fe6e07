"""The names around custom Functions: the base class's methods, legacy classes, __all__ lists."""

import warnings

import pytest
import torch

from conformance._support import doubling_function, raises

Function = torch.autograd.Function
function = torch.autograd.function

INSTANTIATED = ("should not be instantiated. Methods on autograd functions are all static, so "
                "you should invoke them on the class itself. Instantiating an autograd function "
                "will raise an error in a future version of PyTorch.")
NO_BACKWARD = ("You must implement either the backward or vjp method for your custom "
               "autograd.Function to use it with backward mode AD.")


@pytest.mark.parametrize("call, message", [
    (lambda x: Function.forward(None, x),
     "You must implement the forward function for custom autograd.Function."),
    (lambda x: Function.apply(x),
     "You must implement the forward function for custom autograd.Function."),
    (lambda x: Function.backward(None, x), NO_BACKWARD),
    (lambda x: Function.vjp(None, x), NO_BACKWARD),
    (lambda x: Function.jvp(None, x), "You must implement the jvp function for custom "
     "autograd.Function to use it with forward mode AD."),
    (lambda x: Function.setup_context(None, (x,), x), "setup_context is not implemented."),
    (lambda x: Function.vmap(None, (0,), x), "To use autograd.Function with vmap, you must "
     "either override the vmap staticmethod or set generate_vmap_rule=True."),
])
def test_what_the_base_class_s_methods_refuse(call, message):
    with raises(NotImplementedError, message):
        call(torch.ones(2, requires_grad=True))


def test_vmap_takes_info_and_in_dims():
    with raises(TypeError, "Function.vmap() missing 2 required positional arguments: 'info' "
                "and 'in_dims'"):
        Function.vmap()


def test_a_function_is_a_context_with_vmap_defaults():
    assert issubclass(Function, function.FunctionCtx)
    assert Function.generate_vmap_rule is False
    for name in ("save_for_backward", "mark_dirty", "mark_non_differentiable",
                 "set_materialize_grads", "save_for_forward", "mark_shared_storage"):
        assert getattr(Function, name).__name__ == name

    class Twice(Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    Twice.apply(x).sum().backward()  # the flag matters to vmap only
    assert x.grad.tolist() == [2.0, 2.0]


def test_an_instance_shows_the_context_s_empty_values():
    with pytest.warns(DeprecationWarning) as caught:
        f = Function()
    assert str(caught[0].message) == f"{Function} {INSTANTIATED}"
    assert f.needs_input_grad is None and f.to_save is None and f.saved_tensors == ()
    assert f.dirty_tensors is None and f.non_differentiable is None
    t = torch.ones(1)
    f.save_for_backward(t)
    assert f.to_save[0] is t


SHARED = ("`mark_shared_storage` is deprecated. Tensors with shared storages are automatically "
          "tracked. Note that calls to `set_()` are not tracked")


def test_mark_shared_storage_only_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert function.FunctionCtx().mark_shared_storage((torch.ones(1), torch.ones(1))) is None
    assert [(w.category, str(w.message)) for w in caught] == [(FutureWarning, SHARED)]
    assert caught[0].filename == __file__

    class Shared(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_shared_storage((x, x))
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.warns(FutureWarning, match="mark_shared_storage"):
        y = Shared.apply(torch.ones(2, requires_grad=True))
    assert y.grad_fn.name() == "SharedBackward" and "mark_shared_storage" in dir(y.grad_fn)


def test_inplace_function_keeps_its_flag():
    Double = doubling_function(torch, "Double", function.InplaceFunction)
    assert Double.__mro__[1:3] == (function.InplaceFunction, Function)
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        assert Double().inplace is False and Double(True).inplace is True
    x = torch.ones(2, requires_grad=True)
    y = Double.apply(x)
    assert y.grad_fn.name() == "DoubleBackward"


class Nested(function.NestedIOFunction):
    pass


def test_nested_io_function_flattens_what_it_marks():
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        n = Nested()
    a, b = torch.ones(1), torch.zeros(1)
    n.mark_dirty(a, [b, (a,)], None, k={"x": b})
    assert [t is u for t, u in zip(n.dirty_tensors, (a, b, a, b))] == [True] * 4
    assert len(n.dirty_tensors) == 4
    n.mark_non_differentiable((b,))
    assert len(n.non_differentiable) == 1 and n.non_differentiable[0] is b
    n.save_for_backward(a, [b])
    assert len(n.to_save) == 2 and n.to_save[1] is b
    with raises(ValueError, "Auto nesting doesn't know how to process an input object of type "
                "int. Accepted types: Tensors, or lists/tuples of them"):
        n.save_for_backward(a, (b, 3))
    with raises(NotImplementedError, ""):
        n.forward_extended(a)
    with raises(NotImplementedError, ""):
        n.backward_extended(a)


def test_the_names_modules_export():
    assert function.__all__ == ["FunctionCtx", "BackwardCFunction", "FunctionMeta", "Function",
                                "once_differentiable", "InplaceFunction", "NestedIOFunction"]
    assert sorted(torch.autograd.__all__) == [
        "Function", "NestedIOFunction", "Variable", "backward", "detect_anomaly", "enable_grad",
        "enforce_grad_layout_policy", "grad", "grad_mode", "gradcheck", "gradgradcheck",
        "inference_mode", "no_grad", "set_detect_anomaly", "set_grad_enabled",
        "set_multithreading_enabled", "variable"]
    assert torch.autograd.NestedIOFunction is function.NestedIOFunction
    assert sorted(torch.autograd.graph.__all__) == [
        "GradientEdge", "Node", "allow_mutation_on_saved_tensors", "disable_saved_tensors_hooks",
        "get_gradient_edge", "increment_version", "region_activation_memory_budget",
        "register_multi_grad_hook", "save_on_cpu", "saved_tensors_hooks",
        "set_override_stale_capture_stream", "set_warn_on_accumulate_grad_stream_mismatch"]


def test_the_stale_capture_stream_switch():
    switch = torch.autograd.graph.set_override_stale_capture_stream
    assert torch._C._override_stale_capture_stream() is False
    try:
        assert switch(True) is None and torch._C._override_stale_capture_stream() is True
        assert switch(enabled=False) is None
        assert torch._C._override_stale_capture_stream() is False
        with raises(RuntimeError, "enabled must be a bool, but got int"):
            switch(1)
        with raises(TypeError, "set_override_stale_capture_stream() missing 1 required "
                    "positional argument: 'enabled'"):
            switch()
        with raises(TypeError, "torch._C._override_stale_capture_stream() takes no arguments "
                    "(1 given)"):
            torch._C._override_stale_capture_stream(True)
    finally:
        switch(False)


BUDGET = "torch.autograd.graph.region_activation_memory_budget"


@pytest.mark.parametrize("budget, kind, message", [
    (0.5, RuntimeError, f"{BUDGET} can only be used inside a torch.compile region; it has no "
     "effect in eager mode."),
    (1, RuntimeError, f"{BUDGET} can only be used inside a torch.compile region; it has no "
     "effect in eager mode."),
    (2, ValueError, f"{BUDGET}: must be in [0, 1], got 2"),
    (-0.1, ValueError, f"{BUDGET}: must be in [0, 1], got -0.1"),
    (True, TypeError, f"{BUDGET}: expects a float, got bool"),
    (None, TypeError, f"{BUDGET}: expects a float, got NoneType"),
])
def test_the_activation_memory_budget_is_for_compiled_code_only(budget, kind, message):
    with raises(kind, message):
        torch.autograd.graph.region_activation_memory_budget(budget)
