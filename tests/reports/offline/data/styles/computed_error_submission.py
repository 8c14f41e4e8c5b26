# Test submission (imported by the report, never run on a GPU): a templated source with an
# error on its fourth line once templated. The text appears nowhere in this file, so the
# report's message names the computed source and its line: `...computed_error_submission.py[cuda_sources]:4`.
from torch.utils.cpp_extension import load_inline

TEMPLATE = "#include <hip/hip_runtime.h>\n\n__global__ void @NAME@(float* out) {\n    out[threadIdx.x] = missing_value;\n}\n"

module = load_inline(name="computed_error", cpp_sources="", cuda_sources=TEMPLATE.replace("@NAME@", "computed_kernel"))
