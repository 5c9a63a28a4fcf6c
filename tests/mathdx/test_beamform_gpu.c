/*
 * test_beamform_gpu - examples/beamform.lua on the GPU against a CPU
 * reference in double: frame "detect" (24 c2c f32 FFTs of 256 points, the
 * beams Y = W^H X by a complex gemm with op_a "c", |Y|^2, its maximum as
 * the frame's result) and command "beams" alone, on the persistent kernel
 * "loop", 20 frames each with new samples and weights.
 * Tolerance: max |Y - want| <= 1e-5 max |want| (an f32 FFT of 256 points
 * and a 24-term complex dot product lose a few ulps of the largest
 * value), |P| and the peak likewise to 4e-5 of the largest power.
 * Label gpu; exit 77 without a GPU or without MathDx.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "beamform.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"

#define WAIT_NS 5000000000ll
enum { S = 24, L = 256, B = 16 }; /* sensors, samples (and frequencies), beams */

static int failures;
static uint32_t rng = 777;
static double uniform(void) /* in [-1, 1) */
{
  rng = rng * 1664525u + 1013904223u;
  return (double)(rng >> 8) / (1 << 23) - 1;
}

static double wx[S][L][2], ww[S][B][2], wantx[S][L][2], wanty[B][L][2], wantp[B][L];

/* the forward FFT (e^-2 pi i f t / L, unnormalized), Y = W^H X, |Y|^2 */
static double reference(void)
{
  for (int s = 0; s < S; s++)
    for (int f = 0; f < L; f++) {
      double re = 0, im = 0;
      for (int t = 0; t < L; t++) {
        double a = -2 * M_PI * (double)((long)f * t % L) / L, c = cos(a), sn = sin(a);
        re += wx[s][t][0] * c - wx[s][t][1] * sn;
        im += wx[s][t][0] * sn + wx[s][t][1] * c;
      }
      wantx[s][f][0] = re, wantx[s][f][1] = im;
    }
  double peak = 0;
  for (int b = 0; b < B; b++)
    for (int f = 0; f < L; f++) {
      double re = 0, im = 0;
      for (int s = 0; s < S; s++) { /* conj(W[s][b]) X[s][f] */
        const double *w = ww[s][b], *x = wantx[s][f];
        re += w[0] * x[0] + w[1] * x[1];
        im += w[0] * x[1] - w[1] * x[0];
      }
      wanty[b][f][0] = re, wanty[b][f][1] = im;
      wantp[b][f] = re * re + im * im;
      if (wantp[b][f] > peak) peak = wantp[b][f];
    }
  return peak;
}

static void check_y(const float *y, const char *where, int f)
{
  double big = 0, err = 0;
  for (int i = 0; i < B * L * 2; i++) {
    double w = (&wanty[0][0][0])[i];
    big = fmax(big, fabs(w));
    err = fmax(err, fabs(y[i] - w));
  }
  if (!(err <= 1e-5 * big)) {
    fprintf(stderr, "%s, frame %d: max |Y - want| = %g, max |want| = %g\n", where, f, err, big);
    failures++;
  }
}

int main(void)
{
  gg_context *ctx = gg_check_open(NULL);
  gg_check_mathdx(ctx);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_beamform, &mod));
  gg_array *x, *X, *W, *Y, *P, *pk;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float) * S * L * 2, &x));
  /* the views the frame writes are in device memory, as the example's
   * relaxed acknowledgement asks (the runtime refuses host-visible ones):
   * copied in and out around each frame, as an application would */
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(float) * S * L * 2, &X));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, sizeof(float) * S * B * 2, &W));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(float) * B * L * 2, &Y));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(float) * B * L, &P));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(float), &pk));
  gg_session *s;
  CHECK_OK(gg_session_open(mod, "loop", NULL, &s));
  int detect, beams;
  CHECK_OK(gg_session_command(s, "detect", &detect));
  CHECK_OK(gg_session_command(s, "beams", &beams));
  float *hx = gg_array_host(x), *hW = gg_array_host(W);
  static float hX[S * L * 2], hY[B * L * 2], hP[B * L];
  for (int f = 0; f < 40 && failures < 5; f++) {
    for (int i = 0; i < S * L * 2; i++) (&wx[0][0][0])[i] = hx[i] = (float)uniform();
    for (int i = 0; i < S * B * 2; i++) (&ww[0][0][0])[i] = hW[i] = (float)uniform();
    double peak = reference();
    if (f % 2 == 0) {
      gg_arg a[6] = {gg_arg_array(x), gg_arg_array(X), gg_arg_array(W),
                     gg_arg_array(Y), gg_arg_array(P), gg_arg_array(pk)};
      CHECK_OK(gg_session_run(s, detect, a, 6, WAIT_NS));
      CHECK_OK(gg_copy_to_host(hY, Y, 0, sizeof hY, NULL));
      CHECK_OK(gg_copy_to_host(hP, P, 0, sizeof hP, NULL));
      check_y(hY, "detect", f);
      double err = 0;
      for (int i = 0; i < B * L; i++) err = fmax(err, fabs(hP[i] - (&wantp[0][0])[i]));
      float got;
      CHECK_OK(gg_session_result(s, &got, sizeof got));
      if (!(err <= 4e-5 * peak) || !(fabs(got - peak) <= 4e-5 * peak)) {
        fprintf(stderr, "detect, frame %d: max |P - want| = %g, peak %.9g, want %.9g\n", f, err,
                got, peak);
        failures++;
      }
    } else { /* the gemm alone on the reference spectra */
      for (int i = 0; i < S * L * 2; i++) hX[i] = (float)(&wantx[0][0][0])[i];
      CHECK_OK(gg_copy_from_host(X, 0, hX, sizeof hX, NULL));
      gg_arg a[3] = {gg_arg_array(W), gg_arg_array(X), gg_arg_array(Y)};
      CHECK_OK(gg_session_run(s, beams, a, 3, WAIT_NS));
      CHECK_OK(gg_copy_to_host(hY, Y, 0, sizeof hY, NULL));
      check_y(hY, "beams", f);
    }
  }
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
  gg_array_free(x), gg_array_free(X), gg_array_free(W);
  gg_array_free(Y), gg_array_free(P), gg_array_free(pk);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    fprintf(stderr, "test_beamform_gpu: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_beamform_gpu: ok\n");
  return 0;
}
