"""The tape shrinker: delta-debugging keeps the failure and drops everything else."""

from __future__ import annotations

from spyre_sched.fuzz.shrinker import shrink


def test_shrinks_to_the_entries_the_failure_needs():
    tape = [5, 9, 0, 3, 7, 1000, 4, 2, 8, 6, 3, 3]

    def fails(t):  # fails while entry 5 is still large
        return len(t) > 5 and t[5] >= 1000

    best, tries = shrink(tape, fails, budget=200)
    assert best == [0, 0, 0, 0, 0, 1000]
    assert tries <= 200


def test_budget_caps_the_tries_and_keeps_the_best_so_far():
    calls = []

    def fails(t):
        calls.append(t)
        return sum(t) >= 10

    best, tries = shrink(list(range(20)), fails, budget=5)
    assert tries == len(calls) == 5 and sum(best) >= 10


def test_a_failure_that_never_repeats_keeps_the_tape():
    assert shrink([1, 2, 3], lambda t: False, budget=10)[0] == [1, 2, 3]
