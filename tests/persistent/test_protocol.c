/*
 * test_protocol.c - host and device read the mailbox protocol and the
 * shared workspace offsets and limits from one header each
 * (include/gg_protocol.h, include/gg_abi.h).  No GPU needed:
 *
 *   - the texts gpugen embeds are the files the runtime is compiled with;
 *   - the shared head gpugen pastes at the top of every source holds each
 *     text exactly once, and a rendered persistent kernel (CUDA and HIP)
 *     no other definition of the mailbox's names;
 *   - the rendered source, compiled with NVRTC (sm_90) and hiprtc (gfx90a)
 *     after static_asserts of every figure as this C file computes it
 *     (offsets, slot sizes, tags, states, the kernel parameter's layout),
 *     builds: the device sees the numbers the host uses.
 *
 * Exits 77 when neither compiler can be loaded (one missing is reported
 * and the other still checked).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "emit_persistent.h"
#include "plan_by_hand.h"
#include "gg.h"
#include "gg_session.h"
#include "source.h"
#include "templates.h"
#include "../expect.h"

static char *read_all(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc(1 << 20);
  size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
  fclose(f);
  if (buf) buf[n] = 0;
  return buf;
}

static int count(const char *hay, const char *needle)
{
  int n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

/* static_asserts of the host's figures, for the device compiler. */
static void host_figures(ggi_buf *b)
{

#define EQ(expr) \
  ggi_buf_printf(b, "static_assert((unsigned long long)(%s) == %lluull, \"%s\");\n", #expr, \
                 (unsigned long long)(expr), #expr)
  EQ(GG_MBOX_LINE);
  EQ(GG_MBOX_ABORT_OFF);
  EQ(GG_MBOX_HEARTBEAT_OFF);
  EQ(GG_MBOX_STALE_OFF);
  EQ(GG_MBOX_STATE_OFF);
  EQ(GG_MBOX_REASON_OFF);
  EQ(GG_MBOX_FRAMES_OFF);
  EQ(GG_MBOX_SLOTS_OFF);
  EQ(GG_MBOX_CMD_EXIT);
  EQ(GG_MBOX_CMD_AHEAD);
  EQ(GG_MBOX_WORD_ABORT);
  EQ(GG_MBOX_STATE_LAUNCHED);
  EQ(GG_MBOX_STATE_RUNNING);
  EQ(GG_MBOX_STATE_EXITED);
  EQ(GG_MBOX_EXIT_NONE);
  EQ(GG_MBOX_EXIT_ABORT);
  EQ(GG_MBOX_EXIT_STALE);
  EQ(GG_PERSIST_ARRIVE_OFF);
  EQ(GG_PERSIST_RECORD_OFF);
  EQ(GG_MBOX_ACK2_OFF);
  EQ(GG_MBOX_SEEN_LO_OFF);
  EQ(GG_MBOX_SEEN_HI_OFF);
  EQ(GG_MBOX_BUSY_OFF);
  EQ(GG_MBOX_BUSY_MAX);
  EQ(GG_PERSIST_TIMES);
  EQ(sizeof(gg_persist_params));
  EQ(GG_BLOCK_THREADS_MAX);
  EQ(GG_COMMANDS_MAX);
  EQ(GG_REDUCE_WS_TICKET_OFF);
  EQ(GG_REDUCE_WS_STATE_OFF);
  EQ(GG_REDUCE_WS_BARRIER_OFF);
  EQ(GG_REDUCE_WS_ACC_OFF);
  EQ(GG_REDUCE_WS_PARTIALS_OFF);
  EQ(GG_FRAME_COUNT_OFF);
  EQ(GG_FRAME_GEN_OFF);
  EQ(GG_FRAME_WS_HEAD);
  EQ(GG_FRAME_PROGRESS_BYTES);
  EQ(GG_FRAME_WS_ALIGN);
  /* The parameter's members: their sizes everywhere; their offsets where
   * the compiler has a constant offsetof (clang, i.e. hiprtc: NVRTC has no
   * <stddef.h> and its front end does not fold the classic form).  The
   * declaration is the same text, so equal sizes give equal offsets. */
#define MEMBER(m) \
  EQ(sizeof(((gg_persist_params *)0)->m)); \
  ggi_buf_printf(b, "#ifdef __clang__\n"); \
  ggi_buf_printf(b, "static_assert(__builtin_offsetof(gg_persist_params, %s) == %zu, \"%s\");\n", \
                 #m, offsetof(gg_persist_params, m), #m); \
  ggi_buf_printf(b, "#endif\n")
  MEMBER(mbox);
  MEMBER(dev);
  MEMBER(nslots);
  MEMBER(slot_stride);
  MEMBER(groups);
  MEMBER(group_smem);
  MEMBER(flags);
  MEMBER(reserved);
#undef MEMBER
  /* sizes that are not multiples of 4 or of a line, as well as those that are */
  static const unsigned args[] = {0, 1, 4, 7, 40, 124, 125, 1000, 4093};
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
    unsigned a = args[i];
    ggi_buf_printf(b, "static_assert(GG_MBOX_WORDS(%uu) == %uu, \"words %u\");\n", a,
                   GG_MBOX_WORDS(a), a);
    ggi_buf_printf(b, "static_assert(GG_MBOX_DONE_OFFSET(%uu) == %uu, \"done %u\");\n", a,
                   GG_MBOX_DONE_OFFSET(a), a);
    ggi_buf_printf(b, "static_assert(GG_MBOX_SLOT_STRIDE(%uu) == %uu, \"stride %u\");\n", a,
                   GG_MBOX_SLOT_STRIDE(a), a);
    ggi_buf_printf(b, "static_assert(GG_MBOX_DONE_IN_SLOT(%uu) == %uu, \"done in slot %u\");\n",
                   GG_MBOX_SLOT_STRIDE(a), GG_MBOX_DONE_OFFSET(a), a);
    ggi_buf_printf(b, "static_assert(GG_MBOX_BYTES(3u, %uu) == %lluull, \"bytes %u\");\n", a,
                   (unsigned long long)GG_MBOX_BYTES(3u, a), a);
    ggi_buf_printf(b, "static_assert(GG_PERSIST_SEEN_OFF(%uu) == %lluull, \"seen %u\");\n", a,
                   (unsigned long long)GG_PERSIST_SEEN_OFF(a), a);
    ggi_buf_printf(b, "static_assert(GG_PERSIST_DEV_BYTES(%uu) == %lluull, \"dev %u\");\n", a,
                   (unsigned long long)GG_PERSIST_DEV_BYTES(a), a);
  }
#undef EQ
}

/* Render a one-command persistent kernel for target (shared head and
 * prelude first), check the head carries each header once and the kernel
 * none, add the host's figures, compile it.
 * 0 ok, 77 no compiler, 1 failed. */
static int check_target(unsigned target, const char *prelude_path, gg_backend backend,
                        const char *arch)
{
  const char *prelude = NULL;
  for (int i = 0; ggi_templates[i].path; i++)
    if (strcmp(ggi_templates[i].path, prelude_path) == 0) prelude = ggi_templates[i].text;
  CHECK(prelude != NULL);
  if (!prelude) return 1;
  ggi_kernel k = {.name = "nop", .spec = {.block = 64}};
  ggi_persistent p = {.name = "loop", .line = 1, .arrangement = GG_PLAYOUT_HYBRID, .ncommands = 1,
                      .commands = {"nop"}, .command_index = {0}, .buffering = 3, .block = 64,
                      .blocks = 3, .groups = 2, .targets = target};
  ggi_module m = {.name = "proto", .file = "proto.lua", .nkernels = 1, .kernels = &k,
                  .npersistent = 1, .persistent = &p};
  ggi_buf kern = {0}, src = {0};
  ggi_diag d = {{0}};
  ggi_persistent_shape shapes[2];
  static const uint32_t nop_bytes[] = {16}; /* struct gg_args_nop below */
  if (plan_by_hand(&m, target, nop_bytes, shapes, &d) != 0 ||
      ggi_emit_persistent(&m, &p, target, NULL, &kern, &d)) {
    fprintf(stderr, "%s: emit: %s\n", arch, d.msg);
    failures++;
    return 1;
  }
  /* the headers once, in the head, and the mailbox's names defined
     nowhere else */
  ggi_source_shared_headers(&src);
  CHECK(count(src.p, ggi_protocol_header) == 1);
  CHECK(count(src.p, ggi_abi_header) == 1);
  CHECK(count(kern.p, "#define GG_MBOX_SLOTS_OFF") == 0);
  CHECK(count(kern.p, "struct gg_persist_params") == 0);
  CHECK(count(kern.p, "#define GG_PERSIST_ARRIVE_OFF") == 0);
  CHECK(count(kern.p, "#define GG_FRAME_WS_HEAD") == 0);

  ggi_buf_puts(&src, prelude);
  ggi_buf_puts(&src, "struct gg_args_nop { int *x; long long n; };\n"
                     "namespace GG_NS_nop { __device__ void gg_body(const gg_args_nop &a, const gg_grid &g)\n"
                     "{ (void)a; (void)g; } }\n");
  ggi_buf_puts(&src, kern.p);
  host_figures(&src);
  ggi_buf_free(&kern);
  if (!ggi_buf_ok(&src)) {
    failures++;
    return 1;
  }
  const char *opts[] = {"-std=c++17", NULL};
  gg_compile_result r;
  memset(&r, 0, sizeof r);
  gg_status st = gg_compile(backend, arch, "proto", src.p, opts, &r);
  ggi_buf_free(&src);
  if (st == GG_ERR_NO_LIBRARY || st == GG_ERR_UNSUPPORTED) {
    printf("%s: compiler not available (%s): not checked\n", arch, gg_strerror(st));
    gg_compile_result_free(&r);
    return 77;
  }
  if (st) {
    fprintf(stderr, "%s: %s\n%s\n", arch, gg_strerror(st), r.log ? r.log : "");
    gg_compile_result_free(&r);
    failures++;
    return 1;
  }
  printf("%s: the rendered persistent kernel agrees with the host's figures\n", arch);
  gg_compile_result_free(&r);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: test_protocol include/gg_protocol.h include/gg_abi.h\n");
    return 2;
  }
  char *file = read_all(argv[1]);
  CHECK(file != NULL);
  if (file) CHECK(strcmp(file, ggi_protocol_header) == 0);
  free(file);
  file = read_all(argv[2]);
  CHECK(file != NULL);
  if (file) CHECK(strcmp(file, ggi_abi_header) == 0);
  free(file);
  int cuda = check_target(GGI_TARGET_CUDA, "cuda/prelude.cuh", GG_BACKEND_CUDA, "sm_90");
  int hip = 77;
  if (gg_arch_supported(GG_BACKEND_HIP, "gfx90a"))
    hip = check_target(GGI_TARGET_HIP, "hip/prelude.hip", GG_BACKEND_HIP, "gfx90a");
  else
    printf("gfx90a: hiprtc or its target not available: not checked\n");
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  return cuda == 77 && hip == 77 ? 77 : 0;
}
