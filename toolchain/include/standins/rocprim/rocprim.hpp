// Empty stand-in for <rocprim/rocprim.hpp>: rocPRIM cannot be installed here (no Debian or PyPI
// package). Including it (or any rocprim/ header) compiles; naming anything in it, e.g.
// rocprim::block_reduce, stops the compile at the declaration below, whose note points here.
#pragma once

struct rocprim;  // rocPRIM is NOT available offline: toolchain/include/standins/rocprim is an empty stand-in
