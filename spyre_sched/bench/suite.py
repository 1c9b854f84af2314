"""Where the benchmark suite's kernels are: bench/kernels/*.mlir (full size) and
bench/kernels/quick/*.mlir (small shapes, what the tests run), and the kernels held out
from the cost model's calibration, in a `heldout/` folder beside each. All are generated
by bench/kernels/generate.py and committed."""

from __future__ import annotations

from pathlib import Path

from spyre_sched.errors import SpyreSchedError

REPO_ROOT = Path(__file__).resolve().parents[2]
SUITE_DIR = REPO_ROOT / "bench" / "kernels"


def suite_dir(quick: bool = False) -> Path:
    return SUITE_DIR / "quick" if quick else SUITE_DIR


def suite_kernels(quick: bool = False, only: tuple[str, ...] = ()) -> list[Path]:
    """The suite's kernel files in name order; `only` keeps the named ones (file stems)."""
    folder = suite_dir(quick)
    files = sorted(folder.glob("*.mlir"))
    if not files:
        raise SpyreSchedError(f"no benchmark kernels in {folder} (run "
                              "python bench/kernels/generate.py)")
    if only:
        names = {f.stem for f in files}
        unknown = [n for n in only if n not in names]
        if unknown:
            raise SpyreSchedError(f"no suite kernel named {', '.join(unknown)}; the suite has "
                                  f"{', '.join(sorted(names))}")
        files = [f for f in files if f.stem in only]
    return files


def held_out_kernels(quick: bool = False) -> list[Path]:
    """The held-out kernels in name order: nothing in the cost model was fitted to them,
    so `bench` reports their model error apart from the suite's."""
    return sorted((suite_dir(quick) / "heldout").glob("*.mlir"))
