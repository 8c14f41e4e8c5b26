// Prints where the rocWMMA stand-in puts each fragment element: one line per (fragment, lane,
// element) as `<use> <M> <type> <lane> <element> <row> <col>`, for fragments whose K is one
// MFMA step and for two steps. tests/reports/offline/test_standins.py checks every line against the AMD
// Matrix Instruction Calculator's register layouts (tests/data/spec/mfma).
// Built as plain host C++ (not HIP), where the device-only functions the header calls in its
// load/store bodies are not declared; the probe only calls the layout function.
inline unsigned __lane_id() { return 0; }
inline void __syncthreads() {}

#include <rocwmma/rocwmma.hpp>

#include <cstdio>

using namespace rocwmma;

template <typename Use, uint32_t M, uint32_t K, typename T>
void dump(const char* use, const char* type) {
    constexpr uint32_t count = detail::elements_per_lane<Use, M, M, K>();
    for (uint32_t lane = 0; lane < 64; ++lane) {
        for (uint32_t index = 0; index < count; ++index) {
            uint32_t row, col;
            detail::coordinate<Use, M, M, K, T>(lane, index, row, col);
            std::printf("%s %u %u %s %u %u %u %u\n", use, M, K, type, lane, index, row, col);
        }
    }
}

template <uint32_t M, uint32_t K, typename T>
void dump_all(const char* type) {
    dump<matrix_a, M, K, T>("A", type);
    dump<matrix_b, M, K, T>("B", type);
    dump<accumulator, M, K, float>("D", type);
}

int main() {
    dump_all<16, 32, float8_t>("fp8");
    dump_all<32, 16, float8_t>("fp8");
    dump_all<16, 64, float8_t>("fp8");
    dump_all<32, 32, float8_t>("fp8");
    dump_all<16, 16, bfloat16_t>("bf16");
    dump_all<32, 8, bfloat16_t>("bf16");
    dump_all<16, 32, bfloat16_t>("bf16");
    dump_all<32, 16, bfloat16_t>("bf16");
    return 0;
}
