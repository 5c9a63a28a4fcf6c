/*
 * main.c - the gpugen command line.
 *
 *   gpugen emit FILE.lua -o DIR [--templates DIR]
 *   gpugen check FILE.lua [--arch LIST] [--templates DIR]
 *   gpugen list FILE.lua
 *   gpugen explain FILE.lua NAME
 *
 * Every command runs the same pipeline: ggi_load (sandbox + validation),
 * ggi_specialize (the `auto` choices), then its own last step.  Exit
 * status: 0 done, 1 the workload or the generation failed (message on
 * stderr as file:line: ...), 2 the command line itself is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report.h"
#include "emit.h"
#include "load.h"
#include "names.h"
#include "specialize.h"

#ifndef GG_VERSION_STRING
#define GG_VERSION_STRING "unknown"
#endif

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

typedef struct options {
  const char *file;
  const char *out_dir;       /* emit -o */
  const char *templates;     /* --templates */
  const char *archs;         /* check --arch */
  const char *kernel;        /* explain */
  const char *time_limit;    /* --time-limit, any command */
  double seconds;            /* its value; 0: the default */
} options;

typedef struct command {
  const char *name;
  const char *usage;
  const char *help;
  int (*run)(const ggi_module *m, const options *o);
  unsigned flags;            /* which options it takes */
} command;

enum { OPT_OUT = 1, OPT_TEMPLATES = 2, OPT_ARCH = 4, OPT_KERNEL = 8, OPT_TIME = 16 };

/* A failed command's message, on stderr.  Messages echo what workload
 * files wrote; diag.c escaped their control characters when it made
 * them, so a name or path cannot drive the terminal. */
static int report(int rc, const ggi_diag *d) {
  if (rc != 0) fprintf(stderr, "%s\n", d->msg[0] ? d->msg : "gpugen: failed (no detail)");
  return rc == 0 ? EXIT_OK : EXIT_FAIL;
}

static int run_emit(const ggi_module *m, const options *o) {
  ggi_diag d = {{0}};
  return report(ggi_emit(m, o->out_dir, o->templates, &d), &d);
}

static int run_check(const ggi_module *m, const options *o) {
  ggi_diag d = {{0}};
  return report(ggi_check(m, o->archs, o->templates, stdout, &d), &d);
}

static int run_list(const ggi_module *m, const options *o) {
  ggi_diag d = {{0}};
  return report(ggi_list(m, stdout, &d), &d);
}

static int run_explain(const ggi_module *m, const options *o) {
  ggi_diag d = {{0}};
  return report(ggi_explain(m, o->kernel, stdout, &d), &d);
}

static const command commands[] = {
  {"emit", "gpugen emit FILE.lua -o DIR [--templates DIR]",
   "Write DIR/<module>.cu, .hip, .c and .h: the kernel sources for each target\n"
   "and a C module (sources as strings + descriptors) for the runtime.\n"
   "The same input always gives byte-identical files.\n",
   run_emit, OPT_OUT | OPT_TEMPLATES},
  {"check", "gpugen check FILE.lua [--arch sm_80,sm_90,gfx90a,gfx1030] [--templates DIR]",
   "Compile every generated kernel offline with NVRTC (sm_*) and hiprtc (gfx*);\n"
   "compile errors name the workload's file:line.  Default archs: the four above.\n"
   "--arch takes sm_NN or compute_NN (NVRTC; e.g. sm_90a) and the gfx archs hiprtc\n"
   "knows, separated by commas, at most 32 different ones; an arch named twice\n"
   "compiles once.  An unknown arch is a usage error (exit status 2), given\n"
   "before anything compiles.\n",
   run_check, OPT_ARCH | OPT_TEMPLATES},
  {"list", "gpugen list FILE.lua",
   "Validate FILE.lua and list what would be generated: kernels, patterns,\n"
   "parameters, chosen strategies and launch modes.\n",
   run_list, 0},
  {"explain", "gpugen explain FILE.lua NAME",
   "Say why each specialization of NAME - a kernel, frame or persistent kernel -\n"
   "was chosen (block size, strategy, barriers, argument layout, ...).\n",
   run_explain, OPT_KERNEL},
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])
_Static_assert(GGI_MAX_ARCHS == 32, "check's --help names the most archs as 32");

static void print_usage(FILE *f) {
  fprintf(f, "usage:\n");
  for (int i = 0; i < NCOMMANDS; i++) fprintf(f, "  %s\n", commands[i].usage);
  fprintf(f, "  gpugen --help | --version | COMMAND --help\n");
  fprintf(f, "every command also takes --time-limit SECONDS: CPU time for loading FILE.lua (default %g),\n"
             "  a decimal number more than 0 and at most %g (2, 0.5; no sign, exponent or hex)\n",
          GGI_TIME_LIMIT, GGI_TIME_LIMIT_MAX);
}

static void print_help(void) {
  printf("gpugen %s - Lua workload descriptions to specialized CUDA and HIP kernels\n\n", GG_VERSION_STRING);
  print_usage(stdout);
  printf("\nThe language is described in docs/language.md.  Exit status: 0 done,\n"
         "1 the workload or the generation failed (file:line: message on stderr),\n"
         "2 bad command line.\n");
}

/* The one way a bad command line is reported: "gpugen: " and what is
 * wrong (a message made as every other is, diag.h), then the usage; exit
 * status 2. */
static int usage_line(const command *c, const ggi_diag *d) {
  fprintf(stderr, "gpugen: %s\nusage: %s\n", d->msg, c ? c->usage : "gpugen COMMAND FILE.lua ... (gpugen --help)");
  return EXIT_USAGE;
}

/* usage_line with fmt's %s replaced by arg, which is whatever argv held:
 * shown with control characters escaped and clipped to 64 bytes. */
static int usage_error(const command *c, const char *fmt, const char *arg) {
  char clean[256];
  ggi_clean(clean, sizeof clean, arg);
  if (strlen(clean) > 64) strcpy(clean + 61, "...");
  ggi_diag d;
  ggi_fail(&d, fmt, clean);
  return usage_line(c, &d);
}

/* A number of seconds as --time-limit takes it: decimal digits with an
 * optional fraction (2, 0.5), so that no form reads other than it looks
 * (strtod alone takes 0x10 as 16, " 2", "+2", "1e1", "inf").  Returns 0
 * with *v set, or -1. */
static int decimal_seconds(const char *s, double *v) {
  size_t whole = strspn(s, "0123456789"), frac = 0;
  if (s[whole] == '.') frac = strspn(s + whole + 1, "0123456789");
  if (whole == 0 || (s[whole] == '.' && frac == 0) || s[whole + (s[whole] == '.') + frac]) return -1;
  *v = strtod(s, NULL);
  return 0;
}

/* The value of an option: "--opt VALUE" or "--opt=VALUE". */
static const char *option_value(int argc, char **argv, int *i, const char *name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=') return argv[*i] + n + 1;
  if (*i + 1 < argc) return argv[++*i];
  return NULL;
}

/* Fills o from argv[2..]; returns EXIT_OK, or EXIT_USAGE after a message.
 * *help is set for `COMMAND --help`. */
static int parse_args(const command *c, int argc, char **argv, options *o, int *help) {
  struct { const char *name; unsigned flag; const char **dst; } opts[] = {
    {"-o", OPT_OUT, &o->out_dir}, {"--out", OPT_OUT, &o->out_dir},
    {"--templates", OPT_TEMPLATES, &o->templates}, {"--arch", OPT_ARCH, &o->archs},
    {"--time-limit", OPT_TIME, &o->time_limit},
  };
  int npos = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      *help = 1;
      return EXIT_OK;
    }
    if (a[0] == '-' && a[1]) {
      int found = 0;
      for (size_t k = 0; k < sizeof opts / sizeof opts[0] && !found; k++) {
        size_t n = strlen(opts[k].name);
        if (strncmp(a, opts[k].name, n) != 0 || (a[n] && a[n] != '=')) continue;
        if (!((c->flags | OPT_TIME) & opts[k].flag)) return usage_error(c, "option %s does not apply to this command", opts[k].name);
        const char *v = option_value(argc, argv, &i, opts[k].name);
        if (!v || !v[0]) return usage_error(c, "option %s needs a value", opts[k].name);
        if (*opts[k].dst) /* a second --arch would drop the first list unseen */
          return usage_error(c, opts[k].flag == OPT_ARCH
                                    ? "option %s given twice: give one list (--arch sm_90,gfx90a)"
                                    : "option %s given twice: give it once", opts[k].name);
        *opts[k].dst = v;
        found = 1;
      }
      if (!found) return usage_error(c, "unknown option %s", a);
      continue;
    }
    if (npos == 0) o->file = a;
    else if (npos == 1 && (c->flags & OPT_KERNEL)) o->kernel = a;
    else return usage_error(c, "unexpected argument %s", a);
    npos++;
  }
  if (!o->file) return usage_error(c, "%s", "missing FILE.lua");
  if ((c->flags & OPT_KERNEL) && !o->kernel)
    return usage_error(c, "%s", "missing NAME (a kernel, frame or persistent kernel of FILE.lua)");
  if ((c->flags & OPT_OUT) && !o->out_dir) return usage_error(c, "%s", "missing -o DIR");
  if (o->time_limit &&
      (decimal_seconds(o->time_limit, &o->seconds) != 0 || !(o->seconds > 0 && o->seconds <= GGI_TIME_LIMIT_MAX))) {
    char fmt[160];
    snprintf(fmt, sizeof fmt, "--time-limit %%s: give seconds of CPU time as a decimal number (2, 0.5), "
             "more than 0 and at most %g", GGI_TIME_LIMIT_MAX);
    return usage_error(c, fmt, o->time_limit);
  }
  if (c->flags & OPT_ARCH) { /* the whole list, before the workload loads */
    ggi_archs archs;
    ggi_diag d = {{0}};
    if (ggi_arch_list(o->archs, &archs, &d) != 0) {
      ggi_fail(&d, "--arch: %s", d.msg); /* a message may be made from its own diag (diag.h) */
      return usage_line(c, &d);
    }
  }
  return EXIT_OK;
}

static int run_command(const command *c, const options *o) {
  ggi_module *m = NULL;
  ggi_diag d = {{0}};
  if (ggi_load_limited(o->file, NULL, 0, o->seconds, &m, &d) != 0) return report(-1, &d);
  int rc = ggi_specialize(m, &d) == 0 ? c->run(m, o) : report(-1, &d);
  ggi_module_free(m);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return EXIT_USAGE;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    print_help();
    return EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("gpugen %s\n", GG_VERSION_STRING);
    return EXIT_OK;
  }
  const command *c = NULL;
  for (int i = 0; i < NCOMMANDS; i++)
    if (strcmp(argv[1], commands[i].name) == 0) c = &commands[i];
  if (!c) return usage_error(NULL, "unknown command '%s'", argv[1]);
  options o = {0};
  int help = 0;
  int rc = parse_args(c, argc, argv, &o, &help);
  if (rc != EXIT_OK) return rc;
  if (help) {
    printf("usage: %s\n\n%s", c->usage, c->help);
    return EXIT_OK;
  }
  return run_command(c, &o);
}
