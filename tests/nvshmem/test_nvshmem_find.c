/*
 * test_nvshmem_find - how the runtime finds NVSHMEM, with no compile and
 * no device: GG_NVSHMEM_DIR wins; a folder without include/nvshmem.h
 * gives GG_ERR_NO_LIBRARY from gg_compile_features (GG_FEAT_NVSHMEM) with
 * the install command, before any compiler runs, and gg_nvshmem_available
 * says the same; HIP and PTX targets are refused with the reason.  The
 * cache identity of an install follows its version header's text and the
 * device library's size and mtime (toolkit.c).  A team (gg_team.h)
 * without the host library says what to install; its calls refuse NULL.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "gg.h"
#include "gg_team.h"
#include "internal.h"
#include "toolkit.h"
#include "../expect.h"

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

int main(void) {
  char tmpl[] = "/tmp/gg_nvshmem_find.XXXXXX";
  char *root = mkdtemp(tmpl);
  if (!root) return 1;
  char path[1200], sub[300];
  snprintf(path, sizeof path, "%s/include", root);
  mkdir(path, 0700);
  snprintf(sub, sizeof sub, "%s/include/non_abi", root);
  mkdir(sub, 0700);
  snprintf(path, sizeof path, "%s/lib", root);
  mkdir(path, 0700);

  /* missing: the message names the folder, the variable and the command */
  setenv("GG_NVSHMEM_DIR", root, 1);
  char why[1600];
  CHECK(!gg_nvshmem_available(why, sizeof why));
  CHECK(strstr(why, root) && strstr(why, "GG_NVSHMEM_DIR"));
  CHECK(strstr(why, "scripts/fetch-nvshmem.py .deps/nvshmem"));
  gg_compile_result res;
  gg_status st = gg_compile_features(GG_BACKEND_CUDA, "sm_90", "m.cu", "", NULL, GG_FEAT_NVSHMEM,
                                     &res);
  /* without NVRTC the compiler's absence is said first; with it, NVSHMEM's */
  CHECK(st == GG_ERR_NO_LIBRARY);
  CHECK(res.log && (strstr(res.log, "scripts/fetch-nvshmem.py") || strstr(res.log, "NVRTC")));
  gg_compile_result_free(&res);

  /* a team needs NVSHMEM's host library: missing, it says what to install */
  gg_team_uid uid;
  CHECK(gg_team_uid_new(&uid) == GG_ERR_NO_LIBRARY);
  CHECK(strstr(gg_error_detail(), "fetch-nvshmem.py"));
  /* the team calls check their arguments before anything else */
  gg_team *team = (gg_team *)1;
  gg_array *arr = (gg_array *)1;
  CHECK(gg_team_uid_new(NULL) == GG_ERR_INVALID);
  CHECK(gg_team_open(NULL, 0, 2, &uid, 1000, &team) == GG_ERR_INVALID && team == NULL);
  CHECK(gg_team_array_alloc(NULL, 64, &arr) == GG_ERR_INVALID && arr == NULL);
  CHECK(gg_team_rank(NULL) == -1 && gg_team_size(NULL) == 0);
  gg_team_free(NULL);

  /* present: found, and its identity follows its version and device library */
  snprintf(path, sizeof path, "%s/include/nvshmem.h", root);
  write_file(path, "#pragma once\n");
  snprintf(path, sizeof path, "%s/nvshmem_version.h", sub);
  write_file(path, "#define NVSHMEM_VENDOR_BASE_VERSION_STRING \"3.8.0\"\n");
  CHECK(gg_nvshmem_available(why, sizeof why) && why[0] == 0);
  char dir[1024], err[1600], id1[8192], id2[8192], id3[8192];
  CHECK(ggr_nvshmem_dir(dir, sizeof dir, err, sizeof err) == 0 && strcmp(dir, root) == 0);
  ggr_nvshmem_identity(dir, id1, sizeof id1);
  CHECK(strstr(id1, "3.8.0") != NULL);
  ggr_nvshmem_identity(dir, id2, sizeof id2);
  CHECK(strcmp(id1, id2) == 0);
  write_file(path, "#define NVSHMEM_VENDOR_BASE_VERSION_STRING \"3.9.0\"\n"); /* another release */
  ggr_nvshmem_identity(dir, id2, sizeof id2);
  CHECK(strcmp(id1, id2) != 0);
  snprintf(path, sizeof path, "%s/lib/libnvshmem_device.a", root); /* the archive replaced */
  write_file(path, "!<arch>\n");
  ggr_nvshmem_identity(dir, id3, sizeof id3);
  CHECK(strcmp(id2, id3) != 0);

  /* HIP has no NVSHMEM (nor MathDx); PTX cannot be linked: both refused,
   * saying why.  The HIP refusal names every CUDA-only feature asked for
   * (where hiprtc is missing, its absence is said first). */
  static const struct {
    unsigned features;
    const char *named, *not_named;
  } hip[] = {{GG_FEAT_NVSHMEM, "uses NVSHMEM, which is CUDA only", "MathDx"},
             {GG_FEAT_MATHDX | GG_FEAT_HALF, "uses MathDx (cuBLASDx/cuFFTDx), which is CUDA only",
              "NVSHMEM"},
             {GG_FEAT_MATHDX | GG_FEAT_NVSHMEM,
              "uses MathDx (cuBLASDx/cuFFTDx) and NVSHMEM, which are CUDA only", NULL}};
  for (int i = 0; i < 3; i++) {
    st = gg_compile_features(GG_BACKEND_HIP, "gfx90a", "m.hip", "", NULL, hip[i].features, &res);
    printf("HIP, features 0x%x: %s: %s\n", hip[i].features, gg_strerror(st),
           res.log ? res.log : "");
    CHECK(st == GG_ERR_UNSUPPORTED || st == GG_ERR_NO_LIBRARY);
    if (st == GG_ERR_UNSUPPORTED)
      CHECK(res.log && strstr(res.log, hip[i].named) &&
            (!hip[i].not_named || !strstr(res.log, hip[i].not_named)));
    else
      CHECK(res.log && strstr(res.log, "HIP"));
    gg_compile_result_free(&res);
  }
  char words[64];
  CHECK(ggr_compiled_features(GG_FEAT_MATHDX | GG_FEAT_NVSHMEM | GG_FEAT_PDL, words,
                              sizeof words) == 2);
  CHECK(!strcmp(words, "MathDx (cuBLASDx/cuFFTDx) and NVSHMEM"));
  CHECK(ggr_compiled_features(GG_FEAT_PDL | GG_FEAT_HALF, words, sizeof words) == 0 && !words[0]);
  CHECK(ggr_compiled_features(GG_FEAT_MATHDX | GG_FEAT_NVSHMEM, words, 8) == 2 &&
        strlen(words) == 7); /* cut, never overrun */
  st = gg_compile_features(GG_BACKEND_CUDA, "compute_90", "m.cu", "", NULL, GG_FEAT_NVSHMEM,
                           &res);
  CHECK(st == GG_ERR_UNSUPPORTED || st == GG_ERR_NO_LIBRARY);
  CHECK(res.log && (strstr(res.log, "sm_XX") || strstr(res.log, "NVRTC")));
  gg_compile_result_free(&res);

  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd)) return 1;
  if (failures) return 1;
  printf("test_nvshmem_find: ok\n");
  return 0;
}
