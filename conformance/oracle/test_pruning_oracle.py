"""Oracle test: refgrad's pruning masks are torch's, for random methods and for tied scores.

With one seed the two libraries draw the same uniform numbers, and the random
methods draw them with the same calls (``rand_like`` per entry, ``rand`` per
channel), so the masks agree entry for entry. Where scores tie across the cut,
the entries kept are those torch's CPU ``topk`` keeps: the cases below are full of
ties, on both of the kernel's paths (a partial sort when ``k`` is at most a 64th of
the length, a selection otherwise), with NaN among the scores too.
"""

import numpy as np
import pytest
import torch

import refgrad

LIBS = (torch, refgrad)


def prune_of(lib):
    if lib is torch:
        from torch.nn.utils import prune
    else:
        from refgrad.nn.utils import prune
    return prune


def module_with(lib, weight):
    m = lib.nn.Linear(weight.shape[1], weight.shape[0], dtype=getattr(lib, str(weight.dtype)))
    with lib.no_grad():
        m.weight.copy_(lib.tensor(weight))
    return m


def masks(run, weight):
    """``run(lib, prune, module)`` on a Linear holding ``weight``, in each library."""
    found = []
    for lib in LIBS:
        m = module_with(lib, weight)
        run(lib, prune_of(lib), m)
        found.append(m.weight_mask.numpy().copy())
    return found


def assert_same(found):
    ours, theirs = found[1], found[0]
    assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, amount", [((3, 4), 5), ((20, 30), 0.3), ((64, 100), 40),
                                           ((7, 9), 0.9)])
def test_random_unstructured_masks_are_torchs_for_one_seed(shape, amount, dtype):
    def run(lib, prune, m):
        lib.manual_seed(17)
        prune.random_unstructured(m, "weight", amount=amount)
        prune.random_unstructured(m, "weight", amount=0.5)  # among the live entries

    assert_same(masks(run, np.zeros(shape, dtype)))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("amount", [1, 0.4, 0.75])
def test_random_structured_masks_are_torchs_for_one_seed(dim, amount):
    def run(lib, prune, m):
        lib.manual_seed(5)
        prune.random_structured(m, "weight", amount=amount, dim=dim)
        prune.random_unstructured(m, "weight", amount=3)
        prune.random_structured(m, "weight", amount=1, dim=1 - dim % 2)

    assert_same(masks(run, np.ones((8, 6), "float32")))


def test_global_random_pruning_is_torchs_for_one_seed():
    found = []
    for lib in LIBS:
        prune = prune_of(lib)
        a = module_with(lib, np.ones((5, 7), "float32"))
        b = module_with(lib, np.ones((3, 5), "float32"))
        lib.manual_seed(2)
        prune.global_unstructured([(a, "weight"), (b, "weight")],
                                  pruning_method=prune.RandomUnstructured, amount=0.35)
        found.append(np.concatenate([a.weight_mask.numpy().ravel(), b.weight_mask.numpy().ravel()]))
    assert_same(found)


TIES = [((4, 5), 3), ((10, 10), 37), ((10, 13), 0.5), ((40, 50), 31), ((40, 50), 0.8),
        ((64, 70), 60), ((5, 3), 14)]


@pytest.mark.parametrize("levels", [1, 2, 5])
@pytest.mark.parametrize("shape, amount", TIES)
def test_l1_unstructured_keeps_torchs_entries_among_ties(shape, amount, levels):
    rng = np.random.default_rng(levels * 100 + shape[0])
    weight = rng.integers(-levels, levels + 1, shape).astype("float32")

    def run(lib, prune, m):
        prune.l1_unstructured(m, "weight", amount=amount)
        if amount != 14:
            prune.l1_unstructured(m, "weight", amount=1)  # a tie among the live entries

    assert_same(masks(run, weight))


@pytest.mark.parametrize("largest_share", [0.05, 0.3])
def test_nan_scores_order_as_torchs(largest_share):
    rng = np.random.default_rng(4)
    scores = rng.integers(0, 3, (30, 20)).astype("float32")
    scores[rng.random((30, 20)) < largest_share] = np.nan

    def run(lib, prune, m):
        prune.l1_unstructured(m, "weight", amount=250, importance_scores=lib.tensor(scores))
        prune.l1_unstructured(m, "weight", amount=5, importance_scores=lib.tensor(scores))

    assert_same(masks(run, np.ones((30, 20), "float32")))


@pytest.mark.parametrize("n, dim, amount", [(1, 0, 3), (2, 1, 0.5), (float("inf"), 0, 7),
                                            ("fro", -1, 2), (float("-inf"), 1, 4)])
def test_ln_structured_keeps_torchs_channels_among_equal_norms(n, dim, amount):
    rng = np.random.default_rng(9)
    rows = rng.integers(0, 2, (12, 1)).astype("float32") * np.ones((1, 10), "float32")
    weight = rows if dim == 0 else rows.T.copy()

    def run(lib, prune, m):
        prune.ln_structured(m, "weight", amount=amount, n=n, dim=dim)

    assert_same(masks(run, weight))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("amount", [1, 0.25, 0.6, 199])
def test_l1_unstructured_without_ties_prunes_the_least_magnitudes(amount, dtype):
    weight = np.random.default_rng(8).standard_normal((10, 20)).astype(dtype)

    def run(lib, prune, m):
        prune.l1_unstructured(m, "weight", amount=amount)
        prune.ln_structured(m, "weight", amount=0.3, n=2, dim=0)

    found = masks(run, weight)
    assert_same(found)
    order = np.argsort(np.abs(weight), axis=None, kind="stable")
    count = amount if isinstance(amount, int) else round(amount * weight.size)
    assert not found[1].ravel()[order[:count]].any()
