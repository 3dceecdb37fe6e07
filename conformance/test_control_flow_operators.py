"""torch.cond and torch.while_loop run eagerly: checks, values, nodes and gradients."""

import pytest
import torch

from conformance._support import compile_side_effects_put_back

X = [1.0, 2.0, 3.0]


@pytest.fixture(autouse=True)
def _compile_side_effects_put_back():
    """torch runs these operators through its compiler, whose first run patches the process."""
    with compile_side_effects_put_back(torch):
        yield


def _x():
    return torch.tensor(X, requires_grad=True)


def _edges(t):
    return [None if n is None else type(n).__name__ for n, _ in t.grad_fn.next_functions]


def test_cond_picks_a_branch_and_records_its_node():
    x = _x()
    y = torch.cond(x.sum() > 0, lambda a: a * 2, lambda a: a - 1, (x,))
    assert y.tolist() == [2.0, 4.0, 6.0]
    assert type(y.grad_fn).__name__ == "CondAutogradOpBackward"
    assert y.grad_fn.name() == "CondAutogradOpBackward"
    assert _edges(y) == [None, "AccumulateGrad"]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_cond_gradients_reach_closed_over_tensors_zero_when_unused():
    x, a = _x(), torch.tensor([2.0, 2.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 3.0, 3.0], requires_grad=True)
    y = torch.cond(x.sum() > 0, lambda v: v * b, lambda v: v * a + v * b, (x,))
    assert len(y.grad_fn.next_functions) == 4  # the predicate, x, b, a
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0]
    assert b.grad.tolist() == X
    assert a.grad.tolist() == [0.0, 0.0, 0.0]


def test_cond_lifts_a_tensor_once_however_it_is_passed():
    x = _x()
    y = torch.cond(x.sum() > 0, lambda u, v: u * v, lambda u, v: u + v, (x, x))
    assert _edges(y) == [None, "AccumulateGrad"]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]


def test_cond_python_predicate_calls_the_branch_unchecked():
    x = _x()
    assert torch.cond(True, lambda v: v, lambda v: v + 1, (x,)) is x
    assert torch.cond(0, lambda v: v, lambda v: 7, (x,)) == 7


def test_cond_nested_operands_and_int_outputs():
    x, w = _x(), torch.tensor([1.0, 1.0, 1.0])
    out = torch.cond(torch.tensor(False), lambda d: (d["p"] * d["q"][0], 1),
                     lambda d: (d["p"] + d["q"][0], 2), ({"p": x, "q": [w]},))
    assert out[0].tolist() == [2.0, 3.0, 4.0] and out[1] == 2
    assert type(out[0].grad_fn).__name__ == "CondAutogradOpBackward"


def test_cond_under_no_grad_and_inference_mode():
    x = _x()
    with torch.no_grad():
        y = torch.cond(x.sum() > 0, lambda v: v * 2, lambda v: v, (x,))
    assert y.grad_fn is None and not y.requires_grad
    with torch.inference_mode():
        y = torch.cond(x.sum() > 0, lambda v: v * 2, lambda v: v * 3, (x,))
    assert y.is_inference() and y.tolist() == [2.0, 4.0, 6.0]


@pytest.mark.parametrize("pred, text", [
    ("a", "Expected pred to be bool or tensor, but got a."),
    (None, "Expected pred to be bool or tensor, but got None."),
    (torch.tensor([True, False]),
     "Expected pred to be bool or single-element tensor, but got tensor([ True, False])."),
])
def test_cond_refuses_a_bad_predicate(pred, text):
    with pytest.raises(RuntimeError) as info:
        torch.cond(pred, lambda v: v + 1, lambda v: v - 1, (torch.ones(2),))
    assert str(info.value) == text


def test_cond_refuses_bad_branches_and_operands():
    x = torch.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="^Expect both branches to be callable.$"):
        torch.cond(torch.tensor(True), 1, lambda v: v, (x,))
    with pytest.raises(RuntimeError) as info:
        torch.cond(torch.tensor(True), lambda v: v + 1, lambda v: v, x)
    assert str(info.value) == ("Expect operands to be a tuple of possibly nested dict/list/tuple"
                               " that only consists of tensor leaves, but got tensor([1., 2.]).")


def _trace_error(fn):
    with pytest.raises(RuntimeError) as info:
        fn()
    return type(info.value).__name__, str(info.value)


def test_cond_branches_must_agree():
    x = torch.tensor([1.0, 2.0, 3.0])
    kind, text = _trace_error(lambda: torch.cond(torch.tensor(True), lambda a: a + 1,
                                                 lambda a: a.sum(), (x,)))
    assert kind == "TorchRuntimeError"
    assert ("When merging two branches' output in torch.cond,  expected same dim but got 1 "
            "and 0.") in text
    kind, text = _trace_error(lambda: torch.cond(torch.tensor(True), lambda a: a + 1,
                                                 lambda a: a.long(), (x,)))
    assert "expected same dtype but got torch.float32 and torch.int64." in text
    kind, text = _trace_error(lambda: torch.cond(torch.tensor(True), lambda a: (a + 1, a - 1),
                                                 lambda a: a + 2, (x,)))
    assert kind == "TorchRuntimeError" and "Unmatched output spec from torch.cond branches" in text
    y = torch.cond(torch.tensor(True), lambda a: a + 1, lambda a: a[:1] + 1, (x,))
    assert y.tolist() == [2.0, 3.0, 4.0]  # sizes may differ


def test_cond_refuses_aliasing_writes_and_non_int_constants():
    x = torch.tensor([1.0, 2.0, 3.0])
    kind, text = _trace_error(lambda: torch.cond(torch.tensor(True), lambda a: a,
                                                 lambda a: a + 1, (x,)))
    assert kind == "UncapturedHigherOrderOpError"
    assert "Encountered aliasing during higher order op tracing" in text
    kind, text = _trace_error(lambda: torch.cond(torch.tensor(True), lambda a: a.add_(1),
                                                 lambda a: a + 1, (x.clone(),)))
    assert "Encountered input mutation during higher order op tracing" in text
    kind, text = _trace_error(lambda: torch.cond(torch.tensor(True), lambda a: None,
                                                 lambda a: None, (x,)))
    assert "torch.cond: unsupported branch return type (constant non-int)" in text
    with torch.no_grad():  # writes are allowed without grad
        y = torch.cond(torch.tensor(True), lambda a: a.add_(1), lambda a: a + 1, (x.clone(),))
    assert y.tolist() == [2.0, 3.0, 4.0]


def test_while_loop_values_node_and_gradients():
    x, w = _x(), torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    i, y = torch.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * w),
                            (torch.tensor(0), x))
    assert i.item() == 3 and not i.requires_grad
    assert y.tolist() == [1.0, 16.0, 81.0]
    assert type(y.grad_fn).__name__ == "WhileLoopAutogradOpBackward"
    assert _edges(y) == [None, "AccumulateGrad", "AccumulateGrad"]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 8.0, 27.0]
    assert w.grad.tolist() == [3.0, 24.0, 81.0]


def test_while_loop_result_has_the_body_nest():
    v0 = torch.tensor([1.0, 2.0])
    r = torch.while_loop(lambda v: v.sum() < 9, lambda v: v * 2, (v0,))
    assert isinstance(r, torch.Tensor) and r.tolist() == [4.0, 8.0]
    r = torch.while_loop(lambda v: v.sum() < 9, lambda v: [v * 2], [v0])
    assert isinstance(r, list)
    r = torch.while_loop(lambda v: v.sum() < 0, lambda v: v * 2, (v0,))
    assert r is not v0 and r.tolist() == [1.0, 2.0]
    n, r = torch.while_loop(lambda n, v: n < 2, lambda n, v: (n + 1, v + 1), (0, v0))
    assert n == 2 and r.tolist() == [3.0, 4.0]


def test_while_loop_refusals():
    v0 = torch.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="^Expect cond_fn and body_fn to be callable.$"):
        torch.while_loop(1, lambda v: v, (v0,))
    with pytest.raises(AssertionError, match="can only be of"):
        torch.while_loop(lambda v: v.sum() < 9, lambda v: v * 2, (v0, 1.5))
    kind, text = _trace_error(lambda: torch.while_loop(lambda v: v.sum() < 30,
                                                       lambda v: torch.cat([v, v]), (v0,)))
    assert kind == "UncapturedHigherOrderOpError"
    assert text.startswith("Expected body_fn_output and carried_inputs to have same metadata "
                           "but found:\npair[0] differ in 'shape: ")
    kind, text = _trace_error(lambda: torch.while_loop(lambda v: v.sum(), lambda v: v * 2, (v0,)))
    assert "Expected cond_fn to return a scalar tensor or a bool but got torch.Size([])." in text
    kind, text = _trace_error(lambda: torch.while_loop(lambda v: True, lambda v: v * 2, (v0,)))
    assert "torch.while_loop: infinite loop detected" in text
    kind, text = _trace_error(lambda: torch.while_loop(lambda v: v.sum() < 9,
                                                       lambda v: v.mul_(2), (v0.clone(),)))
    assert "Encountered input mutation during higher order op tracing" in text


def test_control_flow_inside_a_compiled_function():
    x = _x()

    def f(x):
        return torch.cond(x.sum() > 0, lambda a: a.sin(), lambda a: a.cos(), (x,))

    y = torch.compile(f, backend="eager")(x)
    y.sum().backward()
    assert torch.equal(x.grad, torch.tensor(X).cos())
