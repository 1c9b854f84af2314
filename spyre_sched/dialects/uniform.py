"""The `uniform` dialect: per-unit lookups of values that differ between unit instances.

One program unit runs on many unit instances (every core, every corelet). Where the
instances need different values (the compute tile id of a core, a symbol holding the
start address of the core's share of a tensor), the program builds an immutable map from
instance index to value, and each instance looks its own entry up:

    %m = uniform.def_immutable_mapping (%s0, %s1) {keys = array<i64: 0, 1>} : !uniform.map
    %core = dataflow.instance_index "core" : index
    %a = uniform.query_map %m[%core] : index
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IndexType, i64
from xdsl.ir import Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class MapType(ParametrizedAttribute, TypeAttribute):
    """`!uniform.map`: an immutable map from an instance index to an index value."""

    name = "uniform.map"


@irdl_op_definition
class DefImmutableMappingOp(IRDLOperation):
    """`%m = uniform.def_immutable_mapping (%v0, %v1, ...) {keys = array<i64: k0, k1, ...>} : !uniform.map`:
    key k_i maps to value %v_i. Keys are distinct, non-negative instance indices."""

    name = "uniform.def_immutable_mapping"

    keys = prop_def(DenseArrayBase)
    entries = var_operand_def(IndexType)
    result = result_def(MapType)

    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $entries `)` attr-dict `:` type($result)"

    def __init__(self, keys: list[int], values):
        super().__init__(
            operands=[values],
            properties={"keys": DenseArrayBase.from_list(i64, keys)},
            result_types=[MapType()],
        )

    @property
    def key_list(self) -> tuple[int, ...]:
        return tuple(int(k) for k in self.keys.get_values())

    def verify_(self) -> None:
        keys = self.key_list
        if self.keys.elt_type != i64:
            raise VerifyException("uniform.def_immutable_mapping: keys are an array<i64: ...>")
        if len(keys) != len(self.entries):
            raise VerifyException(
                f"uniform.def_immutable_mapping: {len(keys)} keys but {len(self.entries)} values"
            )
        if len(set(keys)) != len(keys):
            raise VerifyException("uniform.def_immutable_mapping: keys must be distinct")
        if any(k < 0 for k in keys):
            raise VerifyException("uniform.def_immutable_mapping: keys must be non-negative")


@irdl_op_definition
class QueryMapOp(IRDLOperation):
    """`%v = uniform.query_map %m[%key] : index`: the value the map holds for `%key`; a key
    the map lacks is an error at run time."""

    name = "uniform.query_map"

    map = operand_def(MapType)
    key = operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$map `[` $key `]` attr-dict `:` type($result)"

    def __init__(self, mapping, key):
        super().__init__(operands=[mapping, key], result_types=[IndexType()])


UNIFORM = Dialect("uniform", [DefImmutableMappingOp, QueryMapOp], [MapType])

__all__ = ["MapType", "DefImmutableMappingOp", "QueryMapOp", "UNIFORM"]
