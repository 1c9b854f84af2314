"""`problem.rewrite`, the one walker over a problem's plain data (renaming a program's
decisions for its interchanged form, pinning decisions): leaves replaced where asked,
everything else kept as the same object, a shared part rewritten once."""

from __future__ import annotations

from dataclasses import dataclass

from spyre_sched.solve.problem import rewrite


@dataclass(frozen=True)
class _Part:
    name: str
    sizes: tuple
    notes: list


def test_replaces_leaves_and_keeps_the_rest():
    shared = _Part("a", (1, 2), ["a", "b"])
    whole = (shared, [shared, _Part("c", (3,), [])], "a")
    calls = []

    def leaf(obj):
        if isinstance(obj, str):
            calls.append(obj)
            return obj.upper() if obj == "a" else obj
        return None

    out = rewrite(whole, leaf)
    assert out[0] == _Part("A", (1, 2), ["A", "b"])
    assert out[1][0] is out[0]  # the shared part rewritten once, the same object twice
    assert out[1][1] is whole[1][1]  # nothing in it changed: the same object
    assert out[0].sizes is shared.sizes
    assert out[2] == "A"
    assert isinstance(out[1], list) and isinstance(out[0].notes, list)
    assert calls.count("b") == 1


def test_a_leaf_stops_the_walk():
    part = _Part("a", (1,), ["a"])
    assert rewrite([part], lambda obj: "x" if isinstance(obj, _Part) else None) == ["x"]
    assert rewrite(part, lambda obj: None) is part
