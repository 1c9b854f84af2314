"""Fixtures for device tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def write_device(tmp_path: Path):
    def write(text: str, name: str = "dev.mlir") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write
