"""Mutation fuzzing through the command line: mutated kernels, device files and bundle
files end in exit 0 or a located exit 1, never exit 2, a traceback or a hang."""

from __future__ import annotations

import pytest

from spyre_sched.fuzz.commands import invoke as commands_invoke
from spyre_sched.fuzz.mutants import MutantCampaign, shipped_devices, shipped_kernels


def test_the_shipped_sources_are_found():
    assert len(shipped_kernels()) >= 20 and len(shipped_devices()) == 2


@pytest.mark.parametrize("kind,count", [("kernel", 8), ("device", 6), ("bundle", 5)])
def test_mutants_end_in_exit_0_or_1(tmp_path, kind, count):
    summary = MutantCampaign(kind, count, seed=0, out=tmp_path).run(progress=False)
    assert summary["failures"] == [], summary["failures"]
    assert sum(summary["outcomes"].values()) >= count


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["kernel", "device", "bundle"])
def test_many_mutants_end_in_exit_0_or_1(tmp_path, kind):
    summary = MutantCampaign(kind, 1000, seed=1, out=tmp_path).run(progress=False)
    assert summary["failures"] == [], summary["failures"]


@pytest.mark.slow
def test_a_long_differential_campaign_finds_nothing(tmp_path):
    """The campaign the fuzzer exists for (docs/fuzzing.md); layouts other than one dense
    window per pointer are left out until both executors follow one memory rule."""
    from spyre_sched.fuzz.campaign import LAYOUT_FEATURES, Campaign

    summary = Campaign(count=200, seed=1, out=tmp_path, without=LAYOUT_FEATURES,
                       shrink_budget=20).run(progress=False)
    assert summary["failures"] == [], summary["failures"]


def test_a_failing_mutant_is_saved_with_a_command_that_replays_it(tmp_path, monkeypatch):
    from pathlib import Path

    from spyre_sched.fuzz import mutants

    monkeypatch.setattr(mutants, "invoke", lambda args, timeout: (2, "internal error (X)"))
    summary = MutantCampaign("device", 1, seed=0, out=tmp_path).run(progress=False)
    assert summary["outcomes"] == {"exit 2": 3}
    failure = summary["failures"][-1]  # the run of a small kernel on the mutated device
    words = failure["command"].split()
    assert words[:2] == ["spyre-sched", "run"] and failure["message"] == "internal error (X)"
    kernel, device = Path(words[2]), Path(words[words.index("--device") + 1])
    assert kernel.parent == tmp_path and kernel.is_file()  # the helper kernel, kept
    assert device == tmp_path / "mutant-device-0.mlir" and device.is_file()


def test_bundle_mutants_reach_the_mutated_files_reader(tmp_path, monkeypatch):
    """A mutated bundle file is re-hashed into the manifest (three mutants in four), so
    `run` parses the mutation instead of refusing every mutant at the hash check."""
    from pathlib import Path

    from emulator.bundle_files import BundleFiles
    from spyre_sched.errors import ParseError
    from spyre_sched.fuzz import mutants

    real = mutants.invoke
    hash_checks_passed = []

    def invoke(args, timeout):
        if args[0] != "run":
            return real(args, timeout)  # compiling the bundles that are mutated
        try:
            BundleFiles(Path(args[1]))
            hash_checks_passed.append(True)
        except ParseError as err:
            hash_checks_passed.append("sha256" not in str(err))
        return 0, ""

    monkeypatch.setattr(mutants, "invoke", invoke)
    monkeypatch.setattr(mutants, "_bundle_kernels",
                        lambda: [("simple", mutants.small_kernel_text())])
    MutantCampaign("bundle", 4, seed=0, out=tmp_path).run(progress=False)
    assert hash_checks_passed == [True, True, True, False]


@pytest.mark.parametrize("kind", ["kernel", "device", "bundle"])
def test_runs_stop_on_their_own_budget_before_the_campaign_calls_them_hangs(tmp_path, kind,
                                                                            monkeypatch):
    """Every `run` a mutant campaign issues carries `--max-seconds` under the command's
    timeout: a long emulation ends in run's clean exit 1, not in a reported hang."""
    from spyre_sched.fuzz import mutants

    runs = []

    def recorded(args, timeout):
        if args[0] == "run":
            runs.append((args, timeout))
        return (0 if args[0] == "check" else 1), ""

    monkeypatch.setattr(mutants, "invoke", recorded)
    if kind == "bundle":  # (the bundles are compiled for real first)
        monkeypatch.setattr(mutants, "invoke", lambda args, timeout: (
            commands_invoke(args, timeout) if args[0] == "compile" else recorded(args, timeout)))
    summary = MutantCampaign(kind, 2, seed=3, out=tmp_path, timeout=45.0).run(progress=False)
    assert summary["failures"] == [] and runs
    for args, timeout in runs:
        budget = float(args[args.index("--max-seconds") + 1])
        assert 0 < budget < timeout == 45.0


def test_a_run_time_argument_made_a_plain_scalar_ends_in_exit_0_or_1(tmp_path):
    """The mutation that writes a run-time argument as a plain `index` (its extracts
    replaced by the argument): every shipped kernel with one still checks, and `run`
    refuses the view sized by a compile-time scalar with a located error (before, the
    lowering's size reader failed internally on the bare argument)."""
    import random
    from pathlib import Path

    from spyre_sched.fuzz.mutations import plain_runtime_argument

    root = Path(__file__).resolve().parents[2]
    sources = [p for p in sorted(root.glob("tests/**/kernels/*.mlir"))
               if "!ktdp.runtime_arg<" in p.read_text() and "runtime_arg_extract" in p.read_text()]
    assert len(sources) >= 3
    for k, source in enumerate(sources):
        original = source.read_text()
        text = plain_runtime_argument(original, random.Random(k))
        assert text.count("runtime_arg") < original.count("runtime_arg")
        path = tmp_path / f"plain{k}.mlir"
        path.write_text(text)
        code, output = commands_invoke(["check", str(path)], None)
        assert code == 0, (source, output)
        code, output = commands_invoke(["run", str(path), "--strategy", "heuristic"], None)
        assert code == 1 and "Traceback" not in output and "internal error" not in output, \
            (source, output)
