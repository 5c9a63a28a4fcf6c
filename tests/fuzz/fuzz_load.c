/*
 * fuzz_load - libFuzzer harness for the workload loader.
 *
 * Any byte string must load or fail with a message; never crash, leak,
 * hang or trip a sanitizer.  The sandbox's own caps (64 MiB of Lua heap,
 * 5e7 VM instructions) bound every input.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ggi_module *m = NULL;
  ggi_diag d;
  if (ggi_load("fuzz.lua", (const char *)data, size, &m, &d) == 0) {
    ggi_module_free(m);
  } else if (strncmp(d.msg, "fuzz.lua", 8) != 0) {
    __builtin_trap(); /* every error names the file */
  }
  return 0;
}
