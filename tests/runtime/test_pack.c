/* gg_pack_args on a hand-written descriptor: layout, kinds, sizes. */
#include <stdio.h>
#include <string.h>

#include "gg.h"

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

/* struct { float a; float *x; long long n; void *gg_ws; unsigned gg_seq; } */
static const gg_param_desc params[] = {
  {"a", GG_PARAM_SCALAR, GG_F32, 0, {{0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 0, 4},
  {"x", GG_PARAM_VIEW, GG_F32, 1, {{0, 2}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 8, 8},
  {"n", GG_PARAM_EXTENT, GG_I64, 0, {{0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 16, 8},
  {"gg_ws", GG_PARAM_HIDDEN, GG_PTR, 0, {{0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, GG_HIDDEN_WORKSPACE, 24, 8},
  {"gg_seq", GG_PARAM_HIDDEN, GG_U32, 0, {{0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, GG_HIDDEN_SEQ, 32, 4},
};
static const gg_kernel_desc kd = {
  .name = "k", .symbol = "gg_k", .rank = 1, .range = {{0, 2}}, .block_size = 256,
  .items_per_thread = 1, .args_size = 40, .args_align = 8, .nparams = 5, .params = params,
};

int main(void) {
  unsigned char buf[64];
  char err[256];
  gg_arg args[3] = {gg_arg_f32(2.5f), gg_arg_i64(0), gg_arg_i64(1000)};
  /* a scalar where a view belongs */
  CHECK(gg_pack_args(&kd, args, 3, buf, sizeof buf, err, sizeof err) == GG_ERR_INVALID);
  CHECK(strstr(err, "x") && strstr(err, "view"));
  /* wrong count */
  CHECK(gg_pack_args(&kd, args, 2, buf, sizeof buf, err, sizeof err) == GG_ERR_INVALID);
  CHECK(strstr(err, "3 arguments, 2 given"));
  /* buffer too small */
  CHECK(gg_pack_args(&kd, args, 3, buf, 16, err, sizeof err) == GG_ERR_INVALID);
  /* negative extent */
  gg_arg neg[3] = {gg_arg_f32(1), gg_arg_i64(-1), gg_arg_i64(-5)};
  CHECK(gg_pack_args(&kd, neg, 3, buf, sizeof buf, err, sizeof err) == GG_ERR_INVALID);
  /* a bad descriptor (field past the end) is refused, never written */
  gg_param_desc badp[5];
  memcpy(badp, params, sizeof badp);
  badp[2].offset = 36;
  gg_kernel_desc badk = kd;
  badk.params = badp;
  CHECK(gg_pack_args(&badk, args, 3, buf, sizeof buf, err, sizeof err) == GG_ERR_INVALID);
  CHECK(gg_pack_args(NULL, args, 3, buf, sizeof buf, err, sizeof err) == GG_ERR_INVALID);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
