/* Without a GPU (this CI machine) opening a context fails cleanly, naming
 * what is missing; with a missing library override it names the file.
 * Exits 77 if a GPU is actually present (then tests/gpu covers it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "../expect.h"

int main(void) {
  gg_context *ctx = NULL;
  gg_status st = gg_context_open(&ctx, NULL);
  if (st == GG_OK) {
    printf("a GPU is present (%s); skipping\n", gg_context_device_name(ctx));
    gg_context_free(ctx);
    return 77;
  }
  printf("open: %s: %s\n", gg_strerror(st), gg_error_detail());
  CHECK(st == GG_ERR_NO_LIBRARY || st == GG_ERR_NO_DEVICE);
  CHECK(ctx == NULL);
  CHECK(strlen(gg_error_detail()) > 10);
  CHECK(strstr(gg_error_detail(), "lib") != NULL); /* names a library */

  setenv("GG_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
  gg_context_options o = {0};
  o.backend = GG_BACKEND_CUDA;
  st = gg_context_open(&ctx, &o);
  printf("open with GG_CUDA_LIBRARY=/nonexistent: %s: %s\n", gg_strerror(st), gg_error_detail());
  CHECK(st == GG_ERR_NO_LIBRARY);
  CHECK(strstr(gg_error_detail(), "/nonexistent/libcuda.so.1") != NULL);

  setenv("GG_HIP_LIBRARY", "/nonexistent/libamdhip64.so", 1);
  o.backend = GG_BACKEND_AUTO;
  st = gg_context_open(&ctx, &o);
  printf("open AUTO, both missing: %s: %s\n", gg_strerror(st), gg_error_detail());
  CHECK(st == GG_ERR_NO_LIBRARY);
  CHECK(strstr(gg_error_detail(), "libcuda") && strstr(gg_error_detail(), "libamdhip64"));

  /* An impossible SM partition is refused before any library is looked for. */
  gg_context_options bad[] = {{.sm_count = -8}, {.sm_rest = 1}, {.sm_count = 16, .sm_rest = 2}};
  for (int i = 0; i < 3; i++) {
    st = gg_context_open(&ctx, &bad[i]);
    printf("open sm_count %d sm_rest %d: %s: %s\n", bad[i].sm_count, bad[i].sm_rest,
           gg_strerror(st), gg_error_detail());
    CHECK(st == GG_ERR_INVALID && ctx == NULL);
    CHECK(strstr(gg_error_detail(), "sm_count") != NULL);
  }

  /* every status has a message */
  for (int s = 0; s >= -15; s--) CHECK(strcmp(gg_strerror((gg_status)s), "unknown gpugen status"));
  CHECK(!strcmp(gg_strerror((gg_status)-99), "unknown gpugen status"));
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
