"""The hand-written bundle for the 96x64 add (the contract EMU builds against) is a valid
bundle: it parses, prints back, and its symbols give the addresses the kernel expects."""

from __future__ import annotations

from pathlib import Path

from lower_bundle_checks import check_bundle, expected_starts

FIXTURE = Path(__file__).parent / "fixtures" / "add_96x64_bundle"


def test_fixture_is_a_valid_bundle() -> None:
    check_bundle(FIXTURE)


def test_expected_starts_follow_the_kernel() -> None:
    # Tile t of the add owns rows 3t..3t+2 of a 96x64 f16 tensor: it starts 3*64 elements
    # (384 bytes) after the previous tile.
    starts = expected_starts(FIXTURE / "kernel.mlir", {"A": 1000, "B": 50000, "C": 90000})
    assert starts[("A", 0)] == 2000 and starts[("A", 5)] == 2000 + 5 * 384
    assert starts[("C", 31)] == 180000 + 31 * 384
