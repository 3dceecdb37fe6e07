"""refgrad._ops.special: logaddexp, hypot and their kin."""

from refgrad._ops.arithmetic import _last_first


def test_last_first_runs_other_s_formula_first_and_answers_in_input_order():
    ran = []
    grads = _last_first(lambda: ran.append("self") or 1, lambda: ran.append("other") or 2)
    assert ran == ["other", "self"] and grads == (1, 2)
