"""The repo's own amd-fp8-mm kernels: HIP variants, their configs, the per-shape table and
the packer that turns them into single-file submissions (see kernels/README.md)."""
