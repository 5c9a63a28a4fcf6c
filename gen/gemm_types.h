/*
 * gemm_types.h - what pattern "gemm" multiplies: its element types and
 * its operations op_a / op_b, each vocabulary one table (gemm_types.c),
 * read by the loader (load_gemm.c), the plan (gemm_plan.c) and the docs'
 * words.  A new type is a row here.
 */
#ifndef GGI_GEMM_TYPES_H
#define GGI_GEMM_TYPES_H

#include "gg.h"

/* One element type of a gemm: cuBLASDx's Precision (the views' types)
 * and Type (real or complex).  A complex type has no dtype of its own: its
 * views hold (re, im) pairs of the precision (as pattern fft's complex
 * data), the layout of cuBLASDx's complex<T>. */
typedef struct ggi_gemm_type {
  const char *name;    /* as docs and messages spell it: f32, c32, ... */
  gg_dtype in, out;    /* A's and B's views, C's view (complex: the precision) */
  int complex;         /* 1: every view ends in [2], (re, im) */
  int tf32;            /* math = "tf32": f32 multiplied on tensor cores as TF32 */
  const char *why_c;   /* why C has its type, for messages and explain */
  const char *precision; /* cuBLASDx's Precision of A and B; NULL: the views' C type */
  int fma;             /* 1: cuBLASDx multiplies it with FMAs (no tensor-core MMA, whose
                          K is 4-16), so a K step may be any length */
} ggi_gemm_type;

extern const ggi_gemm_type ggi_gemm_types[]; /* ends with a row of name NULL */

/* The row of A's element type in the real or complex domain, or NULL:
 * gemm has no such type. */
const ggi_gemm_type *ggi_gemm_type_of(gg_dtype in, int complex, int tf32);

/* type = "real" (the default) or "complex": the row's complex flag */
extern const char *const ggi_gemm_domain_names[];
/* math = "exact" (the default: the views' precision) or "tf32": the row's
 * tf32 flag */
extern const char *const ggi_gemm_math_names[];

/* op_a / op_b: how A or B is read, as stored or transposed, and for
 * complex types also conjugated; one list: the constant, its spelling,
 * what it does (for messages). */
#define GGI_GEMM_OP_LIST(X)                                                                   \
  X(GGI_GEMM_OP_N, "n", "as stored")                                                          \
  X(GGI_GEMM_OP_T, "t", "transposed")                                                         \
  X(GGI_GEMM_OP_C, "c", "conjugate transposed")
enum {
#define GGI_GEMM_OP_ENUM_(e, name, words) e,
  GGI_GEMM_OP_LIST(GGI_GEMM_OP_ENUM_)
#undef GGI_GEMM_OP_ENUM_
};
extern const char *const ggi_gemm_op_names[]; /* "n", "t", "c", NULL */
extern const char *const ggi_gemm_op_words[]; /* what each does, for messages */

#endif
