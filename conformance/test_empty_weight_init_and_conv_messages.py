"""Black-box tests: modules whose weight has no elements warn that initialising it is a
no-op, as kaiming_uniform_ does; conv's messages for a bad padding string or padding mode
print torch's sets, in the same order under each hash seed."""

import os
import subprocess
import sys
import warnings

import pytest
import torch

NO_OP = "Initializing zero-element tensors is a no-op"

MODULES = {
    "Linear(0, 2)": lambda: torch.nn.Linear(0, 2),
    "Linear(2, 0)": lambda: torch.nn.Linear(2, 0),
    "Conv1d(2, 0, 2)": lambda: torch.nn.Conv1d(2, 0, 2),
    "Conv2d(0, 2, 2)": lambda: torch.nn.Conv2d(0, 2, 2),
    "Conv1d(2, 2, 0)": lambda: torch.nn.Conv1d(2, 2, 0),
    "ConvTranspose1d(0, 2, 2)": lambda: torch.nn.ConvTranspose1d(0, 2, 2),
}


@pytest.mark.parametrize("case", MODULES)
def test_an_empty_weight_warns_once(case):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = MODULES[case]()
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, NO_OP)]
    assert module.weight.numel() == 0


def test_a_weight_with_elements_is_drawn_as_kaiming_uniform_draws_it():
    torch.manual_seed(3)
    linear = torch.nn.Linear(5, 4)
    conv = torch.nn.Conv1d(2, 3, 2)
    torch.manual_seed(3)
    weight = torch.empty(4, 5)
    torch.nn.init.kaiming_uniform_(weight, a=5 ** 0.5)
    bias = torch.empty(4).uniform_(-1 / 5 ** 0.5, 1 / 5 ** 0.5)
    conv_weight = torch.nn.init.kaiming_uniform_(torch.empty(3, 2, 2), a=5 ** 0.5)
    assert torch.equal(linear.weight.detach(), weight)
    assert torch.equal(linear.bias.detach(), bias)
    assert torch.equal(conv.weight.detach(), conv_weight)


_MESSAGES = """
import {module} as torch
for keywords in (dict(padding="foo"), dict(padding_mode="bar")):
    try:
        torch.nn.Conv1d(2, 2, 2, **keywords)
    except ValueError as error:
        print(error)
print(set(("same", "valid")))
print(set(("zeros", "reflect", "circular", "replicate")))
"""


@pytest.mark.parametrize("seed", ["0", "1", "3", "7", "8", "11"])
def test_conv_messages_print_the_sets_in_torchs_order(seed):
    module = torch.__name__  # refgrad, where it stands in for torch
    done = subprocess.run([sys.executable, "-c", _MESSAGES.format(module=module)],
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONHASHSEED=seed,
                                   PYTHONPATH=os.pathsep.join(sys.path)))
    padding, mode, strings, modes = done.stdout.splitlines()
    assert padding == f"Invalid padding string 'foo', should be one of {strings}"
    assert mode == f"padding_mode must be one of {modes}, but got padding_mode='bar'"
