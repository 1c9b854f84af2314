"""Errors a user can see. Every one names what is wrong and where.

The CLI catches `SpyreSchedError` and prints `str(err)`; anything else escaping is a bug
in spyre-sched, not in the user's input.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLocation:
    """A position in a text file (1-based line and column) and the text of that line."""

    file: str
    line: int
    col: int
    line_text: str | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class SpyreSchedError(Exception):
    """Base class: a message plus an optional location.

    `location` is a `SourceLocation` for text input, or a short free-form string
    (``"op ktdp.load in pass X"``, ``"unit core0.sfu0, instruction 12"``) otherwise.
    """

    kind = "error"

    def __init__(self, message: str, location: SourceLocation | str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        loc = self.location
        if isinstance(loc, SourceLocation):
            text = f"{loc}: {self.kind}: {self.message}"
            if loc.line_text is not None:
                caret = " " * max(loc.col - 1, 0) + "^"
                text += f"\n{loc.line_text}\n{caret}"
            return text
        if loc:
            return f"{loc}: {self.kind}: {self.message}"
        return f"{self.kind}: {self.message}"


class ParseError(SpyreSchedError):
    """The text is not well-formed MLIR, or uses an op, type or dialect we do not know."""


class VerifyError(SpyreSchedError):
    """The IR is well-formed but breaks a rule of its dialect (shapes, counts, ranges)."""


class DeviceError(SpyreSchedError):
    """The architecture description is malformed, or cannot serve the kernel."""


class AnalysisError(SpyreSchedError):
    """A static check found the kernel wrong: out-of-bounds access, write race, ..."""


class ExecutionError(SpyreSchedError):
    """Running a kernel failed: out-of-bounds access at run time, deadlock, bad argument."""


class UnsupportedError(SpyreSchedError):
    """Valid input that this version of spyre-sched does not handle (said plainly)."""


class UsageError(SpyreSchedError):
    """A command-line option or API argument has a value that cannot be used (said plainly,
    naming the option)."""


def fold_hint(names: list[str]) -> str:
    """What fixes a value the compiler needs before launch that comes from the kernel's
    plain scalar arguments `names` (sorted, non-empty): the `--arg` options that fold them
    at compile time, as every such refusal words it."""
    options = " ".join(f"--arg {name}=VALUE" for name in names)
    return f"`{options}` fixes {'them' if len(names) > 1 else 'it'} at compile time " \
           "(`arguments=` in the Python API)"
