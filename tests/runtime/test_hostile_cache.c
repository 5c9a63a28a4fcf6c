/* A cache another local user could write to must never hand back a
 * binary: folders writable by others or owned by someone else, symbolic
 * links, planted entries (FIFOs, links, other users' files, a valid-looking
 * header).  Each case is refused or ignored, never loaded, and nothing
 * blocks.  Runs as any user; the "another user" cases need root (chown)
 * and say so when skipped. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "../expect.h"

static char root[128];
static const char payload[] = "pretend this is a cubin that does something unwanted";
static const ggr_key key = {0x0123456789abcdefull, 0x0fedcba987654321ull};

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "test_hostile_cache: blocked (a FIFO entry was opened for reading)\n";
  if (write(2, msg, sizeof msg - 1)) {}
  _exit(3);
}

static void path_of(char *buf, size_t n, const char *sub) { snprintf(buf, n, "%s/%s", root, sub); }

static ggr_cache *open_dir(const char *dir) {
  ggr_cache *c = NULL;
  CHECK(ggr_cache_open(&c, dir, 0, 1) == GG_OK && c);
  return c;
}

/* A real entry for `key`, written by the cache itself in a safe folder,
 * then copied to `dst`: a planted file that passes every content check. */
static void plant_valid_entry(const char *dst) {
  char dir[512], src[700], name[40];
  path_of(dir, sizeof dir, "mint");
  ggr_cache *c = open_dir(dir);
  CHECK(ggr_cache_put(c, key, payload, sizeof payload) == GG_OK);
  ggr_cache_entry_name(key, name);
  snprintf(src, sizeof src, "%s/%s", dir, name);
  ggr_cache_close(c);
  FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
  CHECK(in && out);
  if (!in || !out) return;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  fclose(in);
  fclose(out);
  chmod(dst, 0600);
}

static void entry_in(char *buf, size_t n, const char *dir) {
  char name[40];
  ggr_cache_entry_name(key, name);
  snprintf(buf, n, "%s/%s", dir, name);
}

/* Not loaded: either the cache is off or the lookup misses. */
static int refuses(ggr_cache *c) {
  void *d = NULL;
  size_t n = 0;
  gg_status st = ggr_cache_get(c, key, &d, &n);
  free(d);
  return st == GG_ERR_NOT_FOUND && d == NULL;
}

/* A valid entry in a folder that is fine: loaded (the control case). */
static void test_control(void) {
  char dir[512], e[700];
  path_of(dir, sizeof dir, "good");
  mkdir(dir, 0700);
  entry_in(e, sizeof e, dir);
  plant_valid_entry(e);
  ggr_cache *c = open_dir(dir);
  CHECK(ggr_cache_enabled(c));
  void *d = NULL;
  size_t n = 0;
  CHECK(ggr_cache_get(c, key, &d, &n) == GG_OK && n == sizeof payload);
  free(d);
  ggr_cache_close(c);
}

static void test_folder_writable_by_others(void) {
  const mode_t modes[] = {0777, 0770, 0702, 0720};
  for (int i = 0; i < 4; i++) {
    char dir[512], e[700];
    snprintf(dir, sizeof dir, "%s/open%d", root, i);
    mkdir(dir, 0700);
    chmod(dir, modes[i]);
    entry_in(e, sizeof e, dir);
    plant_valid_entry(e);
    ggr_cache *c = open_dir(dir);
    CHECK(!ggr_cache_enabled(c));
    CHECK(refuses(c));
    ggr_cache_close(c);
  }
  /* a folder above the cache that others can write (not sticky): they
   * could rename the cache folder away and put their own in its place */
  char up[512], dir[600], e[700];
  path_of(up, sizeof up, "openparent");
  mkdir(up, 0777);
  chmod(up, 0777);
  snprintf(dir, sizeof dir, "%s/cache", up);
  mkdir(dir, 0700);
  entry_in(e, sizeof e, dir);
  plant_valid_entry(e);
  ggr_cache *c = open_dir(dir);
  CHECK(!ggr_cache_enabled(c) && refuses(c));
  ggr_cache_close(c);
  /* the same above a sticky folder (like /tmp) is fine */
  path_of(up, sizeof up, "sticky");
  mkdir(up, 0700);
  chmod(up, 01777);
  snprintf(dir, sizeof dir, "%s/cache", up);
  c = open_dir(dir);
  CHECK(ggr_cache_enabled(c));
  ggr_cache_close(c);
}

static void test_symlinked_folder(void) {
  char target[512], link[512], e[700];
  path_of(target, sizeof target, "real");
  mkdir(target, 0700);
  entry_in(e, sizeof e, target);
  plant_valid_entry(e);
  path_of(link, sizeof link, "link");
  CHECK(symlink(target, link) == 0);
  ggr_cache *c = open_dir(link);
  CHECK(!ggr_cache_enabled(c) && refuses(c));
  ggr_cache_close(c);
  /* a trailing slash must not make the link count as the folder */
  char slashed[600];
  snprintf(slashed, sizeof slashed, "%s/", link);
  c = open_dir(slashed);
  CHECK(!ggr_cache_enabled(c) && refuses(c));
  ggr_cache_close(c);
  /* the environment variable is held to the same rules */
  setenv("GG_CACHE_DIR", link, 1);
  CHECK(ggr_cache_open(&c, NULL, 0, 0) == GG_OK);
  CHECK(!ggr_cache_enabled(c) && refuses(c));
  ggr_cache_close(c);
  unsetenv("GG_CACHE_DIR");
}

static void test_other_owner(void) {
  if (geteuid() != 0) {
    printf("skipped: folders and entries owned by another user (needs root to chown)\n");
    return;
  }
  struct passwd *pw = getpwnam("nobody");
  uid_t other = pw ? pw->pw_uid : 65534;
  gid_t other_g = pw ? pw->pw_gid : 65534;
  /* the folder */
  char dir[512], e[700];
  path_of(dir, sizeof dir, "theirs");
  mkdir(dir, 0700);
  entry_in(e, sizeof e, dir);
  plant_valid_entry(e);
  CHECK(chown(e, other, other_g) == 0);
  CHECK(chown(dir, other, other_g) == 0);
  ggr_cache *c = open_dir(dir);
  CHECK(!ggr_cache_enabled(c) && refuses(c));
  ggr_cache_close(c);
  /* a folder of another user above ours */
  char up[512], sub[600];
  path_of(up, sizeof up, "theirs_above");
  mkdir(up, 0755);
  snprintf(sub, sizeof sub, "%s/mine", up);
  mkdir(sub, 0700);
  entry_in(e, sizeof e, sub);
  plant_valid_entry(e);
  CHECK(chown(up, other, other_g) == 0);
  c = open_dir(sub);
  CHECK(!ggr_cache_enabled(c) && refuses(c));
  ggr_cache_close(c);
  /* an entry of another user in our own folder */
  path_of(dir, sizeof dir, "mine");
  mkdir(dir, 0700);
  entry_in(e, sizeof e, dir);
  plant_valid_entry(e);
  CHECK(chown(e, other, other_g) == 0);
  c = open_dir(dir);
  CHECK(ggr_cache_enabled(c));
  CHECK(refuses(c));
  ggr_cache_close(c);
}

static void test_planted_entries(void) {
  char dir[512], e[700], target[700];
  path_of(dir, sizeof dir, "planted");
  mkdir(dir, 0700);
  ggr_cache *c = open_dir(dir);
  CHECK(ggr_cache_enabled(c));
  entry_in(e, sizeof e, dir);
  /* a symbolic link to a valid entry elsewhere */
  path_of(target, sizeof target, "elsewhere.ggc");
  plant_valid_entry(target);
  CHECK(symlink(target, e) == 0);
  CHECK(refuses(c));
  unlink(e);
  /* a FIFO: opening it must not wait for a writer */
  CHECK(mkfifo(e, 0600) == 0);
  signal(SIGALRM, on_alarm);
  alarm(5);
  CHECK(refuses(c));
  alarm(0);
  unlink(e);
  /* a valid entry readable and writable by others */
  plant_valid_entry(e);
  chmod(e, 0666);
  CHECK(refuses(c));
  /* a folder where the entry should be */
  unlink(e);
  CHECK(mkdir(e, 0700) == 0);
  CHECK(refuses(c));
  rmdir(e);
  /* after all of that the cache still works */
  CHECK(ggr_cache_put(c, key, payload, sizeof payload) == GG_OK);
  void *d = NULL;
  size_t n = 0;
  CHECK(ggr_cache_get(c, key, &d, &n) == GG_OK && n == sizeof payload);
  free(d);
  struct stat sb;
  CHECK(lstat(e, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 077) == 0);
  ggr_cache_close(c);
}

int main(void) {
  snprintf(root, sizeof root, "/tmp/gg_hostile_cache_XXXXXX");
  if (!mkdtemp(root)) return 1;
  test_control();
  test_folder_writable_by_others();
  test_symlinked_folder();
  test_other_owner();
  test_planted_entries();
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  if (system(cmd)) fprintf(stderr, "cleanup of %s failed\n", root);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("hostile cache: all checks passed\n");
  return failures ? 1 : 0;
}
