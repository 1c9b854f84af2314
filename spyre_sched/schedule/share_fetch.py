"""Pass share-fetch: offer the solver to fetch an input every core (or every core of a
group) reads whole once, and share it between the cores' scratchpads over the
interconnect.

A matmul whose tiles each compute a band of rows reads all of B on every tile: with 32
tiles, B crosses the shared device-memory port 32 times, where the union of what the
tiles read is B once. When a DMA transfer of a program reads the same box of a
device-memory input on every tile (every subscript and size a constant: the per-tile
access sets are equal, so their union is one of them and their sum is the tile count
times it), the cores can split the box instead: core p loads rows [p*r, (p+1)*r) of it
into the same rows of a region of its own scratchpad the size of the box, and the slices
are then relayed from ring neighbour to ring neighbour until every core's region holds
the whole box (each relay a read of a neighbour's scratchpad over the interconnect,
`device/routing.py`, `interconnect_hop`, priced by the cost model and executed by the
emulator from the same hop). Every tile reads its two neighbours at once, so each ring
link carries one transfer per direction per step; where every tile read every owner's
scratchpad directly, the readers' transfers (each holding all the links on its way)
queued behind each other. A reader must not read a slice before its neighbour has it:
the fill and each relay step are programs of their own, called before the reader's
program in order, and the program boundaries order them.

The subscripts may depend on the tile id (`index_at`): tiles that read one box each per
group, the groups strided (tile t in group t mod G, a split-K matmul's K slices) or
consecutive (t div P), with evenly spaced boxes (`groups_of`), share their group's box
among the group's P members in the same way, a member's rank standing for the tile id
and the next and previous members for its ring neighbours; members that are not ring
neighbours read over several links (the cost model prices the chain the device's
in-order grants make of them, `extract._Hardware.per_core_ring_shared`). Where the
groups' boxes lie one after another, their union is one box, and all tiles gather it
instead as one group of ring neighbours (`_as_union`), each copying its own box out at
its subscripts less the union's origin: more bytes over the ring, but no read waits for
another's links.

For such a transfer (a whole-box copy into an `input` buffer in the scratchpad, its
input never written by the kernel, the reading program called once by the orchestrator,
outside any branch or loop, on a grid of 2 to `num_cores` tiles, a group's size dividing
the box's rows, a slice's rows whole sticks of the scratchpad, the box fitting next to
the pinned bytes) this pass writes both forms and leaves the choice to the solver:

- `ktdf.share_fetch {decision = "pN.share.B", operand = "B", parts = P, fetch_program = F}`
  in the reading program N (0 = every core reads device memory, 1 = fetch once, share);
- program F (a new program, numbered after the others, called before N): each tile's
  DMA of its slice into its rows of the region (`ktdf.share_role = "fill"`);
- programs F+1 .. F+S, the relay steps (`relay_steps`): at step s tile t copies slice
  (t + s) mod P from its right neighbour's region and, while the left side has slices to
  bring, slice (t - s) mod P from its left neighbour's, into the same rows of its own
  (`"relay"`, through a `ct_local` view whose `ktdf.owner_by_tile` names the neighbour
  per tile);
- in N, beside the original transfer (`"direct"`), a read of the whole gathered region
  into the buffer: `"in_place"` when the computes can read the region itself (the buffer
  is exactly the box; the buffer is then marked `"direct"`: only that form has it),
  `"gathered"` otherwise;
- `ktdf.resident_regions = {<decision> = array<i64: START, END>}` on F .. F+S and N: the
  region, placed now above the pinned bytes and earlier regions, counted in every one
  of those programs' scratchpad when shared.

Several inputs program N shares (an FFN's weights) get a choice and a region each but
one fill program and one set of relay steps: F loads every input's slice and each step
moves every input's neighbour slices (the second input's values named `%share1_*`, and
so on), so the fills' device-memory latency and each step's wait for the slowest core
are paid once rather than once per input.

`apply-share` (after `solve`) keeps one form: shared, the direct transfer goes (an
`in_place` read too, the computes reading the region) and the region's bytes join every
program's pinned bytes; not shared, the input's transfers in programs F .. F+S and the
read of the region go, and a program left moving nothing goes with its call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AffineSetAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.dialects.registry import make_context
from spyre_sched.located_parser import LocatedParser
from spyre_sched.schedule.common import (
    PINNED_ATTR,
    PROGRAM_PREFIX,
    SCHEDULE_PREFIX,
    device_of,
    element_bytes,
    fresh_name,
    kernel_funcs,
    programs,
    row_major_strides,
    whole_box,
)
from spyre_sched.schedule.keep_across import REGIONS_ATTR
from spyre_sched.schedule.keep_resident import KEEP_ATTR, maker_of

NAME = "share-fetch"
SHARE_ATTR = "ktdf.share"
SHARE_ROLE_ATTR = "ktdf.share_role"
"""On the transfers a share choice changes: the decision's name, and the transfer's role:
`direct` (each core from device memory; on a staging buffer, one only the direct form
has), `fill` (an owner's load of its slice), `relay` (a copy of a slice from a
neighbour's region), `gathered` or `in_place` (the reader's read of its region)."""
OWNERS_ATTR = ktdf.OWNER_BY_TILE_ATTR


_TILE_ARITH = {arith.AddiOp: lambda a, b: a + b, arith.SubiOp: lambda a, b: a - b,
               arith.MuliOp: lambda a, b: a * b,
               arith.DivUIOp: lambda a, b: a // b if a >= 0 and b > 0 else None,
               arith.RemUIOp: lambda a, b: a % b if a >= 0 and b > 0 else None}


def index_at(value: SSAValue | int, tile: int | None) -> int | None:
    """The integer an index value has on tile `tile` (constants, the tile id, and sums,
    differences, products, quotients and remainders of them); with `tile` None, the value
    it has on every tile, or None when it depends on the tile."""
    if isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if isinstance(owner, ktdp.GetComputeTileIdOp) and len(owner.results) == 1:
        return tile
    combine = _TILE_ARITH.get(type(owner))
    if combine is not None:
        a, b = index_at(owner.lhs, tile), index_at(owner.rhs, tile)  # type: ignore[attr-defined]
        return None if a is None or b is None else combine(a, b)
    return None


def static_index(value: SSAValue | int) -> int | None:
    """The integer an index value always has (constants, sums and products of them)."""
    return index_at(value, None)


@dataclass(frozen=True)
class Groups:
    """The tiles that read one box: `count` groups of `parts` tiles each, tile t in group
    t mod count at rank t div count (`strided`: the members `count` tiles apart, a split-K
    matmul's tiles of one K slice) or in group t div parts at rank t mod parts (one after
    another); group g reads the box at `first` + g * `step`."""

    count: int
    parts: int
    strided: bool
    first: tuple[int, ...]
    step: tuple[int, ...]

    def group(self, tile: int) -> int:
        return tile % self.count if self.strided else tile // self.parts

    def rank(self, tile: int) -> int:
        return tile // self.count if self.strided else tile % self.parts

    def tile(self, group: int, rank: int) -> int:
        return rank * self.count + group if self.strided else group * self.parts + rank


def groups_of(bases: list[tuple[int, ...]]) -> Groups | None:
    """How the tiles (reading at `bases`, one per tile) fall into groups reading the same
    box, when they do in one of the two regular ways, with at least two tiles per group
    and the groups' boxes evenly spaced; None otherwise."""
    tiles = len(bases)
    distinct = list(dict.fromkeys(bases))
    count = len(distinct)
    if tiles % count or tiles // count < 2:
        return None
    parts = tiles // count
    for strided in (True, False):
        layout = Groups(count, parts, strided, (), ())
        first = [bases[layout.tile(g, 0)] for g in range(count)]
        step = tuple(b - a for a, b in zip(*first[:2])) if count > 1 else (0,) * len(first[0])
        found = Groups(count, parts, strided, first[0], step)
        if all(bases[t] == tuple(f + found.group(t) * d for f, d in zip(first[0], step))
               for t in range(tiles)):
            return found
    return None


@dataclass
class SharedRead:
    """A transfer every tile runs once per call, reading a box of an input, and one way
    of sharing it: `groups` of tiles gather the box of `sizes` at the groups' origins
    (every tile the same box: one group). With `within` (the shared box's origin), the
    shared box is the union of several groups' boxes, gathered on every tile, and each
    tile reads its own box (`own`) from it at its transfer's subscripts less `within`."""

    index: int
    fn: func.FuncOp
    transfer: ktdf.DataTransferOp
    view: ktdp.ConstructMemoryViewOp
    argument: int
    groups: Groups
    sizes: list[int]
    buffer: ktdf.BufferOp
    within: tuple[int, ...] | None = None
    own: list[int] | None = None


def _as_union(read: SharedRead, tiles: int) -> SharedRead | None:
    """The groups' boxes stacked one after another along the first dim (group g's right
    after group g - 1's): their union is one box, which all tiles can gather as one group
    of ring neighbours, where the groups' own members may be cores apart (a split-K
    matmul's tiles of one K slice, whose reads over several links would each wait for
    the next tile's)."""
    groups = read.groups
    if groups.count == 1 or groups.step[0] != read.sizes[0] or any(groups.step[1:]):
        return None
    union = Groups(1, tiles, True, groups.first, (0,) * len(read.sizes))
    return SharedRead(read.index, read.fn, read.transfer, read.view, read.argument, union,
                      [read.sizes[0] * groups.count, *read.sizes[1:]], read.buffer,
                      groups.first, read.sizes)


def _runs_once(t: Operation, fn: func.FuncOp) -> bool:
    """Only pipelines and stages between the transfer and the function: no loop, branch
    or parallel repeats or skips it."""
    parent = t.parent_op()
    while parent is not None and parent is not fn:
        if not isinstance(parent, ktdf.PipelineOp | ktdf.StageOp):
            return False
        parent = parent.parent_op()
    return parent is fn


def _argument_view(value: SSAValue, fn: func.FuncOp) -> tuple[ktdp.ConstructMemoryViewOp, int] | None:
    """The plain device-memory view of a kernel argument `value` comes from, with the
    argument's position."""
    view = value.owner
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or view.sizes or view.strides:
        return None
    if not isinstance(view.memory_space, ktdp.MemorySpaceAttr) or \
            view.memory_space.kind.data != "global" or view.attributes:
        return None
    offset = view.offset
    if not isinstance(offset, BlockArgument) or offset.owner is not fn.body.blocks[0]:
        return None
    return view, offset.index


def _shared_reads(index: int, fn: func.FuncOp, scratch: str,
                  tiles: int) -> list[list[SharedRead]]:
    """Per transfer that groups of tiles make alike, the ways of sharing it, the first
    preferred: the union of the groups' boxes gathered by all tiles, then each group's
    box by its members."""
    found = []
    for t in fn.walk():
        if not isinstance(t, ktdf.DataTransferOp) or t.mode != "copy" \
                or KEEP_ATTR in t.attributes or SHARE_ATTR in t.attributes:
            continue
        source = _argument_view(t.source, fn)
        buffer = maker_of(t.dest)
        if source is None or not isinstance(buffer, ktdf.BufferOp) \
                or buffer.role.data != "input" or buffer.memory != scratch:
            continue
        sizes = [static_index(v) for v in t.mixed_source_sizes()]
        dest = [static_index(v) for v in t.mixed_dest_offsets()]
        if any(v is None for v in sizes + dest) or not _runs_once(t, fn):
            continue
        bases = [tuple(index_at(v, tile) for v in t.mixed_source_offsets()) for tile in range(tiles)]
        if any(v is None for base in bases for v in base):
            continue
        groups = groups_of(bases)  # type: ignore[arg-type]
        if groups is None:
            continue
        read = SharedRead(index, fn, t, source[0], source[1], groups, sizes, buffer)  # type: ignore[arg-type]
        union = _as_union(read, tiles)
        found.append([read] if union is None else [union, read])
    return found


def _written_arguments(progs: dict[int, func.FuncOp]) -> set[int]:
    """Positions of the kernel arguments some program writes device memory through."""
    out = set()
    for fn in progs.values():
        for t in fn.walk():
            if isinstance(t, ktdf.DataTransferOp):
                view = t.dest.owner
                if isinstance(view, ktdp.ConstructMemoryViewOp) and \
                        isinstance(view.offset, BlockArgument):
                    out.add(view.offset.index)
            elif isinstance(t, ktdf.GatherViewOp):
                return set(range(len(fn.body.blocks[0].args)))  # not modelled: none shared
    return out


def _single_calls(orchestrator: func.FuncOp) -> dict[str, func.CallOp]:
    """Callee -> its call, for the programs called exactly once, directly in the
    orchestrator's body (one walk for all programs)."""
    calls: dict[str, list[func.CallOp]] = {}
    for c in orchestrator.walk():
        if isinstance(c, func.CallOp):
            calls.setdefault(c.callee.root_reference.data, []).append(c)
    body = orchestrator.body.blocks[0]
    return {name: cs[0] for name, cs in calls.items()
            if len(cs) == 1 and cs[0].parent_block() is body}


def _pinned(fn: Operation) -> int:
    attr = fn.attributes.get(PINNED_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def _region_end(fn: Operation) -> int:
    attr = fn.attributes.get(REGIONS_ATTR)
    if not isinstance(attr, DictionaryAttr):
        return 0
    return max((int(v.get_values()[1]) for v in attr.data.values()
                if isinstance(v, DenseArrayBase)), default=0)


def _add_region(fn: Operation, name: str, start: int, end: int) -> None:
    old = fn.attributes.get(REGIONS_ATTR)
    entries: dict[str, Attribute] = dict(old.data) if isinstance(old, DictionaryAttr) else {}
    entries[name] = DenseArrayBase.from_list(i64, [start, end])
    fn.attributes[REGIONS_ATTR] = DictionaryAttr(entries)


def slot_view(shape: list[int], element: Attribute, offset_bytes: int,
              owner: int | None) -> tuple[arith.ConstantOp, ktdp.ConstructMemoryViewOp]:
    """A row-major view of a slice's region: in the executing tile's scratchpad
    (`owner` None) or in core `owner`'s."""
    strides = row_major_strides(shape)
    offset = arith.ConstantOp(IntegerAttr(offset_bytes // element_bytes(element), IndexType()))
    view = ktdp.ConstructMemoryViewOp.build(
        operands=[offset.result, [], []],
        properties={"static_sizes": DenseArrayBase.from_list(i64, list(shape)),
                    "static_strides": DenseArrayBase.from_list(i64, strides),
                    "coordinate_set": AffineSetAttr(whole_box(shape)),
                    "memory_space": ktdp.MemorySpaceAttr(StringAttr("ct_local"),
                                                         IntAttr(owner) if owner is not None
                                                         else NoneAttr())},
        result_types=[MemRefType(element, list(shape))])
    return offset, view


def _argument_names(fn: func.FuncOp) -> list[str] | None:
    """The reading program's argument names (the job plan knows a program's arguments by
    them), or None when one could be taken for a value the generated programs name
    (`%share_*`, `%shareK_*`)."""
    names = [a.name_hint or f"arg{k}" for k, a in enumerate(fn.body.blocks[0].args)]
    if any(re.match(r"share\d*_", n) for n in names):
        return None
    return names


def _program_text(fn: func.FuncOp, index: int, grid: Attribute, values: str,
                  transfers: str) -> ModuleOp | None:
    """A DMA-only program `index` of one stage running `transfers` (their values defined
    by `values`; `%share_t` is the tile id) with the reading program `fn`'s arguments."""
    names = _argument_names(fn)
    if names is None:
        return None
    args = ", ".join(f"%{n}: {a.type}" for n, a in zip(names, fn.body.blocks[0].args))
    text = f"""builtin.module @{PROGRAM_PREFIX}{index} {{
    func.func @{SCHEDULE_PREFIX}{index}({args}) attributes {{grid = {grid}}} {{
      %share_t = ktdp.get_compute_tile_id : index
{values}
      ktdf.pipeline {{
        ktdf.private -> () {{
          ktdf.private_yield
        }}
        ktdf.stage depends_in(none) depends_out(none) {{
{transfers}
        }} {{applicable_units = ["dma"]}}
      }}
      func.return
    }}
  }}"""
    program = LocatedParser(make_context(), text, "<a fill or relay program>").parse_module()
    if program.parent is not None:
        program.detach()
    return program


def _box_type(shape: list[int], element: Attribute) -> str:
    return f"memref<{'x'.join(map(str, shape))}x{element}>"


def _region_view(result: str, shape: list[int], element: Attribute, start: int,
                 owners: list[int] | None = None) -> str:
    """Text of a row-major view of the region (the whole box) at byte `start`: in the
    executing tile's scratchpad, or, with `owners`, in core `owners[t]`'s for tile t."""
    space = "#ktdp.memory_space<ct_local>"
    extra = ""
    if owners is not None:
        space = f"#ktdp.memory_space<ct_local, ct_id = {owners[0]}>"
        extra = f", {OWNERS_ATTR} = array<i64: {', '.join(map(str, owners))}>"
    return (f"      {result}_at = arith.constant {start // element_bytes(element)} : index\n"
            f"      {result} = ktdp.construct_memory_view {result}_at, "
            f"sizes: [{', '.join(map(str, shape))}], strides: [{', '.join(map(str, row_major_strides(shape)))}] "
            f"{{coordinate_set = {AffineSetAttr(whole_box(shape))}, memory_space = {space}{extra}}} "
            f": {_box_type(shape, element)}")


@dataclass
class Gather:
    """One input a reading program shares: its read, decision and region; `prefix` names
    its values in the fill and relay programs (several inputs share those programs)."""

    read: SharedRead
    name: str
    start: int
    end: int
    prefix: str


def _position_text(p: str, groups: Groups, with_group: bool) -> tuple[str, str, str | None]:
    """Values placing the executing tile in its group: (their text, the name of its rank,
    the name of its group's index, `with_group` and several groups, or None)."""
    if groups.count == 1:
        return "", "%share_t", None
    if groups.strided:
        count, rank, group = f"%{p}_count", "divui", "remui"
        size = groups.count
    else:
        count, rank, group = f"%{p}_members", "remui", "divui"
        size = groups.parts
    text = (f"      {count} = arith.constant {size} : index\n"
            f"      %{p}_rank = arith.{rank} %share_t, {count} : index\n")
    if not with_group:
        return text, f"%{p}_rank", None
    return (text + f"      %{p}_group = arith.{group} %share_t, {count} : index\n",
            f"%{p}_rank", f"%{p}_group")


def _group_origin(p: str, k: int, first: int, step: int, group: str | None,
                  name: str) -> str:
    """Values defining `name`, dimension k of the origin of the executing tile's group's
    box: `first` + its group's index (the value `group`) x `step`."""
    if group is None or step == 0:
        return f"      {name} = arith.constant {first} : index\n"
    return (f"      %{p}_o{k}_first = arith.constant {first} : index\n"
            f"      %{p}_o{k}_step = arith.constant {step} : index\n"
            f"      %{p}_o{k}_off = arith.muli {group}, %{p}_o{k}_step : index\n"
            f"      {name} = arith.addi %{p}_o{k}_first, %{p}_o{k}_off : index\n")


def _fill_text(g: Gather, argument: str) -> tuple[str, str]:
    """Values and transfer of the fill: the tile of rank r in its group copies rows
    [r*R, (r+1)*R) of its group's box into the same rows of its region (the box's shape,
    at byte `start`)."""
    read, p = g.read, g.prefix
    groups = read.groups
    view = read.view
    mtype = view.result.type
    assert isinstance(mtype, MemRefType)
    element = mtype.element_type
    rows = read.sizes[0] // groups.parts
    slice_shape = [rows, *read.sizes[1:]]
    sizes = ", ".join(str(s) for s in view.static_sizes.get_values())
    strides = ", ".join(str(s) for s in view.static_strides.get_values())
    size = ", ".join(map(str, slice_shape))
    bases = ", ".join(f"%{p}_b{k}" for k in range(len(read.sizes)))
    position, rank, group = _position_text(p, groups, True)
    first = f"%{p}_first" if group is None or groups.step[0] == 0 else f"%{p}_o0"
    first_rows = _group_origin(p, 0, groups.first[0], groups.step[0], group, first)
    base_ops = "".join(_group_origin(p, k, groups.first[k], groups.step[k], group, f"%{p}_b{k}")
                       for k in range(1, len(read.sizes)))
    rest = "".join(", 0" for _ in slice_shape[1:])
    values = f"""      %{p}_rows = arith.constant {rows} : index
{position}      %{p}_start = arith.muli {rank}, %{p}_rows : index
{first_rows}      %{p}_b0 = arith.addi {first}, %{p}_start : index
{base_ops}      %{p}_whole = ktdp.construct_memory_view %{argument}, sizes: [{sizes}], strides: [{strides}] {{coordinate_set = {view.coordinate_set}, memory_space = {view.memory_space}}} : {mtype}
{_region_view(f"%{p}_region", read.sizes, element, g.start)}"""
    transfer = (f"          ktdf.data_transfer from %{p}_whole[{bases}] size [{size}] to "
                f"%{p}_region[%{p}_start{rest}] size [{size}] {{{SHARE_ATTR} = \"{g.name}\", "
                f"{SHARE_ROLE_ATTR} = \"fill\"}} : {mtype}, {_box_type(read.sizes, element)}")
    return values, transfer


def relay_steps(parts: int) -> tuple[int, int]:
    """Steps of the all-gather in which each tile reads its right neighbour, and its
    left: every slice but a tile's own arrives by one of the two directions."""
    right = parts // 2
    return right, parts - 1 - right


def _relay_text(g: Gather, step: int) -> tuple[str, str]:
    """Values and transfers of step `step` (from 1) of the all-gather within each group of
    P tiles: the tile of rank r copies slice (r + step) mod P from the next member's
    region, which holds it since the step before (its own slice at step 1), into the same
    rows of its own, and, while the other side has slices to bring, slice (r - step) mod P
    from the member before it. Each ring link between neighbouring members then carries
    one transfer per direction per step."""
    read, p = g.read, g.prefix
    groups = read.groups
    parts = groups.parts
    mtype = read.view.result.type
    assert isinstance(mtype, MemRefType)
    element = mtype.element_type
    rows = read.sizes[0] // parts
    slice_shape = [rows, *read.sizes[1:]]
    size = ", ".join(map(str, slice_shape))
    rest = "".join(", 0" for _ in slice_shape[1:])
    box = _box_type(read.sizes, element)
    right, left = relay_steps(parts)
    tiles = groups.count * parts

    def member(t: int, by: int) -> int:
        return groups.tile(groups.group(t), (groups.rank(t) + by) % parts)

    sides = []
    if step <= right:
        sides.append(("right", step, [member(t, 1) for t in range(tiles)]))
    if step <= left:
        sides.append(("left", parts - step, [member(t, -1) for t in range(tiles)]))
    position, rank, _ = _position_text(p, groups, False)
    values = [f"""      %{p}_rows = arith.constant {rows} : index
      %{p}_parts = arith.constant {parts} : index
{position}{_region_view(f"%{p}_region", read.sizes, element, g.start)}"""]
    transfers = []
    for side, ahead, owners in sides:
        values.append(f"""      %{p}_{side}_ahead = arith.constant {ahead} : index
      %{p}_{side}_sum = arith.addi {rank}, %{p}_{side}_ahead : index
      %{p}_{side}_slice = arith.remui %{p}_{side}_sum, %{p}_parts : index
      %{p}_{side}_row = arith.muli %{p}_{side}_slice, %{p}_rows : index
{_region_view(f"%{p}_{side}", read.sizes, element, g.start, owners)}""")
        transfers.append(
            f"          ktdf.data_transfer from %{p}_{side}[%{p}_{side}_row{rest}] size [{size}] "
            f"to %{p}_region[%{p}_{side}_row{rest}] size [{size}] {{{SHARE_ATTR} = \"{g.name}\", "
            f"{SHARE_ROLE_ATTR} = \"relay\"}} : {box}, {box}")
    return "\n".join(values), "\n".join(transfers)


def _steps(g: Gather) -> int:
    return max(relay_steps(g.read.groups.parts))


def _gathering_programs(fn: func.FuncOp, gathers: list[Gather], first: int,
                        grid: Attribute) -> list[ModuleOp] | None:
    """Program `first`, the fill of every input in `gathers`, and programs first+1 ..
    first+S, the relay steps, each moving every input's slices (while it has any): one
    program boundary (every core waiting for the slowest) per step for all of them, and
    the fills' device memory latency paid once."""
    names = _argument_names(fn)
    if names is None:
        return None
    fill = [_fill_text(g, names[g.read.argument]) for g in gathers]
    texts = [fill]
    steps = max(_steps(g) for g in gathers)
    texts += [[_relay_text(g, step) for g in gathers if step <= _steps(g)]
              for step in range(1, steps + 1)]
    made = []
    for k, parts_text in enumerate(texts):
        program = _program_text(fn, first + k, grid, "\n".join(v for v, _ in parts_text),
                                "\n".join(t for _, t in parts_text))
        if program is None:
            return None
        for g in gathers:
            _place_region(program, fn, g.name, g.start, g.end)
        made.append(program)
    return made


def _place_region(program: ModuleOp, reader: func.FuncOp, name: str, start: int,
                  end: int) -> None:
    inner = next(op for op in program.ops if isinstance(op, func.FuncOp))
    inner.attributes[PINNED_ATTR] = IntegerAttr(_pinned(reader), i64)
    _add_region(inner, name, start, end)


def _read_in_place(read: SharedRead) -> bool:
    """Whether the computes can read the gathered region itself in place of the staging
    buffer: the buffer is exactly the box (same shape, written at its origin), and every
    other use of it is a transfer reading it."""
    t = read.transfer
    mtype = read.buffer.result.type
    if read.within is not None or not isinstance(mtype, MemRefType) \
            or list(mtype.get_shape()) != list(read.sizes):
        return False
    if any(static_index(v) != 0 for v in t.mixed_dest_offsets()):
        return False
    return all(use.operation is t or isinstance(use.operation, ktdf.DataTransferOp)
               and use.operation.source == t.dest and use.operation.dest != t.dest
               for use in t.dest.uses)


def _gathered_read(read: SharedRead, start: int, name: str) -> None:
    """Beside the direct transfer: one read of the whole box from the tile's own region,
    where the fill and the relay steps have gathered every slice. When the computes can
    read the region in place (`_read_in_place`) the read is marked `in_place` and the
    staging buffer `direct` (it exists only when not shared): `apply-share` then points
    the computes' reads at the region and drops both."""
    t = read.transfer
    mtype = read.view.result.type
    assert isinstance(mtype, MemRefType)
    offset, view = slot_view(list(read.sizes), mtype.element_type, start, None)
    offset.result.name_hint = f"{read.buffer.operand.data}_gathered_at"
    view.result.name_hint = f"{read.buffer.operand.data}_gathered"
    Rewriter.insert_op([offset, view], InsertPoint.at_start(read.fn.body.blocks[0]))
    in_place = _read_in_place(read)
    dest = [static_index(v) for v in t.mixed_dest_offsets()]
    own = list(read.sizes) if read.own is None else list(read.own)
    source: list[SSAValue | int] = [0] * len(own)
    if read.within is not None:
        # the tile's own box inside the union: its subscripts less the union's origin
        source = []
        for value, origin in zip(t.mixed_source_offsets(), read.within):
            if not origin:
                source.append(value)
                continue
            less = arith.ConstantOp(IntegerAttr(origin, IndexType()))
            moved = arith.SubiOp(value, less.result) if isinstance(value, SSAValue) else None
            if moved is None:
                source.append(value - origin)  # type: ignore[operator]
                continue
            Rewriter.insert_op([less, moved], InsertPoint.before(t))
            source.append(moved.result)
    local = ktdf.DataTransferOp(view.result, source, own, t.dest, dest, own)  # type: ignore[arg-type]
    local.attributes[SHARE_ATTR] = StringAttr(name)
    local.attributes[SHARE_ROLE_ATTR] = StringAttr("in_place" if in_place else "gathered")
    if in_place:
        read.buffer.attributes[SHARE_ATTR] = StringAttr(name)
        read.buffer.attributes[SHARE_ROLE_ATTR] = StringAttr("direct")
    Rewriter.insert_op(local, InsertPoint.before(t))
    t.attributes[SHARE_ATTR] = StringAttr(name)
    t.attributes[SHARE_ROLE_ATTR] = StringAttr("direct")


def offer_sharing(module: ModuleOp, device) -> int:
    """Add a fetch-once choice for every transfer whose tiles read one box per group of
    them; returns how many were added."""
    kernels = kernel_funcs(module)
    if len(kernels) != 1:
        return 0
    orchestrator = kernels[0]
    grid = orchestrator.attributes.get("grid")
    if grid is None or not grid.data:  # type: ignore[attr-defined]
        return 0
    # the generated programs place a tile and name its neighbours by the linear tile id
    # (`ktdp.get_compute_tile_id` with one result), as the reading program's boxes are
    # evaluated
    tiles = prod(d.value.data for d in grid.data)  # type: ignore[attr-defined]
    if not 2 <= tiles <= device.num_cores:
        return 0
    progs = dict(programs(module))
    written = _written_arguments(progs)
    scratch = device.memory_kind_for("ct_local")
    capacity = device.scratchpad(0).size
    granularity = device.access_granularity(device.scratchpad(0).name)
    taken = {n for fn in progs.values() for n in ktdf.decision_ops(fn)}
    next_index = max(progs, default=-1) + 1
    single = _single_calls(orchestrator)
    added = 0
    for index in sorted(progs):
        fn = progs[index]
        call = single.get(fn.sym_name.data)
        if call is None:
            continue
        eligible = []
        for forms in _shared_reads(index, fn, scratch, tiles):
            usable = []
            for read in forms:
                parts = read.groups.parts
                if read.argument in written or read.sizes[0] % parts:
                    continue
                mtype = read.view.result.type
                assert isinstance(mtype, MemRefType)
                elt = element_bytes(mtype.element_type)
                slice_sizes = [read.sizes[0] // parts, *read.sizes[1:]]
                if slice_sizes[-1] * elt % granularity:
                    continue  # a slice's rows would not fill whole sticks of the scratchpad
                usable.append((read, elt))
            if usable:
                eligible.append(usable)
        # (the names are looked at only for a program that shares: they are as many as
        # the kernel's arguments, which grow with its programs)
        if not eligible or _argument_names(fn) is None:
            continue
        gathers: list[Gather] = []
        for usable in eligible:
            # the region holds its group's whole box on every core: each tile's slice,
            # then every other member's, relayed from member to member; the regions of a
            # program's shared inputs one above the other; the first form that fits
            start = -(-max(_pinned(fn), _region_end(fn)) // granularity) * granularity
            fits = [(read, start + prod(read.sizes) * elt) for read, elt in usable
                    if start + prod(read.sizes) * elt <= capacity]
            if not fits:
                continue
            read, end = fits[0]
            name = fresh_name(f"p{index}.share.{read.buffer.operand.data}", taken)
            _add_region(fn, name, start, end)
            prefix = "share" if not gathers else f"share{len(gathers)}"
            gathers.append(Gather(read, name, start, end, prefix))
        if not gathers:
            continue
        # one fill program and one set of relay steps for all of them
        made = _gathering_programs(fn, gathers, next_index, grid)
        assert made is not None  # the argument names were checked above
        for k, program in enumerate(made):
            Rewriter.insert_op(program, InsertPoint.at_end(module.body.block))
            callee = f"{SCHEDULE_PREFIX}{next_index + k}"
            decl = func.FuncOp.external(callee, list(fn.function_type.inputs.data), [])
            Rewriter.insert_op(decl, InsertPoint.before(fn.parent_op()))
            Rewriter.insert_op(func.CallOp(callee, list(call.arguments), []),
                               InsertPoint.before(call))
        body = fn.body.blocks[0]
        for g in gathers:
            _gathered_read(g.read, g.start, g.name)
            anchor = next(op for op in body.ops if op.is_ancestor(g.read.transfer))
            Rewriter.insert_op(ktdf.ShareFetchOp(g.name, g.read.buffer.operand.data,
                                                 g.read.groups.parts, next_index),
                               InsertPoint.before(anchor))
            added += 1
        next_index += len(made)
    return added


@dataclass(frozen=True)
class ShareFetch(ModulePass):
    """Offer the solver to fetch an input every tile reads whole once, shared over the
    interconnect."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        offer_sharing(op, device_of(op, NAME))
