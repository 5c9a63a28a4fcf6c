/*
 * gen_bad - every bad-input case gives exactly its expected message.
 *
 *   gen_bad EXPECTED [GPUGEN]
 *
 * EXPECTED holds one exact message per line; the case's file is the text
 * before the first ':'.  Each case is loaded twice through the library
 * (from the file, and from memory) and, when GPUGEN is given, run as
 * `gpugen list FILE`, which must exit with status 1 (not a signal) and
 * print exactly the message on stderr.  Run from tests/gen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load.h"
#include "specialize.h"

#define MIN_CASES 45

static int failures;

static void fail(const char *file, const char *what, const char *want, const char *got) {
  printf("FAIL %s (%s)\n  want: %s\n  got:  %s\n", file, what, want, got);
  failures++;
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t r;
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Load, then the `auto` choices and the plan (what every command does
 * next: gen/main.c): 0 when both pass. */
static int load(const char *file, const char *text, size_t len, ggi_diag *d) {
  ggi_module *m = NULL;
  int rc = ggi_load(file, text, len, &m, d);
  if (rc == 0) {
    rc = ggi_specialize(m, d);
    ggi_module_free(m);
  }
  return rc;
}

static void check_library(const char *file, const char *want) {
  ggi_diag d;
  if (load(file, NULL, 0, &d) == 0) {
    fail(file, "library: loaded and planned without error", want, "(success)");
    return;
  }
  if (strcmp(d.msg, want) != 0) fail(file, "library, from the file", want, d.msg);

  size_t len = 0;
  char *text = read_all(file, &len);
  if (!text) {
    fail(file, "cannot read the case", want, "");
    return;
  }
  if (load(file, text, len, &d) == 0) {
    fail(file, "library from memory: loaded and planned without error", want, "(success)");
  } else if (strcmp(d.msg, want) != 0) {
    fail(file, "library, from memory", want, d.msg);
  }
  free(text);
}

/* Runs `gpugen list file` with stderr captured. */
static void check_cli(const char *gpugen, const char *file, const char *want) {
  int fd[2];
  if (pipe(fd) != 0) {
    fail(file, "pipe", want, "");
    return;
  }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 2);
    close(fd[0]);
    if (!freopen("/dev/null", "w", stdout)) _exit(126);
    execl(gpugen, gpugen, "list", file, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  char got[4096];
  size_t n = 0;
  ssize_t r;
  while ((r = read(fd[0], got + n, sizeof got - 1 - n)) > 0) n += (size_t)r;
  got[n] = 0;
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    char sig[64];
    snprintf(sig, sizeof sig, "killed by signal %d", WTERMSIG(status));
    fail(file, "gpugen list crashed", want, sig);
    return;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 1) {
    char st[64];
    snprintf(st, sizeof st, "exit status %d", WEXITSTATUS(status));
    fail(file, "gpugen list must exit with 1", "exit status 1", st);
  }
  if (n > 0 && got[n - 1] == '\n') got[n - 1] = 0;
  if (strcmp(got, want) != 0) fail(file, "gpugen list stderr", want, got);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gen_bad EXPECTED [GPUGEN]\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  char line[2048];
  int cases = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    char file[512];
    size_t fl = strcspn(line, ":");
    if (fl >= sizeof file || !line[fl]) {
      printf("FAIL malformed line: %s\n", line);
      failures++;
      continue;
    }
    memcpy(file, line, fl);
    file[fl] = 0;
    check_library(file, line);
    if (argc > 2) check_cli(argv[2], file, line);
    cases++;
  }
  fclose(f);
  printf("%d cases, %d failures\n", cases, failures);
  if (cases < MIN_CASES) {
    printf("FAIL only %d cases; want at least %d\n", cases, MIN_CASES);
    return 1;
  }
  return failures ? 1 : 0;
}
