/* gg_pack_args checks each argument's type against its parameter:
 * integers convert when the value fits, floating-point values never
 * convert, f16/bf16 round to nearest even, NULL arrays and hand-made
 * gg_args are refused, and every message names the parameter, what was
 * passed and what is expected. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gg.h"
#include "internal.h" /* a gg_array without a device */
#include "../expect.h"

/* struct { i32 a; u32 b; i64 c; u64 d; f32 e; f16 h; bf16 w; f64 f; f64 *y; i64 n; } */
#define P(nm, kind, t, off, sz) {nm, kind, t, 0, {{0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, off, sz}
static const gg_param_desc params[] = {
  P("a", GG_PARAM_SCALAR, GG_I32, 0, 4),  P("b", GG_PARAM_SCALAR, GG_U32, 4, 4),
  P("c", GG_PARAM_SCALAR, GG_I64, 8, 8),  P("d", GG_PARAM_SCALAR, GG_U64, 16, 8),
  P("e", GG_PARAM_SCALAR, GG_F32, 24, 4), P("h", GG_PARAM_SCALAR, GG_F16, 28, 2),
  P("w", GG_PARAM_SCALAR, GG_BF16, 30, 2), P("f", GG_PARAM_SCALAR, GG_F64, 32, 8),
  {"y", GG_PARAM_VIEW, GG_F64, 1, {{0, 9}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_INOUT, 0, 40, 8},
  P("n", GG_PARAM_EXTENT, GG_I64, 48, 8),
};
static const gg_kernel_desc kd = {
  .name = "k", .symbol = "gg_k", .rank = 1, .range = {{0, 9}}, .block_size = 96,
  .items_per_thread = 1, .args_size = 56, .args_align = 8, .nparams = 10, .params = params,
};

static struct gg_array arr = {.space = GG_SPACE_DEVICE, .bytes = 8 * 1000, .dptr = 0x10000};
static unsigned char buf[64];
static char err[512];

static void good(gg_arg *a) {
  a[0] = gg_arg_i32(-7); a[1] = gg_arg_u32(7); a[2] = gg_arg_i64(-70); a[3] = gg_arg_u64(70);
  a[4] = gg_arg_f32(1.25f); a[5] = gg_arg_f16(1.5f); a[6] = gg_arg_bf16(1.5f);
  a[7] = gg_arg_f64(0.1); a[8] = gg_arg_array(&arr); a[9] = gg_arg_i64(999);
}

/* Pack with argument i replaced by x; 0 when it packed. */
static int pack_with(int i, gg_arg x) {
  gg_arg a[10];
  good(a);
  a[i] = x;
  int refused = gg_pack_args(&kd, a, 10, buf, sizeof buf) != GG_OK;
  snprintf(err, sizeof err, "%s", refused ? gg_error_detail() : "");
  return refused;
}

static unsigned u16_at(int off) { uint16_t v; memcpy(&v, buf + off, 2); return v; }

/* The f16 (h) or bf16 (w) bits a float packs to; 0x10000 when refused. */
static unsigned half_bits(int bf, float v) {
  if (pack_with(bf ? 6 : 5, bf ? gg_arg_bf16(v) : gg_arg_f16(v))) return 0x10000;
  return u16_at(bf ? 30 : 28);
}

int main(void) {
  gg_arg a[10];
  good(a);
  CHECK(gg_pack_args(&kd, a, 10, buf, sizeof buf) == GG_OK);
  int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; float f32; double f64;
  memcpy(&i32, buf, 4); memcpy(&u32, buf + 4, 4); memcpy(&i64, buf + 8, 8);
  memcpy(&u64, buf + 16, 8); memcpy(&f32, buf + 24, 4); memcpy(&f64, buf + 32, 8);
  CHECK(i32 == -7 && u32 == 7 && i64 == -70 && u64 == 70 && f32 == 1.25f && f64 == 0.1);
  CHECK(u16_at(28) == 0x3e00 && u16_at(30) == 0x3fc0);
  memcpy(&i64, buf + 48, 8);
  CHECK(i64 == 999);

  /* a double for an i64 extent is refused, not reinterpreted */
  CHECK(pack_with(9, gg_arg_f64(999.0)));
  CHECK(strstr(err, "parameter n is an extent of type i64: pass gg_arg_i64()") &&
        strstr(err, "got gg_arg_f64(999)"));
  /* an integer of another width converts when its value fits */
  CHECK(!pack_with(9, gg_arg_i32(999)));
  memcpy(&i64, buf + 48, 8);
  CHECK(i64 == 999);
  CHECK(!pack_with(9, gg_arg_u32(999)) && !pack_with(9, gg_arg_u64(999)));
  CHECK(pack_with(9, gg_arg_u64(UINT64_MAX)) && strstr(err, "parameter n") &&
        strstr(err, "gg_arg_u64(18446744073709551615) does not fit"));
  CHECK(pack_with(0, gg_arg_u64(UINT64_C(1) << 31)) && strstr(err, "parameter a is a scalar of type i32"));
  CHECK(!pack_with(0, gg_arg_i64(INT32_MIN)));
  memcpy(&i32, buf, 4);
  CHECK(i32 == INT32_MIN);
  CHECK(pack_with(0, gg_arg_i64((int64_t)INT32_MIN - 1)));
  CHECK(!pack_with(0, gg_arg_u32(INT32_MAX)) && pack_with(0, gg_arg_u32((uint32_t)INT32_MAX + 1)));
  CHECK(pack_with(1, gg_arg_i32(-1)) && strstr(err, "parameter b is a scalar of type u32: gg_arg_i32(-1) does not fit it"));
  CHECK(!pack_with(1, gg_arg_i64(UINT32_MAX)) && pack_with(1, gg_arg_i64((int64_t)UINT32_MAX + 1)));
  CHECK(pack_with(3, gg_arg_i64(-1)) && strstr(err, "parameter d"));
  CHECK(!pack_with(2, gg_arg_u64(INT64_MAX)) && pack_with(2, gg_arg_u64((uint64_t)INT64_MAX + 1)));
  CHECK(!pack_with(2, gg_arg_i32(-5)));
  memcpy(&i64, buf + 8, 8);
  CHECK(i64 == -5);
  /* floats never convert, into floats or integers */
  CHECK(pack_with(7, gg_arg_f32(0.5f)) &&
        strstr(err, "parameter f is a scalar of type f64: pass gg_arg_f64(), got gg_arg_f32(0.5)"));
  CHECK(pack_with(4, gg_arg_f64(0.5)) && strstr(err, "pass gg_arg_f32(), got gg_arg_f64(0.5)"));
  CHECK(pack_with(4, gg_arg_i32(1)) && strstr(err, "got gg_arg_i32(1)"));
  CHECK(pack_with(5, gg_arg_f32(1)) && strstr(err, "parameter h is a scalar of type f16: pass gg_arg_f16()"));
  CHECK(pack_with(6, gg_arg_f16(1)) && strstr(err, "pass gg_arg_bf16(), got gg_arg_f16(1)"));
  CHECK(pack_with(2, gg_arg_f64(3)) && strstr(err, "parameter c is a scalar of type i64"));
  /* views and values */
  CHECK(pack_with(8, gg_arg_array(NULL)) && strstr(err, "parameter y: NULL array"));
  CHECK(pack_with(8, gg_arg_i64(0)) && strstr(err, "parameter y is a view of f64: pass gg_arg_array(), got gg_arg_i64(0)"));
  CHECK(pack_with(4, gg_arg_array(&arr)) && strstr(err, "parameter e is a scalar of type f32: pass gg_arg_f32(), got gg_arg_array("));
  /* a gg_arg not made by a constructor */
  gg_arg zero;
  memset(&zero, 0, sizeof zero);
  CHECK(pack_with(2, zero) && strstr(err, "parameter c") && strstr(err, "not made by a gg_arg_ constructor"));
  zero.type = (gg_arg_type)77;
  CHECK(pack_with(8, zero) && strstr(err, "parameter y") && strstr(err, "type 77"));

  /* f16: round to nearest, ties to even; subnormals; range */
  CHECK(half_bits(0, 0.1f) == 0x2e66);
  CHECK(half_bits(0, -2.0f) == 0xc000);
  CHECK(half_bits(0, 2049.0f) == 0x6800); /* tie: down to even */
  CHECK(half_bits(0, 2051.0f) == 0x6802); /* tie: up to even */
  CHECK(half_bits(0, ldexpf(1, -24)) == 0x0001);
  CHECK(half_bits(0, ldexpf(1, -25)) == 0x0000);      /* tie with 0: even */
  CHECK(half_bits(0, ldexpf(3, -26)) == 0x0001);      /* 0.75 units: up */
  CHECK(half_bits(0, ldexpf(1023, -24)) == 0x03ff);   /* largest subnormal */
  CHECK(half_bits(0, ldexpf(2047, -25)) == 0x0400);   /* rounds up into the normals */
  CHECK(half_bits(0, -0.0f) == 0x8000);
  CHECK(half_bits(0, 65504.0f) == 0x7bff);
  CHECK(half_bits(0, 65519.0f) == 0x7bff);
  CHECK(half_bits(0, 65520.0f) == 0x10000); /* rounds to infinity: refused */
  CHECK(strstr(err, "parameter h is a scalar of type f16: gg_arg_f16(65520) is beyond its range"));
  CHECK(half_bits(0, 1e10f) == 0x10000);
  CHECK(half_bits(0, INFINITY) == 0x7c00 && half_bits(0, -INFINITY) == 0xfc00);
  CHECK((half_bits(0, NAN) & 0x7e00) == 0x7e00);
  /* bf16 */
  CHECK(half_bits(1, 1.0f + ldexpf(1, -8)) == 0x3f80);     /* tie: even */
  CHECK(half_bits(1, 1.0f + ldexpf(3, -8)) == 0x3f82);     /* tie: even, up */
  CHECK(half_bits(1, 1.0f + ldexpf(1, -8) + ldexpf(1, -20)) == 0x3f81);
  CHECK(half_bits(1, -3.0f) == 0xc040);
  CHECK(half_bits(1, FLT_MAX) == 0x10000 && strstr(err, "parameter w is a scalar of type bf16"));
  CHECK(half_bits(1, INFINITY) == 0x7f80);
  CHECK((half_bits(1, NAN) & 0x7fc0) == 0x7fc0);

  if (failures) fprintf(stderr, "%d failures\n", failures);
  else printf("packing checks every argument's type\n");
  return failures ? 1 : 0;
}
