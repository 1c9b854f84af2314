"""Device file -> `Device`: resolve the file, elaborate groups into instances, validate.

Elaboration walks the device body once per group instance. Every SSA value maps to the
list of instance names it stands for: one name for a plain memory or unit, one per
instance for a value yielded out of a replicated group. A datapath between two lists
connects them pairwise, or broadcasts a single name to every instance.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from xdsl.dialects import pdl
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from spyre_sched.device.model import (
    CHECKPOINTS,
    Datapath,
    Device,
    GroupInstance,
    Memory,
    Unit,
)
from spyre_sched.device.device_parser import ParsedFile, parse_device_file
from spyre_sched.dialects.ktdf_arch import (
    ClockAttr,
    ComputeFeature,
    DatapathOp,
    DeviceOp,
    ExecUnitOp,
    GroupOp,
    LoadFeature,
    MapAttr,
    MemoryOp,
    PatternsOp,
    QueueFeature,
    SimdFeature,
    StoreFeature,
    SwitchOp,
    YieldOp,
)
from spyre_sched.errors import DeviceError, SourceLocation

DEFAULT_DEVICE = "spyre"

REPO_ROOT = Path(__file__).resolve().parents[2]
DEVICES_DIR = REPO_ROOT / "devices"

_MEMORY_KEYS = ("kind", "size", "bandwidth", "latency")
_UNIT_KEYS = ("kind", "features", "latency")
_DATAPATH_KEYS = ("transfer_granularity", "bandwidth", "latency", "queue")
_GROUP_KEYS = ("kind", "count")

#: the most memories, units and groups a device file may elaborate: each is an object of the
#: compiler and the emulator (a 16,384-core device of the shipped kind has about 250,000)
MAX_DEVICE_ELEMENTS = 1 << 20


def _too_large(what: str) -> str:
    return (f"{what}: the device would have more than {MAX_DEVICE_ELEMENTS} memories, units "
            "and groups, the most spyre-sched models")
_SWITCH_KEYS = ("topology", "bidirectional", "bandwidth", "latency", "transfer_granularity")
_TOPOLOGIES = ("ring", "crossbar")


def resolve_device_path(name_or_path: str | Path) -> Path:
    """A path to a file, or the name of a shipped device (`devices/<name>.mlir`)."""
    text = str(name_or_path)
    path = Path(text)
    if path.suffix == ".mlir" or path.exists() or "/" in text:
        if path.is_dir():
            raise DeviceError(f"the device path is a directory, not a file: {text}")
        if not path.is_file():
            raise DeviceError(f"device file not found: {text}")
        return path
    shipped = DEVICES_DIR / f"{text}.mlir"
    if not shipped.is_file():
        known = ", ".join(sorted(p.stem for p in DEVICES_DIR.glob("*.mlir")))
        raise DeviceError(f"unknown device '{text}' (shipped devices: {known or 'none'})")
    return shipped


def load_device(name_or_path: str | Path = DEFAULT_DEVICE) -> Device:
    """Read, elaborate and validate a device description."""
    path = resolve_device_path(name_or_path).resolve()
    return _load_cached(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _load_cached(path: Path, _mtime: int) -> Device:
    return _Loader().load(path)


# ---- helpers reading attribute values ----------------------------------------------------

# Defaults of optional figures, built once (xDSL attributes are costly to construct).
_ZERO = IntegerAttr(0, 64)
_ONE = IntegerAttr(1, 64)


#: the largest figure a device file may give (1 TiB, or 2^40 cycles or units): above any
#: device's, and small enough that the solver's products of figures stay in 64 bits
FIGURE_LIMIT = 1 << 40


def _int(value: Attribute | None, what: str, loc: SourceLocation, minimum: int = 1) -> int:
    if not isinstance(value, IntegerAttr):
        raise DeviceError(f"{what} must be an integer", loc)
    number = value.value.data
    if number < minimum:
        raise DeviceError(f"{what} must be at least {minimum}, got {number}", loc)
    if number > FIGURE_LIMIT:
        raise DeviceError(f"{what} must be at most 2^40 ({FIGURE_LIMIT}), got {number}", loc)
    return number


def _str(value: Attribute | None, what: str, loc: SourceLocation) -> str:
    if not isinstance(value, StringAttr):
        raise DeviceError(f"{what} must be a string", loc)
    return value.data


def _check_keys(spec: dict[str, Attribute], allowed: Sequence[str], what: str,
                loc: SourceLocation) -> None:
    for key in spec:
        if key not in allowed:
            raise DeviceError(
                f"unknown key '{key}' on {what}; expected one of {', '.join(allowed)}", loc
            )


class _Loader:
    def __init__(self) -> None:
        self.memories: dict[str, Memory] = {}
        self.units: dict[str, Unit] = {}
        self.datapaths: list[Datapath] = []
        self.groups: dict[str, GroupInstance] = {}
        self.patterns: list[tuple[tuple[str, ...], PatternsOp]] = []
        self.importing: list[Path] = []

    # ---- files and imports -------------------------------------------------------

    def _device_op(self, parsed: ParsedFile) -> DeviceOp:
        devices = [op for op in parsed.module.ops if isinstance(op, DeviceOp)]
        others = [op for op in parsed.module.ops if not isinstance(op, DeviceOp)]
        if others:
            raise DeviceError(
                f"a device file holds ktdf_arch.device ops only, found {others[0].name}",
                parsed.location(others[0]),
            )
        if len(devices) != 1:
            raise DeviceError(
                f"a device file defines exactly one ktdf_arch.device, found {len(devices)}",
                parsed.location_at(0),
            )
        return devices[0]

    def _resolve(self, path: Path) -> tuple[ParsedFile, DeviceOp, dict[str, Attribute], str]:
        """Follow `import("...")` chains: (file holding the body, its device op,
        attributes merged outermost-wins, outermost name)."""
        if path in self.importing:
            chain = " -> ".join(p.name for p in [*self.importing, path])
            raise DeviceError(f"device imports form a cycle: {chain}", str(path))
        self.importing.append(path)
        parsed = parse_device_file(path)
        device = self._device_op(parsed)
        attributes = dict(device.attributes)
        if device.import_path is None:
            return parsed, device, attributes, device.sym_name.data
        target = (path.parent / device.import_path.data).resolve()
        if not target.is_file():
            raise DeviceError(
                f"imported device file not found: {device.import_path.data} "
                f"(looked for {target})",
                parsed.location(device),
            )
        inner_parsed, inner_device, inner_attrs, _ = self._resolve(target)
        return inner_parsed, inner_device, {**inner_attrs, **attributes}, device.sym_name.data

    def load(self, path: Path) -> Device:
        parsed, device_op, attributes, name = self._resolve(path)
        self.parsed = parsed
        loc = parsed.location(device_op)
        clock_hz, mapping = self._device_attributes(attributes, loc)
        env: dict[SSAValue, list[str]] = {}
        self._elaborate(device_op.body.block, prefix="", group="", env=env)
        device = Device(
            name=name,
            file=str(path),
            clock_hz=clock_hz,
            mem_space_mapping=mapping,
            memories=self.memories,
            units=self.units,
            datapaths=self.datapaths,
            groups=self.groups,
            patterns=self.patterns,
            location=loc,
        )
        _validate_device(device, loc)
        return device

    def _device_attributes(self, attrs: dict[str, Attribute],
                           loc: SourceLocation) -> tuple[int, dict[str, str]]:
        _check_keys(attrs, ("clock", "mem_space_mapping", "description"), "a device", loc)
        clock = attrs.get("clock")
        if not isinstance(clock, ClockAttr):
            raise DeviceError(
                "the device needs a clock: attributes {clock = #ktdf_arch.clock<1 GHz>}", loc
            )
        mapping_attr = attrs.get("mem_space_mapping")
        if not isinstance(mapping_attr, MapAttr):
            raise DeviceError(
                "the device needs mem_space_mapping = #ktdf_arch.map<global = \"...\", "
                "ct_local = \"...\">",
                loc,
            )
        mapping = {k: _str(v, f"mem_space_mapping entry '{k}'", loc)
                   for k, v in mapping_attr.values.items()}
        return clock.hz.data, mapping

    # ---- elaboration ---------------------------------------------------------------

    def _name(self, op: Operation, what: str) -> str:
        sym = op.properties.get("sym_name")
        if isinstance(sym, StringAttr):
            return sym.data
        if op.results and op.results[0].name_hint:
            return op.results[0].name_hint
        raise DeviceError(f"give the {what} a name: @name or a named result %name",
                          self.parsed.location(op))

    def _claim(self, full: str, loc: SourceLocation) -> None:
        if full in self.memories or full in self.units or full in self.groups:
            raise DeviceError(f"name '{full}' is defined twice", loc)

    def _elaborate(self, block: Block, prefix: str, group: str,
                   env: dict[SSAValue, list[str]]) -> tuple[list[str], list[str], list[str]]:
        """Instantiate one block; returns (memories, units, child groups) created in it."""
        mems: list[str] = []
        units: list[str] = []
        children: list[str] = []
        for op in block.ops:
            loc = self.parsed.location(op)
            if isinstance(op, MemoryOp):
                full = prefix + self._name(op, "memory")
                self._claim(full, loc)
                self.memories[full] = self._memory(full, group, dict(op.attributes), loc)
                env[op.result] = [full]
                mems.append(full)
            elif isinstance(op, ExecUnitOp):
                full = prefix + self._name(op, "unit")
                self._claim(full, loc)
                self.units[full] = self._unit(full, group, dict(op.attributes), loc)
                env[op.result] = [full]
                units.append(full)
            elif isinstance(op, DatapathOp):
                self._datapath(op, env, loc)
            elif isinstance(op, GroupOp):
                children += self._group(op, prefix, group, env, loc)
            elif isinstance(op, SwitchOp):
                units += self._switch(op, prefix, group, env, loc)
            elif isinstance(op, PatternsOp):
                self._patterns(op, loc)
            elif isinstance(op, YieldOp):
                pass  # read by the enclosing group
            else:
                raise DeviceError(f"{op.name} is not allowed in a device body", loc)
        return mems, units, children

    def _memory(self, full: str, group: str, spec: dict[str, Attribute],
                loc: SourceLocation) -> Memory:
        _check_keys(spec, _MEMORY_KEYS, f"memory {full}", loc)
        if "kind" not in spec:
            raise DeviceError(f"memory {full} has no kind", loc)
        if "size" not in spec:
            raise DeviceError(f"memory {full} has no size (bytes)", loc)
        return Memory(
            name=full,
            kind=_str(spec["kind"], f"kind of memory {full}", loc),
            size=_int(spec["size"], f"size of memory {full}", loc),
            group=group,
            bandwidth=(_int(spec["bandwidth"], f"bandwidth of memory {full}", loc)
                       if "bandwidth" in spec else None),
            latency=_int(spec.get("latency", _ZERO), "latency", loc, 0),
            location=loc,
        )

    def _unit(self, full: str, group: str, spec: dict[str, Attribute],
              loc: SourceLocation) -> Unit:
        _check_keys(spec, _UNIT_KEYS, f"unit {full}", loc)
        if "kind" not in spec:
            raise DeviceError(f"unit {full} has no kind", loc)
        features = spec.get("features", ArrayAttr([]))
        if not isinstance(features, ArrayAttr):
            raise DeviceError(f"features of unit {full} must be a list [...]", loc)
        found: dict[type, Attribute] = {}
        for feature in features.data:
            if not isinstance(feature, (ComputeFeature, LoadFeature, StoreFeature,
                                        SimdFeature, QueueFeature)):
                raise DeviceError(f"unit {full}: {feature} is not a ktdf_arch feature", loc)
            if type(feature) in found:
                raise DeviceError(f"unit {full} lists {feature.name} twice", loc)
            found[type(feature)] = feature

        def figures(cls: type, what: str) -> dict[str, int] | None:
            feature = found.get(cls)
            if feature is None:
                return None
            values = feature.values  # type: ignore[attr-defined]
            for key in ("word_size", "access_granularity"):
                if key not in values:
                    raise DeviceError(f"{what} feature of unit {full} needs {key}", loc)
            return {k: _int(v, f"{k} of unit {full}", loc) for k, v in values.items()}

        compute: dict[str, object] | None = None
        if ComputeFeature in found:
            compute = {}
            for key, value in found[ComputeFeature].values.items():  # type: ignore[attr-defined]
                if key in ("class", "accumulator"):
                    compute[key] = _str(value, f"{key} of unit {full}", loc)
                elif key == "macs":
                    if not isinstance(value, DictionaryAttr) or not value.data:
                        raise DeviceError(f"macs of unit {full} must be {{f16 = N, ...}}", loc)
                    compute[key] = {k: _int(v, f"{k} macs of unit {full}", loc, 1)
                                    for k, v in value.data.items()}
                else:
                    compute[key] = _int(value, f"{key} of unit {full}", loc)
        lanes: dict[str, int] = {}
        splat = zero_pad = False
        if SimdFeature in found:
            values = found[SimdFeature].values  # type: ignore[attr-defined]
            lanes_attr = values.get("lanes")
            if not isinstance(lanes_attr, DictionaryAttr) or not lanes_attr.data:
                raise DeviceError(
                    f"SIMD feature of unit {full} needs lanes = {{f16 = N, ...}}", loc
                )
            lanes = {k: _int(v, f"{k} lanes of unit {full}", loc)
                     for k, v in lanes_attr.data.items()}
            splat = isinstance(values.get("splat"), UnitAttr)
            zero_pad = isinstance(values.get("zero_pad"), UnitAttr)
        if compute is not None and not lanes:
            raise DeviceError(
                f"compute unit {full} has no SIMD lanes: add "
                "#ktdf_arch.feature.simd<lanes = {f16 = N, ...}> to its features",
                loc,
            )
        depth = None
        if QueueFeature in found:
            depth, _ = self._queue(found[QueueFeature], f"unit {full}", loc)
        return Unit(
            name=full,
            kind=_str(spec["kind"], f"kind of unit {full}", loc),
            group=group,
            compute=compute,
            load=figures(LoadFeature, "load"),
            store=figures(StoreFeature, "store"),
            simd_lanes=lanes,
            splat=splat,
            zero_pad=zero_pad,
            queue_depth=depth,
            latency=_int(spec.get("latency", _ZERO), "latency", loc, 0),
            location=loc,
        )

    def _queue(self, attr: Attribute, what: str, loc: SourceLocation) -> tuple[int, bool]:
        if not isinstance(attr, QueueFeature):
            raise DeviceError(f"queue of {what} must be #ktdf_arch.feature.queue<...>", loc)
        values = attr.values
        if "depth" not in values:
            raise DeviceError(f"queue of {what} needs a depth", loc)
        return _int(values["depth"], f"queue depth of {what}", loc), "ordered" in values

    def _datapath(self, op: DatapathOp, env: dict[SSAValue, list[str]],
                  loc: SourceLocation) -> None:
        spec = dict(op.attributes)
        sources, targets = env[op.source], env[op.target]
        what = f"datapath {sources[0]} to {targets[0]}"
        _check_keys(spec, _DATAPATH_KEYS, what, loc)
        if "bandwidth" not in spec:
            raise DeviceError(f"{what} has no bandwidth (bytes per cycle)", loc)
        depth, ordered = (self._queue(spec["queue"], what, loc) if "queue" in spec
                          else (None, True))
        for source, target in _pairs(sources, targets, what, loc):
            if source in self.memories and target in self.memories:
                raise DeviceError(
                    f"datapath {source} to {target} joins two memories: a unit must "
                    "perform every transfer", loc)
            self.datapaths.append(Datapath(
                source=source,
                target=target,
                bandwidth=_int(spec["bandwidth"], f"bandwidth of {what}", loc),
                latency=_int(spec.get("latency", _ZERO), "latency", loc, 0),
                transfer_granularity=_int(spec.get("transfer_granularity", _ONE),
                                          f"transfer_granularity of {what}", loc),
                queue_depth=depth,
                ordered=ordered,
                location=loc,
            ))

    def _group(self, op: GroupOp, prefix: str, group: str,
               env: dict[SSAValue, list[str]], loc: SourceLocation) -> list[str]:
        name = self._name(op, "group")
        spec = dict(op.attributes)
        _check_keys(spec, _GROUP_KEYS, f"group {prefix}{name}", loc)
        if "kind" not in spec:
            raise DeviceError(f"group {prefix}{name} has no kind", loc)
        kind = _str(spec["kind"], "group kind", loc)
        count = _int(spec["count"], f"count of group {name}", loc) if "count" in spec else None
        if count is not None and count > MAX_DEVICE_ELEMENTS:
            raise DeviceError(_too_large(f"group {prefix}{name} has count {count}"), loc)
        self._check_sharing(op, loc)
        yielded = op.yielded
        if len(yielded) != len(op.outputs):
            raise DeviceError(
                f"group {name} yields {len(yielded)} values but declares "
                f"{len(op.outputs)} results", loc)
        results: list[list[str]] = [[] for _ in op.outputs]
        instances: list[str] = []
        template: _Template | None = None
        for index in range(count if count is not None else 1):
            inst = prefix + (f"{name}{index}" if count is not None else name)
            self._claim(inst, loc)
            if template is not None:
                # Replicas share the first instance's elaboration: renamed copies of what
                # it created, in the same order (no attribute is read twice).
                for k, names in enumerate(template.instantiate(self, inst, loc)):
                    results[k] += names
                instances.append(inst)
                continue
            before = self._sizes()
            inner_env = dict(env)
            self.groups[inst] = GroupInstance(inst, kind, group, (), (), (), loc)  # placeholder
            mems, units, children = self._elaborate(op.body.block, inst + ".", inst, inner_env)
            self.groups[inst] = GroupInstance(inst, kind, group, tuple(children),
                                              tuple(mems), tuple(units), loc)
            yielded_names = [inner_env[value] for value in yielded]
            for k, names in enumerate(yielded_names):
                results[k] += names
            instances.append(inst)
            if count is not None and count > 1:
                made = sum(self._sizes()[:3]) - sum(before[:3])
                if sum(self._sizes()[:3]) + made * (count - 1) > MAX_DEVICE_ELEMENTS:
                    raise DeviceError(_too_large(
                        f"group {prefix}{name}: {count} instances of {made} memories, units "
                        "and groups each"), loc)
                template = _Template(self, before, inst, yielded_names)
        for result, names in zip(op.outputs, results):
            env[result] = names
        return instances

    def _sizes(self) -> tuple[int, int, int, int, int]:
        return (len(self.memories), len(self.units), len(self.groups), len(self.datapaths),
                len(self.patterns))

    def _check_sharing(self, op: GroupOp, loc: SourceLocation) -> None:
        """Ops in a group may use outer values only through the group's `share` list."""
        block = op.body.block
        shared = set(op.shared)
        for inner in block.ops:
            for operand in inner.operands:
                owner = operand.owner
                defined_inside = isinstance(owner, Operation) and owner.parent_block() is block
                if not defined_inside and operand not in shared:
                    name = operand.name_hint or "value"
                    raise DeviceError(
                        f"group {self._name(op, 'group')} uses %{name} from outside without "
                        f"sharing it: add share(%{name})", self.parsed.location(inner))

    def _switch(self, op: SwitchOp, prefix: str, group: str,
                env: dict[SSAValue, list[str]], loc: SourceLocation) -> list[str]:
        name = prefix + self._name(op, "switch")
        spec = dict(op.attributes)
        _check_keys(spec, _SWITCH_KEYS, f"switch {name}", loc)
        topology = _str(spec.get("topology"), f"topology of switch {name}", loc)
        if topology not in _TOPOLOGIES:
            raise DeviceError(f"switch {name}: unknown topology '{topology}'; expected "
                              + " or ".join(_TOPOLOGIES), loc)
        if "bandwidth" not in spec:
            raise DeviceError(f"switch {name} has no bandwidth (bytes per cycle)", loc)
        bandwidth = _int(spec["bandwidth"], f"bandwidth of switch {name}", loc)
        latency = _int(spec.get("latency", _ZERO), "latency", loc, 0)
        granularity = _int(spec.get("transfer_granularity", _ONE),
                           "transfer_granularity", loc)
        ports = [p for value in op.ports for p in env[value]]
        if len(ports) < 2:
            raise DeviceError(f"switch {name} needs at least two ports", loc)
        stops = [f"{name}.stop{i}" for i in range(len(ports))]
        for stop in stops:
            self._claim(stop, loc)
            self.units[stop] = Unit(name=stop, kind="switch", group=group, is_switch=True,
                                    location=loc)

        def link(a: str, b: str) -> None:
            self.datapaths.append(Datapath(a, b, bandwidth, latency, granularity, location=loc))

        for port, stop in zip(ports, stops):
            link(port, stop)
            link(stop, port)
        n = len(stops)
        if topology == "ring":
            for i in range(n):
                link(stops[i], stops[(i + 1) % n])
                if "bidirectional" in spec:
                    link(stops[(i + 1) % n], stops[i])
        else:
            for a in stops:
                for b in stops:
                    if a != b:
                        link(a, b)
        return stops

    def _patterns(self, op: PatternsOp, loc: SourceLocation) -> None:
        for checkpoint in op.checkpoint_names:
            if checkpoint not in CHECKPOINTS:
                raise DeviceError(
                    f"unknown checkpoint '{checkpoint}'; expected one of "
                    + ", ".join(CHECKPOINTS), loc)
        for inner in op.body.block.ops:
            if not isinstance(inner, pdl.PatternOp):
                raise DeviceError(f"a patterns block holds pdl.pattern ops, found {inner.name}",
                                  self.parsed.location(inner))
            rewrites = [r for r in inner.body.block.ops if isinstance(r, pdl.RewriteOp)]
            # the pattern applier rewrites the op a pattern's rewrite names as its root
            if len(rewrites) != 1 or rewrites[0].root is None:
                raise DeviceError("a pdl.pattern ends in one pdl.rewrite of its root op "
                                  "(`pdl.rewrite %op { ... }`)",
                                  self.parsed.location(rewrites[0] if rewrites else inner))
        self.patterns.append((tuple(op.checkpoint_names), op))


def _pairs(sources: list[str], targets: list[str], what: str,
           loc: SourceLocation) -> list[tuple[str, str]]:
    if len(sources) == len(targets):
        return list(zip(sources, targets))
    if len(sources) == 1:
        return [(sources[0], t) for t in targets]
    if len(targets) == 1:
        return [(s, targets[0]) for s in sources]
    raise DeviceError(
        f"{what} connects {len(sources)} instances to {len(targets)}: the counts must "
        "match, or one side must be a single unit or memory", loc)


def _validate_device(device: Device, loc: SourceLocation) -> None:
    """Whole-device rules, checked once everything is instantiated."""
    from spyre_sched.device.routing import reachable_from

    for space, kind in device.mem_space_mapping.items():
        if not any(m.kind == kind for m in device.memories.values()):
            raise DeviceError(
                f"mem_space_mapping sends '{space}' to memory kind '{kind}', but no memory "
                "has that kind", loc)
    if "global" not in device.mem_space_mapping:
        raise DeviceError("mem_space_mapping must map the 'global' memory space", loc)
    if not device.cores:
        raise DeviceError('the device has no group of kind "core"', loc)
    compute = device.compute_units()
    if not compute:
        raise DeviceError("the device has no compute unit (no #ktdf_arch.feature.compute)", loc)
    global_memories = device.memories_of_kind(device.mem_space_mapping["global"])
    reached: set[str] = set()
    for memory in global_memories:
        reached |= reachable_from(device, memory.name)
    for unit in compute:
        if unit.name not in reached:
            raise DeviceError(
                f"no route from device memory {global_memories[0].name} to compute unit "
                f"{unit.name}", unit.location)


class _Template:
    """What elaborating the first instance of a replicated group created (memories, units,
    nested groups, datapaths, patterns, yielded names), to be copied under each further
    instance's name. Names inside the instance (`core0`, `core0.lx`, `core0.corelet1.sfu`)
    are renamed; names outside it (a shared `ddr`) are kept."""

    def __init__(self, loader: _Loader, before: tuple[int, ...], instance: str,
                 yielded: list[list[str]]):
        mems, units, groups, paths, patterns = before
        self.instance = instance
        self.memories = list(loader.memories.values())[mems:]
        self.units = list(loader.units.values())[units:]
        self.groups = list(loader.groups.values())[groups:]
        self.datapaths = loader.datapaths[paths:]
        self.patterns = loader.patterns[patterns:]
        self.yielded = yielded

    def instantiate(self, loader: _Loader, instance: str,
                    loc: SourceLocation) -> list[list[str]]:
        old, cut = self.instance, len(self.instance)
        inside = old + "."

        def rename(name: str) -> str:
            return instance + name[cut:] if name == old or name.startswith(inside) else name

        for g in self.groups:
            name = rename(g.name)
            if name != instance:
                loader._claim(name, loc)
            loader.groups[name] = _renamed(
                g, name=name, parent=rename(g.parent), children=tuple(map(rename, g.children)),
                memories=tuple(map(rename, g.memories)), units=tuple(map(rename, g.units)))
        for m in self.memories:
            name = rename(m.name)
            loader._claim(name, loc)
            loader.memories[name] = _renamed(m, name=name, group=rename(m.group))
        for u in self.units:
            name = rename(u.name)
            loader._claim(name, loc)
            loader.units[name] = _renamed(u, name=name, group=rename(u.group))
        loader.datapaths.extend(
            _renamed(dp, source=rename(dp.source), target=rename(dp.target))
            for dp in self.datapaths)
        loader.patterns.extend(self.patterns)
        return [[rename(n) for n in names] for names in self.yielded]


def _renamed(instance, **names):
    """A copy of a frozen model dataclass with some name fields changed. Only names change
    (no field is derived from them), so the copy skips `dataclasses.replace`'s __init__ and
    checks: replicating a thousand cores copies tens of thousands of these."""
    copy = object.__new__(type(instance))
    copy.__dict__.update(instance.__dict__)
    copy.__dict__.update(names)
    return copy
