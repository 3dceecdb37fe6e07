"""inference_mode and inference tensors (F147–F157), against torch's API."""

import gc

import pytest
import torch
import torch.autograd.grad_mode as gm

C = torch._C



def modes():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


# F147, F151, F152
def test_inference_mode_basics():
    with torch.inference_mode():
        assert modes() == (False, True)
        t = torch.ones(2)
        leaf = torch.zeros(2, requires_grad=True)
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            assert torch.ones(1).is_inference()
    assert modes() == (True, False)
    assert t.is_inference() and torch.is_inference(t) and not t.requires_grad
    assert leaf.is_inference() and leaf.requires_grad and leaf.is_leaf
    assert not torch.ones(1).is_inference()
    with pytest.raises(RuntimeError) as info:
        t._version
    assert str(info.value) == "Inference tensors do not track version counter."
    assert torch.inference_mode().mode is True


# F149
def test_inference_mode_false_enables_grad_even_in_no_grad():
    with torch.no_grad():
        with torch.inference_mode(False):
            assert modes() == (True, False)
            assert not torch.ones(1).is_inference()
        assert modes() == (False, False)
    with torch.inference_mode():
        with torch.inference_mode(mode=False):
            assert modes() == (True, False)
        assert modes() == (False, True)


def test_is_inference_rejects_non_tensors():
    with pytest.raises(TypeError) as info:
        torch.is_inference(1)
    assert str(info.value) == (
        "is_inference(): argument 'input' (position 1) must be Tensor, not int"
    )


# F148
def test_inference_mode_decorator_forms():
    @torch.inference_mode
    def bare():
        return modes()

    @torch.inference_mode()
    def called():
        return modes()

    @torch.inference_mode(False)
    def off():
        return modes()

    assert bare() == called() == (False, True)
    with torch.inference_mode():
        assert off() == (True, False)
    assert modes() == (True, False)
    clone = torch.inference_mode(False).clone()
    assert isinstance(clone, torch.inference_mode) and clone.mode is False
    odd = torch.inference_mode(1)
    with pytest.raises(TypeError, match="'int' object is not callable"):
        odd()
    with pytest.raises(TypeError) as info:
        torch.inference_mode(True, 2)
    assert str(info.value) == (
        "inference_mode.__new__() takes from 1 to 2 positional arguments but 3 were given"
    )


# F148, F134
def test_inference_mode_generator():
    @torch.inference_mode()
    def gen():
        for _ in range(2):
            yield modes()

    assert list(gen()) == [(False, True), (False, True)]
    assert modes() == (True, False)


# F156
def test_reusing_inference_mode_leaks():
    reused = torch.inference_mode()
    with torch.inference_mode(False):  # a fence that restores the leak
        with reused:
            assert torch.is_inference_mode_enabled()
            with reused:
                inner = modes()
            between = modes()
        after = modes()
    assert (inner, between, after) == ((True, False), (False, True), (False, True))


# F156
def test_inference_mode_exit_without_enter():
    with pytest.raises(AttributeError) as info:
        torch.inference_mode().__exit__(None, None, None)
    assert str(info.value) == "'inference_mode' object has no attribute '_inference_mode_context'"


# F156
def test_out_of_order_exits_restore_in_exit_order():
    with torch.inference_mode(False):  # fence
        outer, inner = torch.inference_mode(), torch.inference_mode(False)
        outer.__enter__()
        inner.__enter__()
        outer.__exit__(None, None, None)
        first = modes()
        inner.__exit__(None, None, None)
        second = modes()
    assert (first, second) == ((True, False), (False, True))


# F157
def test_functional_pair():
    guard = gm._enter_inference_mode(True)
    try:
        assert modes() == (False, True)
    finally:
        gm._exit_inference_mode(guard)
    assert modes() == (True, False)


def test_inference_guard_sets_and_restores_the_other_switches():
    C._set_view_replay_enabled(True)
    try:
        with torch.inference_mode():
            assert not C._is_multithreading_enabled() and not C._is_view_replay_enabled()
            C._set_multithreading_enabled(True)
        assert C._is_multithreading_enabled() and C._is_view_replay_enabled()
    finally:
        C._set_view_replay_enabled(False)


def test_inference_guard_is_raii():
    guard = C._InferenceMode(True)
    assert modes() == (False, True)  # made, not yet entered
    del guard
    gc.collect()
    assert modes() == (True, False)
    guard = C._InferenceMode(True)
    guard.__exit__(None, None, None)
    C._set_grad_enabled(False)
    try:
        guard.__exit__(None, None, None)  # a second exit does nothing
        assert modes() == (False, False)
    finally:
        C._set_grad_enabled(True)


# F150
def test_enable_grad_inside_inference_mode_still_records_nothing():
    # Grad mode reads True, but results are inference tensors without grad.
    y = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        with torch.enable_grad():
            enabled = torch.is_grad_enabled()
            q = y * 2
    assert enabled and not q.requires_grad and q.is_inference()


# F151
def test_views_made_in_inference_mode_follow_their_base():
    # A view of a normal tensor stays normal; a view of an inference tensor is one.
    x = torch.ones(2, 3)
    with torch.inference_mode():
        v, it = x[0], torch.ones(2)
        iv = it[0]
    assert not v.is_inference() and v._version == 0 and iv.is_inference()


# F147
def test_inference_mode_enters_a_fresh_guard_each_time():
    x = torch.ones(2, requires_grad=True)
    im = torch.inference_mode()
    with im:
        first = im._inference_mode_context
        y = x * 2
    with im:
        second = im._inference_mode_context
    assert isinstance(first, torch._C._InferenceMode) and first is not second
    assert (y.is_inference(), y.requires_grad, y.grad_fn) == (True, False, None)
    assert modes() == (True, False)


# F148
def test_inference_mode_none_and_keyword_forms():
    odd = torch.inference_mode(None)  # decorates None: fails only when called
    with pytest.raises(TypeError) as info:
        odd()
    assert str(info.value) == "'NoneType' object is not callable"

    @torch.inference_mode(mode=False)
    def off():
        return modes()

    with torch.inference_mode():
        assert off() == (True, False)
    assert torch.inference_mode(mode=False).clone().mode is False


# F151
def test_inference_tensors_from_ops_views_leaves_and_clones():
    x = torch.ones(2)
    with torch.inference_mode():
        made = torch.ones(2)
        from_op = x * 2
        leaf = torch.ones(2, requires_grad=True)
        from_leaf = leaf * 2
        normal_view = x[0]
    assert from_op.is_inference() and made.is_inference()
    assert leaf.is_inference() and leaf.requires_grad and leaf.is_leaf
    assert from_leaf.is_inference() and not from_leaf.requires_grad
    assert made[0].is_inference() and made.view(2).is_inference()  # views made outside
    x.add_(1)
    assert not normal_view.is_inference() and normal_view._version == 1  # shares x's counter
    assert repr(made) == "tensor([1., 1.])"
    assert repr(leaf) == "tensor([1., 1.], requires_grad=True)"
    assert not made.clone().is_inference()


# F153
@pytest.mark.parametrize("write, after", [
    (lambda t: t.add_(1), [2.0, 2.0]),
    (lambda t: t.mul_(3), [3.0, 3.0]),
    (lambda t: t.zero_(), [0.0, 0.0]),
    (lambda t: t.__setitem__(0, 7.0), [7.0, 1.0]),
    (lambda t: t.copy_(torch.full((2,), 9.0)), [9.0, 9.0]),
])
def test_inference_tensor_writes_outside_land_then_raise(write, after):
    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(RuntimeError) as info:
        write(t)
    assert str(info.value) == (
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
        "a clone to get a normal tensor before doing inplace update.See "
        "https://github.com/pytorch/rfcs/pull/17 for more details."
    )
    assert t.tolist() == after


# F153
def test_inference_tensors_in_recorded_ops_outside():
    with torch.inference_mode():
        t = torch.ones(2)
    x = torch.ones(2, requires_grad=True)
    for must_save in (lambda: x * t, lambda: t * x, lambda: x.exp() * t):
        with pytest.raises(RuntimeError) as info:
            must_save()
        assert str(info.value) == (
            "Inference tensors cannot be saved for backward. Please do not use Tensors created "
            "in inference mode in computation tracked by autograd. To work around this, you can "
            "make a clone to get a normal tensor and use it in autograd, or use "
            "`torch.no_grad()` instead of `torch.inference_mode()`."
        )
    assert (x + t).grad_fn.name() == "AddBackward0"
    with pytest.raises(RuntimeError) as info:
        t.requires_grad_()
    assert str(info.value) == (
        "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
    )


def test_a_guard_cannot_be_copied_so_a_copy_cannot_end_the_mode():
    import copy
    import pickle

    context = torch.inference_mode()
    with context:
        for duplicate in (copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="cannot pickle 'torch._C._InferenceMode' object"):
                duplicate(context)
        assert torch.is_inference_mode_enabled() and torch.ones(1).is_inference()
    guard = C._InferenceMode(False)
    with pytest.raises(TypeError, match="cannot pickle 'torch._C._InferenceMode' object"):
        copy.copy(guard)
    guard.__exit__(None, None, None)


def test_a_guard_refuses_a_mode_that_is_no_bool():
    with pytest.raises(TypeError, match=r"incompatible constructor arguments(.|\n)*"
                                        r"Invoked with: tensor\(\[1, 2\]\)"):
        C._InferenceMode(torch.tensor([1, 2]))
    assert not torch.is_inference_mode_enabled()
    guard = C._InferenceMode(torch.tensor([1]))
    assert torch.is_inference_mode_enabled()
    guard.__exit__(None, None, None)
