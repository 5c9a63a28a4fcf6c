/* gemm_types.c - the rows of gemm_types.h. */
#include <stddef.h>

#include "gemm_types.h"

/* f16 and bf16 products run on tensor cores, which accumulate in f32; the
 * complex types are cuBLASDx's complex<T>, whose layout is (re, im). */
const ggi_gemm_type ggi_gemm_types[] = {
  {"f32", GG_F32, GG_F32, 0, "one precision"},
  {"f64", GG_F64, GG_F64, 0, "one precision"},
  {"f16", GG_F16, GG_F32, 0, "accumulated in f32 on tensor cores"},
  {"bf16", GG_BF16, GG_F32, 0, "accumulated in f32 on tensor cores"},
  {"c32", GG_F32, GG_F32, 1, "one precision"},
  {"c64", GG_F64, GG_F64, 1, "one precision"},
  {NULL, 0, 0, 0, NULL},
};

const ggi_gemm_type *ggi_gemm_type_of(gg_dtype in, int complex)
{
  for (const ggi_gemm_type *t = ggi_gemm_types; t->name; t++)
    if (t->in == in && t->complex == complex) return t;
  return NULL;
}

const char *const ggi_gemm_domain_names[] = {"real", "complex", NULL};
#define NAME_(e, name, words) [e] = name,
#define WORDS_(e, name, words) [e] = words,
const char *const ggi_gemm_op_names[] = {GGI_GEMM_OP_LIST(NAME_) NULL};
const char *const ggi_gemm_op_words[] = {GGI_GEMM_OP_LIST(WORDS_) NULL};
#undef NAME_
#undef WORDS_
