"""Byte counts in messages: rounded as people read them, but never so that a need and a
capacity that differ print alike ("needs 2 MiB of scratchpad, has 2 MiB")."""

from __future__ import annotations

from spyre_sched.solve.cost import Violation
from spyre_sched.solve.units import fmt_bytes, fmt_bytes_apart


def test_counts_are_rounded_to_one_decimal():
    assert fmt_bytes(384) == "384 B"
    assert fmt_bytes(1536) == "1.5 KiB"
    assert fmt_bytes(2 << 20) == "2 MiB"


def test_counts_that_round_alike_get_their_bytes():
    assert fmt_bytes_apart(2_105_344, 2 << 20) == ("2 MiB (2,105,344 B)", "2 MiB (2,097,152 B)")
    assert fmt_bytes_apart(3 << 20, 2 << 20) == ("3 MiB", "2 MiB")
    assert fmt_bytes_apart(2 << 20, 2 << 20) == ("2 MiB", "2 MiB")


def test_a_scratchpad_violation_says_by_how_much():
    text = str(Violation("capacity", 0, "scratchpad of program 0", 2_105_344, 2 << 20))
    assert text == ("scratchpad of program 0: needs 2 MiB (2,105,344 B) of scratchpad, "
                    "has 2 MiB (2,097,152 B)")
