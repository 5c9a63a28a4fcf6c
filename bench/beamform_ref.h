/* beamform_ref.h - the C interface of beamform_ref.cu: the detect kernel
 * that, after cuFFT's batched C2C and cuBLAS's cgemm, ends beamform_bench's
 * peer chain. */
#ifndef BEAMFORM_REF_H
#define BEAMFORM_REF_H
#ifdef __cplusplus
extern "C" {
#endif
/* Enqueue on `stream` (a cudaStream_t): *pk (device-visible, e.g. a mapped
 * host float) = the maximum over the n interleaved complex f32 values of Y
 * (cuComplex, n even) of |Y|^2.  pdl: launch it with programmatic
 * dependent launch (sm_90+), so that it may start while the kernel before
 * it on the stream finishes; it waits for that kernel's writes itself.
 * 0, or -1 when the launch fails (the CUDA error stays for
 * cudaGetLastError). */
int beamform_ref_detect(const void *Y, int n, float *pk, int pdl, void *stream);
#ifdef __cplusplus
}
#endif
#endif
