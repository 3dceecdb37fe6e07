"""EdgeIndex answers from tables exactly what a scan of the outputs answers."""

import random

import refgrad.autograd._edge_index as edge_index
from refgrad.autograd._edge_index import EdgeIndex


def _scanned(nodes, slots, grads, monkeypatch):
    monkeypatch.setattr(edge_index, "SCAN_LIMIT", 10**9)
    index = EdgeIndex(nodes, slots, grads)
    monkeypatch.undo()
    return index


def test_tables_agree_with_the_scan(monkeypatch):
    rng = random.Random(0)
    objects = [object() for _ in range(5)]
    nodes = [object() for _ in range(3)]
    for _ in range(200):
        size = rng.randrange(1, 40)
        edges = [(rng.choice(nodes), rng.randrange(2), rng.choice(objects)) for _ in range(size)]
        ns, ss, gs = (list(column) for column in zip(*edges))
        tables, scan = EdgeIndex(ns, ss, gs), _scanned(ns, ss, gs, monkeypatch)
        assert (tables.edges is not None) == (size > edge_index.SCAN_LIMIT)
        for n, s, g in edges:
            assert tables.position(n, s, g) == scan.position(n, s, g)
        for partial in [*objects, object()]:
            for grad in [*objects, object()]:
                assert tables.handed_on(partial, grad) == scan.handed_on(partial, grad)
