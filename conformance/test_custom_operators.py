"""torch.library: custom operators, their schemas, kernels, autograd and names.

Every operator gets a namespace of its own (registrations last for the process).
"""

import itertools

import numpy as np
import pytest
import torch
from torch import Tensor
from torch.utils._python_dispatch import TorchDispatchMode

_fresh = itertools.count()


def fresh(name: str) -> str:
    return f"refgradtest_{next(_fresh)}_{name}::{name}"


def _sin(x: Tensor) -> Tensor:
    return torch.from_numpy(np.sin(x.numpy(force=True)))


def _sin_op():
    op = torch.library.custom_op(fresh("numpy_sin"), _sin, mutates_args=())

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()

    op.register_autograd(backward, setup_context=setup_context)
    return op


def test_custom_op_value_gradient_and_node_name():
    op = _sin_op()
    ns = op._namespace
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y = op(x)
    assert torch.equal(y.detach(), torch.from_numpy(np.sin(x.detach().numpy())))
    name = f"GeneratedBackwardFor_{ns}_numpy_sin_defaultBackward"
    assert type(y.grad_fn).__name__ == name and y.grad_fn.name() == name
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad"]
    y.sum().backward()
    assert torch.equal(x.grad, torch.cos(x.detach()))


def test_names_of_the_op_and_its_overload():
    op = _sin_op()
    ns = op._namespace
    assert repr(op) == f"<CustomOpDef({ns}::numpy_sin)>"
    assert op._name == "numpy_sin" and op._qualname == f"{ns}::numpy_sin"
    packet = getattr(torch.ops, ns).numpy_sin
    assert repr(packet) == f"<OpOverloadPacket(op='{ns}.numpy_sin')>"
    assert packet.overloads() == ["default"]
    overload = packet.default
    assert overload is op._opoverload
    assert str(overload) == f"{ns}.numpy_sin.default"
    assert repr(overload) == f"<OpOverload(op='{ns}.numpy_sin', overload='default')>"
    assert overload.name() == f"{ns}::numpy_sin" and overload.__name__ == "numpy_sin.default"
    assert str(overload._schema) == f"{ns}::numpy_sin(Tensor x) -> Tensor"
    refusal = f"'_OpNamespace' '{ns}' object has no attribute 'nope'"
    with pytest.raises(AttributeError, match=refusal):
        getattr(torch.ops, ns).nope


def test_calls_through_ops_record_the_same_node():
    op = _sin_op()
    ns = op._namespace
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    for f in (getattr(torch.ops, ns).numpy_sin, getattr(torch.ops, ns).numpy_sin.default):
        y = f(x)
        assert type(y.grad_fn).__name__ == f"GeneratedBackwardFor_{ns}_numpy_sin_defaultBackward"


def test_no_formula_refuses_at_backward_not_at_call():
    op = torch.library.custom_op(fresh("nof"), _sin, mutates_args=())
    x = torch.tensor([1.0], requires_grad=True)
    y = op(x)
    assert y.requires_grad
    ns = op._namespace
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert str(info.value) == (
        f"Trying to backward through {ns}.nof.default but no autograd formula was registered. "
        "Please use register_autograd to add one.")


def test_no_grad_and_plain_inputs_record_nothing():
    op = _sin_op()
    x = torch.tensor([1.0], requires_grad=True)
    with torch.no_grad():
        assert op(x).grad_fn is None
    assert op(torch.tensor([1.0])).grad_fn is None
    with torch.inference_mode():
        assert op(torch.tensor([1.0])).grad_fn is None


def test_schemas_inferred_from_hints():
    def f(x: Tensor, y: int, z: float, w: bool, s: str, o: Tensor | None, ts: list[Tensor],
          ns: list[int], d: torch.dtype, n: int = 3, g: float = 1.5, t: Tensor | None = None,
          *, k: bool = False, name: str = "hi") -> tuple[Tensor, Tensor]:
        raise AssertionError

    assert torch.library.infer_schema(f, mutates_args=()) == (
        "(Tensor x, SymInt y, float z, bool w, str s, Tensor? o, Tensor[] ts, SymInt[] ns, "
        "ScalarType d, SymInt n=3, float g=1.5, Tensor? t=None, *, bool k=False, "
        'str name="hi") -> (Tensor, Tensor)')

    def g(x: Tensor, y: Tensor, z: list[Tensor]) -> None:
        raise AssertionError

    assert torch.library.infer_schema(g, mutates_args=("y", "z"), op_name="ns::g") == (
        "ns::g(Tensor x, Tensor(a1!) y, Tensor(a2!)[] z) -> ()")
    assert torch.library.infer_schema(g, mutates_args="unknown") == (
        "(Tensor(a0!) x, Tensor(a1!) y, Tensor(a2!)[] z) -> ()")


def _refusal(fn, **kwargs) -> str:
    with pytest.raises(ValueError) as info:
        torch.library.custom_op(fresh("refused"), fn, **{"mutates_args": (), **kwargs})
    return str(info.value)


def test_schema_refusals_in_torchs_words():
    def untyped(x) -> Tensor: ...
    assert _refusal(untyped).startswith(
        "infer_schema(func): Parameter x must have a type annotation. Got func with "
        "signature (x) ->")

    def unsupported(x: dict) -> Tensor: ...
    assert _refusal(unsupported).startswith(
        "infer_schema(func): Parameter x has unsupported type <class 'dict'>. The valid "
        "types are: ")

    def no_return(x: Tensor): ...
    assert _refusal(no_return).startswith(
        "infer_schema(func): No return type annotation was provided. Please add one. Got func")

    def star(x: Tensor, *rest: Tensor) -> Tensor: ...
    assert _refusal(star).startswith(
        "infer_schema(func): We do not support positional-only args, varargs, or varkwargs.")

    def listed(x: Tensor, y: int = [1]) -> Tensor: ...  # noqa: B006
    assert _refusal(listed).startswith(
        "infer_schema(func): Parameter y has an unsupported default value type <class 'list'>. "
        "Please file an issue on GitHub so we can prioritize this. Got func")

    def number(x: Tensor, y: int) -> None: ...
    assert _refusal(number, mutates_args=("y",)).startswith(
        "infer_schema(func): Parameter y is in mutable_args but only Tensors or collections "
        "of Tensors can be mutated Got func")
    assert "{'q'} in mutates_args were not found in the custom op's signature." in \
        _refusal(number, mutates_args=("q",))
    assert _refusal(number, mutates_args="y") == (
        "mutates_args must either be a sequence of the names of the arguments that are "
        "mutated or the string 'unknown'. ")


def test_mutates_args_is_required():
    with pytest.raises(TypeError, match="required keyword-only argument: 'mutates_args'"):
        torch.library.custom_op(fresh("required"), _sin)


def test_declared_writes_count_one_more_version():
    def add_into(x: Tensor, out: Tensor) -> None:
        out.add_(x)

    op = torch.library.custom_op(fresh("add_into"), add_into, mutates_args=("out",))
    x, out = torch.ones(2), torch.zeros(2)
    assert op(x, out) is None
    assert torch.equal(out, torch.ones(2)) and out._version == 2 and x._version == 0


def test_mutating_op_records_no_node_and_refuses_a_formula():
    def double(x: Tensor) -> None:
        x.mul_(2)

    op = torch.library.custom_op(fresh("double"), double, mutates_args=("x",))
    leaf = torch.ones(2, requires_grad=True)
    y = leaf.clone()
    op(y)
    assert type(y.grad_fn).__name__ == "CloneBackward0"
    assert torch.equal(y.detach(), torch.full((2,), 2.0))
    ns = op._namespace
    with pytest.raises(RuntimeError) as info:
        op.register_autograd(lambda ctx, g: g)
    assert str(info.value) == (
        f"Cannot register autograd formula for non-functional operator <CustomOpDef({ns}::double)> "
        f"with schema {ns}::double(Tensor(a0!) x) -> (). Please create a functional operator "
        "and register an autograd formula for that.")


@pytest.mark.parametrize("body", ["same", "view", "twice"])
def test_outputs_may_not_alias_inputs_or_each_other(body):
    def view_out(x: Tensor) -> tuple[Tensor, Tensor]:
        if body == "same":
            return x, x.clone()
        if body == "view":
            return x.clone(), x.view(-1)
        y = x.clone()
        return y, y[:1]

    op = torch.library.custom_op(fresh("alias"), view_out, mutates_args=())
    with pytest.raises(RuntimeError) as info:
        op(torch.ones(2))
    text = str(info.value)
    assert text.startswith("alias (with implementation in <module ")
    assert text.endswith(
        "The output of this custom operator (1) must not also be an input to this custom "
        "operator and (2) may not alias any inputs to this custom operator or other returns. "
        "The most common way to trigger this error is if we have y = custom_op(x) and y and x "
        "are the same Tensor. Please instead return a clone of the offending output tensor(s) "
        "(e.g. return x.clone()) or refactor the custom operator to not return y.")


def test_backward_results_are_checked_as_a_functions_are():
    def mul(x: Tensor, y: Tensor) -> Tensor:
        return x * y

    op = torch.library.custom_op(fresh("mul"), mul, mutates_args=())
    name = f"GeneratedBackwardFor_{op._namespace}_mul_defaultBackward"
    x = torch.ones(2, requires_grad=True)
    op.register_autograd(lambda ctx, g: g)
    with pytest.raises(RuntimeError) as info:
        op(x, x).sum().backward()
    assert str(info.value) == (
        f"function {name} returned an incorrect number of gradients (expected 3, got 2)")
    op.register_autograd(lambda ctx, g: (g, g, g))
    with pytest.raises(RuntimeError) as info:
        op(x, x).sum().backward()
    assert str(info.value) == (
        f"function {name} returned a gradient different than None at position 3, but the "
        "corresponding forward input was not a Variable")
    op.register_autograd(lambda ctx, g: (g * 2, None))
    op(x, torch.ones(2)).sum().backward()
    assert torch.equal(x.grad, torch.full((2,), 2.0))


def test_setup_context_sees_inputs_output_and_needs_input_grad():
    seen = {}

    def scale(x: Tensor, k: float, *, shift: int = 0) -> Tensor:
        return x * k + shift

    op = torch.library.custom_op(fresh("scale"), scale, mutates_args=())

    def setup_context(ctx, inputs, keyword_only_inputs, output):
        seen["setup"] = (inputs[1], keyword_only_inputs, output.tolist(), ctx.needs_input_grad)
        ctx.k = inputs[1]

    def backward(ctx, grad):
        seen["backward"] = ctx.needs_input_grad
        return grad * ctx.k, None

    torch.library.register_autograd(f"{op._qualname}", backward, setup_context=setup_context)
    x = torch.ones(2, requires_grad=True)
    y = getattr(torch.ops, op._namespace).scale(x, k=3.0, shift=1)
    assert seen["setup"] == (3.0, {"shift": 1}, [4.0, 4.0], (True, False, False))
    y.sum().backward()
    assert seen["backward"] == (True, False)
    assert torch.equal(x.grad, torch.full((2,), 3.0))
    with pytest.raises(RuntimeError) as info:
        op(x)
    assert str(info.value) == (
        f"{op._qualname}() is missing value for argument 'k'. Declaration: {op._qualname}"
        "(Tensor x, float k, *, SymInt shift=0) -> Tensor")


def test_list_of_tensors_gets_gradients():
    def total(xs: list[Tensor]) -> Tensor:
        return sum(x.detach() for x in xs)

    op = torch.library.custom_op(fresh("total"), total, mutates_args=())
    needs = []

    def backward(ctx, grad):
        needs.append(ctx.needs_input_grad)
        return [grad, None]

    op.register_autograd(backward)
    a, b = torch.ones(2, requires_grad=True), torch.ones(2)
    op([a, b]).sum().backward()
    assert torch.equal(a.grad, torch.ones(2))
    assert needs == [([True, False],)]


def test_library_define_and_impl():
    ns = fresh("lib").split("::")[0]
    lib = torch.library.Library(ns, "DEF")
    assert repr(lib) == f"Library(kind=DEF, ns={ns}, dispatch_key=)>"
    assert lib.define("mysin(Tensor x) -> Tensor") == "mysin"
    lib.impl("mysin", lambda x: x.sin(), "CPU")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = getattr(torch.ops, ns).mysin(x)  # no formula: the kernel's own ops record
    assert type(y.grad_fn).__name__ == "SinBackward0"

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    torch.library.register_autograd(
        f"{ns}::mysin", lambda ctx, g: g * 3 * ctx.saved_tensors[0], setup_context=setup_context)
    y = getattr(torch.ops, ns).mysin.default(x)
    assert type(y.grad_fn).__name__ == f"GeneratedBackwardFor_{ns}_mysin_defaultBackward"
    y.sum().backward()
    assert torch.equal(x.grad, torch.tensor([3.0, 6.0]))
    lib.define("mycos(Tensor x) -> Tensor")

    @torch.library.impl(lib, "mycos", "CompositeExplicitAutograd")
    def mycos(x):
        return x.cos()

    assert torch.equal(getattr(torch.ops, ns).mycos(torch.zeros(1)), torch.ones(1))
    lib.define("myadd.Tensor(Tensor x, Tensor y, *, Scalar alpha=1) -> Tensor")
    lib.impl("myadd.Tensor", lambda x, y, *, alpha=1: x + alpha * y, "CompositeImplicitAutograd")
    packet = getattr(torch.ops, ns).myadd
    assert torch.equal(packet.Tensor(torch.ones(1), torch.ones(1), alpha=2), torch.full((1,), 3.0))
    assert torch.equal(packet(torch.ones(1), torch.ones(1)), torch.full((1,), 2.0))
    refusal = f"The underlying op of '{ns}.myadd' has no overload name 'default'"
    with pytest.raises(AttributeError, match=refusal):
        packet.default
    with pytest.raises(RuntimeError, match="Only a single TORCH_LIBRARY can be used to register"):
        torch.library.Library(ns, "DEF")
    again = r"Tried to register an operator \(" + ns + r"::mysin\(Tensor x\)"
    with pytest.raises(RuntimeError, match=again):
        lib.define("mysin(Tensor x) -> Tensor")
    with pytest.raises(ValueError, match="^Unsupported kind: XYZ$"):
        torch.library.Library(ns, "XYZ")


def test_define_and_impl_functions():
    qualname = fresh("triple")
    torch.library.define(qualname, "(Tensor x) -> Tensor")
    torch.library.impl(qualname, "cpu", lambda x: x * 3)
    ns, name = qualname.split("::")
    assert torch.equal(getattr(getattr(torch.ops, ns), name)(torch.ones(1)), torch.full((1,), 3.0))


def test_device_types_and_register_kernel():
    calls = []

    def body(x: Tensor) -> Tensor:
        return x + 1

    op = torch.library.custom_op(fresh("gpu_only"), body, mutates_args=(), device_types="cuda")
    with pytest.raises(NotImplementedError) as info:
        op(torch.ones(1))
    assert str(info.value).startswith(
        f"Could not run '{op._qualname}' with arguments from the 'CPU' backend. This could be "
        "because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build).")

    @op.register_kernel("cpu")
    def _(x):
        calls.append(torch.is_grad_enabled())
        return x + 2

    assert torch.equal(op(torch.ones(1)), torch.full((1,), 3.0))
    op(torch.ones(1, requires_grad=True))
    assert calls == [True, False]  # below autograd, a recording call runs without grad
    with pytest.raises(RuntimeError, match="device type at start of device string: tpu"):
        op.register_kernel("tpu", body)


def test_kernel_returning_no_tensor():
    def bad(x: Tensor) -> Tensor:
        return 3

    op = torch.library.custom_op(fresh("bad"), bad, mutates_args=())
    with pytest.raises(RuntimeError, match="^Unable to cast 3 to Tensor$"):
        op(torch.ones(1))


def test_dispatch_mode_sees_the_op_by_name():
    op = _sin_op()
    seen = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    x = torch.tensor([1.0], requires_grad=True)
    with Log():
        y = op(x)
    assert seen == [f"{op._namespace}.numpy_sin.default"]
    assert type(y.grad_fn).__name__.startswith("GeneratedBackwardFor_")
    y.backward()
    assert torch.equal(x.grad, x.detach().cos())


def test_hooks_and_saved_tensor_hooks():
    op = _sin_op()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    packed = []

    def pack(t):
        packed.append(t.shape)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t * 0):
        y = op(x)
    assert packed == [torch.Size([2])]
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] + 1,))
    y.sum().backward()
    assert torch.equal(x.grad, torch.full((2,), 2.0))  # x read back as zeros: cos 0, plus 1


def test_anomaly_mode_names_the_node():
    op = torch.library.custom_op(fresh("nan_grad"), _sin, mutates_args=())
    op.register_autograd(lambda ctx, g: g * float("nan"))
    x = torch.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning), torch.autograd.detect_anomaly(check_nan=True):
        y = op(x)
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
    assert str(info.value) == (
        f"Function 'GeneratedBackwardFor_{op._namespace}_nan_grad_defaultBackward' returned nan "
        "values in its 0th output.")


def test_list_returned_and_its_gradients_as_one_list():
    def parts(x: Tensor) -> list[Tensor]:
        return [x * 2, x * 3]

    op = torch.library.custom_op(fresh("parts"), parts, mutates_args=())
    op.register_autograd(lambda ctx, grads: grads[0] * 2 + grads[1] * 3)
    x = torch.ones(2, requires_grad=True)
    ys = op(x)
    assert type(ys) is list and all(y.grad_fn is not None for y in ys)
    (ys[0].sum() + ys[1].sum()).backward()
    assert torch.equal(x.grad, torch.full((2,), 5.0))


def test_opcheck_passes_a_sound_op():
    op = _sin_op()
    op.register_fake(lambda x: torch.empty_like(x))
    x = torch.ones(2, requires_grad=True)
    tests = ("test_schema", "test_autograd_registration", "test_faketensor")
    assert torch.library.opcheck(op, (x,), test_utils=tests) == dict.fromkeys(tests, "SUCCESS")
    with pytest.raises(ValueError) as info:
        torch.library.opcheck(op, (x,), test_utils="bogus")
    assert str(info.value) == (
        "opcheck(op, ..., test_utils=('bogus',)), expected test_utils to be subset of "
        "('test_schema', 'test_autograd_registration', 'test_faketensor', "
        "'test_aot_dispatch_static', 'test_aot_dispatch_dynamic') but it was not")


def test_opcheck_finds_an_undeclared_write():
    def sneaky(x: Tensor) -> Tensor:
        x.add_(1)
        return x.clone()

    op = torch.library.custom_op(fresh("sneaky"), sneaky, mutates_args=())
    result = torch.library.opcheck(op, (torch.ones(2),), test_utils="test_schema",
                                   raise_exception=False)
    assert list(result) == ["test_schema"]
    assert type(result["test_schema"]) is RuntimeError
    assert str(result["test_schema"]) == "Argument x is not defined as mutable but was mutated"
    with pytest.raises(Exception) as info:
        torch.library.opcheck(op, (torch.ones(2),), test_utils="test_schema")
    assert type(info.value).__name__ == "OpCheckError"
    assert str(info.value) == ("opcheck(op, ...): test_schema failed with Argument x is not "
                               "defined as mutable but was mutated (scroll up for stack trace)")


def test_opcheck_autograd_registration_and_fake():
    ns = fresh("check").split("::")[0]
    lib = torch.library.Library(ns, "DEF")
    lib.define("noag(Tensor x) -> Tensor")
    lib.impl("noag", lambda x: x.sin(), "CPU")
    overload = getattr(torch.ops, ns).noag.default
    with pytest.raises(Exception) as info:
        torch.library.opcheck(overload, (torch.ones(2, requires_grad=True),),
                              test_utils="test_autograd_registration")
    assert str(info.value.__cause__).startswith(
        f"{ns}::noag: at least one output of this operator has requires_grad=True but the "
        "operator does not have an autograd kernel defined at an autograd key")
    op = torch.library.custom_op(fresh("nofake"), _sin, mutates_args=())
    with pytest.raises(Exception) as info:
        torch.library.opcheck(op, (torch.ones(2),), test_utils="test_faketensor")
    assert str(info.value.__cause__) == (
        f"There was no fake impl registered for <CustomOpDef({op._qualname})>. This is "
        "necessary for torch.compile/export/fx tracing to work. Please use "
        "`_sin.register_fake` to add an fake impl.")
    op.register_fake(lambda x: x.new_empty(3))
    with pytest.raises(Exception) as info:
        torch.library.opcheck(op, (torch.ones(2),), test_utils="test_faketensor")
    assert str(info.value.__cause__) == (
        f"When comparing the output of {op._namespace}.nofake.default on FakeTensor and "
        "concrete Tensors, found mismatched tensor metadata: Shapes torch.Size([2]) and "
        "torch.Size([3]) are not equal!")


def test_inner_mode_may_answer_and_outer_mode_sees_its_ops():
    op = torch.library.custom_op(fresh("dbl"), lambda_free_double, mutates_args=())
    op.register_autograd(lambda ctx, g: g * 2)
    seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(("outer", str(func)))
            return func(*args, **(kwargs or {}))

    class Inner(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(("inner", str(func)))
            return args[0] + 100

    x = torch.ones(2, requires_grad=True)
    with Outer(), Inner():
        y = op(x)
    assert seen == [("inner", f"{op._namespace}.dbl.default"), ("outer", "aten.add.Tensor")]
    assert torch.equal(y.detach(), torch.full((2,), 101.0))
    assert y.grad_fn.name() == f"GeneratedBackwardFor_{op._namespace}_dbl_defaultBackward"


def lambda_free_double(x: Tensor) -> Tensor:
    return x * 2


def test_profiler_shows_the_op_and_its_nodes():
    op = torch.library.custom_op(fresh("dbl"), lambda_free_double, mutates_args=())
    op.register_autograd(lambda ctx, g: g * 2)
    x = torch.ones(2, requires_grad=True)
    with torch.profiler.profile() as prof:
        op(x).sum().backward()
    ns = op._namespace
    generated = f"GeneratedBackwardFor_{ns}_dbl_default"
    names = {e.name for e in prof.events()}
    assert {f"{ns}::dbl", generated, generated + "Backward"} <= names


def _copy(x: Tensor, a: float = 0.0, b: float = 1.5, c: float = 1e-5, d: float = 1e20) -> Tensor:
    return x.clone()


def test_float_defaults_print_as_the_schema_reads_them():
    op = torch.library.custom_op(fresh("copy"), _copy, mutates_args=())
    assert str(op._opoverload._schema) == (
        f"{op._qualname}(Tensor x, float a=0., float b=1.5, float c=1.0000000000000001e-05, "
        "float d=1e+20) -> Tensor")
    assert torch.library.infer_schema(_copy, mutates_args=()) == (
        "(Tensor x, float a=0.0, float b=1.5, float c=1e-05, float d=1e+20) -> Tensor")


def _typed(x: Tensor, y: Tensor | None, k: int, s: str, f: float, sc: int | float | bool,
           ts: list[Tensor]) -> Tensor:
    return x.clone()


@pytest.mark.parametrize(("position", "value", "expected", "details"), [
    (0, 3, "Tensor", "Unable to cast 3 to Tensor"),
    (1, 3, "Optional[Tensor]", "Unable to cast 3 to Tensor"),
    (2, 1.5, "int", "<class 'float'>"),
    (3, 3, "str", "<class 'int'>"),
    (4, "a", "float", "<class 'str'>"),
    (5, "a", "number", "Cannot cast a to number"),
    (6, [3], "List[Tensor]", "<class 'list'>"),
])
def test_arguments_checked_against_the_schema(position, value, expected, details):
    op = torch.library.custom_op(fresh("typed"), _typed, mutates_args=())
    args = [torch.ones(1), None, 1, "s", 1.0, 2, [torch.ones(1)]]
    assert torch.equal(op(*args), torch.ones(1))
    args[position] = value
    with pytest.raises(RuntimeError) as info:
        op(*args)
    lines = str(info.value).split("\n")
    name = ["x", "y", "k", "s", "f", "sc", "ts"][position]
    assert lines[0] == (f"{op._qualname}() Expected a value of type '{expected}' for argument "
                        f"'{name}' but instead found type '{type(value).__name__}'.")
    assert lines[1:4] == [f"Position: {position}", f"Value: {value!r}",
                          f"Declaration: {op._opoverload._schema}"]
    if details.startswith("<class"):
        details = (f"Unable to cast Python instance of type {details} to C++ type '?' (#define "
                   "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")
    assert lines[4] == f"Cast error details: {details}"


def test_argument_counts_and_names():
    op = torch.library.custom_op(fresh("typed"), _typed, mutates_args=())
    args = [torch.ones(1), None, 1, "s", 1.0, 2, [torch.ones(1)]]
    schema = op._opoverload._schema
    with pytest.raises(RuntimeError) as info:
        op(*args, 5)
    assert str(info.value) == (f"{op._qualname}() expected at most 7 argument(s) but received "
                               f"8 argument(s). Declaration: {schema}")
    with pytest.raises(RuntimeError) as info:
        op(*args[:6], z=5)  # a missing argument is named first
    assert str(info.value) == (f"{op._qualname}() is missing value for argument 'ts'. "
                               f"Declaration: {schema}")
    copy = torch.library.custom_op(fresh("copy"), _copy, mutates_args=())
    with pytest.raises(RuntimeError) as info:
        copy(torch.ones(1), z=5)
    assert str(info.value) == (f"Unknown keyword argument 'z' for operator '{copy._qualname}'. "
                               f"Schema: {copy._opoverload._schema}")
    with pytest.raises(RuntimeError) as info:
        op(*args[:6], x=args[0])  # again the missing argument first
    assert "is missing value for argument 'ts'" in str(info.value)
    with pytest.raises(RuntimeError) as info:
        copy(torch.ones(1), x=torch.ones(1))
    assert str(info.value) == ("Argument 'x' specified both as positional and keyword "
                               f"argument. Schema: {copy._opoverload._schema}")


def test_a_namespace_exists_before_its_first_operator():
    ns = fresh("later").split("::")[0]
    assert repr(getattr(torch.ops, ns)) == f"<module 'torch.ops.{ns}' from 'torch.ops'>"
    assert not hasattr(getattr(torch.ops, ns), "later")
    op = torch.library.custom_op(f"{ns}::later", lambda_free_double, mutates_args=())
    assert getattr(torch.ops, ns).later.default is op._opoverload


def test_torch_dispatch_rules_for_one_mode_class():
    op = torch.library.custom_op(fresh("dbl"), lambda_free_double, mutates_args=())
    seen = []

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(("mode", str(func)))
            return func(*args, **(kwargs or {}))

    class SubMode(Mode):
        pass

    def rule(mode, func, types, args, kwargs):
        seen.append(("rule", type(mode).__name__, func is op._opoverload, types, kwargs))
        return args[0] + 10

    assert torch.library.register_torch_dispatch(op._qualname, Mode, rule) is rule
    x = torch.ones(1)
    with Mode():
        y = op(x)
    assert torch.equal(y, torch.full((1,), 11.0))
    assert seen == [("rule", "Mode", True, (), {})]
    seen.clear()
    with SubMode():  # a subclass is not the class registered
        y = op(x)
    assert torch.equal(y, torch.full((1,), 2.0))
    assert seen == [("mode", f"{op._namespace}.dbl.default")]
    seen.clear()

    @op.register_torch_dispatch(SubMode)
    def sub_rule(mode, func, types, args, kwargs):
        seen.append("sub_rule")
        return func(*args, **kwargs)

    with SubMode():
        y = op(x)
    assert torch.equal(y, torch.full((1,), 2.0))
    assert seen == ["sub_rule"]


def test_names_not_defined_are_refused_where_torch_refuses_them():
    ns = fresh("none").split("::")[0]
    with pytest.raises(AttributeError) as info:
        torch.library.register_autograd(f"{ns}::nope", lambda ctx, g: g)
    assert str(info.value) == f"'_OpNamespace' '{ns}' object has no attribute 'nope'"
    with pytest.raises(RuntimeError, match=f"^operator {ns}::nope does not exist$"):
        torch.library.register_fake(f"{ns}::nope", lambda x: x)
    with pytest.raises(ValueError) as info:
        torch.library.define(ns, "(Tensor x) -> Tensor")
    assert str(info.value) == (
        f'Expected `qualname` to be of the form "namespace::name", but got {ns}. The qualname '
        "passed to the torch.library APIs must consist of a namespace and a name, e.g. aten::sin")
    with pytest.raises(ValueError) as info:
        torch.library.define(f"{ns}::bad", "Tensor x -> Tensor")
    assert str(info.value) == ('define(qualname, schema, ...): expected schema to look like '
                               'e.g. "(Tensor x) -> Tensor" but got "Tensor x -> Tensor"')


def test_a_kernel_may_come_before_its_definition():
    qualname = fresh("early")
    torch.library.register_kernel(qualname, "cpu", lambda x: x + 5)
    torch.library.define(qualname, "(Tensor x) -> Tensor")
    ns, name = qualname.split("::")
    assert torch.equal(getattr(getattr(torch.ops, ns), name)(torch.ones(1)), torch.full((1,), 6.0))


def test_a_mode_in_one_thread_leaves_another_threads_calls_alone():
    import threading

    op = torch.library.custom_op(fresh("dbl"), lambda_free_double, mutates_args=())
    op.register_autograd(lambda ctx, g: g * 2)
    handed, finished, out = threading.Event(), threading.Event(), {}

    class Wait(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func is op._opoverload:
                handed.set()
                finished.wait(10)
            return func(*args, **(kwargs or {}))

    def other():
        handed.wait(10)
        out["y"] = op(torch.ones(1, requires_grad=True))
        finished.set()

    thread = threading.Thread(target=other)
    thread.start()
    with Wait():
        op(torch.ones(1))
    thread.join()
    assert out["y"].grad_fn.name() == f"GeneratedBackwardFor_{op._namespace}_dbl_defaultBackward"


def test_explicit_schema_gradcheck_and_double_backward():
    def untyped(x):
        return x * x.detach()

    op = torch.library.custom_op(fresh("square"), untyped, mutates_args=(),
                                 schema="(Tensor x) -> Tensor")
    assert str(op._opoverload._schema) == f"{op._qualname}(Tensor x) -> Tensor"

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    op.register_autograd(lambda ctx, g: 2 * g * ctx.saved_tensors[0],
                         setup_context=setup_context)
    x = torch.tensor(np.linspace(0.5, 1.5, 4), requires_grad=True)
    assert torch.autograd.gradcheck(op, (x,))
    (g,) = torch.autograd.grad(op(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "MulBackward0"
    g.sum().backward()
    assert torch.equal(x.grad, torch.full((4,), 2.0, dtype=torch.float64))
