/*
 * describe.c - listing a module's kernels, persistent kernels and their
 * commands, and the not-found messages that list them.  Everything comes
 * from the gg_module_desc, so it works without a device; the gg_module_*
 * forms read the descriptor a loaded module was made from.
 *
 * Descriptors may be hand-made: an index out of range, a NULL list or a
 * NULL name reads as "none" (count 0, name NULL), never as a crash.
 */
#include <stdio.h>
#include <string.h>

#include "describe.h"
#include "gg.h"
#include "internal.h"

int gg_module_desc_kernel_count(const gg_module_desc *d)
{
  return d && d->kernels && d->nkernels > 0 ? d->nkernels : 0;
}

const char *gg_module_desc_kernel_name(const gg_module_desc *d, int i)
{
  return i >= 0 && i < gg_module_desc_kernel_count(d) ? d->kernels[i].name : NULL;
}

int gg_module_desc_persistent_count(const gg_module_desc *d)
{
  return d && d->persistent && d->npersistent > 0 ? d->npersistent : 0;
}

const char *gg_module_desc_persistent_name(const gg_module_desc *d, int i)
{
  return i >= 0 && i < gg_module_desc_persistent_count(d) ? d->persistent[i].name : NULL;
}

/* Persistent kernel `name` (NULL: the first), as gg_session_open finds it. */
static const gg_persistent_desc *persistent_of(const gg_module_desc *d, const char *name)
{
  for (int i = 0; i < gg_module_desc_persistent_count(d); i++) {
    const char *n = d->persistent[i].name;
    if (!name || (n && strcmp(n, name) == 0)) return &d->persistent[i];
  }
  return NULL;
}

int gg_module_desc_command_count(const gg_module_desc *d, const char *persistent)
{
  const gg_persistent_desc *pd = persistent_of(d, persistent);
  if (!pd) return -1;
  return pd->commands && pd->ncommands > 0 ? pd->ncommands : 0;
}

const char *gg_module_desc_command_name(const gg_module_desc *d, const char *persistent, int cmd)
{
  const gg_persistent_desc *pd = persistent_of(d, persistent);
  if (!pd || !pd->commands || cmd < 0 || cmd >= pd->ncommands) return NULL;
  return gg_module_desc_kernel_name(d, pd->commands[cmd]);
}

const gg_module_desc *gg_module_describe(const gg_module *mod) { return mod ? mod->desc : NULL; }
int gg_module_kernel_count(const gg_module *mod)
{
  return gg_module_desc_kernel_count(gg_module_describe(mod));
}
const char *gg_module_kernel_name(const gg_module *mod, int i)
{
  return gg_module_desc_kernel_name(gg_module_describe(mod), i);
}
int gg_module_persistent_count(const gg_module *mod)
{
  return gg_module_desc_persistent_count(gg_module_describe(mod));
}
const char *gg_module_persistent_name(const gg_module *mod, int i)
{
  return gg_module_desc_persistent_name(gg_module_describe(mod), i);
}
int gg_module_command_count(const gg_module *mod, const char *persistent)
{
  return gg_module_desc_command_count(gg_module_describe(mod), persistent);
}
const char *gg_module_command_name(const gg_module *mod, const char *persistent, int cmd)
{
  return gg_module_desc_command_name(gg_module_describe(mod), persistent, cmd);
}

/* ---- not-found messages ---- */

/* Edit distance (insert, delete, substitute, swap of neighbours) of two
 * names, or a large number when either is too long to be a typo of the
 * other worth suggesting. */
static int distance(const char *a, const char *b)
{
  enum { MAX = 64 };
  size_t na = strlen(a), nb = strlen(b);
  if (na > MAX || nb > MAX) return 1 << 20;
  int d[MAX + 1][MAX + 1];
  for (size_t i = 0; i <= na; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= nb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= na; i++)
    for (size_t j = 1; j <= nb; j++) {
      int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[na][nb];
}

typedef const char *(*name_at_fn)(const void *obj, int i);

static const char *kernel_at(const void *d, int i) { return gg_module_desc_kernel_name(d, i); }
static const char *persistent_at(const void *d, int i)
{
  return gg_module_desc_persistent_name(d, i);
}

typedef struct command_list {
  const gg_module_desc *d;
  const gg_persistent_desc *pd;
} command_list;
static const char *command_at(const void *obj, int i)
{
  const command_list *c = obj;
  return c->pd->commands ? gg_module_desc_kernel_name(c->d, c->pd->commands[i]) : NULL;
}

/* Appends to buf (always terminated, truncated with "..." when full). */
static void add(char *buf, size_t size, size_t *len, const char *fmt, const char *s)
{
  if (*len >= size) return;
  int n = snprintf(buf + *len, size - *len, fmt, s ? s : "(unnamed)");
  if (n < 0) return;
  *len += (size_t)n;
  if (*len >= size && size > 4) {
    memcpy(buf + size - 4, "...", 4);
    *len = size;
  }
}

/* "<head> '<name>' (did you mean '<near>'?); its <what>: a, b, c" */
static void missing(char *buf, size_t size, const char *head, const char *name, const char *what,
                    int n, name_at_fn at, const void *obj)
{
  if (!buf || size == 0) return;
  buf[0] = 0;
  size_t len = 0;
  add(buf, size, &len, "%s", head);
  if (name) add(buf, size, &len, " '%s'", name);
  const char *near = NULL;
  int best = 3; /* suggest only names within two edits, and closer than the name's own length */
  for (int i = 0; name && i < n; i++) {
    const char *c = at(obj, i);
    int dist = c ? distance(name, c) : best;
    if (dist < best && (size_t)dist < strlen(name)) best = dist, near = c;
  }
  if (near) add(buf, size, &len, " (did you mean '%s'?)", near);
  if (n == 0) {
    add(buf, size, &len, "; it has no %s", what);
    return;
  }
  add(buf, size, &len, "; its %s: ", what);
  for (int i = 0; i < n; i++) add(buf, size, &len, i ? ", %s" : "%s", at(obj, i));
}

void ggr_missing_kernel(const gg_module_desc *d, const char *name, char *buf, size_t size)
{
  char head[256];
  const char *mname = d && d->name ? d->name : "(unnamed)";
  if (name && persistent_of(d, name)) {
    snprintf(buf, size, "'%s' is a persistent kernel of module %s, not a kernel: run it with "
             "gg_session_open(mod, \"%s\", ...)", name, mname, name);
    return;
  }
  snprintf(head, sizeof head, "module %s has no kernel named", mname);
  missing(buf, size, head, name, "kernels", gg_module_desc_kernel_count(d), kernel_at, d);
}

void ggr_missing_persistent(const gg_module_desc *d, const char *name, char *buf, size_t size)
{
  char head[256];
  snprintf(head, sizeof head, "module %s has no persistent kernel", d && d->name ? d->name : "(unnamed)");
  missing(buf, size, head, name, "persistent kernels", gg_module_desc_persistent_count(d),
          persistent_at, d);
}

void ggr_missing_command(const gg_module_desc *d, const gg_persistent_desc *pd, const char *name,
                         char *buf, size_t size)
{
  char head[256];
  command_list c = {d, pd};
  snprintf(head, sizeof head, "persistent %s has no command", pd && pd->name ? pd->name : "(unnamed)");
  int n = pd && pd->commands && pd->ncommands > 0 ? pd->ncommands : 0;
  missing(buf, size, head, name, "commands", n, command_at, &c);
}
