"""The forward-mode tangents of batch norm, layer norm and group norm: their graphs are
those of torch's forward formulas, their values the formulas' values, infinities and NaNs
included."""

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

ACC = "torch::autograd::AccumulateGrad()"
IDENTITY = "torch::autograd::Identity"
# torch's formula ends: t *= w; t += x̂ * dw; t += db (the missing ones zeros)
AFFINE_OVER_WEIGHT = (f"AddBackward0(AddBackward0(MulBackward0(None,ViewBackward0({IDENTITY}("
                      f"{ACC}))),None),None)")
AFFINE_OVER_DUAL_WEIGHT = (f"AddBackward0(AddBackward0(MulBackward0(None,ViewBackward0({IDENTITY}("
                           f"ViewBackward0({ACC})))),None),None)")


def graph(t):
    """Every node of ``t``'s graph, depth first, with None edges; a node seen before: #n."""
    seen = {}

    def walk(node):
        if node is None:
            return "None"
        if node in seen:
            return f"#{seen[node]}"
        seen[node] = len(seen)
        return f"{node.name()}({','.join(walk(f) for f, _ in node.next_functions)})"
    return walk(t.grad_fn)


def arrays(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def bn_module(train, dtype=torch.float32):
    bn = torch.nn.BatchNorm2d(3).to(dtype)
    x, rm, rv, w, b = arrays(0, (2, 3, 4, 4), 3, 3, 3, 3)
    with torch.no_grad():
        bn.running_mean.copy_(torch.tensor(rm * 0.1))
        bn.running_var.copy_(torch.tensor(np.abs(rv) + 0.5))
        bn.weight.copy_(torch.tensor(w))
        bn.bias.copy_(torch.tensor(b))
    return bn.train(train), torch.tensor(x).to(dtype)


def expected(x, dx, axes, eps, w=None, dw=None, db=None, running=None, lined=None):
    """d(x̂ w + b) in float64 NumPy, the statistics over ``axes`` or the running ones."""
    if running is None:
        mean = x.mean(axes, keepdims=True)
        inv = 1 / np.sqrt(((x - mean) ** 2).mean(axes, keepdims=True) + eps)
        centred = dx - dx.mean(axes, keepdims=True)
        dinv = -inv ** 3 * (centred * (x - mean)).mean(axes, keepdims=True)
        dnormal = centred * inv + (x - mean) * dinv
    else:
        mean, inv = running[0].reshape(lined), 1 / np.sqrt(running[1].reshape(lined) + eps)
        dnormal = dx * inv
    out = dnormal if w is None else dnormal * w.reshape(lined)
    if dw is not None:
        out = out + (x - mean) * inv * dw.reshape(lined)
    return out if db is None else out + db.reshape(lined)


@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("dual", ["weight", "bias", "both", "input"])
def test_batch_norm_module_tangent_is_torchs_add(train, dual):
    bn, x = bn_module(train)
    tw, tb, tx = (torch.tensor(a).float() for a in arrays(1, 3, 3, (2, 3, 4, 4)))
    params = dict(bn.named_parameters())
    with fwAD.dual_level():
        if dual in ("weight", "both"):
            params["weight"] = fwAD.make_dual(params["weight"], tw)
        if dual in ("bias", "both"):
            params["bias"] = fwAD.make_dual(params["bias"], tb)
        if dual == "input":
            x = fwAD.make_dual(x, tx)
        tangent = fwAD.unpack_dual(torch.func.functional_call(bn, params, (x,))).tangent
    assert tangent.requires_grad
    assert tangent.grad_fn.name() == "AddBackward0"
    dual_weight = dual in ("weight", "both")
    assert graph(tangent) == (AFFINE_OVER_DUAL_WEIGHT if dual_weight else AFFINE_OVER_WEIGHT)


@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
def test_batch_norm_tangent_has_no_graph_when_nothing_requires_grad(train):
    bn, x = bn_module(train)
    bn.requires_grad_(False)
    with fwAD.dual_level():
        params = {"weight": fwAD.make_dual(bn.weight, torch.ones(3))}
        tangent = fwAD.unpack_dual(torch.func.functional_call(bn, params, (x,))).tangent
    assert not tangent.requires_grad and tangent.grad_fn is None


@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("dual", ["input", "weight", "bias", "all"])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 4, 5)])
def test_batch_norm_tangent_values(train, dual, shape):
    x, dx, w, dw, b, db, rm, rv = arrays(2, shape, shape, 3, 3, 3, 3, 3, 3)
    rv = np.abs(rv) + 0.5
    xs, ws, bs = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    with fwAD.dual_level():
        xs = fwAD.make_dual(xs, torch.tensor(dx)) if dual in ("input", "all") else xs
        ws = fwAD.make_dual(ws, torch.tensor(dw)) if dual in ("weight", "all") else ws
        bs = fwAD.make_dual(bs, torch.tensor(db)) if dual in ("bias", "all") else bs
        out = F.batch_norm(xs, torch.tensor(rm), torch.tensor(rv), ws, bs, train, 0.1, 1e-5)
        tangent = fwAD.unpack_dual(out).tangent
    axes, lined = (0, *range(2, len(shape))), (1, 3, *[1] * (len(shape) - 2))
    want = expected(x, dx if dual in ("input", "all") else np.zeros(shape), axes, 1e-5, w,
                    dw if dual in ("weight", "all") else None,
                    db if dual in ("bias", "all") else None,
                    None if train else (rm, rv), lined)
    np.testing.assert_allclose(tangent.detach().numpy(), want, rtol=1e-9, atol=1e-12)
    assert tangent.dtype == torch.float64 and graph(tangent).startswith("AddBackward0(")


def batch_norm_tangent(train, dual, bad):
    """The tangent of a batch norm whose input holds ``bad`` at [0, 1, 2, 3]."""
    x, dx, w, dw, rm, rv = arrays(3, (2, 3, 4, 5), (2, 3, 4, 5), 3, 3, 3, 3)
    x[0, 1, 2, 3] = bad
    xs, ws = torch.tensor(x).float(), torch.tensor(w).float().requires_grad_()
    with fwAD.dual_level():
        xs = fwAD.make_dual(xs, torch.tensor(dx).float()) if dual == "input" else xs
        ws = fwAD.make_dual(ws, torch.tensor(dw).float()) if dual == "weight" else ws
        out = F.batch_norm(xs, torch.tensor(rm).float(), torch.tensor(np.abs(rv) + 0.5).float(),
                           ws, None, train, 0.1, 1e-5)
        return fwAD.unpack_dual(out).tangent.detach().numpy()


@pytest.mark.parametrize("dual", ["input", "weight"])
@pytest.mark.parametrize("bad", [np.inf, np.nan], ids=["inf", "nan"])
def test_training_batch_norm_tangent_is_nan_over_the_bad_channel(dual, bad):
    # the batch's statistics of channel 1 are not finite, and reach all of its tangent
    # (a missing input tangent's centred zeros times x - μ, too)
    tangent = batch_norm_tangent(True, dual, bad)
    assert np.isnan(tangent[:, 1]).all()
    assert np.isfinite(tangent[:, [0, 2]]).all()


@pytest.mark.parametrize("bad", [np.inf, np.nan], ids=["inf", "nan"])
def test_evaluating_batch_norm_input_tangent_stays_finite(bad):
    # dx σ⁻¹ w, then x̂ times the weight's missing tangent: zero, whatever x̂ is
    assert np.isfinite(batch_norm_tangent(False, "input", bad)).all()


@pytest.mark.parametrize("bad", [np.inf, np.nan], ids=["inf", "nan"])
def test_evaluating_batch_norm_weight_tangent_is_nan_where_the_input_is(bad):
    # x̂ dw is x̂'s infinity times dw (or NaN), and the missing input tangent adds nothing
    tangent = batch_norm_tangent(False, "weight", bad)
    assert np.isinf(tangent[0, 1, 2, 3]) if bad == np.inf else np.isnan(tangent[0, 1, 2, 3])
    tangent[0, 1, 2, 3] = 0
    assert np.isfinite(tangent).all()


@pytest.mark.parametrize("dual", ["weight", "bias", "input"])
def test_layer_norm_module_tangent_is_torchs_add(dual):
    ln = torch.nn.LayerNorm(5)
    x, tx, tw = (torch.tensor(a).float() for a in arrays(4, (3, 5), (3, 5), 5))
    params = dict(ln.named_parameters())
    with fwAD.dual_level():
        if dual == "input":
            x = fwAD.make_dual(x, tx)
        else:
            params[dual] = fwAD.make_dual(params[dual], tw)
        tangent = fwAD.unpack_dual(torch.func.functional_call(ln, params, (x,))).tangent
    assert graph(tangent) == (AFFINE_OVER_DUAL_WEIGHT if dual == "weight" else AFFINE_OVER_WEIGHT)


def test_layer_norm_tangent_values():
    x, dx, w, dw, b, db = arrays(5, (4, 2, 6), (4, 2, 6), (2, 6), (2, 6), (2, 6), (2, 6))
    with fwAD.dual_level():
        duals = [fwAD.make_dual(torch.tensor(p), torch.tensor(t))
                 for p, t in ((x, dx), (w, dw), (b, db))]
        tangent = fwAD.unpack_dual(F.layer_norm(duals[0], (2, 6), *duals[1:])).tangent
    want = expected(x, dx, (1, 2), 1e-5, w, dw, db, lined=(1, 2, 6))
    np.testing.assert_allclose(tangent.numpy(), want, rtol=1e-9, atol=1e-12)


def group_norm_tangents(dual, layout=torch.contiguous_format):
    x, dx, w, dw = arrays(6, (2, 4, 3, 2), (2, 4, 3, 2), 4, 4)
    xs = torch.tensor(x).contiguous(memory_format=layout)
    ws, bs = torch.tensor(w, requires_grad=True), torch.zeros(4, dtype=torch.float64,
                                                               requires_grad=True)
    with fwAD.dual_level():
        xs = fwAD.make_dual(xs, torch.tensor(dx)) if dual in ("input", "all") else xs
        ws = fwAD.make_dual(ws, torch.tensor(dw)) if dual in ("weight", "all") else ws
        outs = torch.native_group_norm(xs, ws, bs, 2, 4, 6, 2, 1e-5)
        return (x, dx, w, dw), [fwAD.unpack_dual(o).tangent for o in outs]


# torch's group norm: batch norm's formula on the (1, N * groups, -1) view, then the
# affine step; with a weight's tangent, that step writes in place into the view.
GN = f"NativeGroupNormBackward0(None,{ACC},{ACC})"
GN_DUAL_WEIGHT = f"NativeGroupNormBackward0(None,ViewBackward0({ACC}),{ACC})"
GN_OVER_INPUT = (
    f"AddBackward0(AddBackward0(MulBackward0(ViewBackward0(AddBackward0(MulBackward0(None,"
    f"ViewBackward0({GN})),MulBackward0(SubBackward0(None,ViewBackward0(#7)),DivBackward1("
    f"SumBackward1(MulBackward0(MulBackward0(None,SubBackward0(None,#12)),NegBackward0("
    f"PowBackward0(#6)))))))),ViewBackward0({IDENTITY}(#8))),MulBackward0(ViewBackward0("
    f"MulBackward0(SubBackward0(None,ViewBackward0(#7)),ViewBackward0(#7))),None)),None)")


def gn_in_place(statistics):
    return (
        f"AsStridedBackward0(torch::autograd::CopySlices(torch::autograd::CopySlices("
        f"torch::autograd::CopySlices(AddBackward0(MulBackward0(None,ViewBackward0("
        f"{GN_DUAL_WEIGHT})),MulBackward0(SubBackward0(None,ViewBackward0(#7)),DivBackward1("
        f"SumBackward1({statistics})))),ViewBackward0({IDENTITY}(#8))),AsStridedBackward0("
        f"torch::autograd::CopySlices(MulBackward0(SubBackward0(None,ViewBackward0(#7)),"
        f"ViewBackward0(#7)),None))),None))")


GN_OVER_WEIGHT = gn_in_place(  # the input's tangent missing: torch's out-of-place order
    "MulBackward0(MulBackward0(NegBackward0(PowBackward0(#6)),None),SubBackward0(None,#13))")
GN_OVER_BOTH = gn_in_place(
    "MulBackward0(MulBackward0(None,SubBackward0(None,#13)),NegBackward0(PowBackward0(#6)))")


def gn_invstd(node):
    return (f"ViewBackward0(DivBackward1(SumBackward1(MulBackward0(MulBackward0(None,"
            f"SubBackward0(None,ViewBackward0({node}))),NegBackward0(PowBackward0("
            f"ViewBackward0(#7)))))))")


@pytest.mark.parametrize("dual,graphs", [
    ("input", [GN_OVER_INPUT, "None", gn_invstd(GN)]),
    ("weight", [GN_OVER_WEIGHT, None, None]),
    ("all", [GN_OVER_BOTH, "None", gn_invstd(GN_DUAL_WEIGHT)]),
])
def test_group_norm_tangent_graphs_and_statistics(dual, graphs):
    _, tangents = group_norm_tangents(dual)
    assert [None if t is None else graph(t) for t in tangents] == graphs
    assert [None if t is None else t.requires_grad for t in tangents] == [
        None if g is None else g != "None" for g in graphs]


def test_group_norm_tangent_values():
    (x, dx, w, dw), tangents = group_norm_tangents("all")
    grouped = x.reshape(2, 2, -1)
    want = expected(grouped, dx.reshape(2, 2, -1), (2,), 1e-5).reshape(x.shape)
    mean = grouped.mean(2, keepdims=True)
    normal = ((grouped - mean) / np.sqrt(grouped.var(2, keepdims=True) + 1e-5)).reshape(x.shape)
    want = want * w.reshape(1, 4, 1, 1) + normal * dw.reshape(1, 4, 1, 1)
    np.testing.assert_allclose(tangents[0].detach().numpy(), want, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(tangents[1].numpy(), dx.reshape(2, 2, -1).mean(2), rtol=1e-12)
    inv = 1 / np.sqrt(grouped.var(2) + 1e-5)
    dinv = -inv ** 3 * ((grouped - mean) * dx.reshape(2, 2, -1)).mean(2)
    np.testing.assert_allclose(tangents[2].detach().numpy(), dinv, rtol=1e-9)


def test_group_norm_refuses_a_channels_last_tangent_it_cannot_view():
    x, dx = (torch.tensor(a) for a in arrays(7, (2, 4, 3, 2), (2, 4, 3, 2)))
    x = x.contiguous(memory_format=torch.channels_last)
    with fwAD.dual_level(), pytest.raises(RuntimeError, match="view size is not compatible"):
        F.group_norm(fwAD.make_dual(x, dx), 2, torch.ones(4, dtype=torch.float64))
