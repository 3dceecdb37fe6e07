"""Oracle test: refgrad's Adafactor and Muon and torch's, fed the same gradients, step for step.

Every combination of Adafactor's options runs twenty steps in both libraries, in float32 and
float64, with the loop and the list kernel, on a matrix, a vector, a 0-d parameter and a 3-d
one; parameters and every state tensor agree bit for bit.

Muon runs its Newton-Schulz iteration in bfloat16, which refgrad does not have: refgrad
rounds each result to bfloat16's values in float32. The momentum buffers, which come before
the iteration, agree bit for bit; the parameters agree to the size of a bfloat16 rounding of
a step, since a matrix product's float32 sum may round differently from torch's.
"""

import itertools

import numpy as np
import pytest
import torch

import refgrad

ADAFACTOR = dict(lr=[0.01, 0.5], beta2_decay=[-0.8, -0.5], eps=[(None, 1e-3), (1e-6, 0.1)],
                 d=[1.0, 2.5], weight_decay=[0, 0.1], maximize=[False, True])
ADAFACTOR_CASES = [(dict(zip(ADAFACTOR, values)), foreach)
                   for values in itertools.product(*ADAFACTOR.values())
                   for foreach in (False, True)]
MUON = dict(weight_decay=[0, 0.1], momentum=[0.95, 0.5], nesterov=[True, False],
            adjust_lr_fn=[None, "match_rms_adamw"], ns_steps=[5, 2])
MUON_CASES = [dict(zip(MUON, values)) for values in itertools.product(*MUON.values())]


def _run(lib, name, options, dtype, shapes, steps):
    rng = np.random.default_rng(5)
    params = [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(dtype))) for s in shapes]
    groups = [{"params": params[:-1]}, {"params": params[-1:], "lr": 0.003}]
    opt = getattr(lib.optim, name)(groups, **options)
    history = []
    for _ in range(steps):
        for p in params:
            p.grad = lib.tensor(rng.standard_normal(tuple(p.shape)).astype(dtype))
        opt.step()
        history.append([p.detach().numpy().copy() for p in params])
    state = [{k: (v.numpy().copy(), str(v.dtype), tuple(v.shape)) for k, v in opt.state[p].items()}
             for p in params]
    return history, state


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("options, foreach", ADAFACTOR_CASES)
def test_adafactor_agrees_with_torch_bit_for_bit(options, foreach, dtype):
    shapes = [(4, 5), (7,), (), (2, 3, 4)]
    args = ("Adafactor", dict(options, foreach=foreach), dtype, shapes, 20)
    (ours, our_state), (theirs, their_state) = _run(refgrad, *args), _run(torch, *args)
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        for a, b in zip(mine, oracle):
            assert a.dtype == b.dtype and np.array_equal(a, b), f"step {step}"
    for mine, oracle in zip(our_state, their_state):
        assert list(mine) == list(oracle)
        for key, (value, kind, shape) in oracle.items():
            assert mine[key][1:] == (kind, shape) and np.array_equal(mine[key][0], value), key


@pytest.mark.parametrize("shapes", [[(4, 5), (7, 3), (6, 6)], [(40, 24), (16, 48)]])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("options", MUON_CASES)
def test_muon_agrees_with_torch_to_a_bfloat16_rounding(options, dtype, shapes):
    args = ("Muon", dict(options, lr=0.02), dtype, shapes, 8)
    (ours, our_state), (theirs, their_state) = _run(refgrad, *args), _run(torch, *args)
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        for a, b in zip(mine, oracle):
            # a step is at most about 0.2 * sqrt(48) * lr; bfloat16 keeps 8 bits of it
            assert a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=0, atol=2e-3, err_msg=f"step {step}")
    for mine, oracle in zip(our_state, their_state):
        assert list(mine) == list(oracle) == ["momentum_buffer"]
        value, kind, shape = oracle["momentum_buffer"]
        assert mine["momentum_buffer"][1:] == (kind, shape)
        assert np.array_equal(mine["momentum_buffer"][0], value)


@pytest.mark.parametrize("shape", [(1, 5), (5, 1), (3, 3), (4, 6), (8, 3), (32, 64)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_newton_schulz_iteration_agrees_to_bfloat16s_precision(shape, dtype):
    from torch.optim._muon import _zeropower_via_newtonschulz as theirs

    from refgrad.optim._muon import _zeropower_via_newtonschulz as ours

    g = (np.random.default_rng(sum(shape)).standard_normal(shape) * 3).astype(dtype)
    coefficients = (3.4445, -4.7750, 2.0315)
    oracle = theirs(torch.tensor(g), coefficients, 5, 1e-7)
    mine = ours(refgrad.tensor(g), coefficients, 5, 1e-7)
    assert oracle.dtype == torch.bfloat16 and mine.dtype == refgrad.float32  # named in the book
    # two bfloat16 units at the largest values (about 1.2): 2 * 2 ** -7
    np.testing.assert_allclose(mine.numpy(), oracle.float().numpy(), rtol=0, atol=2 ** -6)


def test_the_package_lists_both_and_names_itself_their_module():
    assert {"Adafactor", "Muon"} <= set(refgrad.optim.__all__)
    assert torch.optim.Adafactor.__module__ == "torch.optim"
    assert refgrad.optim.Adafactor.__module__ == "refgrad.optim"
    assert refgrad.optim.Muon.__module__ == "refgrad.optim"
