/* gemm_types.c - the rows of gemm_types.h. */
#include <stddef.h>

#include "gemm_types.h"

/* f16 and bf16 products run on tensor cores, which accumulate in f32; the
 * complex types are cuBLASDx's complex<T>, whose layout is (re, im).
 * tf32 and ct32 (math = "tf32") read f32 views as cuBLASDx's tfloat32_t:
 * the same 32 bits, of which the tensor cores' TF32 multiply uses the
 * sign, the 8-bit exponent and the top 10 bits of the mantissa (the other
 * 13 are dropped, not rounded: a relative error below 2^-10 per input),
 * and accumulate in f32.  f32 and c32 (exact) have no tensor-core MMA in
 * cuBLASDx (its suggested instructions: FMAs); f64 and c64 have DMMA. */
const ggi_gemm_type ggi_gemm_types[] = {
  {"f32", GG_F32, GG_F32, 0, 0, "one precision", NULL, 1},
  {"f64", GG_F64, GG_F64, 0, 0, "one precision", NULL, 0},
  {"f16", GG_F16, GG_F32, 0, 0, "accumulated in f32 on tensor cores", NULL, 0},
  {"bf16", GG_BF16, GG_F32, 0, 0, "accumulated in f32 on tensor cores", NULL, 0},
  {"c32", GG_F32, GG_F32, 1, 0, "one precision", NULL, 1},
  {"c64", GG_F64, GG_F64, 1, 0, "one precision", NULL, 0},
  {"tf32", GG_F32, GG_F32, 0, 1,
   "the inputs' mantissas cut to 10 bits, multiplied on tensor cores, accumulated in f32",
   "cublasdx::tfloat32_t", 0},
  {"ct32", GG_F32, GG_F32, 1, 1,
   "the inputs' mantissas cut to 10 bits, multiplied on tensor cores, accumulated in f32",
   "cublasdx::tfloat32_t", 0},
  {NULL, 0, 0, 0, 0, NULL, NULL, 0},
};

const ggi_gemm_type *ggi_gemm_type_of(gg_dtype in, int complex, int tf32)
{
  for (const ggi_gemm_type *t = ggi_gemm_types; t->name; t++)
    if (t->in == in && t->complex == complex && t->tf32 == tf32) return t;
  return NULL;
}

const char *const ggi_gemm_domain_names[] = {"real", "complex", NULL};
const char *const ggi_gemm_math_names[] = {"exact", "tf32", NULL};
#define NAME_(e, name, words) [e] = name,
#define WORDS_(e, name, words) [e] = words,
const char *const ggi_gemm_op_names[] = {GGI_GEMM_OP_LIST(NAME_) NULL};
const char *const ggi_gemm_op_words[] = {GGI_GEMM_OP_LIST(WORDS_) NULL};
#undef NAME_
#undef WORDS_
