"""Black-box tests: torch.multinomial draws what torch draws from a seed, in both of its ways,
and refuses what torch refuses. The same assertions run on torch.
"""

import bisect

import pytest
import torch

from conformance._support import raises


def _with_replacement(weights, n, seed):
    """Each sample: the first category whose scaled running sum reaches a uniform double."""
    torch.manual_seed(seed)
    rows = weights if weights.ndim == 2 else weights[None]
    drawn = []
    for row in rows:
        running = row.cumsum(0)
        scaled = (running / running[-1]).double().tolist()
        draws = torch.rand(n, dtype=torch.float64).tolist()
        drawn.append([bisect.bisect_left(scaled, u) for u in draws])
    return drawn if weights.ndim == 2 else drawn[0]


def _exponential_trick(weights, n, seed):
    """The n largest weights, each divided by its own Exp(1) draw."""
    torch.manual_seed(seed)
    quotients = weights / torch.empty_like(weights).exponential_(1)
    if n == 1:
        return quotients.argmax(-1, keepdim=True).tolist()
    return quotients.topk(n).indices.tolist()


@pytest.mark.parametrize("seed", [0, 1, 7])
@pytest.mark.parametrize("shape, n", [((4,), 3), ((3, 5), 4), ((2, 1000), 6)])
def test_with_replacement_searches_the_running_sums(seed, shape, n):
    torch.manual_seed(100 + seed)
    weights = torch.rand(shape)
    torch.manual_seed(seed)
    drawn = torch.multinomial(weights, n, replacement=True)
    assert drawn.dtype == torch.int64 and drawn.shape == (*shape[:-1], n)
    assert drawn.tolist() == _with_replacement(weights, n, seed)


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("shape, n, dtype", [((6,), 1, torch.float32), ((6,), 4, torch.float32),
                                             ((3, 7), 7, torch.float32),
                                             ((50,), 20, torch.float64)])
def test_without_replacement_takes_the_largest_quotients(seed, shape, n, dtype):
    torch.manual_seed(200 + seed)
    weights = torch.rand(shape, dtype=dtype) + 0.01
    torch.manual_seed(seed)
    drawn = torch.multinomial(weights, n)
    assert drawn.tolist() == _exponential_trick(weights, n, seed)
    rows = drawn if drawn.ndim == 2 else drawn[None]
    assert all(len(set(row.tolist())) == n for row in rows)  # no category twice


def test_one_sample_with_replacement_takes_the_exponential_trick_too():
    weights = torch.tensor([0.1, 0.2, 0.3, 0.4])
    torch.manual_seed(5)
    assert torch.multinomial(weights, 1, True).tolist() == _exponential_trick(weights, 1, 5)


def test_the_stream_moves_on_as_torchs_does():
    weights = torch.tensor([1.0, 3.0, 2.0])
    torch.manual_seed(0)
    torch.multinomial(weights, 5, True)
    after_replacement = torch.rand(1)
    torch.manual_seed(0)
    torch.rand(5, dtype=torch.float64)
    assert torch.equal(after_replacement, torch.rand(1))
    torch.manual_seed(0)
    torch.multinomial(weights, 2)
    after_trick = torch.rand(1)
    torch.manual_seed(0)
    torch.empty(3).exponential_(1)
    assert torch.equal(after_trick, torch.rand(1))


def test_a_generator_of_its_own_the_method_and_out():
    weights = torch.tensor([0.1, 0.2, 0.3, 0.4], requires_grad=True)
    a = torch.multinomial(weights, 2, generator=torch.Generator().manual_seed(1))
    b = weights.multinomial(2, generator=torch.Generator().manual_seed(1))
    assert a.tolist() == b.tolist() and not a.requires_grad and a.grad_fn is None
    out = torch.zeros(5, dtype=torch.int64)
    version = out._version
    torch.manual_seed(2)
    result = torch.multinomial(weights.detach(), 3, True, out=out)
    assert result is out and out.shape == (3,) and out._version == version + 1
    torch.manual_seed(2)
    assert out.tolist() == torch.multinomial(weights.detach(), 3, True).tolist()


def test_zero_weights_are_drawn_last_without_replacement():
    torch.manual_seed(0)
    drawn = torch.multinomial(torch.tensor([0.0, 1.0, 1.0]), 3).tolist()
    assert drawn[2] == 0 and sorted(drawn[:2]) == [1, 2]
    assert torch.multinomial(torch.tensor([0.0, 0.0, 1.0]), 2, True).tolist() == [2, 2]


def test_nothing_to_draw():
    assert torch.multinomial(torch.zeros(0, 3), 1).shape == (0, 1)
    assert torch.multinomial(torch.zeros(0, 2), 2, True).shape == (0, 2)


ZERO_SUM = "invalid multinomial distribution (sum of probabilities <= 0)"
INVALID = "probability tensor contains either `inf`, `nan` or element < 0"


@pytest.mark.parametrize("call, message", [
    (lambda: torch.multinomial(torch.ones(2, 2, 2), 1), "prob_dist must be 1 or 2 dim"),
    (lambda: torch.multinomial(torch.tensor(1.0), 1), "prob_dist must be 1 or 2 dim"),
    (lambda: torch.multinomial(torch.tensor([1, 2]), 1),
     "multinomial only supports floating-point dtypes for input, got: Long"),
    (lambda: torch.multinomial(torch.ones(3), 2, out=torch.empty(2)),
     "multinomial expects Long tensor out, got: Float"),
    (lambda: torch.multinomial(torch.ones(3), 0), "cannot sample n_sample <= 0 samples"),
    (lambda: torch.multinomial(torch.ones(3), 4),
     "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    (lambda: torch.multinomial(torch.zeros(2, 0), 1),
     "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    (lambda: torch.multinomial(torch.ones(2**24 + 1), 1),
     "number of categories cannot exceed 2^24"),
    (lambda: torch.multinomial(torch.zeros(3), 1), ZERO_SUM),
    (lambda: torch.multinomial(torch.tensor([[1.0, 1.0], [0.0, 0.0]]), 1), ZERO_SUM),
    (lambda: torch.multinomial(torch.tensor([-1.0, 1.0]), 1), INVALID),
    (lambda: torch.multinomial(torch.tensor([float("nan"), 1.0]), 1), INVALID),
    (lambda: torch.multinomial(torch.tensor([float("inf"), 1.0]), 2), INVALID),
    (lambda: torch.multinomial(torch.tensor([-1.0, 1.0]), 2, True),
     "invalid multinomial distribution (encountering probability entry < 0)"),
    (lambda: torch.multinomial(torch.tensor([float("nan"), 1.0]), 2, True),
     "invalid multinomial distribution (encountering probability entry < 0)"),
    (lambda: torch.multinomial(torch.tensor([float("inf"), 1.0]), 2, True),
     "invalid multinomial distribution (encountering probability entry = infinity or NaN)"),
    (lambda: torch.multinomial(torch.zeros(3), 2, True), ZERO_SUM),
    (lambda: torch.multinomial(torch.zeros(2, 0), 2, True), ZERO_SUM),
])
def test_refusals(call, message):
    with raises(RuntimeError, message):
        call()


def test_a_row_refused_with_replacement_after_drawing_the_rows_before_it():
    torch.manual_seed(0)
    with raises(RuntimeError, ZERO_SUM):
        torch.multinomial(torch.tensor([[1.0, 1.0], [0.0, 0.0]]), 2, True)
    after = torch.rand(1, dtype=torch.float64)
    torch.manual_seed(0)
    torch.rand(2, dtype=torch.float64)
    assert torch.equal(after, torch.rand(1, dtype=torch.float64))


def test_num_samples_must_be_an_int():
    with raises(TypeError, "multinomial(): argument 'num_samples' (position 2) must be int, not "
                           "float"):
        torch.multinomial(torch.ones(3), 2.0)
    with raises(TypeError, "multinomial(): argument 'num_samples' (position 1) must be int, not "
                           "float"):
        torch.ones(3).multinomial(2.0)


def test_the_exponential_draws_follow_the_weights_memory_order():
    weights = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).t()  # not contiguous
    for n in (1, 3):
        torch.manual_seed(4)
        drawn = torch.multinomial(weights, n).tolist()
        torch.manual_seed(4)
        quotients = weights / torch.empty_like(weights).exponential_(1)
        expected = (quotients.argmax(-1, keepdim=True) if n == 1 else quotients.topk(n).indices)
        assert drawn == expected.tolist()


def test_one_sample_from_no_categories():
    for weights in (torch.ones(0), torch.ones(2, 0)):
        with raises(RuntimeError, "aminmax(): cannot compute aminmax over an empty dimension as "
                                  "the operation has no identity."):
            torch.multinomial(weights, 1, True)
