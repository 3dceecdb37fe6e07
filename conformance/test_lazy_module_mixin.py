"""nn.modules.lazy.LazyModuleMixin, seen through nn.LazyLinear: hooks, state and the switch."""

import copy
import pickle
import warnings

import pytest
import torch
from torch import nn
from torch.nn.modules.lazy import LazyModuleMixin
from torch.nn.parameter import UninitializedParameter

from conformance._support import raises

NO_SHAPE = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually "
    "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
    "initialized one. Call `forward` to initialize the parameters before accessing their "
    "attributes.")


def test_the_mixin_is_all_its_module_lists():
    import torch.nn.modules.lazy as lazy

    assert lazy.__all__ == ["LazyModuleMixin"] and lazy.LazyModuleMixin is LazyModuleMixin


def test_construction_gives_no_warning_and_draws_nothing():
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = nn.LazyLinear(4)
    after = torch.rand(1)
    torch.manual_seed(0)
    assert torch.equal(after, torch.rand(1))
    assert isinstance(m, LazyModuleMixin) and LazyModuleMixin.cls_to_become is None
    assert nn.LazyLinear.cls_to_become is nn.Linear


def test_before_the_first_call():
    m = nn.LazyLinear(4)
    assert repr(m) == "LazyLinear(in_features=0, out_features=4, bias=True)"
    assert (m.in_features, m.out_features) == (0, 4) and m.has_uninitialized_params()
    assert [type(p).__name__ for p in m.parameters()] == ["UninitializedParameter"] * 2
    assert [name for name, _ in m.named_parameters()] == ["weight", "bias"]
    state = m.state_dict()
    assert list(state) == ["weight", "bias"]
    assert state["weight"] is m.weight and state["bias"] is m.bias
    assert list(nn.LazyLinear(4, bias=False).state_dict()) == ["weight"]
    assert hasattr(m, "_initialize_hook") and hasattr(m, "_load_hook")


def test_an_optimizer_can_be_built_before_and_steps_after():
    m = nn.LazyLinear(2)
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    m(torch.ones(1, 3)).sum().backward()
    before = m.weight.detach().clone()
    opt.step()
    assert torch.equal(m.weight.detach(), before - 0.5)


def test_the_first_call_initializes_and_switches_the_class():
    torch.manual_seed(0)
    m = nn.LazyLinear(4)
    x = torch.randn(2, 3)
    y = m(x)
    torch.manual_seed(0)
    torch.randn(2, 3)
    plain = nn.Linear(3, 4)
    assert type(m) is nn.Linear and repr(m) == "Linear(in_features=3, out_features=4, bias=True)"
    assert torch.equal(m.weight, plain.weight) and torch.equal(m.bias, plain.bias)
    assert type(m.weight) is nn.Parameter and m.weight.requires_grad
    torch.testing.assert_close(y, plain(x))
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    assert not hasattr(m, "_initialize_hook") and not hasattr(m, "_load_hook")
    assert len(m._forward_pre_hooks) == 0 and len(m._load_state_dict_pre_hooks) == 0
    with raises(AttributeError, "'Linear' object has no attribute 'has_uninitialized_params'"):
        m.has_uninitialized_params()


def test_gradients_reach_the_new_parameters():
    m = nn.LazyLinear(4, dtype=torch.float64)
    x = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    m(x).sum().backward()
    assert torch.equal(m.weight.grad, torch.full((4, 3), 2.0, dtype=torch.float64))
    assert torch.equal(m.bias.grad, torch.full((4,), 2.0, dtype=torch.float64))
    torch.testing.assert_close(x.grad, m.weight.detach().sum(0).expand(2, 3))


def test_in_features_of_an_unbatched_input_and_the_refusals_of_a_scalar():
    m = nn.LazyLinear(4)
    assert m(torch.randn(6)).shape == (4,) and m.in_features == 6
    with raises(IndexError, "tuple index out of range"):
        nn.LazyLinear(4)(torch.tensor(1.0))


def test_loading_a_state_materializes_in_its_shapes():
    source = nn.Linear(3, 4)
    m = nn.LazyLinear(4)
    assert repr(m.load_state_dict(source.state_dict())) == "<All keys matched successfully>"
    assert type(m) is nn.LazyLinear and m.in_features == 0 and m.weight.shape == (4, 3)
    assert torch.equal(m.weight, source.weight) and type(m.weight) is nn.Parameter
    m(torch.randn(2, 3))
    assert type(m) is nn.Linear and m.in_features == 3 and torch.equal(m.weight, source.weight)


def test_a_loaded_module_checks_its_input():
    m = nn.LazyLinear(4)
    m.load_state_dict(nn.Linear(3, 4).state_dict())
    with raises(AssertionError, "The in_features inferred from input: 5 is not equal to "
                "in_features from self.weight: 3"):
        m(torch.randn(2, 5))


def test_loading_placeholders():
    m = nn.LazyLinear(4)
    assert repr(m.load_state_dict(nn.LazyLinear(4).state_dict())) == (
        "<All keys matched successfully>")
    assert m.has_uninitialized_params()
    with raises(RuntimeError, NO_SHAPE):
        nn.Linear(3, 4).load_state_dict(nn.LazyLinear(4).state_dict())


def test_parameters_made_by_hand_are_kept():
    m = nn.LazyLinear(4)
    m.weight.materialize((4, 3))
    m.bias.materialize((4,))
    assert m(torch.ones(2, 3)).shape == (2, 4) and type(m) is nn.Linear and m.in_features == 3


def test_a_module_without_initialize_parameters():
    class Bare(LazyModuleMixin, nn.Module):
        def forward(self, x):
            return x

    with raises(NotImplementedError, "initialize_parameters is not implemented for Bare"):
        Bare()(torch.ones(1))


def test_a_module_left_half_initialized():
    class Half(LazyModuleMixin, nn.Module):
        def __init__(self):
            super().__init__()
            self.p = UninitializedParameter()

        def initialize_parameters(self, x):
            pass

        def forward(self, x):
            return x

    half = Half()
    assert half.cls_to_become is None and half.has_uninitialized_params()
    with raises(RuntimeError, "module Half has not been fully initialized"):
        half(torch.ones(1))


def test_a_call_with_the_wrong_arguments_leaves_it_lazy():
    m = nn.LazyLinear(4)
    with pytest.raises(TypeError):
        m(torch.ones(2, 3), torch.ones(2))
    assert type(m) is nn.LazyLinear and m.has_uninitialized_params()


def test_moves_copies_and_pickles_before_the_first_call():
    m = nn.LazyLinear(4)
    m.to(torch.float64)
    assert type(m.weight) is UninitializedParameter and m.weight.dtype == torch.float64
    # a deep copy keeps the placeholders' dtype; a pickle keeps only requires_grad
    for other, dtype in ((copy.deepcopy(m), torch.float64),
                         (pickle.loads(pickle.dumps(m)), torch.float32)):
        assert type(other) is nn.LazyLinear and other.has_uninitialized_params()
        other(torch.ones(1, 5, dtype=dtype))
        assert type(other) is nn.Linear and other.weight.shape == (4, 5)
        assert other.weight.dtype == dtype
    assert type(m) is nn.LazyLinear


def test_reset_parameters_waits_for_the_shapes():
    m = nn.LazyLinear(4)
    m.reset_parameters()
    assert m.has_uninitialized_params()
