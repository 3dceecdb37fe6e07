"""set_grad_enabled and the private setters (F142–F145), against torch's API."""


import pytest
import torch

C = torch._C



# F142
def test_set_grad_enabled_construction_and_restore():
    try:
        ctx = torch.set_grad_enabled(False)
        assert not torch.is_grad_enabled() and ctx.prev is True and ctx.mode is False
    finally:
        torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    ctx = torch.set_grad_enabled(False)
    C._set_grad_enabled(True)
    with ctx:
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()  # the prev of construction


# F143, F145
def test_set_grad_enabled_repr_and_clone():
    ctx = torch.set_grad_enabled(False)
    try:
        assert repr(ctx) == str(ctx) == "torch.autograd.grad_mode.set_grad_enabled(mode=False)"
        C._set_grad_enabled(True)
        copy = ctx.clone()
        assert copy is not ctx and copy.mode is False and copy.prev is True
        assert not torch.is_grad_enabled()
    finally:
        C._set_grad_enabled(True)


# F142
@pytest.mark.parametrize(
    "value, name", [(1, "int"), (None, "NoneType"), (len, "builtin_function_or_method")]
)
def test_set_grad_enabled_rejects_non_bools(value, name):
    with pytest.raises(TypeError) as info:
        torch.set_grad_enabled(value)
    assert str(info.value) == (
        f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {name}"
    )
    assert torch.is_grad_enabled()


# F142
def test_set_grad_enabled_messages_for_missing_and_function():
    with pytest.raises(TypeError) as info:
        torch.set_grad_enabled()
    assert str(info.value) == (
        "set_grad_enabled.__init__() missing 1 required positional argument: 'mode'"
    )
    with pytest.raises(TypeError, match=r"must be bool, not function$"):
        @torch.set_grad_enabled
        def f():
            pass


# F144
def test_set_grad_enabled_decorator_does_not_leak():
    @torch.set_grad_enabled(False)
    def f():
        return torch.is_grad_enabled()

    assert torch.is_grad_enabled()
    assert f() is False and torch.is_grad_enabled()

    @torch.set_grad_enabled(False)
    def gen():
        yield torch.is_grad_enabled()

    assert list(gen()) == [False] and torch.is_grad_enabled()


def test_private_setters_check_types():
    for setter, name in ((C._set_grad_enabled, "set_grad_enabled"),
                         (C._set_multithreading_enabled, "set_multithreading_enabled"),
                         (C._set_view_replay_enabled, "set_view_replay_enabled")):
        with pytest.raises(TypeError) as info:
            setter(1)
        assert str(info.value) == (
            f"{name}(): argument 'enabled' (position 1) must be bool, not int"
        )
        with pytest.raises(TypeError) as info:
            setter()
        assert str(info.value) == f'{name}() missing 1 required positional arguments: "enabled"'
