/*
 * test_render.c - the emitter's machinery on hand-built IR: template
 * substitution (known keys, C++'s own "{{", unknown keys, missing or
 * escaping template paths, --templates override), the argument struct
 * layout of a kernel mixing every field kind, and #line framing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "dict.h"
#include "render.h"
#include "source.h"
#include "plan.h"
#include "specialize.h"
#include "templates.h"
#include "../expect.h"

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    printf("FAIL: cannot write %s\n", path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

static void test_templates(const char *dir)
{
  char path[512];
  snprintf(path, sizeof path, "%s/common", dir);
  mkdir(path, 0777);
  snprintf(path, sizeof path, "%s/common/t.cuh", dir);
  write_file(path, "a {{NAME}} b {{ {1,2} }} {{x}} {{N2}}{{NAME}}\n");
  snprintf(path, sizeof path, "%s/common/bad.cuh", dir);
  write_file(path, "x {{MISSING}} y\n");

  ggi_dict dict = {0};
  ggi_dict_set(&dict, "NAME", "foo");
  ggi_dict_set(&dict, "N2", "bar");
  ggi_dict_set(&dict, "NAME", "saxpy"); /* replaces */
  EXPECT(dict.n == 2, "dict has %d keys, want 2", dict.n);

  ggi_buf out = {0};
  ggi_diag d = {{0}};
  int rc = ggi_render_template(dir, "common/t.cuh", &dict, &out, &d);
  EXPECT(rc == 0, "render failed: %s", d.msg);
  EXPECT(out.p && strcmp(out.p, "a saxpy b {{ {1,2} }} {{x}} barsaxpy\n") == 0, "got '%s'",
         out.p ? out.p : "(null)");
  ggi_buf_free(&out);

  rc = ggi_render_template(dir, "common/bad.cuh", &dict, &out, &d);
  EXPECT(rc != 0 && strstr(d.msg, "unknown key {{MISSING}}") && strstr(d.msg, "common/bad.cuh"),
         "unknown key: rc %d, '%s'", rc, d.msg);
  ggi_buf_free(&out);

  rc = ggi_render_template(dir, "common/none.cuh", &dict, &out, &d);
  EXPECT(rc != 0 && strstr(d.msg, "common/none.cuh"), "missing template: '%s'", d.msg);
  ggi_buf_free(&out);
  rc = ggi_render_template(NULL, "common/none.cuh", &dict, &out, &d);
  EXPECT(rc != 0 && strstr(d.msg, "no template 'common/none.cuh'"), "missing embedded: '%s'", d.msg);
  ggi_buf_free(&out);
  rc = ggi_render_template(dir, "../etc/passwd", &dict, &out, &d);
  EXPECT(rc != 0 && strstr(d.msg, "bad template path"), "escaping path: '%s'", d.msg);
  ggi_buf_free(&out);

  /* the embedded table holds the preludes and both wrappers */
  const char *need[] = {"cuda/prelude.cuh", "hip/prelude.hip", "common/for.cuh", "common/team.cuh",
                        "global/kernel_classic.cuh", "global/kernel_cooperative.cuh"};
  for (int i = 0; i < 6; i++) {
    char *owned;
    ggi_diag why = {{0}};
    const char *t = ggi_template_get(NULL, need[i], &owned, &why);
    EXPECT(t && strlen(t) > 100 && !owned, "embedded %s missing: %s", need[i], why.msg);
  }
}

/* { f16 h; f64 d; i32 c; view f32 v[n][3] stride; extent n; strides } */
static void test_layout(const char *dir)
{
  ggi_module *m = ggi_module_new("layout.lua");
  if (!m) {
    printf("FAIL: out of memory\n");
    exit(1);
  }
  m->name = "layout";
  m->targets = GGI_TARGET_CUDA;
  m->nkernels = 1;
  m->kernels = ggi_alloc(m->arena, sizeof *m->kernels);
  ggi_kernel *k = m->kernels;
  memset(k, 0, sizeof *k);
  k->name = "mixed";
  k->line = 3;
  k->pattern = GG_PATTERN_FOR;
  k->targets = GGI_TARGET_CUDA;
  k->rank = 2;
  k->range[0].name = "n";
  k->range[1].value = 3;
  k->index[0] = "i";
  k->index[1] = "j";
  k->nparams = 4;
  k->params = ggi_alloc(m->arena, 4 * sizeof *k->params);
  memset(k->params, 0, 4 * sizeof *k->params);
  k->params[0] = (ggi_param){.name = "h", .kind = GG_PARAM_SCALAR, .dtype = GG_F16};
  k->params[1] = (ggi_param){.name = "d", .kind = GG_PARAM_SCALAR, .dtype = GG_F64};
  k->params[2] = (ggi_param){.name = "c", .kind = GG_PARAM_SCALAR, .dtype = GG_I32};
  k->params[3] = (ggi_param){.name = "v", .kind = GG_PARAM_VIEW, .dtype = GG_F32, .rank = 2,
                             .layout = GG_LAYOUT_STRIDE, .access = GG_ACCESS_INOUT};
  k->params[3].ext[0].name = "n";
  k->params[3].ext[1].value = 3;
  k->nextents = 1;
  k->extents = ggi_alloc(m->arena, sizeof *k->extents);
  k->extents[0] = "n";
  k->body = "v(i, j) = (float)(h) + d * c;";
  k->body_line = 7;

  ggi_diag d = {{0}};
  EXPECT(ggi_specialize(m, &d) == 0, "specialize: %s", d.msg);
  ggi_dict dict;
  const ggi_plan *p = ggi_plan_of(k, GGI_TARGET_CUDA);
  EXPECT(p != NULL, "the plan stage stored no cuda plan");
  EXPECT(ggi_kernel_dict(m, k, GGI_TARGET_CUDA, p, &dict, &d) == 0, "dict: %s", d.msg);
  const char *fields = NULL, *decode = NULL, *macros = NULL;
  for (int i = 0; i < dict.n; i++) {
    if (!strcmp(dict.keys[i], "ARGS_FIELDS")) fields = dict.values[i];
    if (!strcmp(dict.keys[i], "INDEX_DECODE")) decode = dict.values[i];
    if (!strcmp(dict.keys[i], "VIEW_MACROS")) macros = dict.values[i];
  }
  const char *want[] = {"gg_f16 h; /* offset 0 */", "double d; /* offset 8 */",
                        "int c; /* offset 16 */", "float *v; /* offset 24 */",
                        "long long n; /* offset 32 */", "long long v_s0; /* offset 40 */",
                        "long long v_s1; /* offset 48 */"};
  for (int i = 0; i < 7; i++)
    EXPECT(fields && strstr(fields, want[i]), "ARGS_FIELDS lacks '%s':\n%s", want[i],
           fields ? fields : "");
  EXPECT(macros && strstr(macros, "#define v(gg_i0, gg_i1) v[(gg_i0)*v_s0 + (gg_i1)*v_s1]"), "stride macro: %s",
         macros ? macros : "");
  /* a stride view gives no layout preference: the last index is fastest */
  EXPECT(decode && strstr(decode, "const long long j = gg_r % 3LL;") &&
             strstr(decode, "const long long i = gg_r;"), "decode: %s",
         decode ? decode : "");

  char *src = NULL;
  EXPECT(ggi_render_source(m, GGI_TARGET_CUDA, NULL, &src, &d) == 0, "render: %s", d.msg);
  EXPECT(src && strstr(src, "#define GG_USE_HALF 1"), "f16 kernel without GG_USE_HALF");
  EXPECT(src && strstr(src, "#line 7 \"layout.lua\"\nv(i, j) = (float)(h) + d * c;\n\n#line "),
         "body not framed by #line");
  /* every #line back names the line that follows it */
  int line = 1, bad = 0;
  for (const char *s = src; s && *s;) {
    const char *nl = strchr(s, '\n');
    const char *q = strstr(s, "\"layout.cu\"");
    if (!strncmp(s, "#line ", 6) && q && (!nl || q < nl)) bad += atoi(s + 6) != line + 1;
    if (!nl) break;
    s = nl + 1;
    line++;
  }
  EXPECT(src && !bad, "%d #line directives point to the wrong line", bad);
  free(src);

  /* --templates DIR: a full copy of the embedded templates with one
     changed is what the source is rendered from */
  char tdir[600], path[700];
  snprintf(tdir, sizeof tdir, "%s/tpl", dir);
  mkdir(tdir, 0777);
  for (const struct ggi_template *t = ggi_templates; t->path; t++) {
    char sub[700];
    snprintf(sub, sizeof sub, "%s/%s", tdir, t->path);
    *strrchr(sub, '/') = 0;
    mkdir(sub, 0777);
    snprintf(path, sizeof path, "%s/%s", tdir, t->path);
    write_file(path, t->text);
  }
  snprintf(path, sizeof path, "%s/common/for.cuh", tdir);
  write_file(path, "/* overridden for {{NAME}} */\n"
                   "__device__ void gg_body(const {{ARGS_T}} &args, const gg_grid &g) {}\n");
  src = NULL;
  EXPECT(ggi_render_source(m, GGI_TARGET_CUDA, tdir, &src, &d) == 0, "override: %s", d.msg);
  EXPECT(src && strstr(src, "/* overridden for mixed */") &&
             !strstr(src, "the body runs in a lambda"),
         "--templates DIR not used");
  free(src);
  snprintf(path, sizeof path, "%s/common/for.cuh", tdir);
  write_file(path, "{{NO_SUCH_KEY}}\n");
  src = NULL;
  EXPECT(ggi_render_source(m, GGI_TARGET_CUDA, tdir, &src, &d) != 0 &&
             strstr(d.msg, "unknown key {{NO_SUCH_KEY}}") && !src,
         "override with a bad key: '%s'", d.msg);

  /* bf16 is refused for hip with the file:line of the parameter */
  k->params[0].dtype = GG_BF16;
  k->params[0].line = 5;
  k->targets = GGI_TARGET_HIP;
  EXPECT(ggi_specialize(m, &d) != 0 && strstr(d.msg, "layout.lua:5:") && strstr(d.msg, "bf16"),
         "bf16 on hip: '%s'", d.msg);

  /* the output folder's parent must exist; the error says which */
  k->params[0].dtype = GG_F32;
  k->targets = GGI_TARGET_CUDA;
  EXPECT(ggi_specialize(m, &d) == 0, "specialize: %s", d.msg);
  char bad_dir[600];
  snprintf(bad_dir, sizeof bad_dir, "%s/no/such/dir", dir);
  EXPECT(ggi_emit(m, bad_dir, NULL, &d) != 0 && strstr(d.msg, "no/such/dir"), "bad dir: '%s'", d.msg);
  ggi_module_free(m);
}

/* The templates rendered at file scope (all but common/, whose pieces
 * source.c puts inside the kernel's namespace) make an identifier of a
 * declaration's name only as names.h's file-scope forms, which the
 * collision check knows: no `{{NAME}}` glued to other letters there
 * (GG_P_NW_{{NAME}}, gg_fft_back_{{NAME}}, ...), and of `{{SYMBOL}}` only
 * the runtime's GG_MIN_BLOCKS_{{SYMBOL}}. */
static int ident_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static void test_file_scope_names(void)
{
  static const char *const keys[] = {"{{NAME}}", "{{SYMBOL}}", "{{NS}}", "{{ARGS_T}}"};
  for (const struct ggi_template *t = ggi_templates; t->path; t++) {
    if (strncmp(t->path, "common/", 7) == 0) continue;
    for (int k = 0; k < 4; k++)
      for (const char *at = strstr(t->text, keys[k]); at; at = strstr(at + 1, keys[k])) {
        const char *end = at + strlen(keys[k]);
        int glued = (at > t->text && ident_char(at[-1])) || ident_char(*end);
        if (glued && k == 1 && at - t->text >= 14 && strncmp(at - 14, "GG_MIN_BLOCKS_", 14) == 0 &&
            !ident_char(*end))
          glued = 0;
        EXPECT(!glued, "%s makes an identifier of %s at file scope: %.40s", t->path, keys[k],
               at > t->text + 20 ? at - 20 : t->text);
      }
  }
}

int main(void)
{
  char dir[] = "/tmp/gg_test_render_XXXXXX";
  if (!mkdtemp(dir)) {
    printf("FAIL: mkdtemp\n");
    return 1;
  }
  test_templates(dir);
  test_layout(dir);
  test_file_scope_names();
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
