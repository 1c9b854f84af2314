"""Do two access instances touch the same memory element? (races, dependences)

Two instances (copies `__1` and `__2` of the per-instance variables: tile id, loop
variables, opaque values; pointers and run-time arguments are shared) overlap when some
coordinate touched by the first and some coordinate touched by the second land on the
same element of the same memory. Elements are compared by address when both views have
constant strides (so two different views of one tensor are compared correctly), else by
coordinate when both accesses go through the same view. Views on different pointer
arguments are taken not to alias (the caller's tensors are distinct).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.affine_values import ISL_NAME, AffineValues
from spyre_sched.polyhedral.isl_text import conj, make_set, witness
from spyre_sched.polyhedral.views import ViewModel, same_core_text


@dataclass(frozen=True)
class OverlapWitness:
    """Two instances touching one element: tile ids, loop values, the first's coordinate."""

    tile1: int
    tile2: int
    loops1: dict[str, int]
    loops2: dict[str, int]
    coordinate: tuple[int, ...]
    memory: str
    address: int | None  # element address relative to the view's pointer, when known
    others: dict[str, int]


_RENAMINGS: WeakKeyDictionary[AffineValues, dict] = WeakKeyDictionary()


def renaming(values: AffineValues, suffix: str) -> dict[str, str]:
    """Per-instance variable -> its name in copy `suffix` of an overlap set. Made once per
    kernel (keyed also by the variable count, which only grows): every pair of accesses
    asks for it, and the kernel's variables grow with its programs."""
    cache = _RENAMINGS.setdefault(values, {})
    key = (suffix, len(values.variables))
    if key not in cache:
        cache[key] = {v.name: f"{v.name}__{suffix}" for v in values.variables if v.per_instance}
    return cache[key]


def _reached(values: AffineValues, r1: dict[str, str], r2: dict[str, str], body: str,
             seeds: list[tuple[str, int]]) -> tuple[list[str], str]:
    """(parameters, context) of an overlap set over `body`: the variables it names (in
    copy 1, copy 2, or shared), the `seeds` (name, copy), and every variable their
    constraints name, transitively; the context bounds exactly those."""
    by_name = {v.name: v for v in values.variables}
    back = {renamed: (name, 1) for name, renamed in r1.items()}
    back.update({renamed: (name, 2) for name, renamed in r2.items()})

    def named(text: str, copy: int) -> set[tuple[str, int]]:
        found = set()
        for token in ISL_NAME.findall(text):
            if token in back:
                found.add(back[token])
            elif token in by_name:  # a shared variable, or one copy's text before renaming
                found.add((token, copy if by_name[token].per_instance else 0))
        return found

    todo = named(body, 0) | {(n, c if by_name[n].per_instance else 0) for n, c in seeds}
    todo = {(n, c) for n, c in todo if c or not by_name[n].per_instance}
    reached: set[tuple[str, int]] = set()
    while todo:
        item = todo.pop()
        if item in reached:
            continue
        reached.add(item)
        name, copy = item
        todo |= {i for i in named(by_name[name].constraint, copy) if i not in reached}
    params, texts = [], []
    for v in values.variables:  # in the kernel's order: the same sets as before
        for copy, rename in ((0, None), (1, r1), (2, r2)):
            if (v.name, copy) in reached:
                params.append(rename[v.name] if rename else v.name)
                texts.append(values.context(rename, names={v.name}))
    return params, conj(*texts)


def _every_variable(values: AffineValues, r1: dict[str, str], r2: dict[str, str]) -> list[str]:
    """Every variable of the kernel as a parameter: the shared ones, then each copy's."""
    names = [v.name for v in values.variables if not v.per_instance]
    for rename in (r1, r2):
        names += [rename[v.name] for v in values.variables if v.per_instance]
    return names


def _piece_text(access: AccessModel, part: ViewModel, coords: list[str],
                rename: dict[str, str], by_address: bool) -> tuple[str, str | None]:
    """(membership text, address text or None) of one part of an access."""
    # Positions outside the view's coordinate set are masked: a store there writes
    # nothing, a load reads zero; only coordinates of the part count.
    text = conj(access.contains_text(coords, rename), part.contains_text(coords, rename))
    address = part.address_text(coords, rename) if by_address else None
    return text, address


def memory_keys(access: AccessModel) -> frozenset:
    """The (memory space, root) of each part of `access`'s view: two accesses can touch
    one element only if they share one (`find_overlap` checks the same)."""
    return frozenset((p.memory.space, p.root_key) for p in access.view.parts)


def sharing_memory(firsts: Sequence[AccessModel], seconds: Sequence[AccessModel]
                   ) -> dict[int, list[int]]:
    """Index in `firsts` -> the indices in `seconds` (ascending) of the accesses that share
    a memory root with it: the only pairs worth asking `find_overlap` about, found with one
    look-up per access instead of one per pair."""
    by_key: dict = {}
    for j, b in enumerate(seconds):
        for key in memory_keys(b):
            by_key.setdefault(key, []).append(j)
    return {i: sorted({j for key in memory_keys(a) for j in by_key.get(key, ())})
            for i, a in enumerate(firsts)}


def find_overlap(a: AccessModel, b: AccessModel, relation: str,
                 earlier_loops: list | None = None, strict: bool = True) -> OverlapWitness | None:
    """A witness that instances of `a` and `b` touch one element, or None.

    `relation` restricts the two tile ids: "different" (t1 != t2), "same" (t1 = t2) or
    "any". `earlier_loops` (loop variables enclosing both, outermost first) further asks
    that `a`'s instance come in a lexicographically earlier iteration of them than `b`'s
    (`strict`), or in an iteration that is not later (not `strict`).
    """
    # only parts of one memory reached from one root can share an element: most pairs of
    # a kernel's accesses have none, and need none of the set-up below
    pairs = [(p1, p2) for p1 in a.view.parts for p2 in b.view.parts
             if p1.memory.space == p2.memory.space and p1.root_key == p2.root_key]
    if not pairs:
        return None
    values = a.values
    r1, r2 = renaming(values, "1"), renaming(values, "2")
    tile = values.tile.name
    tile_rel = {"different": f"{r1[tile]} != {r2[tile]}",
                "same": f"{r1[tile]} = {r2[tile]}", "any": "true"}[relation]
    order_rel = "true"
    if earlier_loops is not None:
        first = [r1[v.name] for v in earlier_loops]
        second = [r2[v.name] for v in earlier_loops]
        order_rel = lex_earlier(first, second)
        if not strict:
            same = conj(*(f"{x} = {y}" for x, y in zip(first, second)))
            order_rel = f"({order_rel}) or ({same})"
    relations = conj(tile_rel, order_rel)
    # the instances' own loops and tile id always (a witness names them), else only the
    # variables the two accesses reach: the rest of the kernel does not change the answer
    # and would make every set as large as the kernel
    seeds = ([(v.name, 1) for v in a.loops] + [(v.name, 2) for v in b.loops]
             + [(tile, 1), (tile, 2)])
    c1 = [f"c{k}" for k in range(a.rank)]
    c2 = [f"e{k}" for k in range(b.rank)]
    for p1, p2 in pairs:
        by_address = p1.has_address() and p2.has_address()
        if not by_address and p1 is not p2:
            continue  # dynamic strides on different views: no comparison possible
        t1, addr1 = _piece_text(a, p1, c1, r1, by_address)
        t2, addr2 = _piece_text(b, p2, c2, r2, by_address)
        core = same_core_text(p1.memory, p1.tile_text(r1), p2.memory, p2.tile_text(r2))
        if by_address:
            same = conj(core, f"{addr1} = {addr2}")
        else:
            same = conj(core, *(f"{x} = {y}" for x, y in zip(c1, c2)))
        overlap = f"exists ({', '.join(c2)} : {conj(t2, same)})"
        params, context = _reached(values, r1, r2, conj(relations, t1, overlap), seeds)
        if make_set(params, c1, conj(context, relations, t1, overlap)).is_empty():
            continue
        # Found (rare): the witness is picked from the set over every variable of the
        # kernel, as it always was, so it does not depend on what the test above skipped.
        everything = conj(values.context(r1), values.context(r2), tile_rel, order_rel)
        full = make_set(_every_variable(values, r1, r2), c1, conj(everything, t1, overlap))
        if full.is_empty():
            # the test above keeps only the variables the pieces reach; with every
            # variable's definition the set can still be empty (a mutant's subscripts
            # whose derived values no instance takes): no witness, no overlap
            continue
        point = witness(full)
        loops1 = {v.name: point[r1[v.name]] for v in a.loops}
        loops2 = {v.name: point[r2[v.name]] for v in b.loops}
        coordinate = tuple(point[c] for c in c1)
        shared = {v.name: point[v.name] for v in values.variables if not v.per_instance}
        address = None
        if by_address and p1.constant_strides is not None and p1.minima is not None:
            address = _address(p1, coordinate, point, r1)
        memory = str(p1.memory.resolve(point[r1[tile]]))
        return OverlapWitness(point[r1[tile]], point[r2[tile]], loops1, loops2,
                              coordinate, memory, address, shared)
    return None


def lex_earlier(first: list[str], second: list[str]) -> str:
    """isl text: the iteration vector `first` comes strictly before `second`."""
    if not first:
        return "false"
    terms = []
    for k in range(len(first)):
        equal = [f"{x} = {y}" for x, y in zip(first[:k], second[:k])]
        terms.append(conj(*equal, f"{first[k]} < {second[k]}"))
    return " or ".join(f"({t})" for t in terms)


def _address(part: ViewModel, coordinate: tuple[int, ...], point: dict[str, int],
             rename: dict[str, str]) -> int | None:
    """The element address of `coordinate` in the instance `rename`, pointers taken as 0."""
    env = {v.name: point.get(rename.get(v.name, v.name), 0) for v in part.values.variables}
    for v in part.root:
        env[v.name] = 0
    if any(abs(int(x)) >= 2**62 for x in (*coordinate, *env.values())):
        return None  # an overflowing index computation: the race is reported without it
    return int(part.address_of([coordinate], env)[0])
