"""The CPU engines: `source` (engines/source/: a HIP submission's source built for the host CPU
with gfx942's wave64 semantics) and `isa` (engines/isa/: its gfx942 machine code executed
instruction by instruction). Each is a `load_inline` drop-in; they never import each other."""
