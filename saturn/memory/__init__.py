"""Memory model. In: `saturn.logic`, `saturn.bitvec`, IR types. Out: `Obj` (typed locations with
fields as sub-objects and shared `Address`es, §2.2.4.2), `GLS` (guarded location sets, §2.2.4.1)
and `Memory` (object creation, views at an address, access paths)."""
