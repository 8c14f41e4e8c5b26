// Empty stand-in for Composable Kernel's <ck/ck.hpp> (and, through the headers beside it, the
// common ck/... includes): CK cannot be installed here. Including it compiles; naming anything
// in it, e.g. ck::half_t, stops the compile at the declaration below, whose note points here.
#pragma once

struct ck;  // Composable Kernel is NOT available offline: toolchain/include/standins/ck is an empty stand-in
