"""The choice tape: every random decision the kernel generator takes, as a list of integers.

The generator never calls a random source itself; it asks a `Choices` for a number below
`n`. Drawn from a seed, the answers are recorded on the tape; replayed from a tape, the
same answers come back, and a tape that ends early answers 0 from then on. Every choice
lists its simplest option first, so a tape of zeros is the simplest kernel. That is what
makes shrinking generic (`spyre_sched.fuzz.shrinker`): delete or zero parts of the tape,
generate again, and the result is still a valid kernel, only a smaller one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

#: tape values are drawn below this (the modulo bias over any small `n` is negligible)
SPAN = 1 << 16


class Choices:
    """Answers from a seeded generator (recorded) or from a given tape (replayed)."""

    def __init__(self, seed: int | None = None, tape: Sequence[int] | None = None,
                 without: Iterable[str] = ()):
        self._rng = random.Random(seed) if seed is not None else None
        self._given = list(tape or [])
        self.tape: list[int] = []
        self.without = frozenset(without)
        self.features: set[str] = set()

    def below(self, n: int) -> int:
        """A number in [0, n)."""
        k = len(self.tape)
        if k < len(self._given):
            value = self._given[k]
        elif self._rng is not None:
            value = self._rng.randrange(SPAN)
        else:
            value = 0
        self.tape.append(value)
        return value % n if n > 1 else 0

    def between(self, lo: int, hi: int) -> int:
        """A number in [lo, hi] (lo is the simplest)."""
        return lo + self.below(hi - lo + 1)

    def pick(self, options: Sequence[T]) -> T:
        """One of `options` (the first is the simplest)."""
        return options[self.below(len(options))]

    def flag(self, percent: int, feature: str | None = None) -> bool:
        """True with probability `percent`/100 (False when the tape says 0, or when
        `feature` is switched off); a True flag records its feature."""
        if feature is not None and feature in self.without:
            return False
        hit = self.below(100) >= 100 - percent
        if hit and feature is not None:
            self.features.add(feature)
        return hit
