"""What the gradient sweeps share: how a row is called (Recipe), the strategies of shapes and
parameters, the drawing of a row's inputs, and the checks of first and second order.

The sweep is driven by the op table: each tests/test_gradients_*.py says, for its family of
rows, how to call each (which function, how many tensor inputs, which values are allowed,
which parameters); tests/test_op_gradients.py makes sure that no row goes unchecked.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS
from refgrad._ops.dispatch import call
from refgrad._tensor import make_tensor
from refgrad.autograd.gradcheck import gradcheck, gradgradcheck

# Tighter than torch's default rtol=1e-3, which lets a 0.1% error through exactly.
RTOL = 1e-4


@dataclass(frozen=True)
class Recipe:
    """How to call one row: ``call(*tensors, **params)``."""

    call: Callable
    values: tuple[str, ...] = ("any",)  # per input: any, positive, nonzero, small, inside, ...
    params: Callable = lambda shapes: st.just({})  # shapes -> strategy of keyword params
    min_ndim: int = 0
    max_ndim: int = 3
    broadcast: bool = True  # tensor inputs may have different, broadcastable shapes
    variadic: bool = False  # the tensors are passed as one list (stack)
    twice: bool = True  # twice differentiable: check gradgradcheck too
    shapes: Callable | None = None  # a strategy of the inputs' shapes, when they are tied
    below: int = 0  # the row's node lies this many first edges below the result's


def _dims(shapes):
    ndim = len(shapes[0])
    return st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)


def _sizes(*names):
    """Shapes of tied sizes: _sizes("nm", "m") draws n and m once for both."""
    letters = sorted(set("".join(names)))
    return st.tuples(*(st.integers(1, 3) for _ in letters)).map(
        lambda ns: [tuple(dict(zip(letters, ns))[c] for c in name) for name in names])


def _dim(shapes):
    return st.integers(0, len(shapes[0]) - 1)


def _dim_keepdim(shapes):
    return st.builds(lambda d, k: {"dim": d, "keepdim": k}, _dim(shapes), st.booleans())


def _dims_keepdim(shapes):
    return st.builds(lambda d, k: {"dim": d, "keepdim": k}, _dims(shapes), st.booleans())


def _index_put_params(shapes):
    n, k = shapes[0][0], shapes[1][0]
    unique = st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True)
    repeated = st.lists(st.integers(0, n - 1), min_size=k, max_size=k)
    return st.booleans().flatmap(lambda acc: (repeated if acc or k > n else unique).map(
        lambda ix: {"index": torch.tensor(ix), "accumulate": acc or k > n}))


_COMPARED = ("eq", "ne", "lt", "le", "gt", "ge")


def _dims_as(name):
    return lambda shapes: _dims(shapes).map(lambda dims: {name: tuple(dims)})


def _any_dim(shapes):
    ndim = max(len(shapes[0]), 1)
    return st.integers(-ndim, ndim - 1).map(lambda d: {"dim": d})


def _one_of(name, *values):
    return lambda shapes: st.sampled_from(values).map(lambda v: {name: v})


def _wide(min_ndim=1):
    """Shapes with every size at least 2, so that var's correction leaves freedom."""
    return st.lists(st.integers(2, 3), min_size=min_ndim, max_size=3).map(lambda s: [tuple(s)])


def _spread_params(shapes):
    dims = st.one_of(st.none(), _dims(shapes).map(tuple))
    return st.builds(lambda d, c, k: {"dim": d, "correction": c, "keepdim": k}, dims,
                     st.sampled_from([0, 1, 0.5, None]), st.booleans())


def _mask(shapes):
    return st.integers(0, 2**32 - 1).map(lambda seed: {"mask": _condition(shapes[:1], seed)})


def _reductions(**more):
    return lambda shapes: st.sampled_from(["mean", "sum", "none"]).map(
        lambda r: {"reduction": r, **more})


def _targeted(shapes):
    """Reductions, and class indices for an input of ``shapes[0]``, classes along dimension 1,
    some of them -1: ignored."""
    n, c, *rest = shapes[0]
    target = torch.tensor(np.arange(n * int(np.prod(rest))).reshape(n, *rest) % (c + 1) - 1)
    return _reductions(target=target)(shapes)


def _one_of_many(*choices):
    return lambda shapes: st.sampled_from(choices)


def _condition(shapes, seed):
    shape = np.broadcast_shapes(*shapes)
    return make_tensor(np.asarray(np.random.default_rng(seed).random(shape) < 0.5))


def _values(rng, shape, kind):
    if kind == "small":
        values = rng.uniform(-1.0, 1.0, shape)
    elif kind == "positive":
        values = rng.uniform(0.5, 2.0, shape)
    elif kind == "inside":  # well inside (-1, 1), where asin, acos and atanh are smooth
        values = rng.uniform(-0.9, 0.9, shape)
    elif kind == "unit":  # inside (0, 1), away from logit's poles
        values = rng.uniform(0.1, 0.9, shape)
    elif kind == "nans":  # about a third of them nan, which nansum passes over
        values = np.where(rng.random(shape) > 0.35, rng.uniform(-2.0, 2.0, shape), np.nan)
    elif kind == "zeros":  # about a third of them exactly zero
        values = rng.uniform(-2.0, 2.0, shape) * (rng.random(shape) > 0.35)
    elif kind == "above_one":
        values = rng.uniform(1.1, 3.0, shape)
    elif kind == "nonzero":
        values = rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
    else:
        values = rng.uniform(-2.0, 2.0, shape)
    return np.asarray(values, dtype=np.float64)


def _laid_out(data, layout):
    """A float64 leaf holding ``data``, contiguous or not."""
    if layout == "strided" and data.ndim:
        # A strided view made with refgrad's own ops: every other element of a stack.
        wide = torch.stack([make_tensor(data), make_tensor(np.zeros_like(data))], -1)
        return wide.unbind(-1)[0].detach().requires_grad_()
    if layout == "transposed" and data.ndim >= 2:
        data = np.ascontiguousarray(data.T).T  # same values, column-major memory
    return make_tensor(data, requires_grad=True)


def _shape_for(data, base, broadcast):
    if not broadcast:
        return base
    drop = data.draw(st.integers(0, len(base)))
    ones = data.draw(st.lists(st.booleans(), min_size=len(base) - drop,
                              max_size=len(base) - drop))
    return tuple(1 if one else n for one, n in zip(ones, base[drop:]))


def _case(data, recipe):
    """Inputs (leaves), a function of the inputs, and a random generator for one row."""
    inputs, params, rng = draw_case(data, recipe)
    return inputs, (lambda *ts: recipe.call(*ts, **params)), rng


def draw_case(data, recipe):
    """Inputs (leaves), keyword parameters and a random generator for one row's recipe."""
    base = tuple(data.draw(st.lists(st.integers(1, 3), min_size=recipe.min_ndim,
                                    max_size=recipe.max_ndim)))
    many = len(recipe.values) > 1
    shapes = [_shape_for(data, base, recipe.broadcast and many) for _ in recipe.values]
    shapes = [s if len(s) >= recipe.min_ndim else base for s in shapes]
    if recipe.shapes is not None:
        shapes = data.draw(recipe.shapes)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    layouts = data.draw(st.lists(st.sampled_from(["contiguous", "strided", "transposed"]),
                                 min_size=len(shapes), max_size=len(shapes)))
    inputs = tuple(_laid_out(_values(rng, s, kind), layout)
                   for s, kind, layout in zip(shapes, recipe.values, layouts))
    params = data.draw(recipe.params(shapes))
    return inputs, params, rng


def _grad_outputs(outputs, rng):
    return tuple(make_tensor(np.asarray(rng.uniform(-1.0, 1.0, o.shape))) for o in outputs)


def _differentiable(x):
    outputs = tuple(x) if isinstance(x, tuple | list) else (x,)
    return tuple(o for o in outputs if o.requires_grad)


# The rows of cdist's and pdist's gradients record nodes (CdistBackwardBackward0) that
# refuse to be differentiated, as torch's do: test_rows_that_refuse_their_backward. So do
# the in-place inverse hyperbolics' (AsinhBackward1), tested with the in-place functions.
REFUSING = {"_cdist_backward", "_pdist_backward", "asinh_", "acosh_", "atanh_",
            "_embedding_bag_backward"}
# unique's rows record nodes that refuse any backward: test_unique_rows_refuse_their_backward.
REFUSING |= {"_unique2", "unique_dim", "unique_consecutive"}
# geqrf's node refuses any backward, as torch's does: conformance/test_geqrf.py.
REFUSING |= {"geqrf"}
# zeta with q a number differentiates only its order, which torch refuses:
# conformance/test_special_zeta.py.
REFUSING |= {"zeta_by_number"}
# _standard_gamma_grad's node refuses any backward, as torch's does:
# conformance/test_gamma_draws.py.
REFUSING |= {"_standard_gamma_grad"}
# embedding_renorm_'s node refuses any backward, as torch's does:
# conformance/test_remaining_tensor_methods.py.
REFUSING |= {"embedding_renorm_"}


def differentiable() -> list:
    """The rows registered so far that have a derivative, by name: those a recipe checks."""
    return sorted(name for name, op in OPS.items() if op.node is not None
                  and op.node != "NotImplemented" and name not in REFUSING)


def gradient_tests(recipes):
    """test_first_order and test_second_order, swept over the differentiable rows of
    ``recipes`` (a family's): gradcheck, and gradgradcheck where the recipe allows it."""
    covered = [name for name in differentiable() if name in recipes]

    @pytest.mark.parametrize("name", covered)
    @settings(max_examples=25)
    @given(data=st.data())
    def test_first_order(name, data):
        inputs, fn, rng = _case(data, recipes[name])
        outputs = _differentiable(fn(*inputs))
        node = outputs[0].grad_fn
        for _ in range(recipes[name].below):
            node = node.next_functions[0][0]
        assert type(node).__name__ == OPS[name].node  # the recipe reaches its row
        assert gradcheck(fn, inputs, rtol=RTOL)
        upstream = _grad_outputs(outputs, rng)
        torch.autograd.backward(outputs, upstream)
        grads = [t.grad._data for t in inputs if t.grad is not None]
        assert len(grads) == len(inputs)
        for k, g in enumerate(grads):
            others = [t._data for t in inputs] + [u._data for u in upstream] + grads[:k]
            assert not any(np.shares_memory(g, o) for o in others)

    @pytest.mark.parametrize("name", [n for n in covered if recipes[n].twice])
    @settings(max_examples=10)
    @given(data=st.data())
    def test_second_order(name, data):
        inputs, fn, rng = _case(data, recipes[name])
        outputs = _differentiable(fn(*inputs))
        upstream = tuple(g.requires_grad_() for g in _grad_outputs(outputs, rng))
        assert gradgradcheck(fn, inputs, upstream, rtol=RTOL)

    return test_first_order, test_second_order


# The max pools' and fractional pools' gradient rows take indices of fixed values.
def _scrambled(shape):
    """Fixed values of ``shape``, no two equal: the max pools' indices come from these."""
    n = int(np.prod(shape))
    return make_tensor(np.random.default_rng(n).permutation(n).reshape(shape).astype(float))


def _indexed(pool, shape, **params):
    """Indices for a max pool's gradient row: the pool of fixed values, not of its inputs."""
    return {"indices": pool(_scrambled(shape), return_indices=True, **params)[1]}


def _gradient_row(name, shapes, params=None):
    """A gradient row of (grad_output, self), called directly: chapters 16q and 16u."""
    return Recipe(lambda g, a, **p: call(OPS[name], (g, a), p), ("any", "any"),
                  shapes=st.sampled_from([list(s) for s in shapes]),
                  params=lambda chosen: st.just(params(chosen) if params else {}))
