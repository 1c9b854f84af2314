"""Every command turns bad input into a located one-line diagnostic, never a traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from spyre_sched import cli


@pytest.mark.parametrize("command", ["check", "reference"])
def test_binary_kernel_file_is_a_located_error(tmp_path, command):
    bad = tmp_path / "bad.mlir"
    bad.write_bytes(b"func.func @k() {\n  %x = arith.constant 1 : i\xff32\n}\n")
    result = CliRunner().invoke(cli.main, [command, str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:2:28: error: kernel file is not UTF-8 text (byte 0xff)" in result.output
    assert "Traceback" not in result.output


def test_binary_device_file_is_a_located_error(tmp_path):
    bad = tmp_path / "dev.mlir"
    bad.write_bytes(b"\xfe")
    result = CliRunner().invoke(cli.main, ["device", "show", str(bad)])
    assert result.exit_code == 1
    assert "1:1: error: device file is not UTF-8 text (byte 0xfe)" in result.output


def test_an_internal_bug_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr("spyre_sched.frontend.load_kernel", broken)
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    kernel = tmp_path / "k.mlir"
    kernel.write_text("")
    result = CliRunner().invoke(cli.main, ["check", str(kernel)])
    assert result.exit_code == 2
    assert "internal error in spyre-sched (KeyError: 'oops')" in result.output
    assert "Traceback" not in result.output
