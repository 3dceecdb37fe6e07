"""White-box tests of forward-mode AD: every op-table row against finite differences.

The rows are swept as in test_gradients_*.py, with the RECIPES test_op_gradients.py gathers
and their drawn inputs. For
each row the tangents are checked three ways: against central finite differences,
against refgrad's own reverse mode (<J t, u> = <t, J^T u>), and, for the rows that are
twice differentiable, by gradcheck of the tangent as a function of primals and tangents.
"""

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refgrad as torch
import refgrad.autograd.forward_ad as fwAD
from refgrad._tensor import make_tensor
from refgrad.autograd import _tangents
from refgrad.autograd.gradcheck import GradcheckError, gradcheck
from tests._gradient_support import _laid_out
from tests.test_gradients_complex import COMPLEX_ROWS
from tests.test_op_gradients import (
    COVERED,
    RECIPES,
    TORCH_NAMES,
    WITHOUT_FORWARD_FORMULA,
    drawn_case,
)

EPS = 1e-6
# torch sizes ATen's norm.Scalar tangent wrongly and refuses it, but for a 0-d
# input (NOTE [A tangent torch sizes wrongly]); the test below checks both.
SIZED_WRONGLY = {"norm.Scalar"}
WITH_TANGENTS = [name for name in COVERED if name != "_fw_primal"
                 and name not in WITHOUT_FORWARD_FORMULA and name not in SIZED_WRONGLY
                 and name not in COMPLEX_ROWS]
# torch's forward formula for these is not the derivative, and refgrad's follows it
# (NOTE [The whole of A's tangent]); the oracle compares their tangents with torch's.
NOT_THE_DERIVATIVE = {"triangular_solve"}
DERIVATIVES = [name for name in WITH_TANGENTS if name not in NOT_THE_DERIVATIVE]


def test_aten_norms_tangent_is_refused_but_for_a_number():
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor([3.0, -4.0], dtype=torch.float64),
                           torch.ones(2, dtype=torch.float64))
        with pytest.raises(RuntimeError, match="^Trying to set a forward gradient that has a "
                           "different size than that of the original Tensor"):
            torch.norm_except_dim(x, 2, -1)
        number = fwAD.make_dual(torch.tensor(-2.0, dtype=torch.float64),
                                torch.tensor(1.5, dtype=torch.float64))
        tangent = fwAD.unpack_dual(torch.norm_except_dim(number, 2, -1)).tangent
        assert tangent.item() == -1.5


@pytest.mark.parametrize("name", sorted(WITHOUT_FORWARD_FORMULA))
def test_rows_without_a_forward_formula_refuse_a_tangent(name):
    shapes, params = WITHOUT_FORWARD_FORMULA[name]
    primals = [torch.rand(*shape, dtype=torch.float64) + 0.5 for shape in shapes]
    with fwAD.dual_level():
        duals = [fwAD.make_dual(p, torch.ones_like(p)) for p in primals]
        with pytest.raises(NotImplementedError, match=f"^Trying to use forward AD with "
                           f"{TORCH_NAMES.get(name, name)} that does not support it because it "
                           "has not been implemented yet"):
            RECIPES[name].call(*duals, **params)


def _outputs(result):
    return list(result) if isinstance(result, tuple | list) else [result]


def _floating(outputs):
    return [o for o in outputs if o.dtype.is_floating_point]


def _tangents_of(call, primals, tangents):
    with fwAD.dual_level():
        duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]
        return [fwAD.unpack_dual(o).tangent for o in _floating(_outputs(call(*duals)))]


def _without_formula(name, params) -> bool:
    """torch has no forward formula for a product scatter_reduce: no tangent, as in torch."""
    return name == "scatter_reduce" and params["reduce"] == "prod"


def _case(data, name):
    leaves, params, rng = drawn_case(data, name)
    if _without_formula(name, params):
        primals = [leaf.detach() for leaf in leaves]
        with fwAD.dual_level():
            duals = [fwAD.make_dual(p, torch.ones_like(p)) for p in primals]
            assert fwAD.unpack_dual(RECIPES[name].call(*duals, **params)).tangent is None
        params = {**params, "reduce": "sum"}  # and check the row's tangents on a sum instead
    primals = [leaf.detach() for leaf in leaves]
    layouts = data.draw(st.lists(st.sampled_from(["contiguous", "strided", "transposed"]),
                                 min_size=len(leaves), max_size=len(leaves)))
    tangents = [_laid_out(rng.uniform(-1.0, 1.0, p.shape), layout).detach()
                for p, layout in zip(primals, layouts)]
    return primals, tangents, _differentiated(name, params), rng


def _differentiated(name, params):
    """The recipe's call, less the trailing outputs torch does not differentiate (their
    lack of a tangent is checked in conformance/test_normalization_statistics.py)."""
    from refgrad._ops.table import OPS

    kept = getattr(OPS.get(name), "differentiable_outputs", None)
    if kept is None:
        return lambda *ts: RECIPES[name].call(*ts, **params)
    return lambda *ts: _leading(RECIPES[name].call(*ts, **params), kept)


def _leading(result, kept):
    """The first ``kept`` outputs; a recipe that already drops the others (logsigmoid) as is."""
    return tuple(result[:kept]) if isinstance(result, tuple | list) else result


def _moved(primals, tangents, step):
    return [make_tensor(np.asarray(p._data + step * t._data)) for p, t in zip(primals, tangents)]


@pytest.mark.parametrize("name", DERIVATIVES)
@settings(max_examples=15)
@given(data=st.data())
def test_tangents_are_finite_differences(name, data):
    primals, tangents, call, _ = _case(data, name)
    found = _tangents_of(call, primals, tangents)
    ahead = _floating(_outputs(call(*_moved(primals, tangents, EPS))))
    behind = _floating(_outputs(call(*_moved(primals, tangents, -EPS))))
    assert len(found) == len(ahead)
    for tangent, a, b in zip(found, ahead, behind):
        assert tangent.dtype == a.dtype and tangent.shape == a.shape
        numeric = (a._data - b._data) / (2 * EPS)
        np.testing.assert_allclose(tangent._data, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", DERIVATIVES)
@settings(max_examples=15)
@given(data=st.data())
def test_tangents_are_adjoint_to_gradients(name, data):
    """<J t, u> computed forward equals <t, J^T u> computed backward."""
    primals, tangents, call, rng = _case(data, name)
    found = _tangents_of(call, primals, tangents)
    leaves = [p.detach().requires_grad_() for p in primals]
    outputs = _floating(_outputs(call(*leaves)))
    upstream = [make_tensor(rng.uniform(-1.0, 1.0, tuple(o.shape))) for o in outputs]
    grads = torch.autograd.grad(outputs, leaves, upstream, allow_unused=True)
    forward = sum(float((f._data * u._data).sum()) for f, u in zip(found, upstream))
    backward = sum(float((g._data * t._data).sum()) for g, t in zip(grads, tangents)
                   if g is not None)
    assert forward == pytest.approx(backward, rel=1e-10, abs=1e-12)


def _tangent_function(call, count):
    def tangents(*args):
        with fwAD.dual_level():
            duals = [fwAD.make_dual(p, t) for p, t in zip(args[:count], args[count:])]
            found = [fwAD.unpack_dual(o).tangent for o in _floating(_outputs(call(*duals)))]
        return tuple(found)

    return tangents


# softmax's and log_softmax's tangents, as torch computes them, multiply saved
# exponentials in place: their gradient through the primal is refused, as in torch
# (NOTE [Tangent graphs follow torch's formulas]; test_softmax_tangent_refuses_...).
IN_PLACE_TANGENTS = ("softmax", "log_softmax")
# batch norm's and layer norm's tangents, by torch's formulas, read the saved statistics,
# outputs torch does not differentiate: their gradient misses the terms through them, as
# torch's does (NOTE [A normalization's tangent, by torch's formula]).
STATISTICS_HELD = ("native_batch_norm", "native_layer_norm")


@pytest.mark.parametrize("name", [n for n in WITH_TANGENTS if RECIPES[n].twice
                                  and n not in IN_PLACE_TANGENTS + STATISTICS_HELD])
@settings(max_examples=5)
@given(data=st.data())
def test_tangents_are_differentiable(name, data):
    """Reverse over forward: the tangent's own gradients, by finite differences."""
    primals, tangents, call, _ = _case(data, name)
    inputs = tuple(x.detach().requires_grad_() for x in primals + tangents)
    assert gradcheck(_tangent_function(call, len(primals)), inputs, rtol=1e-4)


@pytest.mark.parametrize("name", STATISTICS_HELD)
def test_normalization_tangent_gradients_hold_the_statistics(name):
    """The statistics do not require grad, and the tangent's gradient for the input lacks
    their terms: finite differences disagree, as they do with torch's."""
    def tangent(x, w, b, tx):
        with fwAD.dual_level():
            d = fwAD.make_dual(x, tx)
            if name == "native_batch_norm":
                outs = torch.native_batch_norm(d, w, b, None, None, True, 0.1, 1e-5)
            else:
                outs = torch.native_layer_norm(d, [2], w, b, 1e-5)
            assert not outs[1].requires_grad and not outs[2].requires_grad
            return fwAD.unpack_dual(outs[0]).tangent

    inputs = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in
              ([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.25]], [1.5, -0.5], [0.1, 0.2],
               [[0.3, -1.0], [2.0, 0.5], [-0.7, 1.1]])]
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to "
                                             "input 0"):
        gradcheck(tangent, inputs, rtol=1e-4)


def test_forward_over_reverse_keeps_the_tangents_of_saved_outputs():
    # exp's node saves its output; the gradient's tangent needs that output's tangent.
    x = torch.tensor([0.5, -1.0], dtype=torch.float64)
    t = torch.tensor([1.0, 2.0], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x.requires_grad_(), t)
        (g,) = torch.autograd.grad(d.exp().sum(), d, create_graph=True)
        tangent = fwAD.unpack_dual(g).tangent
        assert np.allclose(tangent._data, np.exp(x._data) * t._data)
        y = d.tanh()
        saved = y.grad_fn._raw_saved_result
        assert saved._tangent[0] is _tangents.active_level()
    unpacked = y.grad_fn._saved_result  # unpacked after the level closed: no tangent
    assert fwAD.unpack_dual(unpacked).tangent is None


def test_identity_map_forgets_collected_keys_and_never_compares_values():
    store = _tangents.IdentityMap()
    a, b = torch.ones(3), torch.ones(3)  # equal values: == would be elementwise
    store.set(a, "a")
    store.set(b, "b")
    assert (store.get(a), store.get(b), store.get(torch.ones(3))) == ("a", "b", None)
    del a
    gc.collect()
    assert len(store) == 1 and store.get(b) == "b"


def test_tangents_die_with_their_tensor():
    with fwAD.dual_level() as index:
        level = _tangents.active_level()
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        y = d * 2
        assert len(level.tangents) == 2 and level.index == index
        del d, y
        gc.collect()
        assert len(level.tangents) == 0


def test_no_level_means_no_forward_ad_work(monkeypatch):
    calls = []
    monkeypatch.setattr(fwAD, "push_tangents", lambda *args: calls.append(args[0].name))
    x = torch.ones(2, requires_grad=True)
    (x * 2).sin().sum().backward()
    assert calls == []
    with fwAD.dual_level():
        x.detach() * 2
    assert calls == ["mul"]


def test_a_tangent_in_the_wrong_layout_is_copied_into_the_primals():
    primal = torch.zeros(2, 3)[1]  # a view: offset 3 into memory of 6 elements
    given_tangent = torch.ones(3)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(fwAD.make_dual(primal, given_tangent)).tangent
        kept = torch.ones(3)
        same = fwAD.unpack_dual(fwAD.make_dual(torch.zeros(3), kept)).tangent
    assert tangent is not given_tangent and same is kept
    assert _tangents._storage(tangent._data) == _tangents._storage(primal._data) == (3, (1,), 6)


def test_a_view_of_a_stale_layout_is_laid_out_again():
    # contiguous() replaces its clone's array after the row ran: the tangent keeps the
    # clone's column-major layout until a view needs the primal's.
    x = torch.tensor(np.asfortranarray(np.arange(6.0).reshape(2, 3)))
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.tensor(np.asfortranarray(np.ones((2, 3)))))
        flat = d.contiguous().view(6)
        assert np.array_equal(fwAD.unpack_dual(flat).tangent._data, np.ones(6))


def test_a_view_finds_its_window_of_the_base_tangent():
    base = torch.zeros(3, 4)
    column = base[:, 1]
    with fwAD.dual_level():
        base.copy_(fwAD.make_dual(torch.ones(3, 4), torch.arange(12.0).view(3, 4)))
        window = fwAD.unpack_dual(column).tangent
        assert window.tolist() == [1.0, 5.0, 9.0]
        window.mul_(-1)  # the same memory as the base's tangent
        assert fwAD.unpack_dual(base).tangent[:, 1].tolist() == [-1.0, -5.0, -9.0]


def test_custom_function_forward_runs_without_tangents_even_without_a_level():
    seen = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(fwAD._is_fwd_grad_enabled())
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    Probe.apply(torch.ones(1))
    assert seen == [False] and fwAD._is_fwd_grad_enabled()


@pytest.mark.parametrize("name", sorted(COMPLEX_ROWS))
def test_complex_rows_refuse_a_tangent(name):
    """NOTE [No complex tangents]: refused by name, and the dual level stays usable."""
    case = {"view_as_complex": [(3, 2)]}.get(name, [(3, 2)] * len(RECIPES[name].values))
    with fwAD.dual_level():
        duals = [fwAD.make_dual(torch.rand(*shape, dtype=torch.float64) + 0.5,
                                torch.ones(*shape, dtype=torch.float64)) for shape in case]
        with pytest.raises(NotImplementedError, match=r"^refgrad does not yet compute "
                           r"forward-mode tangents through complex tensors \(in \w+\)$"):
            RECIPES[name].call(*duals)
        assert fwAD.unpack_dual(duals[0] * 2).tangent.tolist() == [[2.0, 2.0]] * 3
