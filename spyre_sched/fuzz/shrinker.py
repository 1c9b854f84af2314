"""Shrink a failing kernel by delta-debugging the generator's choice tape.

A tape replays the generator's decisions (`spyre_sched.fuzz.choices`); any tape gives a
valid kernel, and zeros give the simplest option of every decision. `shrink` keeps the
smallest tape whose kernel still fails the same way (`still_fails`), trying in turn:
cutting the tape's end (every later decision at its simplest), zeroing runs of entries,
halving, then (ddmin's complement step) zeroing single entries. Every candidate costs a
pipeline run, so `budget` caps how many are tried; the result is the best found so far.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def shrink(tape: Sequence[int], still_fails: Callable[[list[int]], bool],
           budget: int = 40) -> tuple[list[int], int]:
    """The smallest failing tape found within `budget` tries, and the tries used."""
    best = list(tape)
    tried: set[tuple[int, ...]] = {tuple(best)}
    used = 0

    def attempt(candidate: list[int]) -> bool:
        nonlocal best, used
        while candidate and candidate[-1] == 0:
            candidate = candidate[:-1]  # trailing zeros replay as zeros anyway
        key = tuple(candidate)
        if key in tried or used >= budget:
            return False
        tried.add(key)
        used += 1
        if still_fails(candidate):
            best = candidate
            return True
        return False

    # 1. the tape's end cut off: the later decisions all at their simplest
    cut = len(best) // 2
    while cut >= 1 and used < budget:
        if not attempt(best[: len(best) - cut]):
            cut //= 2
    # 2. runs of entries zeroed, long runs first (ddmin over the non-zero entries)
    size = max(1, len(best) // 2)
    while size >= 1 and used < budget:
        changed = False
        start = 0
        while start < len(best) and used < budget:
            if any(best[start:start + size]):
                candidate = best[:start] + [0] * len(best[start:start + size]) + \
                    best[start + size:]
                if attempt(candidate):
                    changed = True
            start += size
        if not changed:
            size //= 2
    # 3. single entries made smaller (the second-simplest option and so on)
    for k in range(len(best)):
        if used >= budget:
            break
        for smaller in (1, 2):
            if k < len(best) and best[k] > smaller:
                if attempt(best[:k] + [smaller] + best[k + 1:]):
                    break
    return best, used
