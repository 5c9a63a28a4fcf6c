/* gg_compile really compiles here: NVRTC for sm_80/sm_90 (cubin) and
 * compute_90 (PTX), hiprtc for gfx90a/gfx1030; errors carry the workload's
 * file:line; unknown archs are refused before hiprtc can abort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "../expect.h"

static const char *src =
  "extern \"C\" __global__ void gg_saxpy(float a, const float *x, float *y, long long n) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < n) y[i] = a * x[i] + y[i];\n"
  "}\n";

static const char *bad =
  "extern \"C\" __global__ void gg_bad(float *y) {\n"
  "#line 12 \"saxpy.lua\"\n"
  "  y(i) = undefined_thing;\n"
  "}\n";

static void compile_ok(gg_backend b, const char *arch, const char *magic, size_t magic_len) {
  gg_compile_result r;
  gg_status st = gg_compile(b, arch, "t.cu", src, NULL, &r);
  if (st == GG_ERR_NO_LIBRARY) {
    printf("%s: compiler missing (%s); not checked\n", arch, r.log ? r.log : "");
    gg_compile_result_free(&r);
    return;
  }
  printf("%s: %s, %zu bytes\n", arch, gg_strerror(st), r.binary_size);
  CHECK(st == GG_OK);
  CHECK(r.binary && r.binary_size > magic_len && !memcmp(r.binary, magic, magic_len));
  gg_compile_result_free(&r);
}

int main(void) {
  compile_ok(GG_BACKEND_CUDA, "sm_80", "\177ELF", 4);
  compile_ok(GG_BACKEND_CUDA, "sm_90", "\177ELF", 4);
  compile_ok(GG_BACKEND_AUTO, "compute_90", "//", 2); /* PTX text */
  compile_ok(GG_BACKEND_HIP, "gfx90a", "\177ELF", 4); /* hiprtc 5.2 returns the bare code object */
  compile_ok(GG_BACKEND_AUTO, "gfx1030", "\177ELF", 4); /* hiprtc 5.2 returns the bare code object */

  gg_compile_result r;
  gg_status st = gg_compile(GG_BACKEND_CUDA, "sm_90", "t.cu", bad, NULL, &r);
  if (st != GG_ERR_NO_LIBRARY) {
    printf("compile error log:\n%s\n", r.log ? r.log : "(none)");
    CHECK(st == GG_ERR_COMPILE);
    CHECK(r.log && strstr(r.log, "saxpy.lua") && strstr(r.log, "12"));
  }
  gg_compile_result_free(&r);
  st = gg_compile(GG_BACKEND_HIP, "gfx90a", "t.hip", bad, NULL, &r);
  if (st != GG_ERR_NO_LIBRARY) {
    CHECK(st == GG_ERR_COMPILE);
    CHECK(r.log && strstr(r.log, "saxpy.lua:12"));
  }
  gg_compile_result_free(&r);

  /* archs hiprtc 5.2 would abort on are refused first */
  CHECK(!gg_arch_supported(GG_BACKEND_HIP, "gfx942"));
  CHECK(!gg_arch_supported(GG_BACKEND_HIP, "gfx90"));
  CHECK(gg_arch_supported(GG_BACKEND_HIP, "gfx90a"));
  st = gg_compile(GG_BACKEND_HIP, "gfx942", "t.hip", src, NULL, &r);
  CHECK(st == GG_ERR_UNSUPPORTED && r.log && strstr(r.log, "gfx942"));
  gg_compile_result_free(&r);
  st = gg_compile(GG_BACKEND_CUDA, "sm_9", "t.cu", src, NULL, &r);
  CHECK(st == GG_ERR_INVALID);
  gg_compile_result_free(&r);
  CHECK(gg_compile(GG_BACKEND_CUDA, NULL, "t.cu", src, NULL, &r) == GG_ERR_INVALID);
  gg_compile_result_free(&r);

  /* CUDA_HOME pointing nowhere: NVRTC is missing, and the message says where we looked */
  setenv("CUDA_HOME", "/nonexistent/cuda", 1);
  st = gg_compile(GG_BACKEND_CUDA, "sm_90", "t.cu", src, NULL, &r);
  CHECK(st == GG_ERR_NO_LIBRARY && r.log && strstr(r.log, "/nonexistent/cuda/lib64/libnvrtc.so"));
  printf("CUDA_HOME=/nonexistent/cuda: %s\n", r.log ? r.log : "");
  gg_compile_result_free(&r);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
