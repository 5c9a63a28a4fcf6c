/* fft_chain_ref.h - the C interface of fft_chain_ref.cu: the elementwise
 * filter and the energy reduction that, with cuFFT's two C2C transforms,
 * make fft_chain_bench's peer chain. */
#ifndef FFT_CHAIN_REF_H
#define FFT_CHAIN_REF_H
#ifdef __cplusplus
extern "C" {
#endif
/* Enqueue on `stream` (a cudaStream_t); 0, or -1 when the launch fails.
 * X: nb * n interleaved complex f32 (cufftComplex), H: n of them. */
int fft_chain_ref_filter(void *X, const void *H, int n, int nb, void *stream);
/* e (device-visible, e.g. a mapped host double) = sum of |X|^2 over all
 * nb * n complex values, accumulated in f64.  One kernel: each block
 * reduces its share, the last block to take the ticket adds the partials
 * in a fixed order and resets the ticket (state kept between calls: one
 * stream at a time). */
int fft_chain_ref_energy(const void *X, int n, int nb, double *e, void *stream);
#ifdef __cplusplus
}
#endif
#endif
