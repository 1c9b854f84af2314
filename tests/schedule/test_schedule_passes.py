"""IR in, IR out: every schedule pass (and every normal-form pass, whose files are in
tests/normalize/passes) alone on the IR that enters it, FileCheck on what comes out.
Each file under passes/ names its pass (`// PASS: name`) and holds its input
(the previous pass's output on a small kernel, as the pipeline printed it) and CHECK
lines; `// ERROR: text` files must be refused with that message instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schedule_util import parse_ir, print_ir, run_filecheck
from spyre_sched.errors import SpyreSchedError
from spyre_sched.pipeline import POST_SOLVE_STEPS, SCHEDULE_STEPS, run_steps, step_name

HERE = Path(__file__).parent / "passes"
ROOT = Path(__file__).parents[2]
NORMALIZE = Path(__file__).parents[1] / "normalize" / "passes"
FILES = sorted([*HERE.glob("*.mlir"), *NORMALIZE.glob("*.mlir")], key=lambda p: p.name)


def _header(text: str, key: str) -> str | None:
    match = re.search(rf"^// {key}: (.+)$", text, re.MULTILINE)
    return match.group(1).strip() if match else None


def test_every_pass_has_an_ir_test() -> None:
    tested = {_header(p.read_text(), "PASS") for p in FILES}
    for step in (*SCHEDULE_STEPS, *POST_SOLVE_STEPS):
        if not step_name(step).startswith("device-patterns"):
            assert step_name(step) in tested, step_name(step)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_pass(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # a test device named by its path is found from the repository
    text = path.read_text()
    name = _header(text, "PASS")
    step = next(s for s in (*SCHEDULE_STEPS, *POST_SOLVE_STEPS) if step_name(s) == name)
    module = parse_ir(text)
    error = _header(text, "ERROR")
    if error is not None:
        with pytest.raises(SpyreSchedError) as err:
            run_steps(module, [step])
        assert error in str(err.value)
        return
    run_steps(module, [step])
    printed = print_ir(module)
    done = run_filecheck(path, printed)
    assert done.returncode == 0, done.stderr + "\n--- printed ---\n" + printed
