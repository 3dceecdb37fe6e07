"""meshgrid without indexing and cross without dim warn once per program, as torch does."""

import warnings

import refgrad as torch
from refgrad._ops import products, tiling


def _messages(call, times):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(times):
            call()
    return [str(w.message) for w in caught]


def test_meshgrid_warns_about_indexing_once(monkeypatch):
    monkeypatch.setattr(tiling, "_warned_meshgrid", [])
    given = _messages(lambda: torch.meshgrid(torch.ones(2), torch.ones(3)), 3)
    assert given == [tiling.MESHGRID_WITHOUT_INDEXING]
    assert _messages(lambda: torch.meshgrid(torch.ones(2), torch.ones(3)), 1) == []


def test_cross_warns_about_its_dim_once(monkeypatch):
    monkeypatch.setattr(products, "_warned_cross", [])
    given = _messages(lambda: torch.cross(torch.ones(3, 2), torch.ones(3, 2)), 3)
    assert given == [products.CROSS_WITHOUT_DIM]
    assert _messages(lambda: torch.cross(torch.ones(3), torch.ones(3), dim=0), 1) == []
