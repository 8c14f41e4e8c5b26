// Empty stand-in: see <ck/ck.hpp>.
#pragma once
#include <ck/ck.hpp>
