"""A small network trained by hand, written once for any library with torch's API.

The training chapter shows this file and runs it on refgrad; the oracle test
runs it on refgrad and on torch and compares the losses. Everything random
comes from NumPy, so both libraries start from the same numbers. It is book
machinery, not part of the package.
"""

import numpy as np

SAMPLES, FEATURES, HIDDEN = 64, 8, 16
LAYERS = ((FEATURES, HIDDEN), (HIDDEN, HIDDEN), (HIDDEN, 1))
LR = 0.2


def make_data(rng):
    """Inputs and a smooth target of them, with a little noise."""
    x = rng.standard_normal((SAMPLES, FEATURES))
    direction = rng.standard_normal((FEATURES, 1)) / np.sqrt(FEATURES)
    y = np.sin(2 * x @ direction) + 0.05 * rng.standard_normal((SAMPLES, 1))
    return x, y


def init_weights(rng):
    """Per layer: a weight matrix scaled by 1/sqrt(fan_in), a zero bias."""
    arrays = []
    for fan_in, fan_out in LAYERS:
        arrays.append(rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in))
        arrays.append(np.zeros(fan_out))
    return arrays


def forward(params, x):
    w1, b1, w2, b2, w3, b3 = params
    h = (x @ w1 + b1).tanh()
    h = (h @ w2 + b2).tanh()
    return h @ w3 + b3


def mse(prediction, target):
    diff = prediction - target
    return (diff * diff).mean()


def sgd_step(torch_module, params, lr):
    """p <- p - lr * p.grad, unrecorded, each p staying the same leaf."""
    with torch_module.no_grad():
        for p in params:
            p.data = p - lr * p.grad
            p.grad = None


def train(torch_module, steps=50, seed=0, lr=LR):
    """Train with ``torch_module``; return the loss before each step."""
    rng = np.random.default_rng(seed)
    x_array, y_array = make_data(rng)
    x, y = torch_module.tensor(x_array), torch_module.tensor(y_array)
    params = [torch_module.nn.Parameter(torch_module.tensor(a))
              for a in init_weights(rng)]
    losses = []
    for _ in range(steps):
        loss = mse(forward(params, x), y)
        loss.backward()
        sgd_step(torch_module, params, lr)
        losses.append(loss.item())
    return losses


class LossPlot:
    """Losses per step as an inline SVG line chart, drawn by hand."""

    WIDTH, HEIGHT, MARGIN = 480, 240, 48

    def __init__(self, losses) -> None:
        self.losses = list(losses)

    def _point(self, step, loss, top):
        inner_w = self.WIDTH - 2 * self.MARGIN
        inner_h = self.HEIGHT - 2 * self.MARGIN
        x = self.MARGIN + inner_w * step / max(len(self.losses) - 1, 1)
        y = self.HEIGHT - self.MARGIN - inner_h * loss / top
        return f"{x:.1f},{y:.1f}"

    def _labels(self, top):
        last = len(self.losses) - 1
        left, bottom = self.MARGIN, self.HEIGHT - self.MARGIN
        return [
            f'<text x="{left - 6}" y="{bottom}" text-anchor="end">0</text>',
            f'<text x="{left - 6}" y="{self.MARGIN + 4}" text-anchor="end">{top:.2g}</text>',
            f'<text x="{left}" y="{bottom + 18}" text-anchor="middle">0</text>',
            f'<text x="{self.WIDTH - self.MARGIN}" y="{bottom + 18}" '
            f'text-anchor="middle">{last}</text>',
            f'<text x="{self.WIDTH / 2}" y="{bottom + 36}" text-anchor="middle">step</text>',
            f'<text x="12" y="{self.HEIGHT / 2}" text-anchor="middle" '
            f'transform="rotate(-90 12 {self.HEIGHT / 2})">MSE loss</text>',
        ]

    def svg(self) -> str:
        top = max(self.losses)
        points = " ".join(self._point(i, v, top) for i, v in enumerate(self.losses))
        left, bottom = self.MARGIN, self.HEIGHT - self.MARGIN
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.WIDTH}" '
            f'height="{self.HEIGHT}" font-family="sans-serif" font-size="12" fill="currentColor">',
            f'<path d="M{left},{self.MARGIN} V{bottom} H{self.WIDTH - self.MARGIN}" '
            'fill="none" stroke="currentColor"/>',
            f'<polyline points="{points}" fill="none" stroke="#1f77b4" stroke-width="2"/>',
            *self._labels(top),
            "</svg>",
        ]
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        return f'<div class="refgrad-figure">{self.svg()}</div>'
