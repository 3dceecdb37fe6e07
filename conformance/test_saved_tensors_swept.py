"""What is saved for backward, swept over torch.nn.functional and its kin.

For each case of conformance/_gradient_graph_cases.py, with all its leaves requiring
grad and with each alone (conformance/_saved_tensors_observe.py): the tensors a
``saved_tensors_hooks`` pair packs during the forward, in order (shape, dtype,
requires_grad, whether it is a leaf or the output, ``_version``); the order of the
unpacks a backward makes; and the ``_saved_`` attributes, with their ``_raw_saved_``
ones, of the output's node and its next nodes. The expectations
(conformance/_saved_tensors_expected.json, written by conformance/_saved_tensors_generate.py:
each answer with the cases that give it) are torch's; the same assertions run on torch.
"""

import json
import pathlib

import pytest

from conformance._saved_tensors_generate import keys
from conformance._saved_tensors_observe import observe

EXPECTED = {case: entry["answer"] for entry in json.loads(
    pathlib.Path(__file__).with_name("_saved_tensors_expected.json").read_text())
    for case in entry["cases"]}


@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")
@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_saved_tensors_are_torchs(key):
    assert observe(key) == EXPECTED[key]


def test_every_case_is_expected():
    assert keys() == set(EXPECTED)
