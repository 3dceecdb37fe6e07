"""torch.func.functional_call swaps a module's tensors in for one call and back out after it
(also after an exception), follows tied weights, takes a tuple of dicts, and refuses in
torch's words; stack_module_state stacks several models' tensors as new leaves."""

import warnings

import pytest
import torch
from torch import nn
from torch.func import functional_call, grad, stack_module_state, vmap

from conformance._support import raises


class Tied(nn.Module):
    """One parameter under two names, and a buffer the forward rebinds."""

    def __init__(self):
        super().__init__()
        self.foo = nn.Parameter(torch.ones(()))
        self.foo_tied = self.foo
        self.register_buffer("count", torch.zeros(()))

    def forward(self, x):
        self.count = self.count + 1
        return x + self.foo + self.foo_tied


class Raising(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))

    def forward(self, x):
        raise ValueError("inside forward")


def test_the_given_tensors_stand_in_for_one_call_only():
    lin = nn.Linear(2, 1)
    weight, bias = lin.weight, lin.bias
    out = functional_call(lin, {"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
                          torch.tensor([1.0, 2.0]))
    assert out.tolist() == [3.0] and out.grad_fn is None
    assert lin.weight is weight and lin.bias is bias


def test_a_missing_name_keeps_the_module_s_own_tensor():
    lin = nn.Linear(2, 1)
    out = functional_call(lin, {"weight": torch.ones(1, 2)}, (torch.tensor([1.0, 2.0]),))
    assert out.item() == pytest.approx(3.0 + lin.bias.item())
    assert out.grad_fn is not None  # the module's bias requires grad


def test_tied_weights_follow_the_given_value_unless_untied():
    mod = Tied()
    assert functional_call(mod, {"foo": torch.zeros(())}, torch.zeros(())).item() == 0.0
    untied = functional_call(mod, {"foo": torch.zeros(())}, torch.zeros(()), tie_weights=False)
    assert untied.item() == 1.0
    both = {"foo": torch.zeros(()), "foo_tied": torch.ones(())}
    assert functional_call(mod, both, torch.zeros(()), tie_weights=False).item() == 1.0
    with raises(ValueError, "functional_call got multiple values for keys ['foo', 'foo_tied'],"
                " which are tied. Consider using tie_weights=False"):
        functional_call(mod, both, torch.zeros(()))


def test_a_rebound_buffer_lands_in_the_given_dict_not_the_module():
    mod = Tied()
    given = {"count": torch.tensor(5.0)}
    functional_call(mod, given, torch.zeros(()))
    assert given["count"].item() == 6.0 and mod.count.item() == 0.0


def test_the_module_is_restored_after_an_exception():
    mod = Raising()
    w = mod.w
    with raises(ValueError, "inside forward"):
        functional_call(mod, {"w": torch.zeros(2)}, torch.zeros(()))
    assert mod.w is w and isinstance(mod.w, nn.Parameter)


def test_strict_names_missing_and_unexpected_keys():
    mod = Tied()
    with raises(RuntimeError, "Error(s) in reparametrizing for Tied:\n\tMissing key(s): "
                "'count'."):
        functional_call(mod, {"foo": torch.zeros(())}, torch.zeros(()), strict=True)
    extra = {"foo": torch.zeros(()), "count": torch.zeros(()), "x": torch.ones(())}
    with raises(RuntimeError, "Error(s) in reparametrizing for Tied:\n\tUnexpected key(s): "
                "'x'."):
        functional_call(mod, extra, torch.zeros(()), strict=True)


def test_a_tuple_of_dicts_is_merged_and_its_misuse_refused():
    mod = Tied()
    out = functional_call(mod, ({"foo": torch.full((), 2.0)}, {"count": torch.zeros(())}),
                          torch.zeros(()))
    assert out.item() == 4.0
    with raises(ValueError, "['foo'] appeared in multiple dictionaries; behavior of "
                "functional call is ambiguous"):
        functional_call(mod, ({"foo": torch.zeros(())}, {"foo": torch.zeros(())}), torch.zeros(()))
    with raises(ValueError, "Expected all elements of parameter_and_buffer_dicts to be "
                "dictionaries"):
        functional_call(mod, ({"foo": torch.zeros(())}, 3), torch.zeros(()))
    with raises(ValueError, "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple "
                "of dicts, but got <class 'int'>"):
        functional_call(mod, 3, torch.zeros(()))
    with raises(TypeError, "3 is not an instance of torch.Tensor"):
        functional_call(mod, {"foo": 3}, torch.zeros(()))


def test_kwargs_reach_the_forward():
    class Scale(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(()))

        def forward(self, x, *, k):
            return x * self.w * k

    out = functional_call(Scale(), {"w": torch.full((), 3.0)}, (torch.ones(()),), {"k": 2.0})
    assert out.item() == 6.0


def test_the_older_spelling_warns_in_torch_words():
    lin = nn.Linear(1, 1)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = torch.nn.utils.stateless.functional_call(
            lin, {"weight": torch.ones(1, 1), "bias": torch.zeros(1)}, torch.ones(1))
    assert out.tolist() == [1.0]
    assert [(w.category, str(w.message)) for w in seen] == [(FutureWarning, (
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
        "removed in a future version of PyTorch. Please use `torch.func.functional_call` "
        "instead which is a drop-in replacement."))]


def test_gradients_of_a_loss_as_a_dict_of_parameter_names():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    x, t = torch.randn(4, 3), torch.randn(4, 1)
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, xb, tb):
        return nn.functional.mse_loss(functional_call(model, p, xb), tb)

    got = grad(loss)(params, x, t)
    loss(dict(model.named_parameters()), x, t).backward()
    assert list(got) == ["weight", "bias"]
    for name, p in model.named_parameters():
        torch.testing.assert_close(got[name], p.grad)
        assert got[name].grad_fn is None


def test_stack_module_state_makes_new_leaves_for_an_ensemble():
    torch.manual_seed(0)
    models = [nn.Linear(3, 2) for _ in range(4)]
    params, buffers = stack_module_state(models)
    assert buffers == {} and list(params) == ["weight", "bias"]
    assert params["weight"].shape == (4, 2, 3) and params["bias"].shape == (4, 2)
    assert all(p.is_leaf and p.requires_grad for p in params.values())
    assert torch.equal(params["weight"][2], models[2].weight.detach())
    data = torch.randn(5, 3)

    def wrapper(p, b, x):
        return functional_call(models[0], (p, b), x)

    out = vmap(wrapper, (0, 0, None))(params, buffers, data)
    assert out.shape == (4, 5, 2)
    torch.testing.assert_close(out[3], models[3](data).detach())


def test_stack_module_state_refusals():
    with raises(RuntimeError, "stack_module_state: Expected at least one model, got 0."):
        stack_module_state([])
    evaluating = nn.Linear(3, 2).eval()
    with raises(RuntimeError, "stack_module_state: Expected all models to have the same "
                "training/eval mode."):
        stack_module_state([nn.Linear(3, 2), evaluating])
    with raises(RuntimeError, "stack_module_state: Expected all models to be of the same "
                "class."):
        stack_module_state([nn.Linear(3, 2), Raising()])
    frozen = nn.Linear(3, 2)
    frozen.bias.requires_grad_(False)
    with raises(RuntimeError, "Expected bias from each model to have the same .requires_grad"):
        stack_module_state([nn.Linear(3, 2), frozen])
