// The C entry point of machine/occupancy.h for Python (machine/__init__.py builds this file
// into a small shared library), so the report and the ISA engine share one rule.
#include "occupancy.h"

extern "C" int machine_occupancy(uint32_t unified_vgprs, uint32_t sgprs, uint32_t lds_bytes, uint32_t workgroup_size,
                                 uint32_t* out /* workgroups_per_cu, waves_per_simd, limiter */) {
  const machine::Occupancy o = machine::occupancy(unified_vgprs, sgprs, lds_bytes, workgroup_size);
  out[0] = o.workgroups_per_cu;
  out[1] = o.waves_per_simd;
  out[2] = o.limiter;
  return 0;
}
