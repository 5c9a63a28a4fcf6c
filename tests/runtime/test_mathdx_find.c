/*
 * test_mathdx_find - how the runtime finds MathDx, with no compile and no
 * device: GG_MATHDX_DIR wins; a folder without include/cublasdx.hpp gives
 * GG_ERR_NO_LIBRARY from gg_compile_features (GG_FEAT_MATHDX) with the
 * install command, before any compiler is called, and gg_mathdx_available
 * says the same; a module without the feature never asks.  The cache
 * identity of an install changes with its version headers' text and its
 * top headers' mtimes (toolkit.c says why that is enough).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "gg.h"
#include "toolkit.h"
#include "../expect.h"

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

int main(void)
{
  char tmpl[] = "/tmp/gg_mathdx_find.XXXXXX";
  char *root = mkdtemp(tmpl);
  if (!root) return 1;
  char path[1200], inc[256], sub[300];
  snprintf(inc, sizeof inc, "%s/include", root);
  snprintf(sub, sizeof sub, "%s/include/cublasdx", root);
  mkdir(inc, 0700);
  mkdir(sub, 0700);

  /* missing: the message names the folder, the variable and the command */
  setenv("GG_MATHDX_DIR", root, 1);
  char why[1600];
  CHECK(!gg_mathdx_available(why, sizeof why));
  CHECK(strstr(why, root) && strstr(why, "GG_MATHDX_DIR"));
  CHECK(strstr(why, "scripts/fetch-mathdx.py .deps/mathdx"));
  gg_compile_result res;
  gg_status st = gg_compile_features(GG_BACKEND_CUDA, "sm_90", "m.cu", "", NULL, GG_FEAT_MATHDX,
                                     &res);
  /* without NVRTC the compiler's absence is said first; with it, MathDx's */
  CHECK(st == GG_ERR_NO_LIBRARY);
  CHECK(res.log && (strstr(res.log, "scripts/fetch-mathdx.py") || strstr(res.log, "NVRTC")));
  CHECK(strstr(gg_error_detail(), "install") != NULL);
  gg_compile_result_free(&res);

  /* present: found, and its identity follows its headers */
  snprintf(path, sizeof path, "%s/cublasdx.hpp", inc);
  write_file(path, "#pragma once\n");
  snprintf(path, sizeof path, "%s/cublasdx_version.hpp", sub);
  write_file(path, "#define CUBLASDX_VERSION 400\n");
  CHECK(gg_mathdx_available(why, sizeof why) && why[0] == 0);
  char dir[1024], err[1600], id1[8192], id2[8192], id3[8192];
  CHECK(ggr_mathdx_dir(dir, sizeof dir, err, sizeof err) == 0 && strcmp(dir, root) == 0);
  ggr_mathdx_identity(dir, id1, sizeof id1);
  CHECK(strstr(id1, "CUBLASDX_VERSION 400") != NULL);
  ggr_mathdx_identity(dir, id2, sizeof id2);
  CHECK(strcmp(id1, id2) == 0);
  write_file(path, "#define CUBLASDX_VERSION 500\n"); /* another release */
  ggr_mathdx_identity(dir, id2, sizeof id2);
  CHECK(strcmp(id1, id2) != 0);
  snprintf(path, sizeof path, "%s/cublasdx.hpp", inc); /* a top header rewritten */
  struct timeval old[2] = {{1000, 0}, {1000, 0}};
  utimes(path, old);
  ggr_mathdx_identity(dir, id3, sizeof id3);
  CHECK(strcmp(id2, id3) != 0);

  /* the build-time folder when the variable is empty */
  setenv("GG_MATHDX_DIR", "", 1);
  CHECK(ggr_mathdx_dir(dir, sizeof dir, err, sizeof err) == 0 || strstr(err, "build"));

  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd)) return 1;
  if (failures) return 1;
  printf("test_mathdx_find: ok\n");
  return 0;
}
