// Empty stand-in for <hipcub/hipcub.hpp>: hipCUB cannot be installed here (no Debian or PyPI
// package). Including it compiles; naming anything in it, e.g. hipcub::BlockReduce, stops the
// compile at the declaration below, whose note points here.
#pragma once

struct hipcub;  // hipCUB is NOT available offline: toolchain/include/standins/hipcub is an empty stand-in
