-- Bodies the loader's view scan (gen/body_check.c) must accept, each one
-- compiling: views named in comments, strings, character literals and raw
-- strings; comparisons; nested calls, casts and comma expressions inside
-- an index; ++ and + next to a read; a lambda; a view name the body
-- #undefs and #defines as a macro of its own; text in #if groups (maybe
-- never compiled); arguments of the body's own function-like macros
-- (maybe stringified, never expanded as views); a local that shadows a
-- view, which the view's macro then indexes.
module { name = "body_ok", targets = { "cuda", "hip" } }

kernel "tricky" {
  pattern = "for", range = { "n", "m" }, index = { "i", "j" },
  params  = { { "x", "f32[n]" }, { "a", "f32[n][m]", access = "inout" }, { "c", "i32[n]" } },
  body    = [[
    // x(i) = 1; x(i, j) = 2; a(i)(j) = 3;
    /* x(i)++; a(i) */
    const char *s = "x(i) = 3, a(i)(j)"; (void)s;
    const char *r = R"raw(x(i) = 1; a(i))raw"; (void)r;
    const char q = '('; (void)q;
    if (x(i) == 1.0f || x (i) <= 2.0f || x(i) >= 3.0f || x(i) != 4.0f) a(i, j) = 0;
    a((i < j ? i : (long long)j), j) += x((j, i)) * (float)c(i % 2);
    float t = x(i) < 0 ? -x(i) : +x(i);
    int k = c(i)+ +1; k += 1'000 + c(
        i);
    auto f = [&](long long p) { return x(p); };
    a(i, j) = a(i, j) + f(i) + t + (float)k;
#undef x
#define x(p, q) ((p) + (q))
    a(i, j) += (float)x(1, 2);
  ]],
}

kernel "groups" {
  pattern = "for", range = { "n" },
  params  = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" }, { "a", "f32[n][3]" } },
  body    = [[
#if 0
    x(i) = 1; x(i, 2) = 3; a(i)(0) = 2; ++x(i);
#elif 0
    a(i) = 0;
#else
    y(i) = x(i) + a(i, 0);
#endif
#ifdef GG_NEVER_DEFINED
    x(i, 0) += 1;
#endif
#define ONE 1 /* a comment that spans lines,
    x(i) = 1; inside it */
    y(i) *= ONE;
    atomicAdd(&y(i), x(i)); /* a view of access "out" */
#define NAME(e) #e
    const char *s = NAME(x(i, 2) = a(i)(0)); (void)s;
#undef NAME
    { float x[2] = {0, 0}; x(0) = 1; ++x(1); y(i) += x(0) + x(1); } /* a local named x */
  ]],
}
