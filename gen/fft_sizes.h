/*
 * fft_sizes.h - the block FFTs cuFFTDx has (fft_sizes.c, generated from its
 * database by scripts/fft-sizes.py), and the look-ups pattern "fft" makes
 * in it (fft_plan.c).
 *
 * A cuFFTDx block FFT of N points runs on N / E threads, E its elements per
 * thread; the database has a few values of E per size and arch.  gpugen
 * writes a module before it knows the arch it will be compiled for, so the
 * table keeps the values every arch has: the thread count the plan picks
 * holds wherever the module is compiled (fft.cuh checks it).
 */
#ifndef GGI_FFT_SIZES_H
#define GGI_FFT_SIZES_H

#define GGI_FFT_MAX_EPTS 8

typedef struct ggi_fft_size {
  int n;
  /* elements per thread, [0] f32, [1] f64; 0 ends a list (none: no FFT of
   * this size in that precision); cuFFTDx's sm_90 default first */
  unsigned char f32[GGI_FFT_MAX_EPTS], f64[GGI_FFT_MAX_EPTS];
} ggi_fft_size;

extern const ggi_fft_size ggi_fft_sizes[];
extern const int ggi_fft_nsizes;

/* "c2c" "r2c" "c2r" (ggi_kernel.fft_type) and "forward" "inverse". */
extern const char *const ggi_fft_type_names[];
extern const char *const ggi_fft_dir_names[];

/* The thread counts (N / elements per thread) of an N-point FFT in f64
 * (1) or f32 (0), cuFFTDx's default first; returns how many, 0 when
 * cuFFTDx has no such block FFT on every arch. */
int ggi_fft_threads(int n, int f64, int out[GGI_FFT_MAX_EPTS]);
/* The same for an fft kernel (its size and its views' precision). */
struct ggi_kernel;
int ggi_fft_kernel_threads(const struct ggi_kernel *k, int out[GGI_FFT_MAX_EPTS]);
/* The sizes in the table nearest below and above n (0 when none). */
void ggi_fft_nearest(int n, int f64, int *below, int *above);
/* The thread count the plan uses when `block` is left out (fft_plan.c
 * says why); threads[0..n) from ggi_fft_threads. */
int ggi_fft_auto_threads(const int *threads, int n);
/* How an fft kernel's data move between global memory and cuFFTDx
 * (fft_plan.c says why): straight into registers, through shared memory
 * with contiguous copies, or through shared memory with each element at
 * its view's own address (layout left or stride). */
enum { GGI_FFT_REGISTERS, GGI_FFT_SHARED, GGI_FFT_VIEWS };
int ggi_fft_path(const struct ggi_kernel *k);

#endif
