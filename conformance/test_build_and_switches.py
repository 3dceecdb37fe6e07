"""torch.backends' switches, torch.version, torch.cpu, torch.compile and the build's flags."""

import importlib.util
import warnings

import pytest
import torch

from conformance._support import compile_side_effects_put_back, printed_in_a_fresh_process
from conformance._warned import caught_always

B = torch.backends
# torch's compile, run for the first time, imports modules that warn of their own deprecation.
pytestmark = pytest.mark.filterwarnings(
    "ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")


@pytest.fixture(autouse=True)
def _compile_side_effects_put_back():
    with compile_side_effects_put_back(torch):
        yield


def refused(kind, words, call):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == words
    return caught.value


def assign(module, name, value):
    return lambda: setattr(module, name, value)


# --- cuDNN ---------------------------------------------------------------------------------

CUDNN = {"enabled": ("set_enabled_cudnn", True), "benchmark": ("set_benchmark_cudnn", False),
         "deterministic": ("set_deterministic_cudnn", False),
         "allow_tf32": ("set_allow_tf32_cublas", True)}


def test_cudnn_is_absent_and_its_switches_start_at_torchs_defaults():
    c = B.cudnn
    assert c.is_available() is False and c.version() is None
    assert {name: getattr(c, name) for name in CUDNN} == {n: d for n, (_, d) in CUDNN.items()}
    assert c.benchmark_limit is None and c.depthwise_kernel == "auto"
    assert type(c).__name__ == "CudnnModule" and c.__name__.endswith("backends.cudnn")


@pytest.mark.parametrize("name", sorted(CUDNN))
def test_a_cudnn_switch_reads_back_what_was_set_and_refuses_non_bools(name):
    setter, default = CUDNN[name]
    try:
        setattr(B.cudnn, name, not default)
        assert getattr(B.cudnn, name) is (not default)
        for value, kind in ((1, "int"), (None, "NoneType"), ("x", "str")):
            refused(RuntimeError, f"{setter} expects a bool, but got {kind}",
                    assign(B.cudnn, name, value))
        assert getattr(B.cudnn, name) is (not default)
    finally:
        setattr(B.cudnn, name, default)
    assert getattr(B.cudnn, name) is default


def test_cudnn_flags_sets_its_defaults_inside_and_restores_after_an_exception():
    c = B.cudnn
    c.deterministic = True
    try:
        with pytest.raises(ValueError):
            with c.flags(benchmark=True, depthwise_kernel="native"):
                assert (c.enabled, c.benchmark, c.deterministic, c.allow_tf32) == (
                    False, True, False, True)
                assert c.depthwise_kernel == "native"
                raise ValueError
        assert (c.enabled, c.benchmark, c.deterministic, c.depthwise_kernel) == (
            True, False, True, "auto")
    finally:
        c.deterministic = False


def test_cudnn_set_flags_returns_the_old_values_in_its_order():
    old = B.cudnn.set_flags(_deterministic=True)
    try:
        assert old == (True, False, None, False, True, "none", "auto")
        assert B.cudnn.deterministic is True
    finally:
        B.cudnn.set_flags(*old)
    assert B.cudnn.deterministic is False


def test_cudnn_depthwise_kernel_and_benchmark_limit():
    refused(RuntimeError, "Unknown cuDNN depthwise kernel mode: x. Expected one of: auto, cudnn,"
            " native", assign(B.cudnn, "depthwise_kernel", "x"))
    B.cudnn.depthwise_kernel = "cudnn"
    assert B.cudnn.depthwise_kernel == "cudnn"
    B.cudnn.depthwise_kernel = "auto"
    B.cudnn.benchmark_limit = 5  # a plain attribute without cuDNN: shadowed, unchecked
    try:
        assert B.cudnn.benchmark_limit == 5
    finally:
        del B.cudnn.benchmark_limit
    assert B.cudnn.benchmark_limit is None


def test_a_new_attribute_lands_on_the_stand_in_module_not_on_m():
    B.cudnn.some_setting = 3
    try:
        assert B.cudnn.some_setting == 3
        assert not hasattr(B.cudnn.m, "some_setting")
    finally:
        del B.cudnn.some_setting


def test_cudnn_is_acceptable_refuses_a_cpu_tensor():
    assert B.cudnn.is_acceptable(torch.ones(2)) is False


# --- the guard -----------------------------------------------------------------------------

def test_after_disable_global_flags_only_brackets_may_set_a_switch():
    home = B.flags_frozen.__globals__  # the module that keeps the guard's flag
    assert B.flags_frozen() is False
    B.disable_global_flags()
    try:
        assert B.flags_frozen() is True
        refused(RuntimeError, "not allowed to set torch.backends.cudnn flags after "
                "disable_global_flags; please use flags() context manager instead",
                assign(B.cudnn, "benchmark", True))
        refused(RuntimeError, "not allowed to set torch.backends.mkldnn flags after "
                "disable_global_flags; please use flags() context manager instead",
                assign(B.mkldnn, "enabled", False))
        with B.cudnn.flags(enabled=True, benchmark=True):
            assert B.cudnn.benchmark is True
        assert B.cudnn.benchmark is False and B.flags_frozen() is True
        with pytest.raises(KeyError):
            with B.__allow_nonbracketed_mutation():
                B.cudnn.deterministic = True
                assert B.flags_frozen() is False
                raise KeyError
        assert B.flags_frozen() is True and B.cudnn.deterministic is True
        with B.__allow_nonbracketed_mutation():
            B.cudnn.deterministic = False
    finally:
        home["__allow_nonbracketed_mutation_flag"] = True
    assert B.flags_frozen() is False


def test_the_guards_classes_are_torch_backends_own():
    assert issubclass(type(B.cudnn), B.PropModule)
    assert isinstance(type(B.cudnn).__dict__["enabled"], B.ContextProp)


# --- MKL and oneDNN ------------------------------------------------------------------------

def test_mkl_and_onednn_answer_as_the_build_does_and_verbose_off_always_works():
    assert B.mkl.is_available() is torch.has_mkl is B.mkldnn.is_available()
    assert B.mkldnn.is_acl_available() is False
    assert (B.mkl.VERBOSE_OFF, B.mkl.VERBOSE_ON) == (0, 1)
    assert (B.mkldnn.VERBOSE_OFF, B.mkldnn.VERBOSE_ON, B.mkldnn.VERBOSE_ON_CREATION) == (0, 1, 2)
    with B.mkl.verbose(B.mkl.VERBOSE_OFF) as scope:
        assert scope is None
    with B.mkldnn.verbose(B.mkldnn.VERBOSE_OFF) as scope:
        assert scope is None


@pytest.mark.parametrize("name,setter,default", [
    ("enabled", "set_enabled_mkldnn", True), ("deterministic", "set_deterministic_mkldnn", False)])
def test_an_onednn_switch_reads_back_and_refuses_non_bools(name, setter, default):
    try:
        setattr(B.mkldnn, name, not default)
        assert getattr(B.mkldnn, name) is (not default)
        refused(RuntimeError, f"{setter} expects a bool, but got int", assign(B.mkldnn, name, 1))
    finally:
        setattr(B.mkldnn, name, default)
    assert getattr(B.mkldnn, name) is default


TF32 = ("TF32 acceleration on top of oneDNN is available for Intel GPUs. The current Torch "
        "version does not have Intel GPU Support. (Triggered internally at "
        "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:265.)")


def test_onednn_allow_tf32_reads_none_and_setting_it_warns():
    assert B.mkldnn.allow_tf32 is None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        B.mkldnn.allow_tf32 = False
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, TF32)]
    assert B.mkldnn.allow_tf32 is None
    refused(RuntimeError, "_set_onednn_allow_tf32 expects a bool, but got NoneType",
            assign(B.mkldnn, "allow_tf32", None))


def test_onednn_flags_restore_after_an_exception():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError):
            with B.mkldnn.flags(deterministic=True):
                assert (B.mkldnn.enabled, B.mkldnn.deterministic) == (False, True)
                raise ValueError
    assert [str(w.message) for w in caught] == [TF32]  # flags() sets allow_tf32=True
    assert (B.mkldnn.enabled, B.mkldnn.deterministic) == (True, False)


# --- NNPACK, MIOpen, the rest --------------------------------------------------------------

def test_nnpack_set_flags_and_flags():
    assert B.nnpack.__all__ == ["is_available", "flags", "set_flags"]
    assert B.nnpack.is_available() in (True, False)
    assert B.nnpack.set_flags(False) == (True,)
    try:
        refused(RuntimeError, "set_enabled_NNPACK expects a bool, but got int",
                lambda: B.nnpack.set_flags(1))
    finally:
        assert B.nnpack.set_flags(True) == (False,)
    with pytest.raises(ValueError):
        with B.nnpack.flags():
            assert B.nnpack.set_flags(False) == (False,)
            raise ValueError
    assert B.nnpack.set_flags(True) == (True,)


def test_miopen_immediate():
    assert B.miopen.immediate is False
    B.miopen.immediate = True
    try:
        assert B.miopen.immediate is True
        refused(RuntimeError, "set_immediate_miopen expects a bool, but got int",
                assign(B.miopen, "immediate", 1))
        with B.miopen.flags():
            assert B.miopen.immediate is False
        assert B.miopen.immediate is True
    finally:
        B.miopen.immediate = False


def test_libraries_without_a_switch():
    assert B.kleidiai.is_available() is False
    assert (B.cusparselt.is_available(), B.cusparselt.version(),
            B.cusparselt.get_max_alg_id()) == (False, None, None)
    assert (B.mps.is_available(), B.mps.is_built()) == (False, False)
    assert B.openmp.is_available() is torch.has_openmp
    words = "Cannot execute isOnMacOSorNewer() without MPS backend."
    refused(RuntimeError, words, lambda: B.mps.is_macos_or_newer(13, 0))
    refused(RuntimeError, words, lambda: B.mps.is_macos13_or_newer())
    refused(AttributeError, "module 'torch._C' has no attribute '_mps_get_name'", B.mps.get_name)
    refused(AttributeError, "module 'torch._C' has no attribute '_mps_get_core_count'",
            B.mps.get_core_count)


def test_cpu_capability_is_a_name_torch_uses():
    assert B.cpu.__all__ == ["get_cpu_capability"]
    assert B.cpu.get_cpu_capability() in (
        "DEFAULT", "VSX", "Z VECTOR", "NO AVX", "AVX2", "AVX512", "SVE256")


# --- the quantized engine ------------------------------------------------------------------

def test_quantized_engine_is_set_from_the_supported_ones():
    q = B.quantized
    assert q.engine == "x86" and q.supported_engines == ["qnnpack", "onednn", "x86", "fbgemm"]
    try:
        for name in ("qnnpack", "fbgemm", "onednn"):
            q.engine = name
            assert q.engine == name
        refused(RuntimeError, "bogus is not a valid value for quantized engine",
                assign(q, "engine", "bogus"))
        for nothing in ("none", "", None):
            refused(RuntimeError, "quantized engine NoQEngine is not supported",
                    assign(q, "engine", nothing))
        refused(RuntimeError, "Assignment not supported", assign(q, "supported_engines", []))
    finally:
        q.engine = "x86"
    assert q.engine == "x86"


# --- opt_einsum ----------------------------------------------------------------------------

def test_opt_einsum_when_it_is_not_used():
    assert importlib.util.find_spec("opt_einsum") is None  # a fact of this environment
    o = B.opt_einsum
    assert (o.is_available(), o.get_opt_einsum(), o.enabled, o.strategy) == (
        False, None, False, None)
    assert o.set_flags() == (False, None)
    refused(ValueError, "opt_einsum is not available, so setting `enabled` to True will not reap "
            "the benefits of calculating an optimal path for einsum. torch.einsum will fall back "
            "to contracting from left to right. To enable this optimal path calculation, please "
            "install opt-einsum.", lambda: o.set_flags(True))
    refused(ValueError, "opt_einsum is not available, so setting `strategy` to greedy will not "
            "be meaningful. torch.einsum will bypass path calculation and simply contract from "
            "left to right. Please install opt_einsum or unset `strategy`.",
            lambda: o.flags(strategy="greedy").__enter__())
    with o.flags(enabled=False):
        assert o.enabled is False


def test_opt_einsum_assignment_is_not_checked_and_not_seen_by_set_flags():
    o = B.opt_einsum
    o.enabled, o.strategy = True, "greedy"
    try:
        assert (o.enabled, o.strategy) == (True, "greedy")
        assert o.set_flags() == (False, None)
    finally:
        del o.enabled, o.strategy
    assert (o.enabled, o.strategy) == (False, None)


# --- versions ------------------------------------------------------------------------------

def test_torch_version_holds_the_builds_facts():
    v = torch.version
    assert v.__all__ == ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu"]
    assert (v.cuda, v.hip, v.rocm, v.xpu, v.debug) == (None, None, None, None, False)
    assert type(v.__version__) is str and type(v.git_version) is str
    assert type(torch.__version__) is torch.torch_version.TorchVersion
    assert str(torch.__version__) == v.__version__


def test_torch_version_compares_as_versions():
    from torch.torch_version import TorchVersion

    version = TorchVersion("1.10.0")
    assert version > "1.9" and version >= "1.10" and version == (1, 10) and version < (1, 10, 1)
    assert version == [1, 10, 0] and version <= "1.10.0" and not version > "1.10.0"
    assert version != "1.10" and version == "1.10"  # != is str's, == is the version's
    ordered = ["2.1.0.dev20230601", "2.1.0a1", "2.1.0b2.dev1", "2.1.0rc1", "2.1.0",
               "2.1.0.post1", "2.1.1", "1!0.1"]
    for low, high in zip(ordered, ordered[1:]):
        assert TorchVersion(low) < high and TorchVersion(high) > low
    assert TorchVersion("2.1.0+cpu") > "2.1.0" and TorchVersion("2.1.0+cpu") != "2.1.0"
    assert (version < "abc") is ("1.10.0" < "abc")  # not a version: compared as strings
    assert (TorchVersion("nonsense") > "1.9") is ("nonsense" > "1.9")
    assert hash(version) == hash("1.10.0") and {"1.10.0": 1}[version] == 1
    for other, name in ((2, "int"), (2.0, "float"), (None, "NoneType")):
        refused(TypeError, f"'>=' not supported between instances of 'TorchVersion' and '{name}'",
                lambda other=other: version >= other)
    assert torch.torch_version.__all__ == ["TorchVersion"]


# --- torch.cpu -----------------------------------------------------------------------------

def test_torch_cpu_is_one_device_that_is_always_ready():
    c = torch.cpu
    assert (c.is_available(), c.is_initialized(), c.device_count(), c.current_device()) == (
        True, True, 1, "cpu")
    assert c.synchronize() is None and c.synchronize("cpu") is None and c.set_device(0) is None
    assert c.current_stream() is c.current_stream() and type(c.current_stream()) is c.Stream


def test_torch_cpu_streams_and_events_wait_for_nothing():
    c = torch.cpu
    s, e = c.Stream(priority=3), c.Event()
    assert (s.wait_stream(s), s.wait_event(e), s.record_event()) == (None,) * 3
    assert not hasattr(s, "synchronize")
    assert (e.query(), e.record(), e.synchronize(), e.wait()) == (True, None, None, None)
    before = c.current_stream()
    with pytest.raises(ValueError):
        with c.stream(s) as entered:
            assert entered is None and c.current_stream() is s
            raise ValueError
    assert c.current_stream() is before
    with c.stream(None):
        assert c.current_stream() is before
    assert isinstance(c.stream(s), c.StreamContext)


# --- torch.compile -------------------------------------------------------------------------

def numbers(*shape, seed=0):
    import numpy as np

    return torch.tensor(np.random.default_rng(seed).standard_normal(shape))


def test_a_compiled_module_wraps_the_original_and_its_gradients_are_the_same():
    plain = torch.nn.Linear(3, 2).double()
    model = torch.nn.Linear(3, 2).double()
    model.load_state_dict(plain.state_dict())
    compiled = torch.compile(model, backend="eager")
    assert type(compiled).__name__ == "OptimizedModule"
    assert type(compiled).__module__.endswith("_dynamo.eval_frame")
    assert isinstance(compiled, torch._dynamo.eval_frame.OptimizedModule)
    assert isinstance(compiled, torch.nn.Module) and compiled._orig_mod is model
    assert list(compiled.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]
    assert [n for n, _ in compiled.named_parameters()] == ["_orig_mod.weight", "_orig_mod.bias"]
    assert compiled.weight is model.weight and compiled.in_features == 3
    x = numbers(4, 3)
    compiled(x).pow(2).sum().backward()
    plain(x).pow(2).sum().backward()
    assert torch.equal(model.weight.grad, plain.weight.grad)
    assert torch.equal(model.bias.grad, plain.bias.grad)
    assert repr(compiled) == "OptimizedModule(\n  (_orig_mod): " + repr(model) + "\n)"


def test_a_compiled_module_forwards_assignments_and_training():
    model = torch.nn.Linear(3, 2)
    compiled = torch.compile(model, backend="eager")
    compiled.scale = 2
    assert model.scale == 2 and "scale" not in compiled.__dict__
    compiled.eval()
    assert (model.training, compiled.training) == (False, False)
    compiled.train()
    assert (model.training, compiled.training) == (True, True)
    assert torch.compile(model, disable=True) is model
    assert set(dir(model)) <= set(dir(compiled)) and "in_features" in dir(compiled)
    refused(TypeError, "Linear does not support len()", lambda: len(compiled))


def test_a_compiled_class_is_the_class_itself():
    class Doubling(torch.nn.Module):  # torch patches the class it is given: a class of our own
        def forward(self, t):
            return 2 * t

    assert torch.compile(Doubling, backend="eager") is Doubling
    assert torch.equal(Doubling()(torch.ones(2)), torch.full((2,), 2.0))


def test_a_compiled_function_and_the_decorator_forms():
    def cube(t):
        return t ** 3

    compiled = torch.compile(cube, backend="eager")
    assert compiled is not cube and compiled.__wrapped__ is cube
    assert compiled.__name__ == "cube" and compiled._torchdynamo_orig_callable is cube
    x = numbers(5, seed=1).requires_grad_()
    (gx,) = torch.autograd.grad(compiled(x).sum(), x)
    assert torch.equal(gx, 3 * x.detach() ** 2)

    @torch.compile
    def double(t):
        return t * 2

    @torch.compile(backend="eager", mode="reduce-overhead", fullgraph=True, dynamic=False)
    def triple(t):
        return t * 3

    assert double.__name__ == "double" and triple.__name__ == "triple"
    assert torch.equal(triple(torch.ones(2)), torch.full((2,), 3.0))
    refused(RuntimeError, "Model can't be None", lambda: torch.compile(mode="default")(None))


def test_compile_refuses_as_torch_does():
    def f(t):
        return t

    refused(RuntimeError, "Either mode or options can be specified, but both can't be specified "
            "at the same time.", lambda: torch.compile(f, mode="default", options={"a": 1}))
    error = refused(RuntimeError, "Invalid backend: 'nonexistent', see "
                    "`torch._dynamo.list_backends()` for available backends.",
                    lambda: torch.compile(f, backend="nonexistent", disable=True))
    assert type(error).__name__ == "InvalidBackend"
    assert isinstance(error, torch._dynamo.exc.InvalidBackend)
    refused(RuntimeError, "Unrecognized mode=fastest, should be one of: default, lite, "
            "reduce-overhead, max-autotune-no-cudagraphs, max-autotune",
            lambda: torch.compile(f, mode="fastest"))
    refused(AssertionError, "Expected enable to be a bool, got <class 'str'>",
            lambda: torch.compile(f, dynamic="yes"))
    refused(AssertionError, "A callable function is expected, but <class 'int'> is provided.",
            lambda: torch.compile(3))
    refused(AssertionError, "A callable function is expected, but <class 'int'> is provided.",
            lambda: torch.compile(3, disable=True))
    assert torch.compile(f, dynamic="yes", disable=True) is f
    refused(TypeError, "compile() takes from 0 to 1 positional arguments but 2 were given",
            lambda: torch.compile(f, "eager"))
    assert torch.compile(f, backend="eager", mode="fastest") is not f
    assert torch._dynamo.list_backends() == ["cudagraphs", "inductor", "openxla", "tvm"]
    assert torch.compiler.list_backends() == torch._dynamo.list_backends()
    everything = torch._dynamo.list_backends(None)
    assert {"eager", "aot_eager", "inductor", "openxla_eval"} <= set(everything)
    assert everything == sorted(everything) and len(everything) == 23
    assert torch._dynamo.list_backends(("debug",)) == [
        "cudagraphs", "inductor", "openxla", "openxla_eval", "tvm"]


def test_torch_compiler_helpers():
    def f(t):
        return t + 1

    assert torch.compiler.compile(f, backend="eager").__wrapped__ is f
    assert torch.compiler.reset() is None and torch._dynamo.reset() is None
    left = torch.compiler.disable(f, reason="why")
    assert left is not f and left.__wrapped__ is f and left.__name__ == "f"
    assert (left._torchdynamo_disable, left._torchdynamo_disable_msg,
            left._torchdynamo_disable_recursive) == (True, "why", True)
    assert torch.equal(left(torch.ones(1)), torch.full((1,), 2.0))
    assert torch.compiler.disable(recursive=False)(f)._torchdynamo_disable_recursive is False
    model = torch.nn.Linear(2, 2)
    assert torch.compiler.disable(model)._orig_mod is model
    refused(AssertionError, "fn must be callable", lambda: torch.compiler.disable(3))
    refused(AssertionError, "A callable function is expected, but <class 'int'> is provided.",
            lambda: torch.compiler.disable()(3))
    assert torch.compiler.allow_in_graph(f) is f and torch.compiler.assume_constant_result(f) is f
    assert torch.compiler.cudagraph_mark_step_begin() is None


# --- the namespace's flags and older switches ----------------------------------------------

def test_the_builds_flags_are_bools_and_agree_with_the_backends():
    assert torch.has_lapack is True
    for name in ("has_mkl", "has_openmp", "has_spectral"):
        assert type(getattr(torch, name)) is bool
    assert torch.has_mkl is B.mkl.is_available() and torch.has_openmp is B.openmp.is_available()


def test_set_flush_denormal():
    assert type(torch.set_flush_denormal(False)) is bool
    refused(RuntimeError, "flush_denormal expects a bool, but got int",
            lambda: torch.set_flush_denormal(1))
    refused(TypeError, "torch.set_flush_denormal() takes exactly one argument (0 given)",
            torch.set_flush_denormal)
    assert torch.set_flush_denormal(False) is torch.set_flush_denormal(True)
    torch.set_flush_denormal(False)


DEPRECATED = ("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
              "torch.set_default_dtype() and torch.set_default_device() as alternatives. "
              "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/tensor/"
              "python_tensor.cpp:434.)")


def test_set_default_tensor_type_sets_the_dtype_and_warns():
    try:
        with caught_always(torch) as caught:
            torch.set_default_tensor_type(torch.DoubleTensor)
            assert torch.get_default_dtype() is torch.float64
            assert torch.tensor([1.0]).dtype is torch.float64
            torch.set_default_tensor_type("torch.FloatTensor")
            assert torch.get_default_dtype() is torch.float32
        assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, DEPRECATED)] * 2
    finally:
        torch.set_default_dtype(torch.float32)


def test_set_default_tensor_type_refuses_before_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        refused(TypeError, "only floating-point types are supported as the default type",
                lambda: torch.set_default_tensor_type("torch.IntTensor"))
        for wrong in (torch.float64, 3):
            refused(TypeError, "invalid type object: only floating-point types are supported as"
                    " the default type", lambda wrong=wrong: torch.set_default_tensor_type(wrong))
        refused(ModuleNotFoundError, "No module named 'bogus'",
                lambda: torch.set_default_tensor_type("bogus.FloatTensor"))
    assert torch.get_default_dtype() is torch.float32


def test_get_device_is_distributed_and_init_num_threads():
    assert torch.get_device(torch.ones(1)) == -1
    assert torch.is_distributed(torch.ones(1)) is False
    for name in ("get_device", "is_distributed"):
        refused(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not int",
                lambda name=name: getattr(torch, name)(3))
    assert torch.init_num_threads() is None
    refused(TypeError, "init_num_threads(): incompatible function arguments. The following "
            "argument types are supported:\n    1. () -> None\n\nInvoked with: 1",
            lambda: torch.init_num_threads(1))



# --- cuBLAS's switches ---------------------------------------------------------------------

def test_matmul_allow_tf32_is_the_float32_matmul_precision():
    m = B.cuda.matmul
    assert type(m).__name__ == "cuBLASModule" and m.allow_tf32 is False
    try:
        m.allow_tf32 = True
        assert torch.get_float32_matmul_precision() == "high" and m.allow_tf32 is True
        refused(RuntimeError, "set_allow_tf32_cublas expects a bool, but got int",
                assign(m, "allow_tf32", 1))
        m.allow_tf32 = False
        assert torch.get_float32_matmul_precision() == "highest" and m.allow_tf32 is False
        torch.set_float32_matmul_precision("medium")
        assert m.allow_tf32 is True
    finally:
        torch.set_float32_matmul_precision("highest")


@pytest.mark.parametrize("kind", ["fp16", "bf16"])
def test_matmul_reduced_precision_reductions(kind):
    m, name = B.cuda.matmul, f"allow_{kind}_reduced_precision_reduction"

    def read():
        return getattr(m, name), getattr(m, name + "_split_k")

    assert read() == (True, True)
    try:
        for value, expected in (((False, False), (False, False)), ([True], (True, True)),
                                (False, (False, True)), ((False, True), (False, True))):
            setattr(m, name, value)
            assert read() == expected
        for value, words in (
                (1, f"{name} expects a bool or a tuple/list of bools, but got <class 'int'>"),
                ((), f"{name} expects at least one boolean argument"),
                ((True,) * 3, f"{name} expects at most two boolean arguments"),
                ((1,), f"{name} expects a bool for allow_reduced_precision, but got <class 'int'>"),
                ((True, 0), f"{name} expects a bool for allow_splitk, but got <class 'int'>")):
            refused(TypeError, words, assign(m, name, value))
        refused(RuntimeError, "allow_splitk=False is not supported when reduced precision "
                "reductions are enabled", assign(m, name, (True, False)))
        assert read() == (False, True)
    finally:
        setattr(m, name, True)
    assert read() == (True, True)


def test_matmul_fp16_accumulation_and_unknown_names():
    m = B.cuda.matmul
    assert m.allow_fp16_accumulation is False
    refused(RuntimeError, "set_allow_fp16_accumulation_cublas expects a bool, but got int",
            assign(m, "allow_fp16_accumulation", 1))
    m.allow_fp16_accumulation = True
    try:
        assert m.allow_fp16_accumulation is True
    finally:
        m.allow_fp16_accumulation = False
    refused(AttributeError, "Unknown attribute bogus", lambda: m.bogus)
    refused(AttributeError, "Unknown attribute bogus", assign(m, "bogus", 1))


_FIRST_COMPILE = """
import {module} as torch
checks = lambda: torch.distributions.Distribution._validate_args
seen = [checks()]
torch.compile(lambda x: x, disable=True)
torch.compile(mode="default")  # only a decorator so far
seen.append(checks())
torch.compile(torch.nn.Linear(1, 1), backend="eager")
seen.append(checks())
torch.distributions.Normal(0.0, -1.0)  # no longer refused
torch.distributions.Distribution.set_default_validate_args(True)
torch.compile(lambda x: x, backend="eager")
seen.append(checks())
print(*seen)
"""


def test_the_first_compile_of_a_process_turns_off_the_distributions_checks():
    printed = printed_in_a_fresh_process(_FIRST_COMPILE)
    assert printed.split() == ["True", "True", "False", "True"]
