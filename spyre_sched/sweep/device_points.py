"""One device of a sweep: the base device file with some of its figures changed.

A parameter names a figure of the device file as `TARGET.KEY[.KEY...]`:

- TARGET is the symbol of a memory, exec unit, group or switch (`lx`, `ddr`, `core`,
  `sfu`, `ring`), or a datapath written `SOURCE->DEST` with its endpoints' symbols
  (`lx_load->sfu`); shell wildcards match several (`*->*` is every datapath);
- the keys lead to an integer: an attribute of the op (`lx.size`, `ddr.bandwidth`,
  `core.count`), then into a feature by its kind (`sfu.compute.latency`,
  `lx_load->sfu.queue.depth`) or a dictionary (`sfu.simd.lanes.f16`).

A named op must hold that figure already (a misspelt key is an error, not a new
attribute); a wildcard changes the matched ops that hold it, and at least one must. The changed device is printed as MLIR and then loaded and validated like any
device file, so a point the loader refuses (a count of 0, a FIFO of depth 0) is reported
before any job runs.
"""

from __future__ import annotations

import fnmatch
import io
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.printer import Printer

from spyre_sched.device.device_parser import parse_device_file
from spyre_sched.device.load import resolve_device_path
from spyre_sched.dialects.ktdf_arch import DatapathOp, DeviceOp, _KeyValueAttr
from spyre_sched.errors import DeviceError


class ParameterError(Exception):
    """A parameter that names no figure of the base device (the caller locates it)."""


@dataclass(frozen=True)
class FigurePath:
    target: str
    keys: tuple[str, ...]

    @classmethod
    def parse(cls, name: str) -> FigurePath:
        target, _, rest = name.partition(".")
        keys = tuple(rest.split(".")) if rest else ()
        if not target or not keys or any(not k for k in keys):
            raise ParameterError(
                f"'{name}' does not name a figure: write TARGET.KEY, e.g. lx.size, "
                "ddr.bandwidth, core.count, sfu.compute.latency or *->*.queue.depth")
        if target.count("->") > 1 or target.startswith("->") or target.endswith("->"):
            raise ParameterError(f"'{name}': a datapath target is SOURCE->DEST")
        return cls(target, keys)


def _symbol(op: Operation) -> str | None:
    name = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return getattr(name, "data", None)


def _value_name(value: SSAValue) -> str:
    owner = value.owner
    return (_symbol(owner) if isinstance(owner, Operation) else None) or "?"


def _op_name(op: Operation) -> str:
    if isinstance(op, DatapathOp):
        return f"{_value_name(op.source)}->{_value_name(op.target)}"
    return _symbol(op) or op.name


def _is_device_op(op: Operation) -> bool:
    """A resource of the device (not the device itself, not a rewrite pattern's op)."""
    return op.name.startswith("ktdf_arch.") and not isinstance(op, DeviceOp)


def _matches(op: Operation, target: str) -> bool:
    if "->" in target:
        if not isinstance(op, DatapathOp):
            return False
        source, dest = target.split("->")
        return (fnmatch.fnmatchcase(_value_name(op.source), source)
                and fnmatch.fnmatchcase(_value_name(op.target), dest))
    symbol = _symbol(op)
    return (symbol is not None and _is_device_op(op)
            and fnmatch.fnmatchcase(symbol, target))


def _replace(container: Attribute | dict, keys: tuple[str, ...], value: int,
             where: str) -> Attribute | dict:
    """`container` with the integer at `keys` set to `value` (a new attribute: xDSL
    attributes are immutable). `container` is an op's attribute dictionary at the top."""
    key, rest = keys[0], keys[1:]
    if isinstance(container, dict):
        entries = container
    elif isinstance(container, _KeyValueAttr):
        entries = container.entries.data
    elif isinstance(container, DictionaryAttr):
        entries = container.data
    else:
        raise ParameterError(f"{where} is not a dictionary or feature")
    current = entries.get(key)
    if current is None and isinstance(container, dict) and isinstance(
            entries.get("features"), ArrayAttr):
        # A unit's features are named by their kind: sfu.compute.latency.
        features = list(entries["features"].data)
        for k, feature in enumerate(features):
            if feature.name.rsplit(".", 1)[-1] == key and isinstance(feature, _KeyValueAttr):
                if not rest:
                    raise ParameterError(f"{where}.{key} is a feature, not a figure: name one "
                                         f"of its keys ({', '.join(feature.entries.data)})")
                features[k] = _replace(feature, rest, value, f"{where}.{key}")
                return {**entries, "features": ArrayAttr(features)}
    if current is None:
        present = [k for k in entries if k != "features"]
        if isinstance(container, dict) and isinstance(entries.get("features"), ArrayAttr):
            present += [f.name.rsplit(".", 1)[-1] for f in entries["features"].data]
        raise ParameterError(f"{where} has no '{key}' (it has {', '.join(present) or 'nothing'})")
    if rest:
        new = _replace(current, rest, value, f"{where}.{key}")
    elif isinstance(current, IntegerAttr):
        new = IntegerAttr(value, current.type)
    elif isinstance(current, (_KeyValueAttr, DictionaryAttr)):
        inner = current.entries.data if isinstance(current, _KeyValueAttr) else current.data
        raise ParameterError(f"{where}.{key} is not a number: name one of its keys "
                             f"({', '.join(inner)})")
    else:
        raise ParameterError(f"{where}.{key} is {current}, not an integer figure")
    updated = {**entries, key: new}
    if isinstance(container, dict):
        return updated
    if isinstance(container, _KeyValueAttr):
        return type(container)(DictionaryAttr(updated))
    return DictionaryAttr(updated)


class BaseDevice:
    """The base device file, parsed once; `variant(values)` prints a changed copy."""

    def __init__(self, name_or_path: str | Path):
        self.path = resolve_device_path(name_or_path).resolve()
        self.text = self.path.read_text()
        parsed = parse_device_file(self.path)
        device = next((op for op in parsed.module.ops if isinstance(op, DeviceOp)), None)
        if device is not None and device.import_path is not None:
            raise DeviceError("a sweep's base device must hold its body itself; this one "
                              f"imports {device.import_path.data}: use that file as the base",
                              str(self.path))

    def _fresh_module(self) -> ModuleOp:
        return parse_device_file(self.path).module

    def check(self, name: str) -> FigurePath:
        """The parsed figure path, if it names a figure of the base device."""
        figure = FigurePath.parse(name)
        self._apply(self._fresh_module(), figure, None)
        return figure

    def _apply(self, module: ModuleOp, figure: FigurePath, value: int | None) -> None:
        matched = [op for op in module.walk() if _matches(op, figure.target)]
        if not matched:
            names = sorted({_op_name(op) for op in module.walk()
                            if _symbol(op) is not None and _is_device_op(op)})
            raise ParameterError(f"no memory, unit, group, switch or datapath of the base "
                                 f"device is named '{figure.target}' (named ones: "
                                 f"{', '.join(names)}; datapaths are SOURCE->DEST)")
        wildcard = any(c in figure.target for c in "*?[")
        changed, first_error = 0, None
        for op in matched:
            try:
                new = _replace(dict(op.attributes), figure.keys, 1 if value is None else value,
                               _op_name(op))
            except ParameterError as err:
                if not wildcard:
                    raise
                first_error = first_error or err  # a wildcard skips ops without the figure
                continue
            changed += 1
            if value is not None:
                op.attributes.clear()
                op.attributes.update(new)
        if not changed:
            raise first_error

    def variant(self, values: dict[str, int]) -> str:
        """The device file's text with these figures changed (a header says so)."""
        module = self._fresh_module()
        for name, value in values.items():
            self._apply(module, FigurePath.parse(name), value)
        stream = io.StringIO()
        Printer(stream=stream).print_op(module)
        changes = ", ".join(f"{k} = {v}" for k, v in values.items()) or "nothing"
        return (f"// Written by spyre-sched sweep from {self.path.name}: {changes}.\n"
                + stream.getvalue() + "\n")
