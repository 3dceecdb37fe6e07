"""Black-box tests: a warning torch gives from its C++ is shown at the caller's line,
whichever way the function was reached. The same assertions run on torch.
"""


import torch

from conformance._warned import caught_always


def _caught(call):
    """The warnings ``call()`` gives, and the line ``call`` is written on."""
    with caught_always(torch) as caught:
        call()
    return caught, call.__code__.co_firstlineno


def test_cross_without_dim_warns_at_the_callers_line():
    v1, v2 = torch.tensor([[1.0, 0.0, 0.0]]), torch.tensor([[0.0, 1.0, 0.0]])
    for call in (lambda: torch.cross(v2, v1), lambda: v2.cross(v1)):
        caught, line = _caught(call)
        assert len(caught) == 1 and caught[0].category is UserWarning
        assert str(caught[0].message).startswith(
            "Using torch.cross without specifying the dim arg is deprecated.")
        assert caught[0].filename == __file__ and caught[0].lineno == line


def test_nn_functional_warnings_are_shown_at_the_callers_line():
    F = torch.nn.functional
    x, row = torch.ones(2, 3), torch.ones(3)
    calls = (
        lambda: F.softmax(x), lambda: F.log_softmax(x), lambda: F.mse_loss(x, row),
        lambda: F.l1_loss(x, row), lambda: F.huber_loss(x, row),
        lambda: F.smooth_l1_loss(x, row), lambda: F.kl_div(x, x), lambda: F.dropout2d(x),
        lambda: F.dropout3d(torch.ones(2, 3, 4)), lambda: F.dropout2d(torch.ones(2, 3, 4)),
    )
    for call in calls:
        caught, line = _caught(call)
        assert caught and all(w.filename == __file__ and w.lineno == line for w in caught)
