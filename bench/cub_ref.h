/* cub_ref.h - the C interface of cub_ref.cu (CUB reference for reduce_bench). */
#ifndef CUB_REF_H
#define CUB_REF_H
#ifdef __cplusplus
extern "C" {
#endif
/* element types; the scan takes every one, the reduce F32, I32 and F64 */
enum { CUB_REF_F32, CUB_REF_I32, CUB_REF_F64, CUB_REF_U32, CUB_REF_I64, CUB_REF_U64 };
/* Enqueue on `stream` (a CUstream); 0 or -1.  Temporary storage is kept
 * between calls so a timed call allocates nothing. */
int cub_ref_reduce_sum(int dtype, const void *in, void *out, long long n, void *stream);
int cub_ref_scan_inclusive_sum(int dtype, const void *in, void *out, long long n, void *stream);
const char *cub_ref_version(void);
#ifdef __cplusplus
}
#endif
#endif
