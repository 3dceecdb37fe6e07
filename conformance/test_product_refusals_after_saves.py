"""addmm, addmv, baddbmm, addbmm and addr: the node's saves come before the kernel's checks.

A factor that the node saves (for the other factor's gradient) is refused as an
inference tensor before any shape or dtype check; the added term, which no
node saves, is not, and the check's own error comes. A refused call takes one
sequence number, as torch's node does.
"""

import pytest
import torch

INFERENCE = "Inference tensors cannot be saved for backward"


@pytest.fixture
def frozen():
    with torch.inference_mode():
        return {"matrix": torch.rand(3, 3), "vector": torch.rand(3), "batch": torch.rand(2, 3, 4)}


def _message(call):
    with pytest.raises(Exception) as caught:
        call()
    return type(caught.value), str(caught.value)


def _calls(frozen, grad):
    matrix, vector, batch = frozen["matrix"], frozen["vector"], frozen["batch"]
    batches = torch.rand(2, 3, 3, requires_grad=True)
    return {
        "addmm": lambda: torch.addmm(grad, matrix, torch.rand(4, 3, requires_grad=True)),
        "addmm dtype": lambda: torch.addmm(grad, matrix, grad.double()),
        "addmv": lambda: torch.addmv(grad[0], matrix[:, :2], grad[0]),
        "baddbmm": lambda: torch.baddbmm(batches, batch, batches),
        "baddbmm two dims": lambda: torch.baddbmm(batches, matrix, batches),
        "addbmm": lambda: torch.addbmm(grad, batch, batches),
        "addr": lambda: torch.addr(grad, matrix, grad[0]),
        "addr expand": lambda: torch.addr(grad[:2, :2], vector, grad[0]),
    }


@pytest.mark.parametrize("name", ["addmm", "addmm dtype", "addmv", "baddbmm", "baddbmm two dims",
                                  "addbmm", "addr", "addr expand"])
def test_a_saved_inference_factor_is_refused_first(frozen, name):
    grad = torch.rand(3, 3, requires_grad=True)
    kind, text = _message(_calls(frozen, grad)[name])
    assert kind is RuntimeError and text.startswith(INFERENCE)


def test_an_unsaved_inference_term_lets_the_check_speak(frozen):
    grad = torch.rand(3, 3, requires_grad=True)
    kind, text = _message(lambda: torch.addmm(frozen["matrix"], grad, grad[:2]))
    assert kind is RuntimeError and text.startswith("mat1 and mat2 shapes cannot be multiplied")
    kind, text = _message(lambda: torch.addr(grad, frozen["vector"], frozen["matrix"]))
    assert text == "addr: Expected 1-D argument vec2, but got 2-D"


def test_without_grad_mode_the_check_comes_first(frozen):
    grad = torch.rand(3, 3, requires_grad=True)
    with torch.no_grad():
        kind, text = _message(lambda: torch.addmm(grad, frozen["matrix"], grad[:2]))
    assert text.startswith("mat1 and mat2 shapes cannot be multiplied")


@pytest.mark.parametrize("inference", [False, True])
def test_a_refused_call_takes_one_sequence_number(frozen, inference):
    a = torch.rand(3, 3, requires_grad=True)
    mat1 = frozen["matrix"] if inference else a
    wrong = torch.rand(2, 3, requires_grad=True)
    before = (a * 2).grad_fn._sequence_nr()
    with pytest.raises(RuntimeError):
        torch.addmm(a, mat1, wrong)
    assert (a * 2).grad_fn._sequence_nr() == before + 2
