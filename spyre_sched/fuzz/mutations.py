"""Deterministic text mutations of kernels, device files and bundle files, for robustness
fuzzing (`spyre-sched fuzz --mutate`, tests/robustness).

Each mutation takes the source text and a seeded `random.Random` and returns a new text
(or None when it does not apply). They model the mistakes a kernel author makes: a line
lost or repeated, a wrong literal, type or memory space, a misspelt value, a cut file;
and, for bundles, what a damaged or hand-edited file looks like (a flipped byte).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Mutation = Callable[[str, random.Random], "str | None"]

_INT = re.compile(r"(?<![\w.#%@])-?\d+(?![\w.])")
_FLOAT_TYPE = re.compile(r"\bf16\b|\bf32\b|\bi32\b|\bindex\b")
_SSA = re.compile(r"%[A-Za-z_][\w$.]*|%\d+")
_TOKEN = re.compile(r"[\w.#%@!$-]+|[^\s\w]")
_CONSTRAINT_CONST = re.compile(r"([+-]\s*)(\d+)(\s*(?:>=|==)\s*0)")
_GRID = re.compile(r"grid\s*=\s*\[[^\]]*\]")
_SPACE = re.compile(r"#ktdp\.memory_space<[^>]*>")
_LARGE = ["2147483648", "9223372036854775808", "-9223372036854775808", "9223372036854775807",
          "4611686018427387904", "100000", "65536", "1000000000000", "18446744073709551615"]
_GRIDS = ["[]", "[0]", "[-1]", "[1]", "[64]", "[2, 3]", "[1, 1, 1, 1]", "[4096]", "[2, 16]"]
_SPACES = ["#ktdp.memory_space<global>", "#ktdp.memory_space<ct_local>",
           "#ktdp.memory_space<ct_local, ct_id = 0>", "#ktdp.memory_space<ct_local, ct_id = 31>",
           "#ktdp.memory_space<ct_local, ct_id = 99>", "#ktdp.memory_space<ct_local, ct_id = -1>",
           "#ktdp.memory_space<HBM>", "#ktdp.memory_space<LX>"]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _replace_match(text: str, match: re.Match, new: str) -> str:
    return text[: match.start()] + new + text[match.end():]


def _pick(pattern: re.Pattern, text: str, rng: random.Random) -> re.Match | None:
    found = list(pattern.finditer(text))
    return rng.choice(found) if found else None


def delete_line(text, rng):
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(text, rng):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines)


def swap_lines(text, rng):
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def change_integer(text, rng):
    m = _pick(_INT, text, rng)
    if m is None:
        return None
    new = rng.choice(["0", "-1", "1", str(int(m.group()) + 1), str(int(m.group()) - 1),
                      rng.choice(_LARGE)])
    return _replace_match(text, m, new)


def change_type(text, rng):
    m = _pick(_FLOAT_TYPE, text, rng)
    if m is None:
        return None
    new = rng.choice([t for t in ("f16", "f32", "i32", "index", "bf16", "i1", "f64") if t != m.group()])
    if rng.random() < 0.3:  # every occurrence: a consistent retype
        return re.sub(rf"\b{m.group()}\b", new, text)
    return _replace_match(text, m, new)


def rename_value(text, rng):
    m = _pick(_SSA, text, rng)
    if m is None:
        return None
    other = _pick(_SSA, text, rng)
    new = other.group() if other is not None and rng.random() < 0.5 else m.group() + "_x"
    return _replace_match(text, m, new)


def drop_token(text, rng):
    m = _pick(_TOKEN, text, rng)
    return None if m is None else _replace_match(text, m, "")


def truncate(text, rng):
    return text[: rng.randrange(len(text) + 1)]


def flip_byte(text, rng):
    """One character's code point with one bit flipped (a damaged byte, kept as text)."""
    if not text:
        return None
    k = rng.randrange(len(text))
    flipped = chr((ord(text[k]) ^ (1 << rng.randrange(7))) or 0x20)
    return text[:k] + flipped + text[k + 1:]


def change_constraint(text, rng):
    m = _pick(_CONSTRAINT_CONST, text, rng)
    if m is None:
        return None
    value = int(m.group(2))
    new = rng.choice([0, 1, value + 1, max(value - 1, 0), value * 2 + 1, 1000, 2**40, 2**61, 2**62 - 1, 2**63])
    return text[: m.start(2)] + str(new) + text[m.end(2):]


def swap_memory_space(text, rng):
    m = _pick(_SPACE, text, rng)
    if m is None:
        return None
    new = rng.choice(_SPACES)
    if rng.random() < 0.3:
        return text.replace(m.group(), new)
    return _replace_match(text, m, new)


def change_grid(text, rng):
    m = _pick(_GRID, text, rng)
    return None if m is None else _replace_match(text, m, f"grid = {rng.choice(_GRIDS)}")


_SHAPE = re.compile(r"(?<=[<x])(\d+)(?=x)")
_SIBLING_OPS = [
    ["linalg.add", "linalg.sub", "linalg.mul", "linalg.div", "linalg.max"],
    ["arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf"],
    ["arith.addi", "arith.muli", "arith.subi", "arith.divsi", "arith.remsi"],
    ["spyreop.exp", "spyreop.sqrt", "spyreop.rsqrt", "spyreop.reciprocal", "spyreop.gelu",
     "spyreop.sigmoid", "math.exp", "math.log", "math.sqrt"],
    ["ktdp.inter_tile_produce", "ktdp.inter_tile_consume", "ktdp.inter_tile_reduce"],
    ["ktdp.construct_access_tile", "ktdp.construct_indirect_access_tile"],
]
_MAP = re.compile(r"affine_map<\(([^)]*)\)(\s*(?:\[[^\]]*\])?\s*->\s*)\(([^)]*)\)>")
_INDEX_LIST = re.compile(r"(%\w+)\[([^\]]*)\]")
_DIMENSIONS = re.compile(r"dimensions\s*=\s*\[[^\]]*\]")


def change_shape(text, rng):
    """One dimension size changed wherever that size is written in a shape (consistent)."""
    m = _pick(_SHAPE, text, rng)
    if m is None:
        return None
    new = rng.choice(["1", "2", str(int(m.group()) + 1), str(max(int(m.group()) // 2, 1)), "128"])
    return re.sub(rf"(?<=[<x]){m.group()}(?=x)", new, text)


def change_op(text, rng):
    names = [n for group in _SIBLING_OPS for n in group if re.search(rf"\b{re.escape(n)}\b", text)]
    if not names:
        return None
    old = rng.choice(names)
    group = next(g for g in _SIBLING_OPS if old in g)
    new = rng.choice([n for n in group if n != old])
    found = [m for m in re.finditer(rf"\b{re.escape(old)}\b", text)]
    return _replace_match(text, rng.choice(found), new)


def change_map(text, rng):
    """An affine map's results reversed, dropped, duplicated, shifted or divided."""
    m = _pick(_MAP, text, rng)
    if m is None:
        return None
    results = [r.strip() for r in m.group(3).split(",") if r.strip()]
    dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
    choice = rng.randrange(5)
    if choice == 4 and results:
        k = rng.randrange(len(results))
        op = rng.choice(["floordiv", "ceildiv", "mod"])
        results[k] = f"({results[k]}) {op} {rng.choice(['0', '-1', '2', '3', '64'])}"
    elif choice == 0:
        results = results[::-1]
    elif choice == 1 and results:
        results = results[:-1]
    elif choice == 2 and results:
        results = results + [results[0]]
    elif dims:
        results = [f"{r} + {rng.choice(dims)}" for r in results]
    return _replace_match(text, m, f"affine_map<({m.group(1)}){m.group(2)}({', '.join(results)})>")


def change_index(text, rng):
    """A subscript like %V[%a, %b] shifted, reordered, shortened or lengthened."""
    m = _pick(_INDEX_LIST, text, rng)
    if m is None:
        return None
    items = [i.strip() for i in m.group(2).split(",") if i.strip()]
    choice = rng.randrange(4)
    if choice == 0 and items:
        k = rng.randrange(len(items))
        items[k] = f"{items[k]} + {rng.choice(['1', '64', '-1', '1000000'])}"
    elif choice == 1:
        items = items[::-1]
    elif choice == 2 and items:
        items = items[:-1]
    else:
        items = items + [items[0] if items else "0"]
    return _replace_match(text, m, f"{m.group(1)}[{', '.join(items)}]")


def change_dimensions(text, rng):
    m = _pick(_DIMENSIONS, text, rng)
    new = rng.choice(["[]", "[0]", "[1]", "[2]", "[0, 1]", "[1, 1]", "[-1]"])
    return None if m is None else _replace_match(text, m, f"dimensions = {new}")


_RUNTIME_PARAM = re.compile(r"([(,]\s*)(%[\w$.]+)\s*:\s*!ktdp\.runtime_arg<[^>]*>")  # a parameter


def plain_runtime_argument(text, rng):
    """A run-time argument written as a plain `index` scalar, the values extracted from it
    replaced by the argument itself: a size the launch was to give becomes one the
    compile must know, read straight from the argument."""
    m = _pick(_RUNTIME_PARAM, text, rng)
    if m is None:
        return None
    name = m.group(2)
    text = _replace_match(text, m, f"{m.group(1)}{name}: index")
    extract = re.compile(rf"^\s*(%[\w$.]+)\s*=\s*ktdp\.runtime_arg_extract\s+\w+\s+from\s+"
                         rf"{re.escape(name)}\s*:[^\n]*\n", re.M)
    for found in list(extract.finditer(text))[::-1]:
        text = text[: found.start()] + text[found.end():]
        text = re.sub(rf"{re.escape(found.group(1))}(?![\w$.])", name, text)
    return text


GENERIC: list[Mutation] = [delete_line, duplicate_line, swap_lines, change_integer, change_type,
                           rename_value, drop_token, truncate]
SEMANTIC: list[Mutation] = [change_integer, change_type, change_constraint, swap_memory_space,
                            change_grid, change_shape, change_op, change_map, change_index,
                            change_dimensions, plain_runtime_argument]
KERNEL: list[Mutation] = GENERIC + SEMANTIC + SEMANTIC
#: any file of a bundle (IR, JSON): the generic edits plus damaged bytes
BUNDLE: list[Mutation] = GENERIC + [flip_byte, flip_byte, change_integer, change_type]


def mutate(text: str, seed: int, mutations: list[Mutation], steps: int = 1) -> str:
    """`steps` mutations picked and applied with a generator seeded by `seed`."""
    rng = random.Random(seed)
    for _ in range(steps):
        for _attempt in range(10):
            new = rng.choice(mutations)(text, rng)
            if new is not None and new != text:
                text = new
                break
    return text


# ---- JSON files (a bundle's job plan, symbols, schedule, manifest) ------------------------

_ODD_VALUES = [None, True, "x", "", -1, 0, 1, 2**63, 2**64 + 1, 1.5, [], {}, ["arg", "nowhere"],
               ["tile"], ["add", 1], ["mod", 1, 0], ["floordiv", ["arg", "A"], 0],
               "../../etc/passwd", "/etc/hostname"]


def _nodes(doc, path=()):
    """Every (path, value) of a JSON document, containers included, without recursion."""
    stack = [(path, doc)]
    while stack:
        where, value = stack.pop()
        yield where, value
        if isinstance(value, dict):
            stack.extend((where + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((where + (i,), v) for i, v in enumerate(value))


def mutate_json(text, rng):
    """A value of the document replaced (by an odd value, or a deep nesting), a key or an
    element removed, or a value duplicated into a sibling's place."""
    import json

    try:
        doc = json.loads(text)
    except ValueError:
        return None
    nodes = [(p, v) for p, v in _nodes(doc) if p]
    if not nodes:
        return None
    path, value = rng.choice(nodes)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    choice = rng.randrange(6)
    if choice == 0:
        del parent[last]
    elif choice == 1:
        nested = value
        for _ in range(rng.choice([50, 300, 2000])):
            nested = ["add", nested, 1] if rng.random() < 0.5 else [nested]
        parent[last] = nested
    elif choice == 2 and isinstance(value, int) and not isinstance(value, bool):
        parent[last] = value + rng.choice([-1, 1, 1000, -(2**40)])
    else:
        parent[last] = rng.choice(_ODD_VALUES)
    try:
        return json.dumps(doc, indent=1)
    except (RecursionError, ValueError):
        return None


JSON: list[Mutation] = [mutate_json, mutate_json, mutate_json, truncate, drop_token, duplicate_line]
