"""torch.svd_lowrank, torch.pca_lowrank and torch.lobpcg: signatures, homes, refusals,
shapes, graphs, and what the factors must satisfy."""

import inspect
import re

import numpy as np
import pytest
import torch

RNG = np.random.default_rng(1234)


def low_rank(*shape, rank=3):
    """A float64 matrix (or batch) of the given rank, from NumPy's generator."""
    *batch, m, n = shape
    left = RNG.standard_normal((*batch, m, rank))
    right = RNG.standard_normal((*batch, rank, n))
    return torch.tensor(left @ right)


def graph_names(t):
    """The names of the nodes behind t, breadth first, each once."""
    seen, order, queue = set(), [], [t.grad_fn]
    while queue:
        node = queue.pop(0)
        if node is None or node in seen:
            continue
        seen.add(node)
        order.append(node.name())
        queue.extend(n for n, _ in node.next_functions)
    return order


def defaults(function):
    return [(p.name, p.default) for p in inspect.signature(function).parameters.values()]


def test_names_and_homes():
    assert torch._lowrank.__all__ == ["svd_lowrank", "pca_lowrank"]
    for name in ("svd_lowrank", "pca_lowrank"):
        function = getattr(torch, name)
        assert function is getattr(torch._lowrank, name) is getattr(torch.functional, name)
        assert function.__module__ == torch._lowrank.__name__
        assert name in torch.functional.__all__
    assert not hasattr(torch.Tensor, "svd_lowrank")


def test_signatures():
    empty = inspect.Parameter.empty
    assert defaults(torch.svd_lowrank) == [("A", empty), ("q", 6), ("niter", 2), ("M", None)]
    assert defaults(torch.pca_lowrank) == [("A", empty), ("q", None), ("center", True),
                                           ("niter", 2)]


def test_svd_lowrank_finds_an_exact_low_rank_matrix():
    A = low_rank(10, 7)
    U, S, V = torch.svd_lowrank(A, q=5)
    assert U.shape == (10, 5) and S.shape == (5,) and V.shape == (7, 5)
    assert torch.allclose((U * S) @ V.mT, A, atol=1e-10)
    assert torch.allclose(U.mT @ U, torch.eye(5, dtype=A.dtype), atol=1e-12)
    assert torch.allclose(V.mT @ V, torch.eye(5, dtype=A.dtype), atol=1e-12)
    assert torch.allclose(S, torch.linalg.svdvals(A)[:5], atol=1e-10)
    assert bool((S[:-1] >= S[1:]).all())


def test_svd_lowrank_defaults_and_nones():
    A = low_rank(9, 8)
    for kw in ({}, {"q": None}, {"niter": None}, {"q": None, "niter": None}):
        torch.manual_seed(5)
        U, S, V = torch.svd_lowrank(A, **kw)
        assert type(torch.svd_lowrank(A)) is tuple
        assert U.shape == (9, 6) and S.shape == (6,) and V.shape == (8, 6)
        torch.manual_seed(5)
        assert all(torch.equal(x, y) for x, y in zip((U, S, V), torch.svd_lowrank(A, 6, 2)))


def test_wide_matrix_is_transposed_and_back():
    A = low_rank(5, 12)
    U, S, V = torch.svd_lowrank(A, q=4)
    assert U.shape == (5, 4) and V.shape == (12, 4)
    assert torch.allclose((U * S) @ V.mT, A, atol=1e-10)


def test_q_above_the_short_side_gives_the_short_side():
    A = torch.tensor(RNG.standard_normal((6, 4)))
    U, S, V = torch.svd_lowrank(A, q=9)
    assert U.shape == (6, 4) and S.shape == (4,) and V.shape == (4, 4)
    assert torch.allclose((U * S) @ V.mT, A, atol=1e-10)


def test_the_mean_is_subtracted_without_forming_the_difference():
    A = low_rank(8, 6, rank=2)
    M = torch.tensor(RNG.standard_normal((1, 6)))
    U, S, V = torch.svd_lowrank(A + M, q=3, M=M)
    assert torch.allclose((U * S) @ V.mT, A, atol=1e-10)
    U, S, V = torch.svd_lowrank((A + M).mT, q=3, M=M.mT)
    assert torch.allclose((U * S) @ V.mT, A.mT, atol=1e-10)


def test_batches():
    A = low_rank(2, 3, 8, 6, rank=2)
    for f in (torch.svd_lowrank, torch.pca_lowrank):
        U, S, V = f(A, q=3)
        assert U.shape == (2, 3, 8, 3) and S.shape == (2, 3, 3) and V.shape == (2, 3, 6, 3)
    U, S, V = torch.svd_lowrank(A, q=3)
    assert torch.allclose((U * S.unsqueeze(-2)) @ V.mT, A, atol=1e-10)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_dtypes_follow_the_input(dtype):
    A = low_rank(8, 5).to(dtype)
    for f in (torch.svd_lowrank, torch.pca_lowrank):
        assert [t.dtype for t in f(A, q=3)] == [dtype] * 3


def test_the_same_seed_gives_the_same_factors():
    A = torch.tensor(RNG.standard_normal((12, 9)))
    torch.manual_seed(11)
    first = torch.svd_lowrank(A, q=3, niter=0)
    torch.manual_seed(11)
    again = torch.svd_lowrank(A, q=3, niter=0)
    assert all(torch.equal(x, y) for x, y in zip(first, again))
    other = torch.svd_lowrank(A, q=3, niter=0)
    assert not torch.equal(first[1], other[1])


def test_pca_centres_the_columns():
    A = low_rank(20, 5, rank=2) + torch.tensor(RNG.standard_normal(5))
    U, S, V = torch.pca_lowrank(A, q=3)
    centred = A - A.mean(dim=0)
    assert torch.allclose((U * S) @ V.mT, centred, atol=1e-10)
    assert torch.allclose(S, torch.linalg.svdvals(centred)[:3], atol=1e-10)
    U, S, V = torch.pca_lowrank(A, q=5, center=False)
    assert torch.allclose((U * S) @ V.mT, A, atol=1e-10)


def test_pca_default_q_is_at_most_six():
    assert torch.pca_lowrank(low_rank(9, 8))[1].shape == (6,)
    assert torch.pca_lowrank(low_rank(9, 4))[1].shape == (4,)
    assert torch.pca_lowrank(low_rank(3, 8))[1].shape == (3,)


@pytest.mark.parametrize("q", [-1, 6, 10])
def test_pca_refuses_q_out_of_range(q):
    message = f"q(={q}) must be non-negative integer and not greater than min(m, n)=5"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        torch.pca_lowrank(low_rank(7, 5), q=q)


def test_pca_refuses_negative_niter():
    with pytest.raises(ValueError, match=r"^niter\(=-1\) must be non-negative integer$"):
        torch.pca_lowrank(low_rank(7, 5), niter=-1)


def test_svd_lowrank_leaves_checks_to_the_ops():
    A = low_rank(5, 5)
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        torch.svd_lowrank(A, q=-1)
    assert torch.svd_lowrank(A, niter=-1)[1].shape == (5,)  # no iteration at all
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        torch.svd_lowrank(A, niter=2.5)
    assert torch.svd_lowrank(A, q=0)[0].shape == (5, 0)


@pytest.mark.parametrize("f", ["svd_lowrank", "pca_lowrank"])
def test_not_a_matrix(f):
    with pytest.raises(ValueError, match=r"^not enough values to unpack \(expected 2, got 1\)$"):
        getattr(torch, f)(torch.ones(3))
    with pytest.raises(AttributeError, match="'int' object has no attribute 'shape'"):
        getattr(torch, f)(3)


def test_integer_input():
    A = torch.ones(3, 4, dtype=torch.long)
    with pytest.raises(RuntimeError, match=r"^expected m1 and m2 to have the same dtype, but "
                                           r"got: long int != float$"):
        torch.svd_lowrank(A)
    with pytest.raises(RuntimeError, match=r"^mean\(\): could not infer output dtype"):
        torch.pca_lowrank(A)


def test_empty_matrices():
    U, S, V = torch.svd_lowrank(torch.ones(0, 4))
    assert U.shape == (0, 0) and S.shape == (0,) and V.shape == (4, 0)
    U, S, V = torch.pca_lowrank(torch.ones(2, 0, 3))
    assert U.shape == (2, 0, 0) and S.shape == (2, 0) and V.shape == (2, 3, 0)


def test_graph_node_names():
    A = low_rank(9, 6).requires_grad_()
    U, S, V = torch.svd_lowrank(A, q=3)
    assert [t.grad_fn.name() for t in (U, S, V)] == ["MmBackward0", "LinalgSvdBackward0",
                                                      "TransposeBackward0"]
    U, S, V = torch.svd_lowrank(A.mT, q=3)  # wide: the factors swap
    assert [t.grad_fn.name() for t in (U, S, V)] == ["TransposeBackward0",
                                                      "LinalgSvdBackward0", "MmBackward0"]
    U, S, V = torch.pca_lowrank(A, q=3)
    names = graph_names(S)
    assert {"SubBackward0", "MeanBackward1", "LinalgQrBackward0", "MmBackward0"} <= set(names)
    assert names[:3] == ["LinalgSvdBackward0", "MmBackward0", "TransposeBackward0"]


def test_singular_value_gradient_of_an_exact_low_rank_matrix():
    # with q above the rank the basis spans A's columns exactly, so S is A's top singular
    # values and d(sum S)/dA is U Vᵀ of A's full SVD restricted to them
    A = low_rank(8, 6, rank=3).requires_grad_()
    torch.svd_lowrank(A, q=4)[1][:3].sum().backward()
    u, s, vh = torch.linalg.svd(A.detach(), full_matrices=False)
    assert torch.allclose(A.grad, u[:, :3] @ vh[:3], atol=1e-8)


# --- lobpcg ---------------------------------------------------------------------------------


def spectrum(m, values=None, seed=0):
    """A symmetric float64 matrix with the given eigenvalues (1..m by default), and its
    eigenvectors as columns."""
    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((m, m)))
    values = np.arange(1.0, m + 1) if values is None else np.asarray(values, dtype=float)
    return torch.tensor(q @ np.diag(values) @ q.T), torch.tensor(q)


def test_lobpcg_names_and_signature():
    assert torch._lobpcg.__all__ == ["lobpcg"]
    assert torch.lobpcg is torch._lobpcg.lobpcg
    assert torch.lobpcg.__module__ == torch._lobpcg.__name__
    assert torch._lobpcg.LOBPCG.__module__ == torch._lobpcg.__name__
    assert issubclass(torch._lobpcg.LOBPCGAutogradFunction, torch.autograd.Function)
    assert defaults(torch.lobpcg) == [("A", inspect.Parameter.empty)] + [(name, None) for name in (
        "k", "B", "X", "n", "iK", "niter", "tol", "largest", "method", "tracker",
        "ortho_iparams", "ortho_fparams", "ortho_bparams")]


@pytest.mark.parametrize("method", [None, "ortho", "basic", "anything else runs basic"])
@pytest.mark.parametrize("largest", [None, True, False])
def test_lobpcg_finds_the_extreme_eigenpairs(method, largest):
    A, _ = spectrum(20)
    torch.manual_seed(0)
    E, X = torch.lobpcg(A, k=3, method=method, largest=largest)
    expected = [1.0, 2.0, 3.0] if largest is False else [20.0, 19.0, 18.0]
    assert torch.allclose(E, torch.tensor(expected, dtype=torch.float64), atol=1e-8)
    assert X.shape == (20, 3) and X.dtype == torch.float64
    assert torch.allclose(A @ X, X * E, atol=1e-6)
    assert torch.allclose(X.mT @ X, torch.eye(3, dtype=torch.float64), atol=1e-8)


def test_lobpcg_defaults_k_and_n():
    A, _ = spectrum(12)
    torch.manual_seed(0)
    assert torch.lobpcg(A)[0].shape == (1,)
    assert torch.lobpcg(A, n=3)[0].shape == (1,)
    assert torch.lobpcg(A, k=3, n=2)[0].shape == (2,)  # no more pairs than the block has
    X = torch.tensor(np.random.default_rng(2).standard_normal((12, 2)))
    assert torch.lobpcg(A, X=X)[0].shape == (2,)
    assert torch.lobpcg(A, X=X, k=1, n=4)[1].shape == (12, 1)


def test_lobpcg_generalised_problem():
    A, _ = spectrum(18)
    B = torch.tensor(np.diag(np.linspace(1.0, 3.0, 18)))
    E, X = torch.lobpcg(A, k=2, B=B)
    reference = torch.linalg.eigvalsh(torch.linalg.solve(B.sqrt(), A) @ torch.linalg.inv(B.sqrt()))
    assert torch.allclose(E, reference.flip(0)[:2], atol=1e-8)
    assert torch.allclose(A @ X, B @ X * E, atol=1e-6)
    assert torch.allclose(X.mT @ B @ X, torch.eye(2, dtype=torch.float64), atol=1e-8)


def test_lobpcg_preconditioner_and_ortho_parameters():
    A, _ = spectrum(15)
    iK = torch.diag(1 / A.diagonal())
    E, _ = torch.lobpcg(A, k=2, iK=iK, method="basic")
    assert torch.allclose(E, torch.tensor([15.0, 14.0], dtype=torch.float64), atol=1e-8)
    E, _ = torch.lobpcg(A, k=2, ortho_iparams={"ortho_i_max": 2, "ortho_j_max": 1},
                        ortho_fparams={"ortho_tol": 1e-10}, ortho_bparams={"ortho_use_drop": True})
    assert torch.allclose(E, torch.tensor([15.0, 14.0], dtype=torch.float64), atol=1e-8)


def test_lobpcg_float32():
    A, _ = spectrum(15)
    E, X = torch.lobpcg(A.float(), k=2)
    assert E.dtype == X.dtype == torch.float32
    assert torch.allclose(E, torch.tensor([15.0, 14.0]), atol=1e-3)


def test_lobpcg_batches():
    A1, _ = spectrum(12, seed=1)
    A2, _ = spectrum(12, values=np.arange(2.0, 26.0, 2.0), seed=2)
    seen = []
    E, X = torch.lobpcg(torch.stack([A1, A2]), k=2,
                        tracker=lambda w: seen.append(w.iparams["batch_index"]))
    assert E.shape == (2, 2) and X.shape == (2, 12, 2)
    assert torch.allclose(E, torch.tensor([[12.0, 11.0], [24.0, 22.0]], dtype=torch.float64),
                          atol=1e-8)
    assert seen[0] == 0 and seen[-1] == 1 and seen == sorted(seen)


def test_lobpcg_tracker_sees_the_state():
    A, _ = spectrum(15)
    states = []

    def tracker(worker):
        states.append((worker.ivars["istep"], worker.ivars["converged_count"],
                       worker.E.clone(), sorted(worker.tvars), worker.method))
    torch.lobpcg(A, k=2, tracker=tracker)
    assert [s[0] for s in states] == list(range(1, len(states) + 1))
    assert torch.equal(states[0][2], torch.zeros(2, dtype=torch.float64))  # ortho's 1st step
    assert states[-1][1] >= 2 and states[0][3] == ["rerr"] and states[0][4] == "ortho"
    counts = [s[1] for s in states]
    assert counts == sorted(counts)


def test_lobpcg_tracker_can_stop_it():
    A, _ = spectrum(15)
    steps = []

    def tracker(worker):
        steps.append(worker.ivars["istep"])
        if worker.ivars["istep"] == 3:
            worker.bvars["force_stop"] = True
    torch.lobpcg(A, k=2, tracker=tracker)
    assert steps == [1, 2, 3]


def test_lobpcg_niter():
    A, _ = spectrum(15)
    steps = []
    torch.lobpcg(A, k=2, niter=4, tracker=lambda w: steps.append(w.ivars["istep"]))
    assert steps == [1, 2, 3, 4]
    assert torch.equal(torch.lobpcg(A, k=2, niter=1)[0], torch.zeros(2, dtype=torch.float64))
    E, _ = torch.lobpcg(A, k=2, niter=0)  # counted down past zero: runs to convergence
    assert torch.allclose(E, torch.tensor([15.0, 14.0], dtype=torch.float64), atol=1e-8)


def test_lobpcg_basic_writes_into_the_given_block():
    A, _ = spectrum(15)
    X = torch.tensor(np.random.default_rng(3).standard_normal((15, 2)))
    before = X.clone()
    _, V = torch.lobpcg(A, X=X, method="basic", niter=2)
    assert not torch.equal(X, before) and torch.equal(V, X)
    X = before.clone()
    torch.lobpcg(A, X=X, niter=2)
    assert torch.equal(X, before)


def test_lobpcg_refusals():
    A, _ = spectrum(12)
    with pytest.raises(AssertionError,
                       match=r"^A must be square, got shape torch\.Size\(\[12, 5\]\)$"):
        torch.lobpcg(A[:, :5])
    with pytest.raises(AssertionError, match=r"^A and B must have same shape, got torch\.Size\("
                                             r"\[12, 12\]\) vs torch\.Size\(\[10, 10\]\)$"):
        torch.lobpcg(A, B=torch.eye(10))
    with pytest.raises(AssertionError, match=r"^X shape mismatch: got torch\.Size\(\[5, 2\]\), "
                                             r"expected \(12, 2\)$"):
        torch.lobpcg(A, X=torch.ones(5, 2, dtype=torch.float64))
    message = ("LOBPCG algorithm is not applicable when the number of A rows (=12) is smaller "
               "than 3 x the number of requested eigenpairs (=5)")
    for kw in ({"k": 5}, {"n": 5}):
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            torch.lobpcg(A, **kw)
    with pytest.raises(KeyError, match=r"torch\.float16"):
        torch.lobpcg(A.half())
    with pytest.raises(RuntimeError, match=r"^expected m1 and m2 to have the same dtype"):
        torch.lobpcg(A.long())
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        torch.lobpcg(torch.ones(12))


def test_lobpcg_graph():
    A, _ = spectrum(12)
    A.requires_grad_()
    E, X = torch.lobpcg(A, k=2)
    assert E.grad_fn.name() == X.grad_fn.name() == "LOBPCGAutogradFunctionBackward"
    assert graph_names(E) == ["LOBPCGAutogradFunctionBackward", "DivBackward0", "AddBackward0",
                              "torch::autograd::AccumulateGrad", "TransposeBackward0"]
    assert torch.lobpcg(A.detach(), k=2)[0].grad_fn is None


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_lobpcg_gradient_is_the_symmetric_eigenproblems(largest, k):
    # the gradient of the k extreme pairs equals the one through a full eigh of (A + Aᵀ)/2
    A, _ = spectrum(15, seed=4)
    W = torch.tensor(np.random.default_rng(9).standard_normal((15, 15)))
    A.requires_grad_()
    E, U = torch.lobpcg(A, k=k, largest=largest)
    (E.pow(2).sum() + (U @ U.mT * W).sum()).backward()
    ours, A.grad = A.grad, None
    e, v = torch.linalg.eigh((A + A.mT) / 2)
    keep = slice(15 - k, None) if largest else slice(0, k)
    (e[keep].pow(2).sum() + (v[:, keep] @ v[:, keep].mT * W).sum()).backward()
    assert torch.allclose(ours, A.grad, atol=1e-6)


def test_lobpcg_gradient_refuses_b():
    A, _ = spectrum(12)
    A.requires_grad_()
    E, _ = torch.lobpcg(A, k=2, B=torch.eye(12, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"^lobpcg\.backward does not support backward with "
                                         r"B != I yet\.$"):
        E.sum().backward()
