"""nn.Module.compile: the module's call compiled in place, keeping its class and its keys."""

import copy
import io
import pickle

import numpy as np
import pytest
import torch

from conformance._support import compile_side_effects_put_back, printed_in_a_fresh_process

# torch's compile, run for the first time, imports modules that warn of their own deprecation.
pytestmark = pytest.mark.filterwarnings(
    "ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")


@pytest.fixture(autouse=True)
def _compile_side_effects_put_back():
    with compile_side_effects_put_back(torch):
        yield


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def refused(kind, words, call):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == words


def test_compile_returns_none_and_the_module_keeps_its_class_repr_and_keys():
    model = torch.nn.Linear(3, 2)
    before = (repr(model), list(model.state_dict()))
    assert model._compiled_call_impl is None and torch.nn.Module._compiled_call_impl is None
    assert model.compile(backend="eager") is None
    assert type(model) is torch.nn.Linear
    assert (repr(model), list(model.state_dict())) == before
    assert [name for name, _ in model.named_parameters()] == ["weight", "bias"]
    assert "_compiled_call_impl" in model.__dict__


def test_the_compiled_call_is_the_modules_call_impl_run_through_compile():
    model = torch.nn.Linear(3, 2)
    model.compile()
    compiled = model._compiled_call_impl
    assert compiled.__name__ == "_call_impl"
    assert compiled._torchdynamo_orig_callable == model._call_impl
    assert compiled.__wrapped__.__func__ is torch.nn.Module._call_impl
    assert torch.nn.Module.__call__ is torch.nn.Module._wrapped_call_impl
    assert torch.nn.Module._call_impl.__qualname__ == "Module._call_impl"


def test_results_and_gradients_are_the_eager_ones():
    x = numbers(4, 3)
    eager, compiled = torch.nn.Linear(3, 2), torch.nn.Linear(3, 2)
    compiled.load_state_dict(eager.state_dict())
    compiled.compile(backend="eager", dynamic=False)
    assert torch.equal(compiled(x), eager(x))
    eager(x).pow(2).sum().backward()
    compiled(x).pow(2).sum().backward()
    assert torch.equal(compiled.weight.grad, eager.weight.grad)
    assert torch.equal(compiled.bias.grad, eager.bias.grad)


# torch's tracer looks at the output's .grad through the hooks, under a filter that the
# suite's turning warnings into errors defeats.
@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor:UserWarning")
def test_hooks_registered_before_and_after_compile_still_fire_in_order():
    model = torch.nn.Linear(3, 2)
    seen = []
    model.register_forward_pre_hook(lambda m, args: seen.append("pre"))
    model.compile(backend="eager")
    model.register_forward_hook(lambda m, args, out: seen.append("forward"))
    model.register_full_backward_hook(lambda m, gin, gout: seen.append("backward"))
    model(numbers(2, 3, seed=1).requires_grad_()).sum().backward()
    assert seen == ["pre", "forward", "backward"]


def test_children_are_not_compiled_and_a_container_keeps_its_keys():
    block = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    block.compile()
    assert block[0]._compiled_call_impl is None and block._compiled_call_impl is not None
    assert list(block.state_dict()) == ["0.weight", "0.bias"]
    assert torch.equal(block(numbers(1, 2)), block[1](block[0](numbers(1, 2))))


def test_disable_stores_the_bound_call_impl_itself():
    model = torch.nn.Linear(2, 2)
    model.compile(disable=True)
    assert model._compiled_call_impl == model._call_impl
    assert model._compiled_call_impl.__func__ is torch.nn.Module._call_impl


def test_compile_refuses_as_torch_compile_does_and_leaves_the_module_alone():
    model = torch.nn.Linear(2, 2)
    refused(torch._dynamo.exc.InvalidBackend, "Invalid backend: 'nope', see "
            "`torch._dynamo.list_backends()` for available backends.",
            lambda: model.compile(backend="nope"))
    refused(RuntimeError, "Unrecognized mode=bogus, should be one of: default, lite, "
            "reduce-overhead, max-autotune-no-cudagraphs, max-autotune",
            lambda: model.compile(mode="bogus"))
    refused(TypeError, "compile() takes from 0 to 1 positional arguments but 3 were given",
            lambda: model.compile(1, 2))
    refused(TypeError, "compile() got an unexpected keyword argument 'foo'",
            lambda: model.compile(foo=1))
    assert model._compiled_call_impl is None
    model.compile(backend="eager")
    kept = model._compiled_call_impl
    with pytest.raises(RuntimeError):
        model.compile(backend="nope")
    assert model._compiled_call_impl is kept


def test_copies_and_pickles_come_back_uncompiled_and_equal():
    model = torch.nn.Linear(3, 2)
    model.compile(backend="eager")
    assert "_compiled_call_impl" not in model.__getstate__()
    x = numbers(2, 3, seed=2)
    for again in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert again._compiled_call_impl is None and "_compiled_call_impl" not in again.__dict__
        assert torch.equal(again(x), model(x))
    buffer = io.BytesIO()
    torch.save(model, buffer)
    buffer.seek(0)
    assert torch.load(buffer, weights_only=False)._compiled_call_impl is None
    assert model._compiled_call_impl is not None


_FIRST_COMPILE = """
import {module} as torch
checks = lambda: torch.distributions.Distribution._validate_args
seen = [checks()]
torch.nn.Linear(1, 1).compile(disable=True)
seen.append(checks())
torch.nn.Linear(1, 1).compile(backend="eager")
seen.append(checks())
print(*seen)
"""


def test_the_first_module_compile_turns_off_the_distributions_checks():
    printed = printed_in_a_fresh_process(_FIRST_COMPILE)
    assert printed.split() == ["True", "True", "False"]
