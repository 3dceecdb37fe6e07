# ruff: noqa: E501 - the tables of torch's graphs below keep one graph to a line
"""The gradients of layer_norm, batch_norm and group_norm, taken with create_graph.

torch computes layer_norm's and batch_norm's gradients with one kernel each and records
one node for the three results (NativeLayerNormBackwardBackward0,
NativeBatchNormBackwardBackward0), whose backward is a formula of ordinary operations;
group_norm's gradient under create_graph is such a formula from the start, reaching back
into NativeGroupNormBackward0 through the statistics the forward returned. These tests
check the graphs (the gradient's, and the third derivative's first nodes), what the nodes
keep, the strides and versions, and the second derivatives and forward-over-reverse
tangents, as torch's values (to 1e-9).
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import distinct_values, preorder_names, unique_preorder

values = distinct_values


def param(n, shift):
    return (values(n) + shift).requires_grad_()


def running(n):
    return values(n) * 0.1, values(n) + 1.0


CASES = {
    # name: (input shape, transposed leaf, parameter count, function of (x, w, b))
    "layer_norm": ((2, 3), True, 0, lambda x, w, b: F.layer_norm(x, (3,))),
    "layer_norm_affine": ((2, 3), True, 3, lambda x, w, b: F.layer_norm(x, (3,), w, b)),
    "layer_norm_1d": ((4,), False, 4, lambda x, w, b: F.layer_norm(x, (4,), w, b)),
    "layer_norm_3d": ((2, 2, 3), False, 0, lambda x, w, b: F.layer_norm(x, (2, 3))),
    "batch_norm": ((2, 3), True, 0, lambda x, w, b: F.batch_norm(x, None, None, training=True)),
    "batch_norm_affine": ((4, 3), False, 3, lambda x, w, b: F.batch_norm(
        x, *running(3), w, b, training=True)),
    "batch_norm_3d": ((2, 3, 4), False, 3, lambda x, w, b: F.batch_norm(
        x, *running(3), w, b, training=True)),
    "batch_norm_eval": ((4, 3), False, 3, lambda x, w, b: F.batch_norm(
        x, *running(3), w, b, training=False)),
    "batch_norm_eval_3d": ((2, 3, 4), True, 0, lambda x, w, b: F.batch_norm(
        x, *running(3), training=False)),
    "group_norm": ((2, 3), True, 0, lambda x, w, b: F.group_norm(x[None], 1)),
    "group_norm_affine": ((2, 4, 3), False, 4, lambda x, w, b: F.group_norm(x, 2, w, b)),
}


def leaves(name):
    shape, transposed, n, _ = CASES[name]
    x = values(*shape[::-1]).permute(*range(len(shape) - 1, -1, -1)) if transposed else \
        values(*shape)
    x = (x + 0.4).requires_grad_()
    return x, (param(n, 0.5) if n else None), (param(n, -0.2) if n else None)


# torch's, per case: the input's gradient's graph (two levels), the gradients' strides, the
# second derivatives' sums and weighted sums and strides, the third derivative's first nodes,
# (stride, version, sum) of each .grad after a plain backward, and the tangent's two sums.
EXPECTED = {
    'layer_norm': ('NativeLayerNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.None .None .None .None',
 [(3, 1)], [(-0.0, -0.0007518444)], [(1, 2)],
 ['AddBackward0 .ReshapeAliasBackward0 .NativeLayerNormBackwardBackward0'], [((1, 2), 1, -0.0)],
 [-0.0, 0.0007518444]),
    'layer_norm_affine': ('NativeLayerNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.None .None .AccumulateGrad .AccumulateGrad',
 [(3, 1), (1,), (1,)],
 [(0.0, -1.8757914032), (7.5247400827, 6.495248002), (8.0766241587, 6.6335253134)],
 [(1, 2), (1,), (1,)],
 ['AddBackward0 .ReshapeAliasBackward0 .NativeLayerNormBackwardBackward0',
  'AddBackward0 .ViewBackward0 .NativeLayerNormBackwardBackward0',
  'NativeLayerNormBackwardBackward0 .AddBackward0 .AccumulateGrad .None .None .AccumulateGrad '
  '.AccumulateGrad'],
 [((1, 2), 1, -0.0), ((1,), 0, 12.8363120316), ((1,), 0, 4.4374147295)], [0.0, 6.4952982545]),
    'layer_norm_1d': ('NativeLayerNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.None .None .AccumulateGrad .AccumulateGrad',
 [(1,), (1,), (1,)],
 [(-0.0, -0.0034166279), (4.337764748, 3.2068469304), (2.9055104798, 2.1356671731)],
 [(1,), (1,), (1,)],
 ['AddBackward0 .ViewBackward0 .NativeLayerNormBackwardBackward0',
  'AddBackward0 .ViewBackward0 .NativeLayerNormBackwardBackward0',
  'NativeLayerNormBackwardBackward0 .AddBackward0 .AccumulateGrad .None .None .AccumulateGrad '
  '.AccumulateGrad'],
 [((1,), 0, 0.0), ((1,), 0, 9.9026228756), ((1,), 0, 3.1547013106)], [-0.0, 3.375305227]),
    'layer_norm_3d': ('NativeLayerNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.None .None .None .None',
 [(6, 3, 1)], [(-0.0, -0.0076570946)], [(6, 3, 1)],
 ['AddBackward0 .ViewBackward0 .NativeLayerNormBackwardBackward0'], [((6, 3, 1), 0, 0.0)],
 [-0.0, 0.9678543393]),
    'batch_norm': ('NativeBatchNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.None .None .None',
 [(3, 1)], [(0.0, -0.0006554568)], [(1, 2)],
 ['AddBackward0 .MulBackward0 .NativeBatchNormBackwardBackward0'], [((1, 2), 1, 0.0)],
 [-0.0, -0.0006554568]),
    'batch_norm_affine': ('NativeBatchNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.AccumulateGrad .None .None',
 [(3, 1), (1,), (1,)],
 [(-0.0, -0.0172369115), (2.9696949814, 3.3793602648), (4.1569348149, 4.2718931959)],
 [(3, 1), (1,), (1,)],
 ['AddBackward0 .AddBackward0 .NativeBatchNormBackwardBackward0',
  'AddBackward0 .SumBackward1 .NativeBatchNormBackwardBackward0',
  'NativeBatchNormBackwardBackward0 .AddBackward0 .AccumulateGrad .AccumulateGrad .None .None'],
 [((3, 1), 0, 0.0), ((1,), 0, 20.9522213184), ((1,), 0, 4.16)], [0.0, -0.2258072139]),
    'batch_norm_3d': ('NativeBatchNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.AccumulateGrad .None .None',
 [(12, 4, 1), (1,), (1,)],
 [(-0.0, -0.0137222526), (5.137522683, 7.5685899057), (5.0315035356, 7.4095026525)],
 [(12, 4, 1), (1,), (1,)],
 ['AddBackward0 .AddBackward0 .NativeBatchNormBackwardBackward0',
  'AddBackward0 .SumBackward1 .NativeBatchNormBackwardBackward0',
  'NativeBatchNormBackwardBackward0 .AddBackward0 .AccumulateGrad .AccumulateGrad .None .None'],
 [((12, 4, 1), 0, -0.0), ((1,), 0, 41.9149168466), ((1,), 0, 8.32)], [-0.0, 0.4293920008]),
    'batch_norm_eval': ('NativeBatchNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.AccumulateGrad .None .None',
 [(3, 1), (1,), (1,)],
 [(16.7488847136, 14.3001902494), (17.9620286846, 13.2460191001),
  (11.4376018724, 9.6677879426)],
 [(3, 1), (1,), (1,)],
 ['AddBackward0 .MulBackward0 .NativeBatchNormBackwardBackward0',
  'AddBackward0 .SumBackward1 .NativeBatchNormBackwardBackward0',
  'NativeBatchNormBackwardBackward0 .AddBackward0 .AccumulateGrad .AccumulateGrad .None .None'],
 [((3, 1), 0, 16.5217309761), ((1,), 0, 15.2260418766), ((1,), 0, 19.2528259385)],
 [-2.5089533946, -2.1209257692]),
    'batch_norm_eval_3d': ('NativeBatchNormBackwardBackward0 .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad '
 '.None .None .None',
 [(12, 4, 1)], [(8.6606970633, 7.4254747568)], [(12, 4, 1)],
 ['NativeBatchNormBackwardBackward0 .None .AccumulateGrad .None .None .None'],
 [((1, 2, 6), 1, 30.4336826124)], [-2.9901883968, -3.3245151177]),
    'group_norm': ('SqueezeBackward1 .ViewBackward0 ..AddBackward0', [(3, 1)], [(0.0, -0.0007672236)], [(3, 1)],
 ['SqueezeBackward1 .AddBackward0'], [((1, 2), 1, -0.0)], [0.0, 0.0007787252]),
    'group_norm_affine': ('ViewBackward0 .AddBackward0 ..AddBackward0 ..SubBackward0', [(12, 3, 1), (1,), (1,)],
 [(-0.0, -0.0133745624), (3.718315387, 6.1422284711), (2.5359306169, 5.6519201945)],
 [(12, 3, 1), (1,), (1,)],
 ['AddBackward0 .ViewBackward0 .ViewBackward0', 'AddBackward0 .ViewBackward0 .ViewBackward0',
  'ViewBackward0 .SumBackward1'],
 [((12, 3, 1), 0, -0.0), ((1,), 0, 40.7887462118), ((1,), 0, 6.6847183481)],
 [-0.0, 5.0497548755]),
}

LAYER_NORM_SAVED = ['_saved_grad_out', '_saved_input', '_saved_mean', '_saved_normalized_shape', '_saved_rstd', '_saved_weight']
BATCH_NORM_SAVED = ['_saved_eps', '_saved_grad_out', '_saved_input', '_saved_running_mean', '_saved_running_var', '_saved_save_invstd', '_saved_save_mean', '_saved_train', '_saved_weight']
# torch's nodes of group_norm's gradient, in preorder (each once)
GROUP_NORM_WALKS = {'group_norm': ['SqueezeBackward1', 'ViewBackward0', 'AddBackward0', 'AddBackward0',
                'MulBackward0', 'ViewBackward0', 'NativeGroupNormBackward0', 'CloneBackward0',
                'UnsqueezeBackward0', 'AccumulateGrad', 'ViewBackward0', 'AddBackward0',
                'MulBackward0', 'MulBackward0', 'MulBackward0', 'MulBackward1', 'MulBackward0',
                'SubBackward0', 'MulBackward0', 'UnsqueezeBackward1', 'SumBackward1',
                'UnsqueezeBackward1', 'SumBackward1', 'ViewBackward0', 'UnsqueezeBackward1',
                'SumBackward1', 'UnsqueezeBackward1', 'SumBackward1', 'MulBackward0',
                'ViewBackward0', 'MulBackward0', 'MulBackward0', 'SubBackward0', 'MulBackward0',
                'NegBackward0', 'MulBackward1', 'MulBackward0'],
 'group_norm_affine': ['ViewBackward0', 'AddBackward0', 'AddBackward0', 'MulBackward0',
                       'MulBackward0', 'ViewBackward0', 'NativeGroupNormBackward0',
                       'AccumulateGrad', 'AccumulateGrad', 'AccumulateGrad', 'ViewBackward0',
                       'ViewBackward0', 'AddBackward0', 'MulBackward0', 'MulBackward0',
                       'MulBackward0', 'MulBackward1', 'MulBackward0', 'SubBackward0',
                       'MulBackward0', 'UnsqueezeBackward1', 'SumBackward1', 'MulBackward0',
                       'UnsqueezeBackward1', 'SumBackward1', 'ViewBackward0',
                       'UnsqueezeBackward1', 'SumBackward1', 'MulBackward0',
                       'UnsqueezeBackward1', 'SumBackward1', 'MulBackward0', 'ViewBackward0',
                       'MulBackward0', 'MulBackward0', 'SubBackward0', 'MulBackward0',
                       'NegBackward0', 'MulBackward1', 'MulBackward0']}


def _parameters(name):
    return [p for p in leaves(name) if p is not None]


def first_gradients(name, ps):
    """The gradients of sum(w * f(x)**2), taken with create_graph."""
    y = CASES[name][3](*ps, *[None] * (3 - len(ps)))
    return torch.autograd.grad((y * y * (values(*y.shape) + 0.5)).sum(), ps, create_graph=True)


_walk = unique_preorder


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_gradients_graphs_and_layouts(name):
    ps = _parameters(name)
    gs = first_gradients(name, ps)
    graph, strides = EXPECTED[name][:2]
    assert preorder_names(gs[0].grad_fn, 2) == graph
    assert [g.stride() for g in gs] == strides
    if len(gs) > 1 and not name.startswith("group"):  # one node gives all three gradients
        assert all(g.grad_fn is gs[0].grad_fn for g in gs)
        assert [g.output_nr for g in gs] == [0, 1, 2]


@pytest.mark.parametrize("name", sorted(n for n in CASES if not n.startswith("group")))
def test_what_the_gradient_node_keeps(name):
    x, w, b = leaves(name)
    ps = [p for p in (x, w, b) if p is not None]
    node = first_gradients(name, ps)[0].grad_fn
    kept = sorted(a for a in dir(node) if a.startswith("_saved"))
    assert kept == (LAYER_NORM_SAVED if name.startswith("layer") else BATCH_NORM_SAVED)
    assert torch.equal(node._saved_input, x) and node._saved_grad_out.shape == x.shape
    assert node._saved_weight is None if w is None else torch.equal(node._saved_weight, w)
    if name.startswith("layer"):
        assert node._saved_normalized_shape == tuple(x.shape[-len(node._saved_mean.shape):]) \
            or node._saved_mean.shape[:1] == x.shape[:1]
        return
    channels = x.shape[1]
    assert node._saved_train == ("eval" not in name) and node._saved_eps == 1e-5
    assert node._saved_save_mean.shape == ((channels,) if node._saved_train else (0,))
    assert (node._saved_running_mean is None) == (name == "batch_norm")


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivatives(name):
    ps = _parameters(name)
    gs = first_gradients(name, ps)
    total = sum((g * (values(*g.shape) - 0.3)).sum() for g in gs)
    hs = torch.autograd.grad(total, ps, create_graph=True)
    second, strides, third = EXPECTED[name][2:5]
    for h, (whole, weighted) in zip(hs, second, strict=True):
        assert h.sum().item() == pytest.approx(whole, abs=1e-9)
        assert (h * values(*h.shape)).sum().item() == pytest.approx(weighted, abs=1e-9)
    assert [h.stride() for h in hs] == strides
    assert [preorder_names(h.grad_fn, 1) if h.grad_fn else None for h in hs] == third


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_plain_backward(name):
    ps = _parameters(name)
    CASES[name][3](*ps, *[None] * (3 - len(ps))).pow(2).sum().backward()
    for p, (stride, version, whole) in zip(ps, EXPECTED[name][5], strict=True):
        assert (p.grad.stride(), p.grad._version) == (stride, version)
        assert p.grad.sum().item() == pytest.approx(whole, abs=1e-9)


@pytest.mark.parametrize("name", sorted(CASES))
def test_tangents_through_the_gradient(name):
    x, w, b = leaves(name)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, values(*x.shape).flip(-1) - 0.5)
        y = CASES[name][3](dual, w, b)
        (g,) = torch.autograd.grad((y * y * (values(*y.shape) + 0.5)).sum(), dual,
                                   create_graph=True)
        tangent = fwAD.unpack_dual(g).tangent
        whole, weighted = EXPECTED[name][6]
        assert tangent.sum().item() == pytest.approx(whole, abs=1e-9)
        assert (tangent * values(*x.shape)).sum().item() == pytest.approx(weighted, abs=1e-9)


@pytest.mark.parametrize("name", sorted(GROUP_NORM_WALKS))
def test_group_norms_gradient_is_torchs_formula(name):
    x, w, b = leaves(name)
    y = CASES[name][3](x, w, b)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert _walk(g.grad_fn) == GROUP_NORM_WALKS[name]
    node = y.grad_fn  # it keeps the statistics the formula reads, one per sample and group
    assert type(node).__name__ == "NativeGroupNormBackward0"
    assert node._saved_result1.shape == node._saved_result2.shape == (y.shape[0],
                                                                     node._saved_group)


def test_eval_mode_keeps_empty_statistics_and_the_running_ones():
    x = values(4, 3).requires_grad_()
    mean, var = running(3)
    y = F.batch_norm(x, mean, var, training=False)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    node = g.grad_fn
    assert node._saved_save_invstd.shape == (0,) and node._saved_train is False
    assert torch.equal(node._saved_running_var, var)
    assert [None if f is None else type(f).__name__ for f, _ in node.next_functions] == [
        "AddBackward0", "AccumulateGrad", None, None, None]


def test_second_derivatives_check_numerically():
    for name in ("layer_norm_affine", "batch_norm_3d", "batch_norm_eval", "group_norm_affine"):
        ps = _parameters(name)
        def f(*a, name=name):
            return CASES[name][3](*a, *[None] * (3 - len(a)))

        assert torch.autograd.gradgradcheck(f, tuple(ps))
