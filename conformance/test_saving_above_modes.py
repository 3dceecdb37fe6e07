"""Black-box tests: the order of saved-tensor pack and unpack hooks relative to what a
dispatch mode sees. torch's autograd layer sits above its modes: it packs an op's saved
operands before the op reaches the first mode, and its saved outputs after the modes hand
it back; an in-place op clones what it overwrites at the moment it saves it; a kernel that
refuses its operands refuses below the modes, after they were packed. The same full event
logs are asserted on torch."""

import pytest
import torch
from torch.autograd.graph import saved_tensors_hooks
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.checkpoint import checkpoint, create_selective_checkpoint_contexts

LOG: list = []


class Noting(TorchDispatchMode):
    def __init__(self, tag="m"):
        super().__init__()
        self.tag = tag

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = str(func).removeprefix("aten.").removesuffix(".default")
        LOG.append(f"{self.tag}>{name}")
        out = func(*args, **(kwargs or {}))
        LOG.append(f"{self.tag}<{name}")
        return out


def _pack(t):
    LOG.append("pack" + "x".join(map(str, t.shape)))
    return t


def _unpack(t):
    LOG.append("unpack" + "x".join(map(str, t.shape)))
    return t


def _hooks():
    return saved_tensors_hooks(_pack, _unpack)


def _leaf(*shape):
    return torch.ones(*shape, requires_grad=True)


def _forward_and_backward():
    x = _leaf(3)
    with _hooks(), Noting():
        (x.sin() * x).exp().sum().backward()


def _nested():
    x = _leaf(3)
    with _hooks(), Noting("outer"), Noting("inner"):
        x.sin().exp().sum().backward()


def _in_place():
    x = _leaf(3)
    a = x.clone()
    with _hooks(), Noting():
        a.sin_()
        a.exp_()
        a.mul_(x)
        a.sum().backward()


def _create_graph():
    x = _leaf(3)
    with _hooks(), Noting():
        (g,) = torch.autograd.grad(x.sin().sum(), x, create_graph=True)
        g.sum().backward()


def _outputs_kept():
    x = _leaf(3)
    with Noting(), _hooks():
        torch.max(x, 0)
        x.sort()
        torch.where(x > 0, x, x * 2)


def _written_with_indices():
    x = _leaf(3)
    with _hooks(), Noting():
        x.clone().index_put_((torch.tensor([0]),), x[:1] * 2)
        x.clone().masked_fill_(x > 0, 2.0)


def _written_by_name():
    x, a = _leaf(3), _leaf(3).clone()
    with _hooks(), Noting():
        a.index_add_(0, torch.tensor([0]), x[:1])
        a.scatter_(0, torch.tensor([1]), x[:1])
        a.clamp_(min=x)
        a.addcmul_(x, x, value=2)


def _through_a_view():
    y = _leaf(2, 3)
    with _hooks(), Noting():
        y.clone()[0].sigmoid_()


def _refused(call, mode=True):
    def run():
        x, m = _leaf(3), _leaf(2, 3)
        with _hooks(), Noting() if mode else _hooks():
            try:
                call(x, m)
            except (RuntimeError, IndexError) as error:
                LOG.append(type(error).__name__ + ":" + str(error).replace(" ", "_")[:30])
    return run


_LONG = torch.zeros(1, 1, dtype=torch.long)
_FLOAT = torch.zeros(1)
_SEVEN = torch.tensor([7])
KERNEL_CHECKS = {
    "gather_dtype": lambda x, m: x.gather(0, _FLOAT),
    "gather_dims": lambda x, m: x.gather(0, _LONG),
    "gather_dim": lambda x, m: x.gather(5, _SEVEN),
    "index_select_vector": lambda x, m: x.index_select(0, _LONG),
    "take_dtype": lambda x, m: x.take(_FLOAT),
    "take_range": lambda x, m: x.take(_SEVEN),
    "scatter_src": lambda x, m: x.scatter(0, _SEVEN, x),
    "scatter_value": lambda x, m: x.scatter(0, _SEVEN, 2.0),
    "scatter_add": lambda x, m: x.scatter_add(0, _SEVEN, x),
    "cat_zero_dim": lambda x, m: torch.cat([x, x.sum()]),
}


def _inference_refused():
    x = _leaf(3)
    with torch.inference_mode():
        i = torch.ones(3)
    with Noting():
        try:
            x * i
        except RuntimeError as error:
            LOG.append(str(error).replace(" ", "_")[:30])


def _checkpointed(policy):
    def run():
        x = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
        w = torch.full((2, 2), 0.5, dtype=torch.float64, requires_grad=True)

        def fn(a, b):
            return torch.sigmoid(torch.mm(torch.mm(a, b), b)).sin() * b

        def context_fn():
            forward, recompute = create_selective_checkpoint_contexts(policy)
            return forward, _both(Noting(), recompute)

        y = checkpoint(fn, x, w, use_reentrant=False, context_fn=context_fn)
        for _ in range(2):  # the second backward recomputes again
            try:
                torch.autograd.grad(y.sum(), (x, w), retain_graph=True)
                LOG.append("backward")
            except RuntimeError as error:
                LOG.append(str(error).replace(" ", "_")[:30])
        LOG[:] = [e for e in LOG if "detach" not in e]
    return run


class _both:  # a class: the recomputation's context must be one that can be entered again
    def __init__(self, outer, inner):
        self.outer, self.inner = outer, inner

    def __enter__(self):
        self.outer.__enter__()
        self.inner.__enter__()

    def __exit__(self, *exc):
        self.inner.__exit__(*exc)
        self.outer.__exit__(*exc)


CASES = {
    "forward_and_backward": _forward_and_backward,
    "nested": _nested,
    "in_place": _in_place,
    "create_graph": _create_graph,
    "outputs_kept": _outputs_kept,
    "written_with_indices": _written_with_indices,
    "written_by_name": _written_by_name,
    "through_a_view": _through_a_view,
    "mul_refused": _refused(lambda x, m: x * torch.ones(4)),
    "mm_refused": _refused(lambda x, m: m.mm(m)),
    "cat_refused": _refused(lambda x, m: torch.cat([x, m])),
    "gather_refused": _refused(lambda x, m: x.gather(0, torch.tensor([5]))),
    "index_select_refused": _refused(lambda x, m: x.index_select(0, torch.tensor([5]))),
    "inference_refused": _inference_refused,
    **{f"{name}_refused": _refused(call) for name, call in KERNEL_CHECKS.items()},
    **{f"{name}_refused_alone": _refused(call, False) for name, call in KERNEL_CHECKS.items()},
    "checkpoint_recomputes_all": _checkpointed([]),
    "checkpoint_keeps_mul": _checkpointed([torch.ops.aten.mul.Tensor]),
}


# What torch 2.13 shows: "m>op" as the mode is handed op, "m<op" as its func returns,
# "packAxB" and "unpackAxB" as a hook receives a tensor of that shape.
EXPECTED = {
    "forward_and_backward": (
        "pack3 m>sin m<sin pack3 pack3 m>mul.Tensor m<mul.Tensor m>exp m<exp pack3 m>sum "
        "m<sum m>ones_like m<ones_like m>expand m<expand unpack3 m>detach m<detach "
        "m>mul.Tensor m<mul.Tensor unpack3 m>detach m<detach unpack3 m>detach m<detach "
        "m>mul.Tensor m<mul.Tensor m>mul.Tensor m<mul.Tensor unpack3 m>detach m<detach m>cos "
        "m<cos m>mul.Tensor m<mul.Tensor m>add.Tensor m<add.Tensor m>detach m<detach"
    ),
    "nested": (
        "pack3 inner>sin outer>sin outer<sin inner<sin inner>exp outer>exp outer<exp "
        "inner<exp pack3 inner>sum outer>sum outer<sum inner<sum inner>ones_like "
        "outer>ones_like outer<ones_like inner<ones_like inner>expand outer>expand "
        "outer<expand inner<expand unpack3 inner>detach outer>detach outer<detach "
        "inner<detach inner>mul.Tensor outer>mul.Tensor outer<mul.Tensor inner<mul.Tensor "
        "unpack3 inner>detach outer>detach outer<detach inner<detach inner>cos outer>cos "
        "outer<cos inner<cos inner>mul.Tensor outer>mul.Tensor outer<mul.Tensor "
        "inner<mul.Tensor inner>detach outer>detach outer<detach inner<detach"
    ),
    "in_place": (
        "m>clone m<clone pack3 m>sin_ m<sin_ m>exp_ m<exp_ pack3 pack3 m>clone m<clone pack3 "
        "m>mul_.Tensor m<mul_.Tensor m>sum m<sum m>ones_like m<ones_like m>expand m<expand "
        "unpack3 m>detach m<detach unpack3 m>detach m<detach m>mul.Tensor m<mul.Tensor "
        "m>mul.Tensor m<mul.Tensor unpack3 m>detach m<detach m>mul.Tensor m<mul.Tensor "
        "unpack3 m>detach m<detach m>cos m<cos m>mul.Tensor m<mul.Tensor m>add.Tensor "
        "m<add.Tensor m>detach m<detach"
    ),
    "create_graph": (
        "pack3 m>sin m<sin m>sum m<sum m>ones_like m<ones_like m>expand m<expand unpack3 "
        "m>detach m<detach pack3 m>cos m<cos pack3 m>mul.Tensor m<mul.Tensor m>sum m<sum "
        "m>ones_like m<ones_like m>expand m<expand unpack3 m>mul.Tensor m<mul.Tensor unpack3 "
        "m>detach m<detach m>sin m<sin m>neg m<neg m>mul.Tensor m<mul.Tensor m>detach "
        "m<detach"
    ),
    "outputs_kept": (
        "m>max.dim m<max.dim pack m>sort m<sort pack3 m>gt.Scalar m<gt.Scalar m>mul.Tensor "
        "m<mul.Tensor pack3 m>where.self m<where.self"
    ),
    "written_with_indices": (
        "m>clone m<clone m>lift_fresh m<lift_fresh m>slice.Tensor m<slice.Tensor m>mul.Tensor "
        "m<mul.Tensor pack1 m>index_put_ m<index_put_ m>clone m<clone m>gt.Scalar m<gt.Scalar "
        "pack3 m>masked_fill_.Scalar m<masked_fill_.Scalar"
    ),
    "written_by_name": (
        "m>lift_fresh m<lift_fresh m>slice.Tensor m<slice.Tensor pack1 pack1 m>index_add_ "
        "m<index_add_ m>lift_fresh m<lift_fresh m>slice.Tensor m<slice.Tensor pack1 "
        "m>scatter_.src m<scatter_.src pack3 m>clone m<clone pack3 m>clamp_.Tensor "
        "m<clamp_.Tensor pack3 pack3 m>addcmul_ m<addcmul_"
    ),
    "through_a_view": (
        "m>clone m<clone m>select.int m<select.int m>sigmoid_ m<sigmoid_ pack3"
    ),
    "mul_refused": (
        "m>ones m<ones pack4 m>mul.Tensor RuntimeError:The_size_of_tensor_a_(3)_must_"
    ),
    "mm_refused": (
        "pack2x3 pack2x3 m>mm RuntimeError:mat1_and_mat2_shapes_cannot_be"
    ),
    "cat_refused": (
        "m>cat RuntimeError:Tensors_must_have_same_number_"
    ),
    "gather_refused": (
        "m>lift_fresh m<lift_fresh pack1 pack3 m>gather "
        "RuntimeError:index_5_is_out_of_bounds_for_d"
    ),
    "index_select_refused": (
        "m>lift_fresh m<lift_fresh pack1 m>index_select IndexError:index_out_of_range_in_self"
    ),
    "inference_refused": (
        "Inference_tensors_cannot_be_sa"
    ),
    "checkpoint_recomputes_all": (
        "m>mm m<mm m>mm m<mm m>sigmoid m<sigmoid m>sin m<sin backward m>mm m<mm m>mm m<mm "
        "m>sigmoid m<sigmoid m>sin m<sin backward"
    ),
    "checkpoint_keeps_mul": (
        "m>mm m<mm m>mm m<mm m>sigmoid m<sigmoid m>sin m<sin backward m>mm m<mm m>mm m<mm "
        "m>sigmoid m<sigmoid m>sin m<sin backward"
    ),
    "gather_dtype_refused": "pack1 pack3 m>gather RuntimeError:gather():_Expected_dtype_int32",
    "gather_dims_refused": "pack1x1 pack3 m>gather RuntimeError:Index_tensor_must_have_the_sam",
    "gather_dim_refused": "pack1 pack3 m>gather IndexError:Dimension_out_of_range_(expect",
    "index_select_vector_refused":
        "pack1x1 m>index_select IndexError:index_select():_Index_is_suppo",
    "take_dtype_refused": "pack1 pack3 m>take RuntimeError:take():_Expected_a_long_tensor",
    "take_range_refused": "pack1 pack3 m>take IndexError:out_of_range:_tried_to_access_",
    "scatter_src_refused": "pack1 m>scatter.src RuntimeError:index_7_is_out_of_bounds_for_d",
    "scatter_value_refused": "pack1 m>scatter.value RuntimeError:index_7_is_out_of_bounds_for_d",
    "scatter_add_refused": "pack1 m>scatter_add RuntimeError:index_7_is_out_of_bounds_for_d",
    "cat_zero_dim_refused": "m>sum m<sum m>cat RuntimeError:zero-dimensional_tensor_(at_po",
    "gather_dtype_refused_alone": "pack1 pack3 RuntimeError:gather():_Expected_dtype_int32",
    "gather_dims_refused_alone": "pack1x1 pack3 RuntimeError:Index_tensor_must_have_the_sam",
    "gather_dim_refused_alone": "pack1 pack3 IndexError:Dimension_out_of_range_(expect",
    "index_select_vector_refused_alone": "pack1x1 IndexError:index_select():_Index_is_suppo",
    "take_dtype_refused_alone": "pack1 pack3 RuntimeError:take():_Expected_a_long_tensor",
    "take_range_refused_alone": "pack1 pack3 IndexError:out_of_range:_tried_to_access_",
    "scatter_src_refused_alone": "pack1 RuntimeError:index_7_is_out_of_bounds_for_d",
    "scatter_value_refused_alone": "pack1 RuntimeError:index_7_is_out_of_bounds_for_d",
    "scatter_add_refused_alone": "pack1 RuntimeError:index_7_is_out_of_bounds_for_d",
    "cat_zero_dim_refused_alone": "RuntimeError:zero-dimensional_tensor_(at_po",
}


@pytest.mark.parametrize("name", list(CASES))
def test_saved_values_are_packed_where_torchs_autograd_layer_packs_them(name):
    LOG.clear()
    CASES[name]()
    assert " ".join(LOG) == EXPECTED[name]


def test_pow_by_a_tensor_exponent_packs_the_exponent_before_the_clone():
    a = torch.tensor([1.5, 2.0], requires_grad=True)
    c = torch.tensor([0.5, 3.0], requires_grad=True)
    b = a * 1
    names = {id(b): "b", id(c): "c"}
    packed = []

    def pack(t):
        packed.append(names.get(id(t), "clone"))
        return t

    with saved_tensors_hooks(pack, lambda t: t), Noting():
        b.pow_(c)
    assert packed == ["c", "clone", "b"]
    assert b.grad_fn.name() == "PowBackward1"


@pytest.mark.parametrize("f, counts", [
    (lambda a, b, c: torch.addcdiv(a, b, c + 1), [0, 0, 5]),
    (lambda a, b, c: torch.addcdiv(a, b, c + 1, value=0.5), [0, 0, 5]),
    (lambda a, b, c: torch.addcmul(a, b, c + 1), [0, 0, 0]),
])
def test_a_write_that_records_nothing_packs_nothing_under_a_mode(f, counts):
    found = []
    for wanted in range(3):
        torch.manual_seed(0)
        xs = [torch.rand(3, 3, dtype=torch.float64, requires_grad=k == wanted) for k in range(3)]
        packs = []
        hooks = saved_tensors_hooks(lambda t, packs=packs: packs.append(t) or t, lambda t: t)
        with hooks, Noting():
            y = f(*xs).sum()
            before = len(packs)
            torch.autograd.grad(y, [xs[wanted]], create_graph=True)
        found.append(len(packs) - before)
    assert found == counts
