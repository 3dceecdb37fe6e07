"""The profiler shows one shape for each argument of torch's samplers' schemas."""

import torch
from torch.profiler import profile


def _shapes(name, call):
    with profile(record_shapes=True) as prof:
        call()
    return [e.input_shapes for e in prof.events() if e.name == f"aten::{name}"][0]


def test_the_samplers_list_their_generator_once():
    counts, probs = torch.tensor([3.0, 5.0, 7.0]), torch.tensor([0.3, 0.5, 0.9])
    assert _shapes("binomial", lambda: torch.binomial(counts, probs)) == [[3], [3], []]
    concentration = torch.tensor([[1.0, 2.0]])
    assert _shapes("_sample_dirichlet", lambda: torch._sample_dirichlet(concentration)) == [
        [1, 2], []]
    assert _shapes("_standard_gamma", lambda: torch._standard_gamma(counts)) == [[3], []]
