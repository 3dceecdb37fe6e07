"""The gradients of writes by index (chapter 16h)."""

import numpy as np
from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS, masked_scattering
from refgrad._ops.dispatch import call
from refgrad._ops.putting import put
from tests._gradient_support import Recipe, _dim, _mask, gradient_tests

RECIPES: dict[str, Recipe] = {}


# Writes by index (chapter 16h). scatter and index_copy get distinct targets: where two
# elements land on one place, torch's gradient reaches the one overwritten too, which
# finite differences would not see.
_SCATTER_SHAPES = st.sampled_from([[(3, 4), (2, 4)], [(4,), (3,)], [(2, 3, 2), (2, 2, 2)],
                                   [(3, 2), (3, 2)]])


def _scatter_params(shapes, distinct):
    target, source = shapes[0], shapes[1]
    dims = [d for d in range(len(target))
            if all(source[k] <= target[k] for k in range(len(target)) if k != d)]

    def index(d, seed):
        rng = np.random.default_rng(seed)
        if not distinct:
            return {"dim": d, "index": torch.tensor(rng.integers(0, target[d], source))}
        wide = source[:d] + (target[d],) + source[d + 1:]
        order = np.argsort(rng.random(wide), axis=d)  # a shuffle of each line along d
        return {"dim": d, "index": torch.tensor(np.take(order, range(source[d]), axis=d))}

    return st.builds(index, st.sampled_from(dims), st.integers(0, 2**32 - 1))


def _slices_params(shapes, distinct):
    target, source = shapes[0], shapes[1]
    d = next(k for k in range(len(target)) if target[k] != source[k] or k == len(target) - 1)

    def index(seed):
        rng = np.random.default_rng(seed)
        picks = (rng.permutation(target[d])[:source[d]] if distinct
                 else rng.integers(0, target[d], source[d]))
        return {"dim": d, "index": torch.tensor(picks, dtype=torch.int64)}

    return st.integers(0, 2**32 - 1).map(index)


def _fill_params(shapes):
    return _dim(shapes).flatmap(lambda d: st.lists(
        st.integers(-shapes[0][d], shapes[0][d] - 1), min_size=1, max_size=4).map(
        lambda i: {"dim": d, "index": torch.tensor(i, dtype=torch.int64)}))


def _take_params(shapes):
    n = int(np.prod(shapes[0]))
    return st.lists(st.integers(-n, n - 1), min_size=1, max_size=4).map(
        lambda i: {"index": torch.tensor(i)})


def _put_params(shapes):
    """Positions for each source element: repeats only where the writes accumulate."""
    n, k = int(np.prod(shapes[0])), int(np.prod(shapes[1]))
    unique = st.permutations(range(-n, 0)).map(lambda p: list(p[:k]))
    repeated = st.lists(st.integers(-n, n - 1), min_size=k, max_size=k)
    return st.booleans().flatmap(lambda acc: (repeated if acc else unique).map(
        lambda ix: {"index": torch.tensor(ix), "accumulate": acc}))


def _reduce_params(shapes):
    return st.builds(lambda p, reduce, include_self: {**p, "reduce": reduce,
                                                      "include_self": include_self},
                     _scatter_params(shapes, False),
                     st.sampled_from(["sum", "prod", "mean", "amax", "amin"]), st.booleans())


def _index_reduce_params(shapes):
    return st.builds(lambda p, reduce, include_self: {**p, "reduce": reduce,
                                                      "include_self": include_self},
                     _slices_params(shapes, False),
                     st.sampled_from(["prod", "mean", "amax", "amin"]), st.booleans())


RECIPES.update({
    # called through its row: the function warns, once, that it is a beta
    "index_reduce": Recipe(lambda a, s, **p: call(OPS["index_reduce"], (a, s), p),
                           ("nonzero", "nonzero"), params=_index_reduce_params,
                           shapes=st.sampled_from([[(3, 4), (5, 4)], [(3, 4), (3, 2)],
                                                   [(4,), (6,)]])),
    "conj_physical_": Recipe(lambda a: call(OPS["conj_physical_"], (a,))),
    "scatter": Recipe(lambda a, s, dim, index: a.scatter(dim, index, s), ("any", "any"),
                      params=lambda shapes: _scatter_params(shapes, True), shapes=_SCATTER_SHAPES),
    "scatter_value": Recipe(lambda a, dim, index: torch.scatter(a, dim, index, -1.5),
                            params=lambda shapes: _scatter_params(shapes * 2, False),
                            shapes=_SCATTER_SHAPES.map(lambda s: s[:1])),
    "scatter_add": Recipe(lambda a, s, dim, index: torch.scatter_add(a, dim, index, s),
                          ("any", "any"), params=lambda shapes: _scatter_params(shapes, False),
                          shapes=_SCATTER_SHAPES),
    "scatter_reduce": Recipe(lambda a, s, **p: a.scatter_reduce(src=s, **p), ("nonzero", "nonzero"),
                             params=_reduce_params, shapes=_SCATTER_SHAPES),
    "index_add": Recipe(lambda a, s, dim, index, alpha: a.index_add(dim, index, s, alpha=alpha),
                        ("any", "any"), shapes=st.sampled_from([[(3, 4), (5, 4)], [(3, 4), (3, 2)],
                                                                [(4,), (6,)]]),
                        params=lambda shapes: st.builds(lambda p, alpha: {**p, "alpha": alpha},
                                                        _slices_params(shapes, False),
                                                        st.sampled_from([1, 2.0, -0.5]))),
    "index_copy": Recipe(lambda a, s, dim, index: torch.index_copy(a, dim, index, s),
                         ("any", "any"), params=lambda shapes: _slices_params(shapes, True),
                         shapes=st.sampled_from([[(4, 3), (2, 3)], [(3, 4), (3, 4)],
                                                 [(2, 3), (2, 2)]])),
    "index_fill": Recipe(lambda a, dim, index: a.index_fill(dim, index, 0.5), min_ndim=1,
                         params=_fill_params),
    "index_fill_tensor": Recipe(lambda a, v, dim, index: torch.index_fill(a, dim, index, v),
                                ("any", "any"), params=lambda shapes: _fill_params(shapes).map(
                                    lambda p: {**p, "index": p["index"] % shapes[0][p["dim"]]}),
                                shapes=st.sampled_from([[(3, 4), ()], [(2,), ()]])),
    "masked_scatter": Recipe(lambda a, s, mask: a.masked_scatter(mask, s), ("any", "any"),
                             params=_mask, shapes=st.sampled_from([[(3, 4), (12,)],
                                                                   [(2, 3), (7,)],
                                                                   [(3, 2), (3, 2)]])),
    "take": Recipe(lambda a, index: torch.take(a, index), params=_take_params),
    # the row masked_scatter's source gradient records, called directly; torch's forward
    # formula for it works only when the sizes are the gradient's own
    # the row take's gradient records, called directly
    "put": Recipe(lambda a, s, index, accumulate: put(a, index, s, accumulate),
                  ("any", "any"), params=_put_params,
                  shapes=st.sampled_from([[(3, 4), (5,)], [(2, 3), (2, 2)], [(4,), (4,)],
                                          [(), ()]])),
    "masked_scatter_backward": Recipe(
        lambda g, mask: masked_scattering.masked_scatter_backward(g, mask, tuple(g.shape)),
        params=_mask),
})


test_first_order, test_second_order = gradient_tests(RECIPES)
