"""C++ source text as both engines' builds read and rewrite it.

`mask_comments_and_strings` gives a copy in which a pattern can only match code; `host_view`
is the host code's view of torch on the simulated host, whose tensors are CPU tensors under
either engine.
"""
from __future__ import annotations

import re


def mask_comments_and_strings(src: str) -> str:
    """A copy of src with comments and literal contents blanked (same length, newlines kept)."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a: int, b: int) -> None:
        for j in range(a, b):
            if out[j] != "\n":
                out[j] = " "

    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif src[i] == '"' and not re.match(r"R$", src[max(0, i - 1):i]):
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif src[i] == '"':  # raw string R"delim( ... )delim"
            m = re.match(r'"([^(]*)\(', src[i:])
            end = src.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 1
            blank(i + 1, j)
            i = j + 1
        elif src[i] == "'" and not src[i - 1:i].isalnum():
            j = i + 1
            while j < n and src[j] != "'":
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        else:
            i += 1
    return "".join(out)


# NOTE: on the simulated host every tensor is a CPU tensor, so a source's own device checks
# (x.is_cuda(), kCUDA, a tensor made by at::from_blob on a device pointer) must mean the CPU.
TORCH_DEVICE = [
    (re.compile(r"(\.|->)(\s*)is_cuda(\s*\(\s*\))"), r"\1\2is_cpu\3"),
    (re.compile(r"(\.|->)(\s*)cuda(\s*\(\s*\))"), r"\1\2cpu\3"),
    (re.compile(r"\bk(CUDA|HIP)\b"), "kCPU"),
    (re.compile(r"\bDeviceType\s*::\s*(CUDA|HIP)\b"), "DeviceType::CPU"),
]


# torch's C++ torch::cuda functions, answered as the simulated one-GPU host (each a lambda the call invokes).
TORCH_CUDA_CALL = re.compile(r"\btorch\s*::\s*cuda\s*::\s*(\w+)\b")
TORCH_CUDA_ANSWERS = {
    "device_count": "[] { return size_t(1); }",
    "is_available": "[] { return true; }",
    "cudnn_is_available": "[] { return false; }",
    "synchronize": "[](auto...) {}",
    "manual_seed": "[](uint64_t seed) { torch::manual_seed(seed); }",
    "manual_seed_all": "[](uint64_t seed) { torch::manual_seed(seed); }",
}
# A device named by a string: "cuda", "cuda:0", "hip" mean the CPU too.
TORCH_DEVICE_STRING = re.compile(r"\b(Device\s*\(\s*|\.\s*to\s*\(\s*)\"(cuda|hip)(:\d+)?\"")


def host_view(src: str) -> str:
    """x.is_cuda(), x.cuda(), kCUDA, DeviceType::CUDA, Device("cuda") in host code mean the CPU, and
    torch::cuda's device_count(), synchronize(), ... answer as the one simulated GPU; line numbers kept."""
    masked = mask_comments_and_strings(src)
    edits = []
    for pattern, replacement in TORCH_DEVICE:
        edits += [(m.start(), m.end(), m.expand(replacement)) for m in pattern.finditer(masked)]
    edits += [(m.start(), m.end(), TORCH_CUDA_ANSWERS[m[1]]) for m in TORCH_CUDA_CALL.finditer(masked)
              if m[1] in TORCH_CUDA_ANSWERS]
    edits += [(m.start(), m.end(), f'{m[1]}"cpu"') for m in TORCH_DEVICE_STRING.finditer(src)
              if masked[m.start()] == src[m.start()]]  # in code, not in a comment or string
    for a, b, text in sorted(edits, reverse=True):
        src = src[:a] + text + src[b:]
    return src
