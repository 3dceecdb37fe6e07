"""Oracle test: refgrad registers a divergence for every pair of its distributions that torch
registers one for, and no other."""

import torch
import torch.distributions.kl as theirs_kl

import refgrad
import refgrad.distributions.kl as ours_kl


def _pairs(registry) -> set:
    return {(p.__name__, q.__name__) for p, q in registry}


def test_the_registries_agree_on_the_pairs_of_shared_classes():
    shared = set(refgrad.distributions.__all__) & set(torch.distributions.__all__)
    theirs = {pair for pair in _pairs(theirs_kl._KL_REGISTRY) if set(pair) <= shared}
    ours = {pair for pair in _pairs(ours_kl._KL_REGISTRY) if set(pair) <= shared}
    assert ours == theirs
