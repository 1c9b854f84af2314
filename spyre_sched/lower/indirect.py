"""Lowering of a move of a box of a `ktdf.gather_view`: one `agen.indirect_load_and_store`.

The box of G (offsets o, sizes n over the gather's variables) becomes an access over the
variables' box whose strides are the direct (non-`ind`) subscripts' part of the address:
view dim k with coordinate `sum_u a_ku v_u + (outer values) + c_k` contributes
`stride_k * a_ku` to variable u's stride, and its constant part (taken at o) goes into
the base address. Each index tensor j contributes, per point, the value its address
buffer holds there times the stride of the view dim it indexes; the address buffer is
the one `indirect-addresses` filled in the same stage (the transfer marked
`ktdf.addresses_for = j` just before this one). The view's coordinate set bounds each
index value (the emulator reports one outside it).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, StringAttr, i64
from xdsl.ir import SSAValue

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.dialects.agen import IndirectLoadAndStoreOp, linear_form
from spyre_sched.errors import UnsupportedError
from spyre_sched.lower.values import Form


def _address_transfer(op: ktdf.DataTransferOp, j: int, index_view: SSAValue,
                      side: str) -> ktdf.DataTransferOp:
    """The index fetch for index tensor j that `indirect-addresses` placed in `op`'s
    pipeline (before `op` for a gather, in the loading stage for a scatter): the last one
    before `op`, so that where a stage moves several boxes of one gathered view, each
    reads the addresses fetched for it, not those of a later box."""
    found = None
    pipe = op.parent_op()
    while pipe is not None and not isinstance(pipe, ktdf.PipelineOp):
        pipe = pipe.parent_op()
    for other in pipe.walk() if pipe is not None else ():
        if other is op:
            break
        if isinstance(other, ktdf.DataTransferOp) and other.source == index_view:
            mark = other.attributes.get("ktdf.addresses_for")
            if isinstance(mark, StringAttr) and mark.data == f"{side}:{j}":
                found = other
    if found is None:
        raise UnsupportedError(f"lowering: a transfer of a gathered view has no address "
                               f"buffer for index tensor #{j} before it (indirect-addresses)")
    return found


def lower_indirect(units, op: ktdf.DataTransferOp, gather_is_source: bool,
                   src_sizes: Sequence[int], dst_sizes: Sequence[int], where, _access) -> None:
    """Emit the indirect transfer for `op` on `units` (a ProgramUnits builder);
    `_access(sizes, strides)` builds a box access."""
    pa = units.pa
    gview_value = op.source if gather_is_source else op.dest
    gop = gview_value.owner
    assert isinstance(gop, ktdf.GatherViewOp)
    view = pa.views[gop.source]
    sizes = list(src_sizes if gather_is_source else dst_sizes)
    raw_offsets = op.mixed_source_offsets() if gather_is_source else op.mixed_dest_offsets()
    offs = [units.env[o] if isinstance(o, SSAValue) else Form.constant(int(o)) for o in raw_offsets]
    outer = [units.env[v] for v in gop.outer]
    nd = len(sizes)
    dim_map = gop.dim_map.data
    ind = gop.ind_dims.get_values()
    if not view.maxima:
        raise UnsupportedError("lowering: an indirect access over a view without constant "
                               "bounds (its coordinate set bounds every index)", where)
    address = view.offset
    var_strides = [0] * nd
    view_strides, bounds = [], []
    order_of_index: dict[int, int] = {}
    for k, expr in enumerate(dim_map.results):
        stride, lo = view.strides[k], view.minima[k]
        address = address - Form.constant(lo).scale(stride)
        if ind[k] >= 0:
            order_of_index[ind[k]] = k
            continue
        form = linear_form(ktdp.symbols_as_dims(expr, nd, dim_map.num_symbols))
        assert form is not None  # checked by indirect-views
        coord = Form.constant(form[1])
        for d, c in form[0].items():
            if d < nd:
                var_strides[d] += stride * c
                coord = coord + offs[d].scale(c)
            else:
                coord = coord + outer[d - nd].scale(c)
        address = address + coord.scale(stride)
    index_bases, index_accesses, index_elements = [], [], []
    assert gop.index_views  # (a tile with none is a plain tile: unindexed-tiles)
    index_memory = ""
    for j, index_view in enumerate(gop.index_views):
        k = order_of_index[j]
        view_strides.append(view.strides[k])
        bounds += [view.minima[k], view.maxima[k]]
        fetch = _address_transfer(op, j, index_view, "source" if gather_is_source else "target")
        buf = pa.buffers[fetch.dest]
        zeros = [0] * len(buf.shape)
        mem, at, bstrides, elem = units.endpoint(fetch.dest, zeros, list(buf.shape))
        imap = gop.index_maps.data[j].data
        istrides = [0] * nd
        for r, expr in enumerate(imap.results):
            form = linear_form(ktdp.symbols_as_dims(expr, nd, imap.num_symbols))
            assert form is not None
            var = next((d for d in form[0] if d < nd), None)
            if var is not None:
                istrides[var] = bstrides[r]
        index_bases.append(units.value(at, "addresses", memory=mem))
        index_accesses.append(_access(sizes, istrides))
        index_elements.append(elem)
        index_memory = mem
    units.pointer = next((a for a, _ in view.offset.arg_terms()), None)
    pointer = units.pointer
    gather_side = (view.memory, units.value(address.scale(view.element_bytes),
                                            "src" if gather_is_source else "dst",
                                            memory=view.memory, argument=pointer),
                   _access(sizes, var_strides))
    other_value = op.dest if gather_is_source else op.source
    other_offsets = op.mixed_dest_offsets() if gather_is_source else op.mixed_source_offsets()
    other_sizes = list(dst_sizes if gather_is_source else src_sizes)
    omem, oaddr, ostrides, elem = units.endpoint(other_value, other_offsets, other_sizes)
    units.check_inside(other_value, other_offsets, other_sizes, op)
    other_side = (omem, units.value(oaddr, "dst" if gather_is_source else "src", memory=omem),
                  _access(other_sizes, ostrides))
    src, dst = (gather_side, other_side) if gather_is_source else (other_side, gather_side)
    units.emit(IndirectLoadAndStoreOp.build(
        operands=[src[1], dst[1], index_bases],
        properties={
            "source_memory": StringAttr(src[0]), "source_access": src[2],
            "target_memory": StringAttr(dst[0]), "target_access": dst[2],
            "indirect": StringAttr("source" if gather_is_source else "target"),
            "index_memory": StringAttr(index_memory),
            "index_accesses": ArrayAttr(index_accesses),
            "index_elements": ArrayAttr(index_elements),
            "view_strides": DenseArrayBase.from_list(i64, view_strides),
            "bounds": DenseArrayBase.from_list(i64, bounds),
            "element": view.element,
        }))
