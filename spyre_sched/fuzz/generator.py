"""Random valid KTIR kernels for the differential fuzzer, drawn from a choice tape.

`generate(choices)` builds one kernel: a 1-D, 2-D (or, rarely, 3-D) grid whose tiles each
own a block of a 1-D or 2-D tensor (block shapes the SIMD width does not divide, odd row
counts), then one to three load -> compute -> store programs. A program computes an
elementwise chain (a `linalg.generic` body of `arith`, `math` and `spyreop` ops, named
`linalg` ops, or `arith` ops on whole tensors), possibly broadcasting a row or column
vector, or a reduction over either axis (`linalg.reduce`, or a generic whose body maps
the input first; sums of f16 optionally in an f32 accumulator), or a matmul of the block
by a square weight every tile reads (an f32 sum possibly mapped back and multiplied
again, as an FFN's down projection). Inputs may be gathered row by row through an index
tensor (an indirect access tile), possibly a page of rows at a time (the row variable
read as page and row in the page through `floordiv` / `mod`). A program's result goes to
the output argument, or, when a later program reads it, to an intermediate in device
memory (a pointer argument), in the tile's own scratchpad (`ct_local`) or in a tensor
distributed over the tiles' scratchpads (each tile touching its own part, or storing
into the next core's part over the ring and reading it back from there). Views on
device memory may be padded, column-major, at `pointer + offset`, or share one pointer
with another view; element types are f16, f32 and (rarely, out of scope today) bf16;
float scalar arguments enter bodies; a run-time row count (`!ktdp.runtime_arg`) drives a
loop over row blocks.

Every kernel is race-free by construction: each tile writes only its own block (or, for
a remote store, the neighbour's part of a tensor only it reads back), and reads of
another tile's data are of inputs nobody writes. Rare choices deliberately step outside
today's supported scope (masked tails, bf16) so the fuzzer counts refusals too.
Each choice is gated by a feature name (`FEATURES`); `without` switches features off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spyre_sched.fuzz.choices import Choices

#: every feature the generator can switch on (a kernel records those it used)
FEATURES = (
    "grid2d", "grid3d", "rank1", "masked", "f32", "bf16", "reduce", "f32acc", "programs",
    "ct_local", "global_intermediate", "broadcast", "bias", "padded", "colmajor", "offset",
    "shared_pointer", "extra_view", "scalar", "runtime", "math", "spyreop", "named_ops",
    "tensor_arith", "divide", "scalar_math", "matmul", "gather", "paged",
    "distributed", "transposed", "remote_store", "scratchpad_argument",
)

ROWS = [2, 1, 3, 4, 5, 8, 7]
COLS = [64, 96, 37, 128, 8, 100, 16, 200, 65]
GRID_SIDES = [1, 2, 4, 3, 8]
MAX_TILES = 32

BINARY = ["arith.addf", "arith.mulf", "arith.subf", "arith.maximumf", "arith.minimumf"]
MATH = ["math.absf", "math.exp", "math.tanh"]
SPYREOP = ["spyreop.exp", "spyreop.sigmoid", "spyreop.gelu", "spyreop.softplus",
           "spyreop.reciprocal"]
NAMED = ["linalg.add", "linalg.mul", "linalg.sub", "linalg.max", "linalg.min"]
TENSOR_ARITH = ["arith.addf", "arith.mulf", "arith.subf", "arith.maximumf"]
REDUCE_KINDS = [("arith.addf", "0.0"), ("arith.maximumf", "-65504.0"),
                ("arith.minimumf", "65504.0")]


@dataclass
class FuzzKernel:
    """A generated kernel: its KTIR text, the run-time argument values to launch it with,
    the features it uses, its grid and the tape it came from."""

    text: str
    runtime_args: dict[str, int | float]
    features: list[str]
    grid: tuple[int, ...]
    tape: list[int] = field(default_factory=list)

    @property
    def tiles(self) -> int:
        n = 1
        for g in self.grid:
            n *= g
        return n


@dataclass
class Array:
    """A tensor argument in device memory (or an intermediate in it): its pointer, shape,
    element type and layout."""

    name: str  # the pointer argument
    shape: tuple[int | str, ...]  # str: a run-time extent (an SSA name)
    dtype: str
    layout: str = "dense"  # dense | padded | colmajor
    offset: int = 0  # elements from the pointer
    pad: int = 0
    blocked: bool = True  # split in blocks like the kernel's tensor (False: a weight)

    def strides(self) -> list[int]:
        if len(self.shape) == 1:
            return [1]
        rows, cols = self.shape
        if self.layout == "colmajor":
            assert isinstance(rows, int)
            return [1, rows]
        return [cols + self.pad, 1] if isinstance(cols, int) else [1]

    def span(self) -> int:
        """Elements from the view's origin to just past its last element."""
        dims = [d if isinstance(d, int) else 0 for d in self.shape]
        return sum((d - 1) * s for d, s in zip(dims, self.strides())) + 1


@dataclass
class Value:
    ssa: str
    kind: str  # full | row | col
    dtype: str


class _Builder:
    def __init__(self, ch: Choices):
        self.ch = ch
        self.header: dict[str, str] = {}  # constants, by name
        self.body: list[str] = []
        self.args: list[str] = []
        self.runtime_args: dict[str, int | float] = {}
        self.counter = 0
        self.scratch_cursor = 0  # bytes of ct_local handed out

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def const(self, value: int) -> str:
        name = f"%c{value}" if value >= 0 else f"%cm{-value}"
        self.header[name] = f"{name} = arith.constant {value} : index"
        return name

    def emit(self, line: str) -> None:
        self.body.append(self.indent + line)

    indent = "  "


def _set_text(shape: list[int | str], symbol: bool = False) -> str:
    dims = ", ".join(f"d{k}" for k in range(len(shape)))
    parts = []
    for k, d in enumerate(shape):
        parts.append(f"d{k} >= 0")
        parts.append(f"s0 - 1 - d{k} >= 0" if isinstance(d, str) else f"-d{k} + {d - 1} >= 0")
    return f"affine_set<({dims}){'[s0]' if symbol else ''} : ({', '.join(parts)})>"


def _memref(shape, dtype) -> str:
    return "memref<" + "x".join("?" if isinstance(d, str) else str(d) for d in shape) + \
        f"x{dtype}>"


def _tensor(shape, dtype) -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{dtype}>"


def _tile_type(shape) -> str:
    return "!ktdp.access_tile<" + "x".join(str(d) for d in shape) + "xindex>"


def _identity(rank: int) -> str:
    dims = ", ".join(f"d{k}" for k in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def generate(ch: Choices) -> FuzzKernel:
    """One random kernel from the answers of `ch`."""
    return _Kernel(ch).build()


class _Kernel:
    def __init__(self, ch: Choices):
        self.ch = ch
        self.b = _Builder(ch)
        self.pending_index: list[tuple[str, str]] = []  # (name, line) of index arithmetic
        self.in_loop = {"%i"}  # index values that depend on the run-time loop's counter
        self.view_lines: list[str] = []

    # ---- shape of the work ---------------------------------------------------------

    def build(self) -> FuzzKernel:
        ch = self.ch
        self.dtype = "f16"
        if ch.flag(20, "f32"):
            self.dtype = "f32"
        elif ch.flag(3, "bf16"):
            self.dtype = "bf16"
        self.runtime = ch.flag(10, "runtime")
        self.rank = 1 if (not self.runtime and ch.flag(15, "rank1")) else 2
        grid = [1]
        if not self.runtime:
            grid = [ch.pick(GRID_SIDES)]
            if ch.flag(30, "grid2d"):
                grid.append(ch.pick(GRID_SIDES))
                if ch.flag(4, "grid3d"):
                    grid.append(ch.pick(GRID_SIDES[:3]))
        while _product(grid) > MAX_TILES:
            grid[grid.index(max(grid))] //= 2
        self.grid = tuple(grid)
        self.br = ch.pick(ROWS)
        self.bc = ch.pick(COLS)
        g = self.grid + (1, 1)
        # Rows are split by grid dims 0 and 2, columns by dim 1 (rank 1: all dims, linear).
        self.row_blocks = g[0] * g[2]
        self.col_blocks = g[1]
        self.masked = not self.runtime and ch.flag(4, "masked")
        self.scalars: list[str] = []
        self.scalar_lines: list[str] = []  # scalar arithmetic on the argument, up front
        self._tile_ids()
        if self.rank == 2:
            rows = self.br * self.row_blocks
            self.shape: tuple = ("%N", self.bc * self.col_blocks) if self.runtime else \
                (rows, self.bc * self.col_blocks)
            self.block = (self.br, self.bc)
        else:
            self.shape = (self.bc * _product(self.grid),)
            self.block = (self.bc,)
        self.views_made: dict[str, str] = {}
        self.arrays: list[Array] = []
        self.inputs: list[Array] = []
        if self.runtime:
            self._runtime_header()
        self._programs()
        return self._finish()

    def _tile_ids(self) -> None:
        n = len(self.grid)
        if n == 1:
            names = ["%x"]
            self.id_line = "%x = ktdp.get_compute_tile_id : index"
        else:
            names = ["%x", "%y", "%z"][:n]
            self.id_line = f"{', '.join(names)} = ktdp.get_compute_tile_id : " + \
                ", ".join(["index"] * n)
        # index of the tile's row block and column block
        g = self.grid + (1, 1)
        if self.rank == 1:
            terms = {"%x": 1, "%y": g[0], "%z": g[0] * g[1]}
            self.lin = self._apply({k: v for k, v in terms.items() if k in names}, 0)
        elif not self.runtime:
            self.rb = self._apply({"%x": 1, **({"%z": g[0]} if n == 3 else {})}, 0)
            self.cb = "%y" if n >= 2 else None

    def _apply(self, coeffs: dict[str, int], constant: int) -> str:
        """An index value sum(coeff * name) + constant, in arith ops (the lowering reads
        arith index arithmetic, not affine.apply)."""
        if not coeffs:
            return self.b.const(constant)
        terms = []
        for name, k in coeffs.items():
            if k == 1:
                terms.append(name)
                continue
            term = self.b.fresh("i")
            self._index_line(term, f"arith.muli {name}, {self.b.const(k)} : index", [name])
            terms.append(term)
        if constant:
            terms.append(self.b.const(constant))
        total = terms[0]
        for term in terms[1:]:
            new = self.b.fresh("i")
            self._index_line(new, f"arith.addi {total}, {term} : index", [total, term])
            total = new
        return total

    def _index_line(self, name: str, op: str, uses: list[str]) -> None:
        if any(u in self.in_loop for u in uses):
            self.in_loop.add(name)
        self.pending_index.append((name, f"{name} = {op}"))

    def _runtime_header(self) -> None:
        ch = self.ch
        steps = ch.between(2, 4)
        upper = self.br * steps
        self.runtime_value = self.br * ch.between(1, steps)
        self.runtime_decl = (f"%n: !ktdp.runtime_arg<index, granularity = {self.br}, "
                             f"upperbound = {upper}>")

    # ---- block origins ----------------------------------------------------------------

    def origin(self, kind: str) -> list[str]:
        """The tile's origin in an array of values of `kind` (full: the block; row / col:
        one partial vector per block along the reduced axis)."""
        C = self.bc * self.col_blocks
        if self.rank == 1:
            return [self._scaled(self.lin, self.bc)]
        if kind == "full":
            return [self.row0, self.col0]
        if kind == "row":  # [br] per tile; partials of column block cb at cb * R
            if self.runtime:
                return [self.row0]
            R = self.br * self.row_blocks
            return [self._sum_index(self.cb, R, self.rb, self.br)]
        return [self._sum_index(self.rb, C, self.cb, self.bc)]  # col: rb * C + cb * bc

    def _neighbour_row(self) -> str:
        """The first row of the next tile's block, the last tile's neighbour being tile 0:
        ((x + 1) mod grid) * rows per block."""
        b = self.b
        after, nb = b.fresh("i"), b.fresh("i")
        self._index_line(after, f"arith.addi %x, {b.const(1)} : index", ["%x"])
        self._index_line(nb, f"arith.remui {after}, {b.const(self.grid[0])} : index", [after])
        return self._apply({nb: self.br}, 0)

    def _scaled(self, name: str, k: int) -> str:
        if name.startswith("%c"):
            return self.b.const(int(name[2:]) * k)
        return self._apply({name: k}, 0)

    def _sum_index(self, a: str | None, ka: int, c: str | None, kc: int) -> str:
        coeffs = {}
        for name, k in ((a, ka), (c, kc)):
            if name is not None and not name.startswith("%c"):
                coeffs[name] = k
        return self._apply(coeffs, 0)

    def vector_extent(self, kind: str) -> int | str:
        if kind == "row":
            return "%N" if self.runtime else self.br * self.row_blocks * self.col_blocks
        return self.bc * self.col_blocks * self.row_blocks

    def block_of(self, kind: str) -> tuple[int, ...]:
        if kind == "full":
            return self.block
        return (self.br,) if kind == "row" else (self.bc,)

    # ---- arrays and views ---------------------------------------------------------------

    def new_array(self, stem: str, shape, dtype, *, may_share: bool) -> Array:
        ch = self.ch
        name = f"%{stem}"
        array = Array(name, tuple(shape), dtype)
        if len(shape) == 2 and not self.runtime:
            if ch.flag(8, "padded"):
                array.layout, array.pad = "padded", ch.pick([3, 1, 64])
            elif ch.flag(6, "colmajor"):
                array.layout = "colmajor"
        if not self.runtime and ch.flag(8, "offset"):
            array.offset = ch.pick([64, 7, 1])
        if may_share and self.inputs and not self.runtime and ch.flag(10, "shared_pointer"):
            first = self.inputs[0]
            array.name = first.name  # a second tensor in the first input's buffer
            array.offset = first.offset + first.span() + ch.pick([0, 5, 64])
        else:
            self.b.args.append(f"{name}: index")
        self.arrays.append(array)
        return array

    def _origin(self, array: Array) -> str:
        """The SSA value of `array`'s first element: its pointer, plus its offset."""
        if not array.offset:
            return array.name
        origin = self.b.fresh("p")
        self.view_lines.append(f"{origin} = arith.addi {array.name}, "
                               f"{self.b.const(array.offset)} : index")
        return origin

    def view(self, array: Array) -> str:
        key = f"{array.name}+{array.offset}:{array.shape}"
        if key in self.views_made:
            return self.views_made[key]
        b = self.b
        origin = self._origin(array)
        name = b.fresh("V")
        shape = list(array.shape)
        coord = list(shape)
        if self.masked and array.blocked and len(shape) == 2 and array.shape == self.shape:
            coord[1] = shape[1] - 1  # the last column of every row is masked
        sizes = ", ".join(str(d) for d in shape)
        strides = ", ".join(str(s) for s in array.strides())
        symbol = any(isinstance(d, str) for d in shape)
        self.view_lines.append(
            f"{name} = ktdp.construct_memory_view {origin}, sizes: [{sizes}], strides: "
            f"[{strides}] {{coordinate_set = {_set_text(coord, symbol)}, memory_space = "
            f"#ktdp.memory_space<global>}} : {_memref(shape, array.dtype)}")
        self.views_made[key] = name
        return name

    def scratch_view(self, kind: str, dtype: str) -> tuple[str, list[str]]:
        """A view in this tile's scratchpad holding one block of `kind`."""
        b = self.b
        shape = list(self.block_of(kind))
        eb = 4 if dtype == "f32" else 2
        offset = -(-b.scratch_cursor // eb)
        elements = _product(shape)
        b.scratch_cursor = (offset + elements) * eb
        b.scratch_cursor = -(-b.scratch_cursor // 128) * 128
        name = b.fresh("S")
        strides = [shape[1], 1] if len(shape) == 2 else [1]
        self.view_lines.append(
            f"{name} = ktdp.construct_memory_view {b.const(offset)}, sizes: "
            f"[{', '.join(map(str, shape))}], strides: [{', '.join(map(str, strides))}] "
            f"{{coordinate_set = {_set_text(shape)}, memory_space = "
            f"#ktdp.memory_space<ct_local>}} : {_memref(shape, dtype)}")
        return name, [b.const(0)] * len(shape)

    def distributed_view(self, dtype: str) -> str:
        """A tensor of the kernel's shape spread over the tiles' scratchpads: tile k's
        block of rows lives in core k's scratchpad (one `ct_local` part per core, at the
        same scratchpad offset), so each tile writes and reads only its own part."""
        b = self.b
        rows, cols = self.shape
        br = self.br
        if self.ch.flag(35, "scratchpad_argument"):
            # the parts at a pointer argument (a tensor the caller pins in the cores'
            # scratchpads): the compiler chooses the offset, the runtime places it there
            start = f"%Q{len(self.arrays)}"
            b.args.append(f"{start}: index")
            self.arrays.append(Array(start, tuple(self.shape), dtype, blocked=False))
        else:
            eb = 4 if dtype == "f32" else 2
            offset = -(-b.scratch_cursor // eb)
            b.scratch_cursor = -(-((offset + br * cols) * eb) // 128) * 128
            start = b.const(offset)
        parts = []
        for k in range(self.grid[0]):
            part = b.fresh("P")
            box = (f"affine_set<(d0, d1) : (d0 - {k * br} >= 0, -d0 + {k * br + br - 1} >= 0, "
                   f"d1 >= 0, -d1 + {cols - 1} >= 0)>")
            self.view_lines.append(
                f"{part} = ktdp.construct_memory_view {start}, sizes: [{br}, {cols}], "
                f"strides: [{cols}, 1] {{coordinate_set = {box}, memory_space = "
                f"#ktdp.memory_space<ct_local, ct_id = {k}>}} : {_memref((br, cols), dtype)}")
            parts.append(part)
        name = b.fresh("D")
        part_type = _memref((br, cols), dtype)
        self.view_lines.append(
            f"{name} = ktdp.construct_distributed_memory_view ({', '.join(parts)} : "
            f"{', '.join([part_type] * len(parts))}) : {_memref(self.shape, dtype)}")
        return name

    def tile(self, view: str, view_shape, view_dtype, origin: list[str], block,
             transposed: bool = False) -> str:
        """An access tile of `block` at `origin`; `transposed`: a 2-D block traversed
        column-major (its data tile is the block's shape reversed)."""
        name = self.b.fresh("T")
        order = "affine_map<(d0, d1) -> (d1, d0)>" if transposed else _identity(len(block))
        shape = block[::-1] if transposed else block
        self.b.emit(f"{name} = ktdp.construct_access_tile {view}[{', '.join(origin)}] "
                    f"{{access_tile_set = {_set_text(list(block))}, access_tile_order = "
                    f"{order}}} : {_memref(view_shape, view_dtype)} -> "
                    f"{_tile_type(shape)}")
        return name

    # ---- programs -----------------------------------------------------------------------

    def _programs(self) -> None:
        ch, b = self.ch, self.b
        if self.rank == 2:
            if self.runtime:
                self.row0 = "%i"
                self.col0 = b.const(0)
            else:
                self.row0 = self._scaled(self.rb, self.br)
                self.col0 = self._scaled(self.cb, self.bc) if self.cb else b.const(0)
        if ch.flag(8, "scalar"):
            self.scalars.append("%s")
            b.args.append(f"%s: {self.dtype}")
            self.b.runtime_args["s"] = ch.pick([0.5, 1.5, -2.0, 3.0])
            if ch.flag(40, "scalar_math"):  # bodies read a value computed from it
                op = ch.pick(["arith.mulf", "arith.addf", "arith.maximumf"])
                k = ch.pick(["2.0", "-0.5", "0.125"])
                self.scalar_lines = [f"%sk = arith.constant {k} : {self.dtype}",
                                     f"%sd = {op} %s, %sk : {self.dtype}"]
                self.scalars = ["%sd"]
        count = 1 + (ch.between(1, 2) if ch.flag(35, "programs") else 0)
        if self.runtime:
            b.indent = "    "
        previous: Value | None = None
        for k in range(count):
            last = k == count - 1
            previous = self._program(k, previous, last)

    def _load_input(self, kind: str = "full") -> Value:
        ch = self.ch
        if kind == "full" and self.inputs and ch.flag(40):
            array = ch.pick(self.inputs)
        elif kind == "full" and self.rank == 2 and not (self.runtime or self.masked) \
                and ch.flag(8, "gather"):
            return self._gather()
        elif kind == "full":
            array = self.new_array(f"A{len(self.inputs)}", self.shape, self.dtype,
                                   may_share=True)
            self.inputs.append(array)
            if ch.flag(5, "extra_view"):  # an unused view on the same pointer, at row 0
                other = Array(array.name, self.shape, self.dtype, offset=array.offset)
                other.shape = (1,) + tuple(self.shape[1:])
                self.view(other)
        else:  # a bias vector, shared by every block along the other axis
            extent = self.shape[0] if kind == "row" else self.shape[-1]
            array = self.new_array(f"B{len(self.arrays)}", (extent,), self.dtype,
                                   may_share=False)
        view = self.view(array)
        if kind == "full":
            origin, block = self.origin("full"), self.block
        elif kind == "row":
            origin, block = [self.row0], (self.br,)
        else:
            origin, block = [self.col0], (self.bc,)
        if kind == "full" and self.rank == 2 and ch.flag(8, "transposed"):
            # read column-major, transposed back: the same block, another spelling
            tile = self.tile(view, array.shape, array.dtype, origin, block, transposed=True)
            read = self._load(tile, block[::-1], array.dtype, kind)
            return self._transpose(read, block[::-1])
        tile = self.tile(view, array.shape, array.dtype, origin, block)
        return self._load(tile, block, array.dtype, kind)

    def _transpose(self, value: Value, shape) -> Value:
        """`value` (a 2-D tensor of `shape`) transposed by `linalg.transpose`."""
        b = self.b
        out = _tensor(shape[::-1], value.dtype)
        e, name = b.fresh("e"), b.fresh("tr")
        b.emit(f"{e} = tensor.empty() : {out}")
        b.emit(f"{name} = linalg.transpose ins({value.ssa} : {_tensor(shape, value.dtype)}) "
               f"outs({e} : {out}) permutation = [1, 0]")
        return Value(name, value.kind, value.dtype)

    def _gather(self) -> Value:
        """The block's rows gathered from a table through an index tensor (an embedding
        lookup): row r of the block is table row Ids[row0 + r]."""
        ch, b = self.ch, self.b
        rows, cols = self.shape
        table = self.new_array(f"E{len(self.arrays)}", (rows + ch.pick([0, 3, 17]), cols),
                               self.dtype, may_share=False)
        table.blocked = False
        index_type = ch.pick(["i32", "i64"])
        ids = Array(f"%I{len(self.arrays)}", (rows,), index_type, blocked=False)
        b.args.append(f"{ids.name}: index")
        self.arrays.append(ids)
        t, d = b.fresh("t"), b.fresh("d")
        tile = b.fresh("T")
        block = self.block
        pages = [p for p in range(2, self.br + 1) if self.br % p == 0]
        if pages and ch.flag(40, "paged"):
            return self._paged_gather(table, ids, index_type, ch.pick(pages), t, d, tile)
        b.emit(f"{tile} = ktdp.construct_indirect_access_tile intermediate_variables({t}, {d}) "
               f"{self.view(table)}[ind({self.view(ids)}[{self.row0} + {t}]), "
               f"({self.col0} + {d})] {{variables_space_set = {_set_text(list(block))}, "
               f"variables_space_order = {_identity(2)}}} : {_memref(table.shape, self.dtype)}, "
               f"{_memref(ids.shape, index_type)} -> {_tile_type(block)}")
        return self._load(tile, block, self.dtype, "full")

    def _paged_gather(self, table: Array, ids: Array, index_type: str, page: int, t: str,
                      d: str, tile: str) -> Value:
        """The block's rows gathered a page of `page` rows at a time (a paged KV cache):
        the table seen as pages of `page` rows, the index tensor one page number per page
        of the kernel's rows, and the block's row variable read as its page (`floordiv`)
        and its row in the page (`mod`): the block's first page plus the variable's, or
        the block's first row plus the variable, read whole (a multiple of the page)."""
        b = self.b
        rows, cols = table.shape
        table.layout, table.pad = "dense", 0
        table.shape = (rows + (-rows) % page, cols)  # whole pages
        ids.shape = (self.shape[0] // page,)
        shape3 = [table.shape[0] // page, page, cols]
        origin = self._origin(table)
        paged = b.fresh("V")
        self.view_lines.append(
            f"{paged} = ktdp.construct_memory_view {origin}, sizes: [{shape3[0]}, {page}, "
            f"{cols}], strides: [{page * cols}, {cols}, 1] {{coordinate_set = "
            f"{_set_text(shape3)}, memory_space = #ktdp.memory_space<global>}} : "
            f"{_memref(shape3, self.dtype)}")
        block = self.block
        if self.ch.flag(50):  # the page and row of the block's row (row0 + t)
            row0 = self._scaled(self.rb, self.br)
            page_of, row_in = (f"(({row0} + {t}) floordiv {page})",
                               f"(({row0} + {t}) mod {page})")
        else:  # the block's first page plus the page of its row variable
            first = self._scaled(self.rb, self.br // page)
            page_of, row_in = f"{first} + ({t} floordiv {page})", f"({t} mod {page})"
        b.emit(f"{tile} = ktdp.construct_indirect_access_tile intermediate_variables({t}, {d}) "
               f"{paged}[ind({self.view(ids)}[{page_of}]), "
               f"{row_in}, ({self.col0} + {d})] {{variables_space_set = "
               f"{_set_text(list(block))}, variables_space_order = {_identity(2)}}} : "
               f"{_memref(shape3, self.dtype)}, {_memref(ids.shape, index_type)} -> "
               f"{_tile_type(block)}")
        return self._load(tile, block, self.dtype, "full")

    def _matmul(self, x: Value) -> Value:
        """The block times a square weight that every tile reads whole: [br, bc] x [bc, bc]
        (a named `linalg.matmul`, or a generic that reads the weight transposed), summed
        in f32 for f16 operands when the tape says so."""
        ch, b = self.ch, self.b
        k = self.bc
        weight = self.new_array(f"W{len(self.arrays)}", (k, k), x.dtype, may_share=False)
        weight.blocked = False
        zero = b.const(0)
        tile = self.tile(self.view(weight), weight.shape, x.dtype, [zero, zero], (k, k))
        w = self._load(tile, (k, k), x.dtype, "full")
        acc = "f32" if x.dtype == "f16" and ch.flag(40, "f32acc") else x.dtype
        out = _tensor(self.block, acc)
        f = self._filled("0.0", acc, out)
        name = b.fresh("mm")
        types = f"{_tensor(self.block, x.dtype)}, {_tensor((k, k), x.dtype)}"
        if ch.flag(50):
            b.emit(f"{name} = linalg.matmul ins({x.ssa}, {w.ssa} : {types}) "
                   f"outs({f} : {out}) -> {out}")
            return Value(name, "full", acc)
        weight_map = "(d2, d1)" if ch.flag(50) else "(d1, d2)"  # W or W transposed
        b.emit(f"{name} = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> "
               f"(d0, d2)>, affine_map<(d0, d1, d2) -> {weight_map}>, affine_map<(d0, d1, "
               f"d2) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\", "
               f"\"reduction\"]}} ins({x.ssa}, {w.ssa} : {types}) outs({f} : {out}) {{")
        p, q, c = b.fresh("a"), b.fresh("a"), b.fresh("y")
        b.emit(f"^bb0({p}: {x.dtype}, {q}: {x.dtype}, {c}: {acc}):")
        if acc != x.dtype:
            pe, qe = b.fresh("q"), b.fresh("q")
            b.emit(f"  {pe} = arith.extf {p} : {x.dtype} to {acc}")
            b.emit(f"  {qe} = arith.extf {q} : {x.dtype} to {acc}")
            p, q = pe, qe
        m, s = b.fresh("s"), b.fresh("s")
        b.emit(f"  {m} = arith.mulf {p}, {q} : {acc}")
        b.emit(f"  {s} = arith.addf {c}, {m} : {acc}")
        b.emit(f"  linalg.yield {s} : {acc}")
        b.emit(f"}} -> {out}")
        return Value(name, "full", acc)

    def _filled(self, value: str, dtype: str, out: str) -> str:
        """A tensor of type `out` filled with the `dtype` constant `value` (an
        accumulator's start)."""
        b = self.b
        e, f = b.fresh("e"), b.fresh("f")
        cst = b.fresh("k")
        b.emit(f"{cst} = arith.constant {value} : {dtype}")
        b.emit(f"{e} = tensor.empty() : {out}")
        b.emit(f"{f} = linalg.fill ins({cst} : {dtype}) outs({e} : {out}) -> {out}")
        return f

    def _load(self, tile: str, block, dtype: str, kind: str) -> Value:
        name = self.b.fresh("v")
        self.b.emit(f"{name} = ktdp.load {tile} : {_tile_type(block)} -> {_tensor(block, dtype)}")
        return Value(name, kind, dtype)

    def _program(self, k: int, previous: Value | None, last: bool) -> Value:
        ch = self.ch
        self.b.emit(f"// program {k}")
        operands: list[Value] = []
        if previous is not None:
            operands.append(self._reload(previous))
        reduce = (self.rank == 2 and ch.flag(35, "reduce")
                  and (previous is None or previous.kind == "full"))
        if previous is None or previous.kind != "full" or ch.flag(30):
            operands.insert(0, self._load_input("full"))
        if reduce:
            axis = 1 if (self.runtime or ch.flag(50)) else 0
            source = operands[0] if len(operands) == 1 else self._map(operands)
            result = self._reduce(source, axis)
        else:
            if self.rank == 2 and not self.masked and ch.flag(12, "matmul"):
                operands[0] = self._matmul(operands[0])
                if operands[0].dtype != self.dtype and ch.flag(40, "matmul"):
                    # an FFN's down projection: the sum mapped back to the kernel's type
                    # and multiplied again, its operand carrying the first sum's bound
                    operands[0] = self._matmul(self._generic([operands[0]]))
            if self.rank == 2 and ch.flag(20, "bias"):
                operands.append(self._load_input(ch.pick(["row", "col"])))
            result = self._map(operands)
        self._store(result, last)
        return result

    # ---- compute ------------------------------------------------------------------------

    def _map(self, operands: list[Value]) -> Value:
        ch = self.ch
        full = [v for v in operands if v.kind == "full"]
        same_type = all(v.dtype == self.dtype for v in operands)
        if same_type and len(full) == len(operands) and not self.scalars:
            if ch.flag(15, "named_ops"):
                return self._chain(full, NAMED, named=True)
            if ch.flag(10, "tensor_arith"):
                return self._chain(full, TENSOR_ARITH, named=False)
        return self._generic(operands)

    def _chain(self, values: list[Value], ops: list[str], named: bool) -> Value:
        ch, b = self.ch, self.b
        t = _tensor(self.block, self.dtype)
        pool = list(values)
        for _ in range(ch.between(1, 3)):
            op = ch.pick(ops)
            x, y = ch.pick(pool), ch.pick(pool)
            name = b.fresh("r")
            if named:
                init = b.fresh("e")
                b.emit(f"{init} = tensor.empty() : {t}")
                b.emit(f"{name} = {op} ins({x.ssa}, {y.ssa} : {t}, {t}) outs({init} : {t}) -> {t}")
            else:
                b.emit(f"{name} = {op} {x.ssa}, {y.ssa} : {t}")
            pool.append(Value(name, "full", self.dtype))
        return pool[-1]

    def _body(self, args: list[tuple[str, str]], out_dtype: str, extra_ops: int = 0) -> tuple[list[str], str]:
        """Scalar ops over block arguments (name, type): the lines and the final value, in
        `out_dtype`."""
        ch, b = self.ch, self.b
        lines = []
        pool = []
        for name, dtype in args:
            if dtype != out_dtype:
                conv = b.fresh("q")
                op = "arith.truncf" if dtype == "f32" else "arith.extf"
                lines.append(f"{conv} = {op} {name} : {dtype} to {out_dtype}")
                name = conv
            pool.append(name)
        # spyreop intrinsics take f16 and f32 (bf16 is the refusal counted elsewhere)
        unary = (MATH * ("math" not in ch.without)
                 + SPYREOP * ("spyreop" not in ch.without and out_dtype != "bf16"))
        for _ in range(ch.between(1, 3) + extra_ops):
            kind = ch.below(10)
            name = b.fresh("s")
            if kind < 6 or not unary:
                op = ch.pick(BINARY + (["arith.divf"] if ch.flag(10, "divide") else []))
                x, y = ch.pick(pool), ch.pick(pool)
                if self.scalars and ch.flag(30, "scalar"):
                    y = self._scalar_in(out_dtype, lines)
                lines.append(f"{name} = {op} {x}, {y} : {out_dtype}")
            else:
                op = ch.pick(unary)
                self.ch.features.add("spyreop" if op.startswith("spyreop") else "math")
                extra = " beta 1.0 threshold 20.0" if op == "spyreop.softplus" else ""
                lines.append(f"{name} = {op} {ch.pick(pool)}{extra} : {out_dtype}")
            pool.append(name)
        return lines, pool[-1]

    def _scalar_in(self, dtype: str, lines: list[str]) -> str:
        """The scalar argument as a `dtype` value of a body: converted there when the body
        computes in another type (an f16 sum in an f32 accumulator)."""
        if dtype == self.dtype:
            return self.scalars[0]
        conv = self.b.fresh("q")
        op = "arith.extf" if dtype == "f32" else "arith.truncf"
        lines.append(f"{conv} = {op} {self.scalars[0]} : {self.dtype} to {dtype}")
        return conv

    def _generic(self, operands: list[Value]) -> Value:
        b = self.b
        rank = len(self.block)
        dims = ", ".join(f"d{k}" for k in range(rank))
        maps, ins, types, args = [], [], [], []
        for v in operands:
            if v.kind == "full":
                maps.append(_identity(rank))
            else:
                self.ch.features.add("broadcast")
                maps.append(f"affine_map<({dims}) -> ({'d0' if v.kind == 'row' else 'd1'})>")
            ins.append(v.ssa)
            types.append(_tensor(self.block_of(v.kind), v.dtype))
            args.append((b.fresh("a"), v.dtype))
        maps.append(_identity(rank))
        out = _tensor(self.block, self.dtype)
        init = b.fresh("e")
        b.emit(f"{init} = tensor.empty() : {out}")
        lines, result = self._body(args, self.dtype)
        name = b.fresh("g")
        its = ", ".join(['"parallel"'] * rank)
        b.emit(f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
               f"iterator_types = [{its}]}} ins({', '.join(ins)} : {', '.join(types)}) "
               f"outs({init} : {out}) {{")
        params = ", ".join(f"{a}: {t}" for a, t in args)
        b.emit(f"^bb0({params}, {b.fresh('o')}: {self.dtype}):")
        for line in lines:
            b.emit("  " + line)
        b.emit(f"  linalg.yield {result} : {self.dtype}")
        b.emit(f"}} -> {out}")
        return Value(name, "full", self.dtype)

    def _reduce(self, source: Value, axis: int) -> Value:
        ch, b = self.ch, self.b
        kind = "row" if axis == 1 else "col"
        op, identity = ch.pick(REDUCE_KINDS)
        acc = self.dtype
        if op == "arith.addf" and self.dtype == "f16" and ch.flag(30, "f32acc"):
            acc = "f32"
        if acc == "f32" and self.dtype == "f32":
            identity = identity.replace("65504.0", "3.0e38")
        out_shape = self.block_of(kind)
        out = _tensor(out_shape, acc)
        f = self._filled(identity, acc, out)
        name = b.fresh("red")
        src_t = _tensor(self.block, source.dtype)
        if acc == source.dtype and not ch.flag(40):
            b.emit(f"{name} = linalg.reduce ins({source.ssa} : {src_t}) outs({f} : {out}) "
                   f"dimensions = [{axis}]")
            x, a = b.fresh("x"), b.fresh("y")
            b.emit(f"  ({x}: {acc}, {a}: {acc}) {{")
            r = b.fresh("s")
            b.emit(f"    {r} = {op} {x}, {a} : {acc}")
            b.emit(f"    linalg.yield {r} : {acc}")
            b.emit("  }")
        else:
            x, a = b.fresh("a"), b.fresh("y")
            lines, mapped = self._body([(x, source.dtype)], acc, extra_ops=0)
            r = b.fresh("s")
            lines.append(f"{r} = {op} {mapped}, {a} : {acc}")
            kept = "d0" if axis == 1 else "d1"
            its = '"parallel", "reduction"' if axis == 1 else '"reduction", "parallel"'
            b.emit(f"{name} = linalg.generic {{indexing_maps = [{_identity(2)}, "
                   f"affine_map<(d0, d1) -> ({kept})>], iterator_types = [{its}]}} "
                   f"ins({source.ssa} : {src_t}) outs({f} : {out}) {{")
            b.emit(f"^bb0({x}: {source.dtype}, {a}: {acc}):")
            for line in lines:
                b.emit("  " + line)
            b.emit(f"  linalg.yield {r} : {acc}")
            b.emit(f"}} -> {out}")
        return Value(name, kind, acc)

    # ---- where results go -----------------------------------------------------------------

    def _store(self, value: Value, last: bool) -> None:
        ch = self.ch
        block = self.block_of(value.kind)
        if (not last and value.kind == "full" and self.rank == 2 and len(self.grid) == 1
                and not self.runtime and ch.flag(25, "distributed")):
            view = self.distributed_view(value.dtype)
            origin = self.origin("full")
            if self.grid[0] > 1 and ch.flag(40, "remote_store"):
                # into the next core's part (the last tile into core 0's), read back from
                # there by the same tile: a store and a load over the ring
                origin = [self._neighbour_row(), origin[1]]
            home = ("distributed", view, list(self.shape), origin)
            value.home = home  # type: ignore[attr-defined]
        elif not last and ch.flag(50, "ct_local"):
            view, origin = self.scratch_view(value.kind, value.dtype)
            value.home = ("scratch", view, list(block), origin)  # type: ignore[attr-defined]
            shape = list(block)
        else:
            if value.kind == "full":
                shape = self.shape
            else:
                shape = (self.vector_extent(value.kind),)
            stem = "Y" if last else f"T{self.b.counter}"
            if not last:
                self.ch.features.add("global_intermediate")
            array = self.new_array(stem, shape, value.dtype, may_share=False)
            view = self.view(array)
            origin = self.origin(value.kind)
            value.home = ("global", view, list(shape), origin)  # type: ignore[attr-defined]
        _, view, vshape, origin = value.home  # type: ignore[attr-defined]
        if last and value.kind == "full" and self.rank == 2 and ch.flag(8, "transposed"):
            # transposed, then stored column-major: the same elements in place
            flipped = self._transpose(value, block)
            tile = self.tile(view, vshape, value.dtype, origin, block, transposed=True)
            self.b.emit(f"ktdp.store {flipped.ssa}, {tile} : "
                        f"{_tensor(block[::-1], value.dtype)}, {_tile_type(block[::-1])}")
            return
        tile = self.tile(view, vshape, value.dtype, origin, block)
        self.b.emit(f"ktdp.store {value.ssa}, {tile} : {_tensor(block, value.dtype)}, "
                    f"{_tile_type(block)}")

    def _reload(self, value: Value) -> Value:
        _, view, vshape, origin = value.home  # type: ignore[attr-defined]
        block = self.block_of(value.kind)
        tile = self.tile(view, vshape, value.dtype, origin, block)
        return self._load(tile, block, value.dtype, value.kind)

    # ---- text ---------------------------------------------------------------------------

    def _finish(self) -> FuzzKernel:
        b = self.b
        args = list(b.args)
        if self.runtime:
            args.append(self.runtime_decl)
            b.runtime_args["n"] = self.runtime_value
        lines = [f"// generated by spyre-sched fuzz; features: "
                 f"{', '.join(sorted(self.ch.features)) or 'none'}",
                 f"func.func @fuzz({', '.join(args)}) attributes "
                 f"{{grid = [{', '.join(map(str, self.grid))}]}} {{"]
        outside = [ln for name, ln in self.pending_index if name not in self.in_loop]
        inside = [ln for name, ln in self.pending_index if name in self.in_loop]
        if self.runtime:
            b.const(0), b.const(self.br)
        lines += ["  " + ln for ln in sorted(b.header.values(), key=_const_order)]
        lines.append("  " + self.id_line)
        lines += ["  " + ln for ln in self.scalar_lines]
        if self.runtime:
            decl = self.runtime_decl.split(": ", 1)[1]
            lines.append(f"  %N = ktdp.runtime_arg_extract value from %n : {decl} -> index")
        lines += ["  " + ln for ln in outside + self.view_lines]
        if self.runtime:
            lines.append(f"  scf.for %i = {b.const(0)} to %N step {b.const(self.br)} {{")
            lines += ["    " + ln for ln in inside]
        lines += b.body
        if self.runtime:
            lines.append("  }")
        lines += ["  return", "}"]
        return FuzzKernel("\n".join(lines) + "\n", dict(b.runtime_args),
                          sorted(self.ch.features), self.grid, list(self.ch.tape))


def _const_order(line: str) -> tuple:
    value = line.split("=")[1].split(":")[0].replace("arith.constant", "").strip()
    return (int(value),)


def _product(values) -> int:
    n = 1
    for v in values:
        n *= v
    return n
