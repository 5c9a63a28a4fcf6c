/*
 * Listing a module from its descriptor (no device needed): kernels,
 * persistent kernels, their commands in command-id order; and the
 * not-found messages gg_kernel_get, gg_session_open and gg_session_command
 * give, which list the names there are.  On the generated module of
 * examples/persistent_three.lua and on hand-made descriptors with holes.
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "gg.h"
#include "persistent_three.h"
#include "../expect.h"

#define SAME(a, b) do { const char *a_ = (a), *b_ = (b); if (!a_ || strcmp(a_, b_)) { fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__, __LINE__, a_ ? a_ : "(null)", b_); failures++; } } while (0)

static void test_listing(void) {
  const gg_module_desc *d = &gg_module_persistent_three;
  CHECK(gg_module_desc_kernel_count(d) == 3);
  SAME(gg_module_desc_kernel_name(d, 0), "matmul32");
  SAME(gg_module_desc_kernel_name(d, 1), "sum1k");
  SAME(gg_module_desc_kernel_name(d, 2), "inc32k");
  CHECK(gg_module_desc_kernel_name(d, 3) == NULL);
  CHECK(gg_module_desc_kernel_name(d, -1) == NULL);
  CHECK(gg_module_desc_persistent_count(d) == 1);
  SAME(gg_module_desc_persistent_name(d, 0), "loop");
  CHECK(gg_module_desc_persistent_name(d, 1) == NULL);
  CHECK(gg_module_desc_command_count(d, "loop") == 3);
  CHECK(gg_module_desc_command_count(d, NULL) == 3);
  CHECK(gg_module_desc_command_count(d, "nope") == -1);
  SAME(gg_module_desc_command_name(d, "loop", 1), "sum1k");
  SAME(gg_module_desc_command_name(d, NULL, 2), "inc32k");
  CHECK(gg_module_desc_command_name(d, "loop", 3) == NULL);
  /* no module at all */
  CHECK(gg_module_desc_kernel_count(NULL) == 0 && gg_module_desc_kernel_name(NULL, 0) == NULL);
  CHECK(gg_module_desc_command_count(NULL, NULL) == -1);
  CHECK(gg_module_kernel_count(NULL) == 0 && gg_module_kernel_name(NULL, 0) == NULL);
  CHECK(gg_module_command_name(NULL, "loop", 0) == NULL);
}

static void test_messages(void) {
  const gg_module_desc *d = &gg_module_persistent_three;
  char m[1024];
  ggr_missing_kernel(d, "sum1K", m, sizeof m);
  SAME(m, "module persistent_three has no kernel named 'sum1K' (did you mean 'sum1k'?); "
          "its kernels: matmul32, sum1k, inc32k");
  ggr_missing_kernel(d, "fft", m, sizeof m);
  SAME(m, "module persistent_three has no kernel named 'fft'; its kernels: matmul32, sum1k, inc32k");
  ggr_missing_kernel(d, "loop", m, sizeof m);
  SAME(m, "'loop' is a persistent kernel of module persistent_three, not a kernel: run it with "
          "gg_session_open(mod, \"loop\", ...)");
  ggr_missing_persistent(d, "lopo", m, sizeof m);
  SAME(m, "module persistent_three has no persistent kernel 'lopo' (did you mean 'loop'?); "
          "its persistent kernels: loop");
  ggr_missing_command(d, &d->persistent[0], "inc32", m, sizeof m);
  SAME(m, "persistent loop has no command 'inc32' (did you mean 'inc32k'?); "
          "its commands: matmul32, sum1k, inc32k");
  /* a module without persistent kernels, asked for the first one */
  gg_module_desc none = *d;
  none.npersistent = 0;
  ggr_missing_persistent(&none, NULL, m, sizeof m);
  SAME(m, "module persistent_three has no persistent kernel; it has no persistent kernels");
  /* a short buffer is cut, terminated, and says so */
  char small[40];
  ggr_missing_kernel(d, "fft", small, sizeof small);
  CHECK(strlen(small) == sizeof small - 1 && strcmp(small + sizeof small - 4, "...") == 0);
  /* a name far longer than any kernel's: no suggestion, no overflow */
  char longname[300];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  ggr_missing_kernel(d, longname, m, sizeof m);
  CHECK(strstr(m, "did you mean") == NULL && strstr(m, "its kernels: matmul32"));
}

/* hand-made descriptors with holes read as "none", never crash */
static void test_holes(void) {
  static const gg_kernel_desc k[2] = {{.name = "a"}, {.name = NULL}};
  static const int bad_cmds[2] = {1, 7};
  static const gg_persistent_desc p[1] = {{.name = "p", .ncommands = 2, .commands = bad_cmds}};
  gg_module_desc d = {.name = "h", .nkernels = 2, .kernels = k, .npersistent = 1, .persistent = p};
  CHECK(gg_module_desc_kernel_name(&d, 1) == NULL);
  CHECK(gg_module_desc_command_name(&d, "p", 1) == NULL); /* kernel 7 of 2 */
  char m[256];
  ggr_missing_command(&d, &p[0], "z", m, sizeof m);
  SAME(m, "persistent p has no command 'z'; its commands: (unnamed), (unnamed)");
  d.kernels = NULL;
  CHECK(gg_module_desc_kernel_count(&d) == 0);
  ggr_missing_kernel(&d, "a", m, sizeof m);
  SAME(m, "module h has no kernel named 'a'; it has no kernels");
}

int main(void) {
  test_listing();
  test_messages();
  test_holes();
  printf("%s\n", failures ? "FAILED" : "module listing and not-found messages as documented");
  return failures ? 1 : 0;
}
