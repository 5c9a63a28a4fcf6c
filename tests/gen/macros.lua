-- macros.lua: a body's macros are its own.  Kernel "a" #defines SCALE,
-- RIGHT and fabsf; "b" declares locals named SCALE and RIGHT and calls the
-- real fabsf, and the reduction after them uses gpugen's own code.  Each
-- compiles only when gpugen #undefs a body's macros after its text
-- (gen/dict.c, snippet): before, "a"'s macros reached every later kernel.
-- "c"'s last line ends in a backslash inside a comment, which once joined
-- the #line gpugen writes after a body.  gen_macros_check_both compiles
-- this with NVRTC and hiprtc.
module { name = "macros", targets = { "cuda", "hip" } }

kernel "a" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#define SCALE 2.0f
#define RIGHT x(i + 1 < n ? i + 1 : i)
#define fabsf(v) (v)
    y(i) = SCALE * fabsf(RIGHT);]] }

kernel "b" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
    const float SCALE = 3.0f, RIGHT = fabsf(x(i));
    y(i) = SCALE * RIGHT;]] }

kernel "c" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = -x(i); // a comment whose line goes on \\" }

-- "d" is a body the text rules must take: an #if whose branches each
-- open a brace the code after closes, an #if 0 group (a comment after
-- its 0) holding what is no code (an apostrophe, an open brace), an
-- #elif 0 after a live branch that opened a brace, a multi-line #define
-- with a block comment, and literals holding brackets
kernel "d" { pattern = "for", range = { "n" },
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = [[
#define CLAMP0(v) do { /* negative to zero */ \
    if ((v) < 0) (v) = 0;                      \
  } while (0)
#if 0 // a note
    don't compile this { it is a note
#endif
#if 1
    {
#elif 0
    never {
#endif
    }
    float v = x(i);
#ifdef __HIP_DEVICE_COMPILE__
    if (v > 0.5f) {
#else
    if (v > 0.25f) {
#endif
      CLAMP0(v);
    }
    const char *s = R"d(})d", c = '{';
    y(i) = v + (s[0] == c ? 1.0f : 0.0f);]] }

-- a parameter named like combine's operand: combine's a and b are its own
kernel "r" { pattern = "reduce", range = { "n" },
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "e", "f32[1]", access = "out" } },
  value = "a * x(i)", combine = "fmaxf(a, b)", identity = "-3.0e38f", into = "e" }

kernel "m" { pattern = "reduce", op = "max", range = { "n" },
  params = { { "x", "f32[n]" }, { "e", "f32[1]", access = "out" } },
  value = "fabsf(x(i))", into = "e" }

persistent "p" { layout = "one_block", commands = { "a", "b", "c", "d", "r", "m" } }
