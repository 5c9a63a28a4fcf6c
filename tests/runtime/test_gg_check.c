/* The GPU tests' opening (tests/gg_check.h) on any machine: no GPU to open
 * is a skip (exit 77, "skipped: " and the reason on stdout); any other
 * failure to open is a failure (exit 1), never a skip.  Each case runs in
 * a child process, since the helpers exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../gg_check.h"
#include "../expect.h"

enum { OPEN_NO_LIBRARY, OPEN_INVALID, SKIP, NO_MATHDX };

static void run_case(int c)
{
  static const gg_context_options bad = {.sm_rest = 1}; /* GG_ERR_INVALID */
  switch (c) {
  case OPEN_NO_LIBRARY: /* as on a machine without a driver, GPU or not */
    setenv("GG_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
    setenv("GG_HIP_LIBRARY", "/nonexistent/libamdhip64.so", 1);
    gg_check_open(NULL);
    break;
  case OPEN_INVALID:
    gg_check_open(&bad);
    break;
  case SKIP:
    gg_check_skip("the reason %d", 17);
  case NO_MATHDX:
    setenv("GG_MATHDX_DIR", "/nonexistent/mathdx", 1);
    gg_check_mathdx(NULL);
    break;
  }
  exit(0);
}

/* Case c's exit status, and its stdout in out. */
static int child(int c, char *out, size_t n)
{
  int fd[2];
  if (pipe(fd)) exit(2);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    run_case(c);
  }
  close(fd[1]);
  size_t got = 0;
  ssize_t r;
  while (got + 1 < n && (r = read(fd[0], out + got, n - 1 - got)) > 0) got += (size_t)r;
  out[got] = 0;
  close(fd[0]);
  int status;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
  char out[4096];
  int rc = child(OPEN_NO_LIBRARY, out, sizeof out);
  printf("no driver: exit %d: %s", rc, out);
  CHECK(rc == 77);
  CHECK(strncmp(out, "skipped: no GPU: ", 17) == 0 && strstr(out, "/nonexistent/libcuda.so.1"));

  rc = child(OPEN_INVALID, out, sizeof out);
  printf("invalid options: exit %d\n", rc);
  CHECK(rc == 1);
  CHECK(!strstr(out, "skipped"));

  rc = child(SKIP, out, sizeof out);
  printf("skip: exit %d: %s", rc, out);
  CHECK(rc == 77 && strcmp(out, "skipped: the reason 17\n") == 0);

  rc = child(NO_MATHDX, out, sizeof out);
  printf("no MathDx: exit %d: %s", rc, out);
  CHECK(rc == 77 && strncmp(out, "skipped: ", 9) == 0 && strstr(out, "/nonexistent/mathdx"));

  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
