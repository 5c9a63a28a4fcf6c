#!/bin/sh
# Every name the loader accepts builds: hostile_names writes batch
# workloads of accepted adversarial names (and checks that refused ones
# get file:line messages); each batch is emitted, its .c and .h compiled
# as C11 and C++ with -Wall -Werror after the C library's and POSIX's
# headers (also in the GNU dialects, where linux and unix are macros), and
# its kernel sources with NVRTC and hiprtc (`gpugen check`).  The
# candidates include every lowercase macro those headers define
# (st_mtime, sa_handler, si_pid, h_addr, major, errno, ...); each program
# checks at run time that every argument struct, as it sees it, has the
# size and field offsets and sizes of the module's descriptors.
#   hostile_names.sh HOSTILE_NAMES GPUGEN CC CXX|"" INCLUDE_DIR SOURCE_DIR OUT_DIR
set -eu
tool=$1 gpugen=$2 cc=$3 cxx=$4 inc=$5 src=$6 out=$7
rm -rf "$out"
mkdir -p "$out"

# a translation unit that includes the C library's and POSIX's headers
# first, with every extension of the C library on
prelude='#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif'
for h in assert.h complex.h errno.h float.h iso646.h limits.h math.h setjmp.h signal.h \
         stdarg.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h time.h \
         sys/stat.h netdb.h sys/socket.h netinet/in.h sys/types.h sys/sysmacros.h unistd.h \
         fcntl.h pthread.h sys/time.h sys/wait.h termios.h dirent.h poll.h sys/mman.h \
         sys/resource.h sched.h; do
  prelude="$prelude
#include <$h>"
done

# Their lowercase macros, object-like and function-like, GNU C's
# predefined ones included: candidate parameter, extent, scratch and
# kernel names (the other roles take hostile_names.c's fixed list).
printf '%s\n' "$prelude" | "$cc" -std=gnu11 -E -dM -x c - |
  sed -n 's/^#define \([a-z][A-Za-z0-9_]*\).*/\1/p' | sort -u > "$out/macros.txt"
for m in st_mtime sa_handler si_pid h_addr errno; do
  grep -qx "$m" "$out/macros.txt" || { echo "FAIL: no macro $m in the headers: the harvest broke"; exit 1; }
done
echo "$(wc -l < "$out/macros.txt") lowercase macros in the headers"
"$tool" "$out" "$src"/templates/*/* "$src"/include/*.h "$out/macros.txt"

# main.c: the prelude, the modules' headers, then a check of every
# argument struct against the descriptors.  The check names fields, so it
# shields them from the prelude's macros as the headers do, the names
# each header shields (a name a header missed fails here too).
write_main() { # DIR MODULE...
  d=$1; shift
  {
    printf '%s\n' "$prelude"
    for m in "$@"; do printf '#include "%s.h"\n' "$m"; done
    for m in "$@"; do
      sed -n 's/^#pragma push_macro("\(.*\)")$/\1/p' "$out/gen_$m/$m.h"
    done | sort -u | sed 's/.*/#pragma push_macro("&")\
#undef &/'
    cat <<'EOF_C'
static int fails, fields;
static void check(const gg_module_desc *m, int ki, const char *f, size_t off, size_t size,
                  size_t args_size)
{
  const gg_kernel_desc *k = &m->kernels[ki];
  fields++;
  if (k->args_size != args_size) { /* a struct without fields never gets here */
    printf("FAIL %s.%s: args_size %u, the struct %u\n", m->name, k->name,
           (unsigned)k->args_size, (unsigned)args_size);
    fails++;
  }
  for (int i = 0; i < k->nparams; i++)
    if (strcmp(k->params[i].name, f) == 0) {
      if (k->params[i].offset != off || k->params[i].size != size) {
        printf("FAIL %s.%s.%s: offset %u size %u, the struct %u %u\n", m->name, k->name, f,
               (unsigned)k->params[i].offset, (unsigned)k->params[i].size, (unsigned)off,
               (unsigned)size);
        fails++;
      }
      return;
    }
  printf("FAIL %s.%s: no field %s in the descriptor\n", m->name, k->name, f);
  fails++;
}
#define FIELD(T, ki, f) check(m, ki, #f, offsetof(T, f), sizeof(((T *)0)->f), sizeof(T));
EOF_C
    # modules named alike but for letter case (k, K) share the include
    # guard GG_MODULE_K_H: only the first one's header is read
    seen=' ' first=
    for m in "$@"; do
      M=$(printf '%s' "$m" | tr a-z A-Z)
      case "$seen" in *" $M "*) continue ;; esac
      seen="$seen$M " first="$first $m"
      printf 'static int check_%s(void)\n{\n' "$m"
      printf '  const gg_module_desc *m = &gg_module_%s;\n  int n = 0;\n' "$m"
      printf '  for (int i = 0; i < m->nkernels; i++) n += m->kernels[i].nparams;\n'
      printf '  GG_%s_ALL_FIELDS(FIELD)\n  return n;\n}\n' "$M"
    done
    printf 'int main(void)\n{\n  int want = 0;\n  (void)check; /* a module may have no fields */\n'
    for m in $first; do printf '  want += check_%s();\n' "$m"; done
    printf '  if (fields != want) printf("FAIL %%d fields, the descriptors %%d\\n", fields, want);\n'
    printf '  return fails || fields != want;\n}\n'
  } > "$d/main.c"
}

# C: every header after the prelude, in both dialects; C++ likewise (less
# complex.h, which is C's), linked with the module files built as C.
build_host() { # DIR MODULE...
  d=$1; shift
  write_main "$d" "$@"
  incs= srcs= objs=
  for m in "$@"; do incs="$incs -I$out/gen_$m"; srcs="$srcs $out/gen_$m/$m.c"; done
  for std in c11 gnu11; do
    # shellcheck disable=SC2086
    "$cc" -std=$std -Wall -Wextra -Werror -I"$inc" $incs "$d/main.c" $srcs -o "$d/main_$std"
    "$d/main_$std"
  done
  [ -n "$cxx" ] || return 0
  for s in $srcs; do
    o="$d/$(basename "$s" .c).o"
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Werror -I"$inc" $incs -c "$s" -o "$o"
    objs="$objs $o"
  done
  grep -v complex.h "$d/main.c" > "$d/main.cpp"
  for std in c++11 gnu++17 c++20; do
    # shellcheck disable=SC2086
    "$cxx" -std=$std -Wall -Wextra -Werror -I"$inc" $incs "$d/main.cpp" $objs -o "$d/main_$std"
    "$d/main_$std"
  done
}

modules=
while read -r lua mod role; do
  "$gpugen" emit "$lua" -o "$out/gen_$mod"
  if [ "$role" = module ]; then # the module name reaches host code only: built together below
    modules="$modules $mod"
    continue
  fi
  build_host "$out/gen_$mod" "$mod"
  "$gpugen" check "$lua" --arch sm_90,gfx90a > "$out/gen_$mod/check.txt" 2>&1 ||
    { cat "$out/gen_$mod/check.txt"; echo "FAIL: $lua"; exit 1; }
  echo "ok: $mod ($role)"
done < "$out/batches.txt"
mkdir -p "$out/modules"
# shellcheck disable=SC2086
build_host "$out/modules" $modules
echo "ok: modules$modules"
echo "hostile names: every accepted name builds"
