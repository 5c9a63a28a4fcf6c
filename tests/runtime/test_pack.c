/* gg_pack_args on a hand-written descriptor: layout, kinds, sizes. */
#include <stdio.h>
#include <string.h>

#include "gg.h"
#include "internal.h" /* a gg_array without a device */
#include "../expect.h"

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
  gg_arg args[3] = {gg_arg_f32(2.5f), gg_arg_i64(0), gg_arg_i64(1000)};
  /* a scalar where a view belongs */
  CHECK(gg_pack_args(&kd, args, 3, buf, sizeof buf) == GG_ERR_INVALID);
  CHECK(strstr(gg_error_detail(), "x") && strstr(gg_error_detail(), "view"));
  /* wrong count */
  CHECK(gg_pack_args(&kd, args, 2, buf, sizeof buf) == GG_ERR_INVALID);
  CHECK(strstr(gg_error_detail(), "3 arguments, 2 given"));
  {
    gg_arg four[4] = {gg_arg_f32(2.5f), gg_arg_i64(0), gg_arg_i64(1000), gg_arg_i64(1)};
    CHECK(gg_pack_args(&kd, four, 4, buf, sizeof buf) == GG_ERR_INVALID);
    CHECK(strstr(gg_error_detail(), "3 arguments, 4 given"));
  }
  /* buffer too small */
  CHECK(gg_pack_args(&kd, args, 3, buf, 16) == GG_ERR_INVALID);
  /* negative extent: a real array for x, so the extent's own check is
   * the one that refuses */
  struct gg_array arr = {.space = GG_SPACE_DEVICE, .bytes = 4096, .dptr = 0x10000};
  gg_arg neg[3] = {gg_arg_f32(1), gg_arg_array(&arr), gg_arg_i64(-5)};
  CHECK(gg_pack_args(&kd, neg, 3, buf, sizeof buf) == GG_ERR_INVALID);
  CHECK(strstr(gg_error_detail(), "negative") && strstr(gg_error_detail(), "-5"));
  gg_arg okn[3] = {gg_arg_f32(1), gg_arg_array(&arr), gg_arg_i64(1000)};
  CHECK(gg_pack_args(&kd, okn, 3, buf, sizeof buf) == GG_OK);
  /* tile_reduce: the output holds one element per tile, ceil(n / tile) */
  {
    /* struct { const float *x; float *o; long long n; long long m; } */
    static const gg_param_desc tp[] = {
      {"x", GG_PARAM_VIEW, GG_F32, 1, {{0, 2}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 0, 8},
      {"o", GG_PARAM_VIEW, GG_F32, 1, {{0, 3}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_OUT, 0, 8, 8},
      {"n", GG_PARAM_EXTENT, GG_I64, 0, {{0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 16, 8},
      {"m", GG_PARAM_EXTENT, GG_I64, 0, {{0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 24, 8},
    };
    const gg_kernel_desc tk = {
      .name = "t", .symbol = "gg_t", .pattern = GG_PATTERN_TILE_REDUCE, .rank = 1,
      .range = {{0, 2}}, .block_size = 256, .items_per_thread = 1, .args_size = 32,
      .args_align = 8, .nparams = 4, .params = tp, .tile = 7, .into_param = 1,
    };
    struct gg_array out = {.space = GG_SPACE_DEVICE, .bytes = 4096, .dptr = 0x20000};
    /* 1000 elements in tiles of 7: 143 tiles */
    gg_arg ta[4] = {gg_arg_array(&arr), gg_arg_array(&out), gg_arg_i64(1000), gg_arg_i64(143)};
    CHECK(gg_pack_args(&tk, ta, 4, buf, sizeof buf) == GG_OK);
    ta[3] = gg_arg_i64(142);
    CHECK(gg_pack_args(&tk, ta, 4, buf, sizeof buf) == GG_ERR_INVALID);
    CHECK(strstr(gg_error_detail(), "142") && strstr(gg_error_detail(), "143 tiles"));
    ta[3] = gg_arg_i64(144);
    CHECK(gg_pack_args(&tk, ta, 4, buf, sizeof buf) == GG_ERR_INVALID);
    ta[2] = gg_arg_i64(1002); /* 144 tiles, the last of one element */
    ta[3] = gg_arg_i64(143);
    CHECK(gg_pack_args(&tk, ta, 4, buf, sizeof buf) == GG_ERR_INVALID);
    ta[3] = gg_arg_i64(144);
    CHECK(gg_pack_args(&tk, ta, 4, buf, sizeof buf) == GG_OK);
    /* the written view o shares no memory with x: not the same array... */
    gg_arg same[4] = {gg_arg_array(&arr), gg_arg_array(&arr), gg_arg_i64(1000), gg_arg_i64(143)};
    CHECK(gg_pack_args(&tk, same, 4, buf, sizeof buf) == GG_ERR_INVALID);
    CHECK(strstr(gg_error_detail(), "views x and o are passed the same array") &&
          strstr(gg_error_detail(), "writes o"));
    /* ... nor one whose bytes overlap x's (the last byte of x is o's first) */
    struct gg_array near = {.space = GG_SPACE_DEVICE, .bytes = 4096, .dptr = 0x10000 + 4095};
    same[1] = gg_arg_array(&near);
    CHECK(gg_pack_args(&tk, same, 4, buf, sizeof buf) == GG_ERR_INVALID);
    CHECK(strstr(gg_error_detail(), "overlapping arrays"));
    near.dptr = 0x10000 + 4096; /* right after x: apart */
    CHECK(gg_pack_args(&tk, same, 4, buf, sizeof buf) == GG_OK);
    /* two views that are only read may share an array */
    gg_param_desc both_in[4];
    memcpy(both_in, tp, sizeof both_in);
    both_in[1].access = GG_ACCESS_IN;
    gg_kernel_desc rk = tk;
    rk.params = both_in;
    same[1] = gg_arg_array(&arr);
    CHECK(gg_pack_args(&rk, same, 4, buf, sizeof buf) == GG_OK);
  }
  /* a bad descriptor (field past the end) is refused, never written */
  gg_param_desc badp[5];
  memcpy(badp, params, sizeof badp);
  badp[2].offset = 36;
  gg_kernel_desc badk = kd;
  badk.params = badp;
  CHECK(gg_pack_args(&badk, args, 3, buf, sizeof buf) == GG_ERR_INVALID);
  CHECK(gg_pack_args(NULL, args, 3, buf, sizeof buf) == GG_ERR_INVALID);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
