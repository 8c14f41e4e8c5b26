// Empty stand-in for Composable Kernel's <ck/ck.hpp> (and, through the generated headers beside
// it, every other ck/... include). The gfx942 compile (ISA engine, offline report) finds CK's real
// headers before it once `python -m toolchain.ck` (scripts/setup.sh) has fetched them; the source
// engine always finds this: a CPU build cannot tell CK's __host__ and __device__ overloads apart.
// Including it compiles; naming anything in it, e.g. ck::half_t, stops the compile at the
// declaration below, whose note points here.
#pragma once

struct ck;  // Composable Kernel is NOT available offline in this build: the source engine cannot build it; the ISA engine needs python -m toolchain.ck
