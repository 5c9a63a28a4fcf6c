/* gpugen emit writes each file through a temporary one in the output
 * folder.  With a predictable temporary name (".saxpy.c.tmp<pid>") another
 * user of a shared output folder could plant a symbolic link there and
 * have gpugen overwrite any file the user can write.  This test knows the
 * pid gpugen will run under (fork, then exec), plants such links for every
 * output, and checks that the file they point at is untouched and the
 * outputs are regular files with the usual mode.
 *
 *   test_hostile_outputs GPUGEN WORKLOAD.lua   (writes <name>.c/.cu/.h/.hip) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../expect.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_hostile_outputs GPUGEN WORKLOAD.lua\n");
    return 2;
  }
  char root[] = "/tmp/gg_hostile_out_XXXXXX";
  if (!mkdtemp(root)) return 1;
  char victim[256], out[256];
  snprintf(victim, sizeof victim, "%s/victim", root);
  snprintf(out, sizeof out, "%s/out", root);
  FILE *f = fopen(victim, "w");
  fputs("precious\n", f);
  fclose(f);
  mkdir(out, 0755);
  /* the module's name: the workload file's base name (saxpy.lua -> saxpy) */
  const char *base = strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2];
  char name[128];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(base, "."), base);

  int go[2];
  if (pipe(go)) return 1;
  pid_t pid = fork();
  if (pid == 0) {
    char c;
    close(go[1]);
    if (read(go[0], &c, 1) != 1) _exit(90);
    execl(argv[1], argv[1], "emit", argv[2], "-o", out, (char *)NULL);
    _exit(91);
  }
  close(go[0]);
  const char *exts[] = {"c", "cu", "h", "hip"};
  for (int i = 0; i < 4; i++) {
    char link[512];
    snprintf(link, sizeof link, "%s/.%s.%s.tmp%ld", out, name, exts[i], (long)pid);
    CHECK(symlink(victim, link) == 0);
  }
  if (write(go[1], "x", 1) != 1) return 1;
  close(go[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  char buf[64] = {0};
  f = fopen(victim, "r");
  CHECK(f && fgets(buf, sizeof buf, f) && !strcmp(buf, "precious\n"));
  if (f) fclose(f);
  mode_t mask = umask(0);
  umask(mask);
  for (int i = 0; i < 4; i++) {
    char path[512];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s.%s", out, name, exts[i]);
    CHECK(lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 100);
    CHECK((sb.st_mode & 0777) == (0666 & ~mask));
  }
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  if (system(cmd)) fprintf(stderr, "cleanup of %s failed\n", root);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("hostile outputs: all checks passed\n");
  return failures ? 1 : 0;
}
