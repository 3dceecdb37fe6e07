"""The training chapter's helper: a small network that refgrad trains by hand."""

import sys
from pathlib import Path

import numpy as np

import refgrad

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "chapters"))
import _training  # noqa: E402


def test_the_loss_falls_at_every_step_and_by_more_than_a_factor_of_three():
    losses = _training.train(refgrad)
    assert len(losses) == 50
    assert all(later < earlier for earlier, later in zip(losses, losses[1:]))
    assert losses[-1] < 0.35 * losses[0]  # measured: 0.224 / 0.814 = 0.275


def test_an_sgd_step_moves_each_weight_against_its_gradient_and_keeps_it_a_leaf():
    rng = np.random.default_rng(0)
    x, y = (refgrad.tensor(a) for a in _training.make_data(rng))
    params = [refgrad.nn.Parameter(refgrad.tensor(a)) for a in _training.init_weights(rng)]
    before = [(p, p.detach().numpy().copy()) for p in params]
    _training.mse(_training.forward(params, x), y).backward()
    grads = [p.grad.numpy().copy() for p in params]
    _training.sgd_step(refgrad, params, 0.5)
    for (p, old), grad, now in zip(before, grads, params):
        assert now is p and p.is_leaf and p.requires_grad and p.grad is None
        np.testing.assert_array_equal(p.detach().numpy(), old - 0.5 * grad)
    assert refgrad.is_grad_enabled()


def test_the_loss_plot_is_inline_svg_with_one_point_per_step():
    html = _training.LossPlot([3.0, 2.0, 1.0])._repr_html_()
    assert html.startswith('<div class="refgrad-figure"><svg')
    points = html.split('<polyline points="')[1].split('"')[0].split()
    assert len(points) == 3
    heights = [float(point.split(",")[1]) for point in points]
    assert heights == sorted(heights)  # SVG's y grows downwards, so a falling loss rises in y
