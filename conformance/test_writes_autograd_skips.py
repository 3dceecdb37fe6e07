"""In-place writes autograd does not check, and out= writes it records.

The logical ops' in-place forms have no autograd layer in torch: they write a leaf
that requires grad and leave a history alone. The kernels without a derivative
(floor_divide, softmax, ...) record a NotImplemented node when written through out=
with a tensor that requires grad, and the composites (quantile, tensordot, ...)
record their copy into out as CopyBackwards. Also: ger's warning with out=, the
sums computed in out's dtype, and a few refusals in the words of their own op.
"""

import warnings

import pytest
import torch

from conformance._support import mkl_reads_before_it_writes, preorder_names, raises

OUT_NEEDS_GRAD = ("{}(): functions with out=... arguments don't support automatic "
                  "differentiation, but one of the arguments requires grad.")
LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = ("a view of a leaf Variable that requires grad is being used in an in-place "
                "operation.")


def _x():
    return torch.tensor([[0.1, 0.5, 0.9], [0.3, 0.7, 0.2]])


def _names(t):
    return [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions]


# --- the logical ops in place ---------------------------------------------------------

LOGICAL = {"logical_and_": (1,), "logical_or_": (1,), "logical_xor_": (1,), "logical_not_": ()}


def _operands(name, t):
    return [torch.tensor([0.0, 2.0, 0.0])[: t.shape[-1]] for _ in LOGICAL[name]]


@pytest.mark.parametrize("name", sorted(LOGICAL))
def test_a_logical_op_in_place_writes_a_leaf_that_requires_grad(name):
    x = torch.tensor([0.5, 0.0, 2.0], requires_grad=True)
    assert getattr(x, name)(*_operands(name, x)) is x
    assert (x._version, x.grad_fn, x.requires_grad, x.is_leaf) == (1, None, True, True)
    expected = {"logical_and_": [0.0, 0.0, 0.0], "logical_or_": [1.0, 1.0, 1.0],
                "logical_xor_": [1.0, 1.0, 1.0], "logical_not_": [0.0, 1.0, 0.0]}
    assert x.tolist() == expected[name]


@pytest.mark.parametrize("name", sorted(LOGICAL))
def test_a_logical_op_in_place_writes_a_view_of_a_leaf_and_keeps_a_history(name):
    x = torch.tensor([[0.5, 0.0, 2.0], [1.0, 0.0, 3.0]], requires_grad=True)
    v = x[:, 1:]
    getattr(v, name)(*_operands(name, v))
    assert (x._version, type(v.grad_fn).__name__, x.grad_fn) == (1, "AsStridedBackward0", None)
    w = x.detach().clone().requires_grad_()
    y = w * 2
    getattr(y, name)(*_operands(name, y))
    assert (y._version, type(y.grad_fn).__name__) == (1, "MulBackward0")
    y.sum().backward()
    assert w.grad.tolist() == [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]  # the write is not seen


@pytest.mark.parametrize("name", sorted(LOGICAL))
def test_a_logical_op_in_place_writes_a_view_made_under_no_grad(name):
    y = torch.ones(2, 3, requires_grad=True) * 1
    with torch.no_grad():
        v = y[:, 1:]
    getattr(v, name)(*_operands(name, v))  # any recorded write here is refused
    assert (y._version, type(y.grad_fn).__name__) == (1, "MulBackward0")


def test_a_logical_op_in_place_still_refuses_an_inference_tensor_outside_inference_mode():
    with torch.inference_mode():
        x = torch.ones(3)
    with raises(RuntimeError, "Inplace update to inference tensor outside InferenceMode is not "
                              "allowed.You can make a clone to get a normal tensor before doing "
                              "inplace update.See https://github.com/pytorch/rfcs/pull/17 for "
                              "more details."):
        x.logical_not_()


# --- nextafter's gradient -------------------------------------------------------------

def test_nextafter_gradient_is_a_where_with_the_gradient_first():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x * 1
    y.nextafter_(torch.tensor([3.0, 2.0], dtype=torch.float64))
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert preorder_names(g.grad_fn, 4) == (
        "MulBackward0 .WhereBackward0 ..AddBackward0 ...MulBackward0 ....None "
        "....NextafterBackward0 ...MulBackward0 ....None ....NextafterBackward0 ..None .None")
    assert g.tolist() == [2.0000000000000004, 0.0]  # 2 y, y one step above 1
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [2.0, 0.0]


# --- out= into the kernels without a derivative ----------------------------------------

NOT_DIFFERENTIATED = {  # name: (call of an input and out, what torch's messages name)
    "floor_divide": (lambda x, out: torch.floor_divide(x, _x() + 0.3, out=out), "floor_divide"),
    "heaviside": (lambda x, out: torch.heaviside(x, _x(), out=out), "heaviside"),
    "softmax": (lambda x, out: torch.softmax(x, 1, out=out), "softmax"),
    "log_softmax": (lambda x, out: torch.log_softmax(x, 1, out=out), "log_softmax"),
    "diag": (lambda x, out: torch.diag(x, out=out), "diagonal_copy"),
    "diag of a vector": (lambda x, out: torch.diag(x[0], out=out), "diag_embed"),
    "slice_scatter": (lambda x, out: torch.slice_scatter(x, _x()[:, :1], 1, 0, 1, out=out),
                      "slice_scatter"),
}


def _result_shape(name):
    call, _ = NOT_DIFFERENTIATED[name]
    return call(_x(), torch.empty(0)).shape


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIATED))
def test_out_of_a_kernel_without_a_derivative_refuses_a_leaf_and_a_view_of_one(name):
    call, said = NOT_DIFFERENTIATED[name]
    shape = _result_shape(name)
    for out in (torch.zeros(shape, requires_grad=True),
                torch.zeros(shape, requires_grad=True)[:]):
        with raises(RuntimeError, OUT_NEEDS_GRAD.format("aten::" + said)):
            call(_x(), out)
        assert out._version == 0


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIATED))
def test_out_of_a_kernel_without_a_derivative_records_a_not_implemented_node(name):
    call, said = NOT_DIFFERENTIATED[name]
    shape = _result_shape(name)
    w = torch.zeros(shape, requires_grad=True)
    out = w * 1
    expected = call(_x(), torch.empty(0))
    assert call(_x(), out) is out
    assert (out._version, out.requires_grad, out.grad_fn.name()) == (
        1, True, "torch::autograd::NotImplemented")
    assert preorder_names(out.grad_fn, 2) == "NotImplemented .MulBackward0 ..AccumulateGrad ..None"
    assert torch.equal(out.detach(), expected)
    with raises(RuntimeError, f"derivative for aten::{said} is not implemented"):
        out.sum().backward()


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIATED))
def test_an_input_that_requires_grad_makes_a_plain_out_require_grad(name):
    call, _ = NOT_DIFFERENTIATED[name]
    x = _x().requires_grad_()
    out = torch.empty(0)
    call(x, out)
    edge = "SelectBackward0" if name == "diag of a vector" else "AccumulateGrad"  # x[0]
    assert (out._version, out.requires_grad, _names(out)) == (1, True, [edge])
    w = torch.zeros(_result_shape(name), requires_grad=True)
    out = w * 1
    call(x, out)
    assert _names(out) == [edge, "MulBackward0"]  # the inputs, then out


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIATED))
def test_out_of_a_kernel_without_a_derivative_through_a_view_is_a_copy_slices(name):
    call, _ = NOT_DIFFERENTIATED[name]
    shape = _result_shape(name)
    x = _x().requires_grad_()
    base = torch.zeros(shape, requires_grad=True) * 1
    out = base[:]
    call(x, out)
    assert (type(out.grad_fn).__name__, type(base.grad_fn).__name__) == (
        "AsStridedBackward0", "CopySlices")
    assert _names(base) == ["MulBackward0", "SliceBackward0"]  # x's edge gave way to base's
    assert (out._version, base._version) == (1, 1)


# --- out= into the composites -----------------------------------------------------------

COMPOSITES = {
    "quantile": lambda x, out: torch.quantile(x, 0.5, dim=1, out=out),
    "nanquantile": lambda x, out: torch.nanquantile(x, 0.5, dim=1, out=out),
    "inner": lambda x, out: torch.inner(x, _x() + 1, out=out),
    "tensordot": lambda x, out: torch.tensordot(x, _x() + 1, ([1], [1]), out=out),
}


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_a_composite_records_its_copy_into_out(name):
    call = COMPOSITES[name]
    expected = call(_x(), torch.empty(0))
    out = torch.zeros(expected.shape, requires_grad=True) * 1
    call(_x(), out)
    assert (out._version, out.grad_fn.name(), _names(out)) == (
        1, "torch::autograd::CopyBackwards", ["MulBackward0", None])
    assert torch.equal(out.detach(), expected)
    out.sum().backward()  # a copy has a derivative: the old values get none
    x = _x().requires_grad_()
    plain = torch.empty(0)
    call(x, plain)
    assert (plain.requires_grad, plain.grad_fn.name(), plain._version) == (
        True, "torch::autograd::CopyBackwards", 1)
    plain.sum().backward()
    assert x.grad is not None and x.grad.shape == x.shape


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_a_composite_refuses_a_leaf_out_as_copy_does(name):
    call = COMPOSITES[name]
    shape = call(_x(), torch.empty(0)).shape
    with raises(RuntimeError, LEAF):
        call(_x(), torch.zeros(shape, requires_grad=True))
    if name != "tensordot":
        with raises(RuntimeError, VIEW_OF_LEAF):
            call(_x(), torch.zeros(shape, requires_grad=True)[:])
    base = torch.zeros(shape, requires_grad=True) * 1
    view = base[:]
    call(_x(), view)
    assert (type(view.grad_fn).__name__, type(base.grad_fn).__name__) == (
        "AsStridedBackward0", "CopySlices")


def test_tensordot_refuses_to_resize_an_out_that_requires_grad():
    message = ("tensordot(): the 'out' tensor was specified and requires gradients, and its "
               "shape does not match the expected result. Either remove the 'out' argument, "
               "ensure it does not require gradients, or make sure its shape matches the "
               "expected output.")
    for out in (torch.zeros(3, requires_grad=True), torch.zeros(3, requires_grad=True) * 1):
        with raises(RuntimeError, message):
            COMPOSITES["tensordot"](_x(), out)
        assert out.shape == (3,)


# --- what else out= changes -------------------------------------------------------------

GER_WARNING = ("torch.ger is deprecated and will be removed in a future PyTorch release. Use "
               "torch.outer instead.")


def test_ger_warns_at_every_call_with_out_and_only_with_out():
    a = torch.tensor([1.0, 2.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.ger(a, a)
        torch.ger(a, a, out=torch.empty(0))
        torch.ger(a, a, out=torch.zeros(3))  # resized: the resize warns after
        with pytest.raises(RuntimeError):
            torch.ger(a, a, out=torch.empty(0, dtype=torch.long))
    messages = [str(w.message).split(" (Triggered internally")[0] for w in caught]
    assert [m[:40] for m in messages] == [GER_WARNING[:40], GER_WARNING[:40],
                                          "An output with one or more elements was ",
                                          GER_WARNING[:40]]
    assert messages[0] == GER_WARNING


def test_ger_warning_as_an_error_gives_way_to_the_call_error():
    a = torch.tensor([1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(RuntimeError, "result type Float can't be cast to the desired output "
                                  "type Long"):
            torch.ger(a, a, out=torch.empty(0, dtype=torch.long))
        out = torch.empty(0)
        with pytest.raises(UserWarning, match="torch.ger is deprecated"):
            torch.ger(a, a, out=out)
        assert out.tolist() == [[1.0, 2.0], [2.0, 4.0]]  # written before the warning's error


@pytest.mark.parametrize("dtype, expected", [
    (torch.long, {"sum": [1, 0], "prod": [0, 0], "cumsum": [[0, 0, 1], [0, 0, 0]],
                  "cumprod": [[0, 0, 0], [0, 0, 0]]}),
    (torch.float64, {"sum": [2.9000000953674316, 1.2000000029802322],
                     "prod": [0.6120000658035302, 0.04200000157952307],
                     "nansum": [2.9000000953674316, 1.2000000029802322],
                     "mean": [0.9666666984558105, 0.40000000099341076],
                     "cumsum": [[0.6000000238418579, 1.2000000476837158, 2.9000000953674316],
                                [0.30000001192092896, 1.0, 1.2000000029802322]]}),
])
def test_sums_and_products_compute_in_outs_dtype(dtype, expected):
    x = torch.tensor([[0.6, 0.6, 1.7], [0.3, 0.7, 0.2]])
    for name, values in expected.items():
        out = torch.empty(0, dtype=dtype)
        getattr(torch, name)(x, 1, out=out)
        assert out.tolist() == values, name


def test_float_power_checks_outs_dtype_before_grad():
    x = _x().requires_grad_()
    with raises(RuntimeError, "the output given to float_power has dtype Float but the "
                              "operation's result requires dtype Double"):
        torch.float_power(x, 2, out=torch.empty(0))
    with raises(RuntimeError, OUT_NEEDS_GRAD.format("pow")):
        torch.float_power(x, 2, out=torch.empty(0, dtype=torch.float64))


def test_in_place_refusals_in_their_own_words():
    with raises(RuntimeError, "ldexp can't be cast to the desired output type Long"):
        torch.arange(3).ldexp_(torch.tensor([1.5, 1.0, 2.0]))
    with raises(RuntimeError, "mvlgamma: result type Long can't be cast to the desired output "
                              "type Float"):
        torch.arange(3).mvlgamma_(1)
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        torch.arange(3).sin_()


def test_mv_refuses_a_dtype_in_the_words_of_its_check():
    m, v = torch.tensor([[2.0, 0.5], [0.3, 1.5]]), torch.tensor([0.5, 2.0])
    with raises(RuntimeError, "Expected out tensor to have dtype float, but got long int "
                              "instead"):
        torch.mv(m, v, out=torch.empty(0, dtype=torch.long))
    with raises(RuntimeError, "addmv input tensors must have the same dtype, but got Long, "
                              "Float, and Float"):
        torch.mv(m, v, out=torch.empty(2, dtype=torch.long))


def test_nonzero_lays_out_a_resized_out_as_its_result():
    x = torch.tensor([[0.0, 1.0, 2.0], [0.0, 3.0, 0.0]])
    assert torch.nonzero(x).stride() == (1, 3)
    out = torch.empty(0, dtype=torch.long)
    torch.nonzero(x, out=out)
    assert (out.stride(), out.tolist()) == ((1, 3), [[0, 1], [0, 2], [1, 1]])
    kept = torch.zeros(3, 2, dtype=torch.long)
    torch.nonzero(x, out=kept)
    assert kept.stride() == (2, 1)


def test_cross_refuses_an_out_that_is_one_of_its_inputs():
    shared = ("unsupported operation: some elements of the input tensor and the written-to "
              "tensor refer to a single memory location. Please clone() the tensor before "
              "performing the operation.")
    x, y = torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[0.5, 1.0, 4.0]])
    for call in (lambda: torch.cross(x, y, dim=1, out=x), lambda: torch.cross(x, y, dim=1, out=y),
                 lambda: torch.linalg.cross(x, y, out=x)):
        with raises(RuntimeError, shared):
            call()
    assert (x.tolist(), y.tolist()) == ([[1.0, 2.0, 3.0]], [[0.5, 1.0, 4.0]])
    rows = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    torch.linalg.cross(rows[:1], y, out=rows[1:])  # apart: written
    assert rows[1].tolist() == [5.0, -2.5, 0.0]


def test_addr_in_place_refuses_for_autograd_before_its_shapes():
    u = torch.ones(3)
    with raises(RuntimeError, LEAF):
        torch.zeros(3, requires_grad=True).addr_(u, u)
    view = (torch.zeros(2, 3, requires_grad=True) * 1).unbind(0)[0]
    with raises(RuntimeError, "Output 0 of Unbind is a view and is being modified "
                              "inplace. This view is the output of a function that returns "
                              "multiple views. Such functions do not allow the output views to "
                              "be modified inplace. You should replace the inplace operation by "
                              "an out-of-place one."):
        view.addr_(u, u)
    with raises(RuntimeError, "2D tensor expected, got 1D tensor for input"):
        torch.zeros(3).addr_(u, u)


@pytest.mark.parametrize("name", ["igamma_", "igammac_", "index_reduce_"])
def test_forward_mode_refuses_an_in_place_op_under_its_own_name(name):
    import torch.autograd.forward_ad as fwAD

    args = {"igamma_": (torch.ones(3),), "igammac_": (torch.ones(3),),
            "index_reduce_": (0, torch.tensor([0]), torch.ones(1), "prod")}[name]
    with fwAD.dual_level():
        y = fwAD.make_dual(torch.ones(3) + 1, torch.ones(3))
        with pytest.raises(NotImplementedError, match=f"^Trying to use forward AD with {name} "
                                                      "that does not support it"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # index_reduce_ is in beta
                getattr(y, name)(*args)


# --- out= in forward mode -----------------------------------------------------------------

def _dual_calls():
    a = _x()
    return {"add": lambda x, o: torch.add(x, a, out=o),
            "softmax": lambda x, o: torch.softmax(x, 1, out=o),
            "floor_divide": lambda x, o: torch.floor_divide(x, a + 0.3, out=o),
            "quantile": lambda x, o: torch.quantile(x, 0.5, dim=1, out=o),
            "inner": lambda x, o: torch.inner(x, a, out=o),
            "igamma": lambda x, o: torch.igamma(x, a, out=o),
            "absolute": lambda x, o: torch.absolute(x, out=o),
            "matmul": lambda x, o: torch.matmul(x, a.t(), out=o)}


FORWARD_REFUSALS = {  # name: (torch's message, out's version after it)
    "add": ("Trying to use forward AD with add_out that does not support it because it is an "
            "out= function", 1),
    "igamma": ("Trying to use forward AD with igamma_out that does not support it because it "
               "is an out= function", 1),
    "absolute": ("Trying to use forward AD with abs_out that does not support it because it "
                 "is an out= function", 1),
    "matmul": ("Trying to use forward AD with mm_out that does not support it because it is an "
               "out= function", 1),
    "softmax": ("Trying to use forward AD with aten::softmax that does not support it.", 0),
    "floor_divide": ("Trying to use forward AD with aten::floor_divide that does not support "
                     "it.", 0),
}


@pytest.mark.parametrize("name", sorted(FORWARD_REFUSALS))
@pytest.mark.parametrize("dual", ["input", "out"])
def test_forward_mode_refuses_out_in_torchs_words(name, dual):
    import torch.autograd.forward_ad as fwAD

    call = _dual_calls()[name]
    shape = call(_x(), torch.empty(0)).shape
    message, version = FORWARD_REFUSALS[name]
    with fwAD.dual_level():
        x = fwAD.make_dual(_x(), torch.ones(2, 3)) if dual == "input" else _x()
        out = torch.zeros(shape)
        if dual == "out":
            out = fwAD.make_dual(out, torch.ones(shape))
        with raises(NotImplementedError, message):
            call(x, out)
        assert out._version == version


@pytest.mark.parametrize("name", ["quantile", "inner"])
def test_a_composite_copies_tangents_into_out(name):
    import torch.autograd.forward_ad as fwAD

    call = _dual_calls()[name]
    expected = {"quantile": ([1.0, 1.0], [0.0, 0.0]),
                "inner": ([[1.5, 1.2000000476837158], [1.5, 1.2000000476837158]],
                          [[0.0, 0.0], [0.0, 0.0]])}[name]
    shape = call(_x(), torch.empty(0)).shape
    with fwAD.dual_level():
        out = torch.zeros(shape)
        call(fwAD.make_dual(_x(), torch.ones(2, 3)), out)
        assert (fwAD.unpack_dual(out).tangent.tolist(), out._version) == (expected[0], 1)
        out = fwAD.make_dual(torch.zeros(shape), torch.ones(shape))
        call(_x(), out)
        assert fwAD.unpack_dual(out).tangent.tolist() == expected[1]


def test_narrow_copy_writes_outs_memory_in_order():
    x = torch.tensor([[0.1, 0.5, 0.9], [0.3, 0.7, 0.2]])
    transposed = torch.zeros(2, 2).t()
    torch.narrow_copy(x, 1, 1, 2, out=transposed)
    assert transposed.tolist() == [[0.5, 0.699999988079071], [0.8999999761581421,
                                                              0.20000000298023224]]
    base = torch.zeros(2, 4)
    window = base[:, ::2]
    torch.narrow_copy(x, 1, 1, 2, out=window)
    assert base.tolist() == [[0.5, 0.8999999761581421, 0.699999988079071, 0.20000000298023224],
                             [0.0, 0.0, 0.0, 0.0]]
    assert (window.tolist(), base._version) == ([[0.5, 0.699999988079071], [0.0, 0.0]], 1)
    plain = torch.zeros(2, 2)
    torch.narrow_copy(x, 1, 1, 2, out=plain)
    assert plain.tolist() == [[0.5, 0.8999999761581421], [0.699999988079071,
                                                          0.20000000298023224]]
    shared = torch.zeros(1, 2).expand(2, 2)  # two elements of memory: the rest is lost
    torch.narrow_copy(x, 1, 1, 2, out=shared)
    assert shared.tolist() == [[0.5, 0.8999999761581421], [0.5, 0.8999999761581421]]


def test_matrix_rank_takes_a_dual_input_with_out():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        a = fwAD.make_dual(torch.tensor([[2.0, 0.5], [0.3, 1.5]]), torch.ones(2, 2))
        out = torch.empty(0, dtype=torch.long)
        torch.linalg.matrix_rank(a, out=out)
        assert (out.tolist(), out._version, fwAD.unpack_dual(out).tangent) == (2, 1, None)


def _resize_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message).split(" This behavior")[0] for w in caught]


RESIZED = ("An output with one or more elements was resized since it had shape {}, which does "
           "not match the required output shape {}.")


def test_several_outs_are_resized_in_the_kernels_order():
    m = torch.tensor([[2.0, 1.0], [1.0, 4.0]])
    assert _resize_warnings(lambda: torch.linalg.eigh(m, out=(torch.zeros(7), torch.zeros(7)))) == [
        RESIZED.format([7], [2, 2]), RESIZED.format([7], [2])]
    outs = (torch.zeros(7), torch.zeros(7), torch.zeros(7))
    assert _resize_warnings(lambda: torch.linalg.svd(m, out=outs)) == [
        RESIZED.format([7], [2, 2]), RESIZED.format([7], [2, 2]), RESIZED.format([7], [2])]
    assert [list(o.shape) for o in outs] == [[2, 2], [2], [2, 2]]


def test_mode_and_kthvalue_speak_of_the_reduced_dimension():
    x = _x()
    long7 = lambda: torch.zeros(7, dtype=torch.long)  # noqa: E731
    assert _resize_warnings(lambda: torch.mode(x, 1, out=(torch.zeros(2, 2), long7()))) == [
        RESIZED.format([2, 1, 2], [2, 1]), RESIZED.format([7, 1], [2, 1])]
    assert _resize_warnings(lambda: torch.mode(x, 0, out=(torch.zeros(7), long7()))) == [
        RESIZED.format([1, 7], [1, 3]), RESIZED.format([1, 7], [1, 3])]
    outs = (torch.zeros(7), long7())
    assert _resize_warnings(lambda: torch.kthvalue(x, 1, 0, keepdim=True, out=outs)) == [
        RESIZED.format([7], [1, 3]), RESIZED.format([7], [1, 3])]
    assert [list(o.shape) for o in outs] == [[1, 3], [1, 3]]


def test_index_fill_of_an_empty_tensor_views_it_first():
    with raises(RuntimeError, "setStorage: sizes [2, 3], strides [0, 1], storage offset 0, and "
                              "itemsize 4 requiring a storage size of 12 are out of bounds for "
                              "storage of size 0"):
        torch.zeros(0, 3).index_fill_(0, torch.tensor([0, 0]), 0.5)
    with raises(RuntimeError, "setStorage: sizes [2, 1], strides [1, 0], storage offset 0, and "
                              "itemsize 4 requiring a storage size of 8 are out of bounds for "
                              "storage of size 0"):
        torch.zeros(2, 0).index_fill(1, torch.tensor([0]), 0.5)
    empty = torch.zeros(0, 3)
    empty.index_fill_(1, torch.tensor([5]), 0.5)  # nothing is filled, nothing is checked
    assert (empty.shape, empty._version) == ((0, 3), 1)
    with raises(IndexError, "index 5 is out of bounds for dimension 0 with size 2"):
        torch.zeros(2, 3).index_fill_(0, torch.tensor([5]), 0.5)


def test_bmm_into_an_operand_reads_what_it_wrote():
    m = torch.tensor([[[2.0, 0.5], [0.3, 1.5]]])
    n = torch.tensor([[[1.0, 0.2], [0.4, 2.0]]])
    a = m.clone()
    torch.bmm(a, n, out=a)
    assert a.tolist() == [[[2.200000047683716, 1.440000057220459],
                           [0.9000000357627869, 3.180000066757202]]]
    b = n.clone()
    torch.bmm(m, b, out=b)
    assert b.tolist() == [[[2.200000047683716, 1.399999976158142],
                           [1.2599999904632568, 3.4200000762939453]]]
    both = m.clone()
    torch.matmul(both, both, out=both)
    assert both.tolist() == [[[4.150000095367432, 2.825000047683716],
                              [1.695000171661377, 7.038375377655029]]]
    # mm, and bmm from 400 multiplications a matrix, call the matrix library, which
    # reads its operands first or clears the output before it reads them
    flat = m[0].clone()
    torch.matmul(flat, n[0], out=flat)
    big = torch.arange(128, dtype=torch.float32).reshape(2, 8, 8) / 100
    c = big.clone()
    torch.bmm(c, big, out=c)  # 512 multiplications a matrix
    if mkl_reads_before_it_writes():
        assert flat.tolist() == [[2.200000047683716, 1.399999976158142],
                                 [0.9000000357627869, 3.059999942779541]]
        assert torch.equal(c, torch.bmm(big, big))
    else:
        assert not flat.any() and not c.any()
