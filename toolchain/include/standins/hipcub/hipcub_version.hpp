// Empty stand-in: see <hipcub/hipcub.hpp>.
#pragma once
#include <hipcub/hipcub.hpp>
