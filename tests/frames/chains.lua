-- Hand-written chains whose barrier placement tests/frames checks
-- (expected/*.txt: `gpugen explain chains.lua NAME`).
module { name = "chains", targets = { "cuda" } }

kernel "axpy" { pattern = "for", range = { "n" },   -- y = a * x + y
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = a * x(i) + y(i);" }
kernel "dup" { pattern = "for", range = { "n" },   -- y = x
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);" }
kernel "total" { pattern = "reduce", range = { "n" },
  params = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } }, value = "v(i)", into = "e" }

-- four independent stages: no barrier at all; the two reductions share
-- the block's shared memory, so the second waits for its block only
frame "independent" {
  params = { { "a", "f32" }, { "p", "f32[n]" }, { "q", "f32[n]" }, { "r", "f32[n]" },
             { "s", "f32[n]" }, { "e1", "f32[1]" }, { "e2", "f32[1]" } },
  stages = {
    { "total", v = "p", e = "e1" },
    { "axpy", x = "p", y = "q" },      -- reads p like stage 0: reads never conflict
    { "total", v = "r", e = "e2" },
    { "dup", x = "r", y = "s" },
  },
}

-- read after write, write after read, write after write
frame "hazards" {
  params = { { "a", "f32" }, { "p", "f32[n]" }, { "q", "f32[n]" }, { "r", "f32[n]" } },
  stages = {
    { "dup", x = "p", y = "q" },      -- writes q
    { "axpy", x = "q", y = "r" },      -- reads q: barrier (RAW)
    { "dup", x = "p", y = "q" },      -- writes q, which stage 1 reads: barrier (WAR)
    { "dup", x = "p", y = "r" },      -- writes r, which stage 1 wrote: already behind the barrier before stage 2
  },
}

-- one dependency chain of 8: a barrier before every stage but the first
local st = {}
for i = 1, 8 do st[i] = { "axpy", a = 0.5, x = "x", y = "y" } end
frame "chain8" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = st }

persistent "loop" { layout = "many_blocks", commands = { "hazards", "independent", "chain8", "dup" },
                    buffering = { ring = 4 } }
