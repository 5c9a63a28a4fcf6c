/*
 * test_mathdx_nvrtc - MathDx (the nvidia-mathdx headers the set-up unpacks)
 * compiles under NVRTC as libgg compiles kernels: a cuFFTDx block FFT and a
 * cuBLASDx block GEMM, for sm_90, through gg_compile.  No device needed.
 * Skips (77) with the command that installs MathDx when it is missing.
 *
 *   test_mathdx_nvrtc MATHDX_DIR     (the folder holding include/cufftdx.hpp)
 */
#include <stdio.h>
#include <string.h>

#include "gg.h"

/* 1024-point complex-to-complex forward FFT, f32, one FFT per block. */
static const char fft_src[] =
    "#include <cufftdx.hpp>\n"
    "using namespace cufftdx;\n"
    "using FFT = decltype(Block() + Size<1024>() + Type<fft_type::c2c>() +\n"
    "                     Direction<fft_direction::forward>() + Precision<float>() +\n"
    "                     ElementsPerThread<8>() + FFTsPerBlock<1>() + SM<900>());\n"
    "extern \"C\" __global__ void __launch_bounds__(FFT::max_threads_per_block)\n"
    "fft1024(FFT::value_type *data) {\n"
    "  extern __shared__ __align__(16) unsigned char smem[];\n"
    "  FFT::value_type t[FFT::storage_size];\n"
    "  const unsigned stride = size_of<FFT>::value / FFT::elements_per_thread;\n"
    "  for (unsigned i = 0; i < FFT::elements_per_thread; i++)\n"
    "    t[i] = data[threadIdx.x + i * stride];\n"
    "  FFT().execute(t, smem);\n"
    "  for (unsigned i = 0; i < FFT::elements_per_thread; i++)\n"
    "    data[threadIdx.x + i * stride] = t[i];\n"
    "}\n";

/* 64x64x64 f32 GEMM by one block, operands in shared memory. */
static const char gemm_src[] =
    "#include <cublasdx.hpp>\n"
    "using namespace cublasdx;\n"
    "using GEMM = decltype(Size<64, 64, 64>() + Precision<float>() + Type<type::real>() +\n"
    "                      Function<function::MM>() + Arrangement<row_major, col_major>() +\n"
    "                      Block() + SM<900>());\n"
    "extern \"C\" __global__ void gemm64(const float *a, const float *b, float *c) {\n"
    "  extern __shared__ __align__(16) unsigned char smem[];\n"
    "  auto [sa, sb, sc] = slice_shared_memory<GEMM>(smem);\n"
    "  auto ta = make_tensor(reinterpret_cast<float *>(sa), GEMM::get_layout_smem_a());\n"
    "  auto tb = make_tensor(reinterpret_cast<float *>(sb), GEMM::get_layout_smem_b());\n"
    "  auto tc = make_tensor(reinterpret_cast<float *>(sc), GEMM::get_layout_smem_c());\n"
    "  auto ga = make_tensor(a, GEMM::get_layout_gmem_a());\n"
    "  auto gb = make_tensor(b, GEMM::get_layout_gmem_b());\n"
    "  auto gc = make_tensor(c, GEMM::get_layout_gmem_c());\n"
    "  copy<GEMM, 16>(ga, ta); copy<GEMM, 16>(gb, tb); copy<GEMM, 16>(gc, tc);\n"
    "  copy_wait();\n"
    "  GEMM().execute(1.0f, ta, tb, 0.0f, tc);\n"
    "  __syncthreads();\n"
    "  copy<GEMM, 16>(tc, gc);\n"
    "}\n";

static int compile(const char *what, const char *src, const char *const *opts) {
  gg_compile_result res;
  gg_status st = gg_compile(GG_BACKEND_CUDA, "sm_90", what, src, opts, &res);
  if (st == GG_ERR_NO_LIBRARY) {
    printf("skip: %s\n", res.log ? res.log : "no NVRTC");
    gg_compile_result_free(&res);
    return 77;
  }
  if (st)
    printf("FAIL %s: %s\n%s\n", what, gg_strerror(st), res.log ? res.log : "");
  else
    printf("ok   %s: %zu bytes of cubin\n", what, res.binary_size);
  gg_compile_result_free(&res);
  return st ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_mathdx_nvrtc MATHDX_DIR\n");
    return 2;
  }
  char probe[1200], inc[1100], cutlass[1100];
  snprintf(probe, sizeof probe, "%s/include/cufftdx.hpp", argv[1]);
  FILE *f = fopen(probe, "r");
  if (!f) {
    printf("skip: MathDx is not installed (no %s); scripts/deps.sh installs it, or run "
           "scripts/fetch-mathdx.py .deps/mathdx\n", probe);
    return 77;
  }
  fclose(f);
  snprintf(inc, sizeof inc, "-I%s/include", argv[1]);
  snprintf(cutlass, sizeof cutlass, "-I%s/external/cutlass/include", argv[1]);
  /* --device-as-default-execution-space: MathDx's helpers are not marked
   * __device__, and NVRTC refuses host functions ("not allowed in JIT mode") */
  const char *opts[] = {"--std=c++17", "--device-as-default-execution-space", inc, cutlass,
                        NULL};
  int r1 = compile("fft1024.cu", fft_src, opts);
  if (r1 == 77) return 77;
  int r2 = compile("gemm64.cu", gemm_src, opts);
  return r1 || r2 ? 1 : 0;
}
