"""Random operations under vmap: each randomness mode's refusals, made as the operation is
called and before it reads its arguments, at every running level."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

X = torch.tensor(np.random.default_rng(23).uniform(0.1, 0.9, (2, 3)).astype(np.float32))
U = torch.full((3,), 0.5)
ERROR = ("vmap: called random operation while in randomness error mode. Please either use the "
         "'same' or 'different' randomness flags on vmap or perform the randomness operation "
         "out of vmap")
SAME = ("Vmap does not currently support same randomness with a batched tensor input. Please "
        "file an issue with functorch")
DIFFERENT = ("vmap: Cannot ask for different inplace randomness on an unbatched tensor. This "
             "will appear like same randomness. If this is necessary for your usage, please "
             "file an issue with functorch.")
BERNOULLI_WRITE = (
    "vmap: inplace bernoulli(self, *extra_args) is not possible because there exists a Tensor "
    "`other` in extra_args that has more elements than `self`. This happened due to `other` "
    "being vmapped over but `self` not being vmapped over in a vmap. Please try to use "
    "out-of-place operators instead of inplace bernoulli. If said operator is being called "
    "inside the PyTorch framework, please file a bug report instead.")
RAN = "ran"

CASES = {  # each call, and what torch does in the modes error, same and different
    "rand": (lambda o: torch.rand(3) + o, (ERROR, RAN, RAN)),
    "randint": (lambda o: torch.randint(0, 5, (3,)) + o, (ERROR, RAN, RAN)),
    "randperm": (lambda o: torch.randperm(3) + o, (ERROR, RAN, RAN)),
    "rand_like of a batched tensor": (lambda o: torch.rand_like(o), (ERROR, RAN, RAN)),
    "randn_like": (lambda o: torch.randn_like(U) + o, (ERROR, RAN, RAN)),
    "randint_like": (lambda o: torch.randint_like(o, 5), (ERROR, RAN, RAN)),
    "normal of a batched mean": (lambda o: torch.normal(o, 1.0), (ERROR, SAME, RAN)),
    "normal of a size": (lambda o: torch.normal(0.0, 1.0, (3,)) + o, (ERROR, RAN, RAN)),
    "bernoulli of a batched tensor": (lambda o: torch.bernoulli(o), (ERROR, SAME, RAN)),
    "Tensor.bernoulli": (lambda o: o.bernoulli(0.5), (ERROR, SAME, RAN)),
    "multinomial": (lambda o: torch.multinomial(o, 1), (ERROR, SAME, RAN)),
    "poisson": (lambda o: torch.poisson(o), (ERROR, SAME, RAN)),
    "binomial": (lambda o: torch.binomial(o * 10, U), (ERROR, SAME, RAN)),
    "_standard_gamma": (lambda o: torch._standard_gamma(o), (ERROR, SAME, RAN)),
    "_sample_dirichlet": (lambda o: torch._sample_dirichlet(o), (ERROR, SAME, RAN)),
    "dropout": (lambda o: F.dropout(o, 0.5), (ERROR, RAN, RAN)),
    "dropout of an unbatched tensor": (lambda o: F.dropout(U, 0.5) + o, (ERROR, RAN, RAN)),
    "normal_ of a batched tensor": (lambda o: o.clone().normal_(), (ERROR, RAN, RAN)),
    "normal_ of an unbatched tensor": (lambda o: torch.zeros(3).normal_() + o,
                                       (ERROR, RAN, DIFFERENT)),
    "uniform_": (lambda o: torch.zeros(3).uniform_() + o, (ERROR, RAN, DIFFERENT)),
    "exponential_": (lambda o: torch.zeros(3).exponential_() + o, (ERROR, RAN, DIFFERENT)),
    "random_": (lambda o: torch.zeros(3).random_(0, 5) + o, (ERROR, RAN, DIFFERENT)),
    "cauchy_": (lambda o: torch.zeros(3).cauchy_() + o, (ERROR, RAN, DIFFERENT)),
    "geometric_": (lambda o: torch.zeros(3).geometric_(0.5) + o, (ERROR, RAN, DIFFERENT)),
    "log_normal_": (lambda o: torch.zeros(3).log_normal_() + o, (ERROR, RAN, DIFFERENT)),
    "bernoulli_ of a number": (lambda o: torch.zeros(3).bernoulli_(0.5) + o,
                               (ERROR, RAN, DIFFERENT)),
    "bernoulli_ of an unbatched tensor": (lambda o: torch.zeros(3).bernoulli_(U) + o,
                                          (ERROR, RAN, DIFFERENT)),
    "bernoulli_ of a batched tensor": (lambda o: torch.zeros(3).bernoulli_(o),
                                       (ERROR, SAME, BERNOULLI_WRITE)),
    "bernoulli_ into a batched tensor": (lambda o: o.clone().bernoulli_(o), (ERROR, SAME, RAN)),
    "nn.init.normal_": (lambda o: torch.nn.init.normal_(torch.zeros(3)) + o,
                        (ERROR, RAN, DIFFERENT)),
}


def outcome(f, randomness):
    try:
        torch.func.vmap(f, randomness=randomness)(X)
    except RuntimeError as error:
        return str(error)
    return RAN


@pytest.mark.filterwarnings("ignore:There is a performance drop")  # torch's slow fallbacks
@pytest.mark.parametrize("mode", [0, 1, 2], ids=["error", "same", "different"])
@pytest.mark.parametrize("name", list(CASES))
def test_each_mode_refuses_as_torch_does(name, mode):
    f, expected = CASES[name]
    assert outcome(f, ("error", "same", "different")[mode]) == expected[mode]


@pytest.mark.parametrize("f", [
    lambda o: o.normal_(0, -1), lambda o: o.uniform_(2, 1), lambda o: torch.rand(-1) + o,
    lambda o: torch.zeros(3).bernoulli_(o * 3), lambda o: torch.multinomial(o, 0),
    lambda o: torch.randint(3, 1, (2,)) + o,
], ids=["a negative std", "reversed bounds", "a negative size", "probabilities past one",
        "no samples", "empty bounds"])
def test_the_error_mode_refuses_before_the_arguments_are_read(f):
    assert outcome(f, "error") == ERROR


def test_the_error_mode_leaves_the_generator_as_it_was():
    torch.manual_seed(5)
    before = torch.get_rng_state()
    assert outcome(lambda o: o.clone().normal_(), "error") == ERROR
    assert torch.equal(torch.get_rng_state(), before)


@pytest.mark.parametrize("f", [
    lambda o: F.rrelu(o, training=True), lambda o: F.rrelu(o), lambda o: F.rrelu(U) + o,
])
def test_rrelu_has_no_rule_under_vmap(f):
    for mode in ("error", "same", "different"):
        assert outcome(f, mode) == "vmap: we do not yet support aten::rrelu. Please file an issue"
    assert outcome(lambda o: torch.rrelu_(o.clone()), "different") == (
        "vmap: we do not yet support aten::rrelu_. Please file an issue")


def test_each_nested_level_answers_by_its_own_mode():
    def inner(randomness, f):
        return lambda o: torch.func.vmap(f, randomness=randomness)(o)

    assert outcome(inner("different", lambda o: torch.zeros(()).normal_() + o),
                   "different") == DIFFERENT
    assert outcome(inner("different", lambda o: torch.normal(o, 1.0)), "same") == SAME
    assert outcome(inner("same", lambda o: torch.normal(o, 1.0)), "different") == SAME

    def outer_mean(o):
        return torch.func.vmap(lambda p: torch.normal(o, 1.0) + p, randomness="same")(
            torch.zeros(4, 3))

    assert torch.func.vmap(outer_mean, randomness="different")(X).shape == (2, 4, 3)
    assert outcome(lambda o: torch.func.vmap(lambda p: torch.normal(o, 1.0) + p)(
        torch.zeros(4, 3)), "different") == ERROR


def test_a_fill_under_grad_inside_vmap_is_still_refused():
    def f(o):
        return torch.func.grad(lambda x: (x * torch.zeros(3).normal_()).sum())(o)

    assert outcome(f, "different") == DIFFERENT
    assert outcome(f, "same") == RAN
