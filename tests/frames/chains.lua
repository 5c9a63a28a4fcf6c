-- Hand-written chains whose barrier placement tests/frames checks
-- (expected/*.txt: `gpugen explain chains.lua NAME`).
module { name = "chains", targets = { "cuda" } }

kernel "axpy" { pattern = "for", range = { "n" },   -- y = a * x + y
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = a * x(i) + y(i);" }
kernel "dup" { pattern = "for", range = { "n" },   -- y = x
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = x(i);" }
kernel "next" { pattern = "for", range = { "n" },   -- y(i) = x(i + 1): a neighbour
  params = { { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body = "y(i) = i + 1 < n ? x(i + 1) : x(i);" }
kernel "head" { pattern = "for", range = { "m" },   -- y += w on the first m: another range
  params = { { "w", "f32[m]" }, { "y", "f32[n]", access = "inout" } },
  body = "y(i) = y(i) + w(i);" }
kernel "twice" { pattern = "for", range = { "n" },   -- through a pointer to y(i)
  params = { { "y", "f32[n]", access = "inout" } },
  body = "float *p = &y(i); *p = 2.0f * *p;" }
kernel "wide" { pattern = "for", range = { "n" }, vector = 4,   -- another grid-stride mapping
  params = { { "y", "f32[n]", access = "inout" } },
  body = "y(i) = 2.0f * y(i);" }
kernel "dbl" { pattern = "for", range = { "n" }, vector = 1,
  params = { { "y", "f32[n]", access = "inout" } },
  body = "y(i) = 2.0f * y(i);" }
kernel "shadow" { pattern = "for", range = { "n" },   -- y(i) of another i
  params = { { "y", "f32[n]", access = "inout" } },
  body = "{ long long i = 0; y(i) = 2.0f * y(i); }" }
kernel "bare" { pattern = "for", range = { "n" },   -- the pointer itself
  params = { { "y", "f32[n]", access = "inout" } },
  body = "y[i] = 2.0f * y[i];" }
kernel "macro" { pattern = "for", range = { "n" },   -- a directive could hide anything
  params = { { "y", "f32[n]", access = "inout" } },
  body = "#define TWICE(v) (2.0f * (v))\ny(i) = TWICE(y(i));" }
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

-- read after write, write after read, write after write, each only at
-- the thread's own index on one range: the dependencies stay in one
-- thread, so no barrier at all (frame "needs" below keeps them)
frame "hazards" {
  params = { { "a", "f32" }, { "p", "f32[n]" }, { "q", "f32[n]" }, { "r", "f32[n]" } },
  stages = {
    { "dup", x = "p", y = "q" },      -- writes q
    { "axpy", x = "q", y = "r" },      -- reads q(i), written at i (RAW): same thread
    { "dup", x = "p", y = "q" },      -- writes q(i), which stage 1 read at i (WAR): same thread
    { "dup", x = "p", y = "r" },      -- writes r(i), which stage 1 wrote at i (WAW): same thread
  },
}

-- one dependency chain of 8, y(i) only: no barrier (same thread)
local st = {}
for i = 1, 8 do st[i] = { "axpy", a = 0.5, x = "x", y = "y" } end
frame "chain8" { params = { { "x", "f32[n]" }, { "y", "f32[n]" } }, stages = st }

-- stages that need their barrier although they look alike: a neighbour
-- read, another range, a reduction, a pointer, another vector width, a
-- shadowed index; the same-thread stage between them needs none
frame "needs" {
  params = { { "a", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]" }, { "z", "f32[n]" },
             { "w", "f32[m]" }, { "e", "f32[1]" } },
  stages = {
    { "axpy" },                       -- writes y
    { "next", x = "y", y = "z" },     -- reads y(i + 1): barrier
    { "axpy", x = "z", y = "y" },     -- reads z(i), which stage 1 wrote at i; but writes y, read at i + 1 by stage 1: barrier
    { "axpy", x = "z", y = "y" },     -- same thread as stage 2: no barrier
    { "head" },                       -- range m, not n: barrier
    { "total", v = "y" },             -- a reduction reads every y: barrier
    { "dbl" },                        -- writes y, which the reduction read: barrier
    { "wide" },                       -- y(i), but vector 4 against 1: barrier
    { "dbl" },                        -- the same, back: barrier
    { "shadow" },                     -- y(i) of a local i: barrier
    { "dbl" },                        -- after shadow: barrier
  },
}

-- bodies the proof refuses: a pointer to y(i), the pointer y itself, a
-- directive; the same-thread pair at the end needs none
frame "needs2" {
  params = { { "y", "f32[n]" } },
  stages = {
    { "dbl" },
    { "twice" },                      -- &y(i): not proven: barrier
    { "dbl" },                        -- after twice: barrier
    { "bare" },                       -- y[i] through the pointer: barrier
    { "dbl" },                        -- after bare: barrier
    { "macro" },                      -- a #define in the body: barrier
    { "dbl" },                        -- after macro: barrier
    { "dbl" },                        -- same thread: no barrier
  },
}

-- bodies that rename an index, take a reference or hide a use (each
-- compiles): the proof refuses them all, so each keeps its barrier
local tricks = {
  lambda = "[&, i = n - 1 - i]() { y(i) = 2.0f * y(i); }();",
  comma  = "long long a = n - 1 - i, i = a; y(i) = 2.0f * y(i);",
  rref   = "const long long t = n - 1 - i; { long long &&i = t + 0; y(i) = 2.0f * y(i); }",
  paren  = "const long long t = n - 1 - i; { long long (i) = t; y(i) = 2.0f * y(i); }",
  ref    = "const float &q = y(i); y(i) = i + 1 < n ? (&q)[1] : q;",
  digraph = "float t<:1:> = { y(i) }; y(i) = 2.0f * t<:0:>;",
}
local st3 = { { "dbl" } }
for _, name in ipairs { "lambda", "comma", "rref", "paren", "ref", "digraph" } do
  kernel ("t_" .. name) { pattern = "for", range = { "n" },
    params = { { "y", "f32[n]", access = "inout" } }, body = tricks[name] }
  st3[#st3 + 1] = { "t_" .. name }
  st3[#st3 + 1] = { "dbl" }
end
frame "needs3" { params = { { "y", "f32[n]" } }, stages = st3 }

-- 2-D views with run-time strides may overlap (strides 1, 1): a barrier
kernel "s2a" { pattern = "for", range = { "n", "m" },
  params = { { "y", "f32[n][m]", layout = "stride", access = "inout" } }, body = "y(i, j) = 2.0f * y(i, j);" }
frame "needs4" { params = { { "y", "f32[n][m]", layout = "stride" } }, stages = { { "s2a" }, { "s2a" } } }

-- team stages on one league, each touching Y only in its own item
-- Y(league_rank, ...): a block barrier between them, no grid barrier.
-- Every way out of that proof keeps a grid barrier: another item, the
-- item copied, a reference, a view whose first extent is not the league.
-- A league bound to the frame's nb under another name is the same league.
local function team(name, body, yt, league)
  kernel (name) { pattern = "team", league = league or "nb", team_size = 32,
    params = { { "Y", yt or "f32[nb][m]", access = "inout" } }, body = body }
end
local loop_j = "for (long long j = team_rank; j < m; j += team_size) "
team("tscale", loop_j .. "Y(league_rank, j) *= 2.0f;")
team("trev", loop_j .. "Y(league_rank, j) += Y(league_rank, m - 1 - j);") -- any j in the item
team("tnext", loop_j .. "Y(league_rank, j) += league_rank + 1 < league_size ? Y(league_rank + 1, j) : 0.0f;")
team("tcopy", "const long long r = league_rank; " .. loop_j .. "Y(r, j) *= 2.0f;")
team("tref", loop_j .. "{ float &v = Y(league_rank, j); v *= 2.0f; }")
team("tcol", loop_j .. "Y(j, league_rank) *= 2.0f;", "f32[m][nb]")
team("tleague", loop_j .. "Y(league_rank, j) *= 2.0f;", "f32[nb][m]", "n")
frame "teams" {
  params = { { "Y", "f32[nb][m]" } },
  stages = { { "tscale" }, { "trev" }, { "tscale" },   -- block barriers
             { "tnext" }, { "tscale" },                 -- grid barriers (reads another item)
             { "tcopy" }, { "tscale" },                 -- grid (league_rank copied)
             { "tref" }, { "tscale" },                  -- grid (a reference)
             { "tleague", n = "nb" }, { "tscale" } },   -- the same league by binding: block
}
-- a team reduction's result is written by the last block to finish, for
-- every team: a later stage reading it, even at its own item, waits at a
-- grid barrier
kernel "tsum" { pattern = "team", league = 4, team_size = 32,
  params = { { "Y", "f32[4][m]" }, { "s", "f32[4]", access = "out" } }, op = "sum", into = "s",
  body = "contribute(team_rank == 0 ? Y(league_rank, 0) : 0.0f, 0.0f, 0.0f, 0.0f);" }
kernel "tnorm" { pattern = "team", league = 4, team_size = 32,
  params = { { "Y", "f32[4][m]", access = "inout" }, { "s", "f32[4]" } },
  body = loop_j .. "Y(league_rank, j) /= s(league_rank);" }
frame "teams3" {
  params = { { "Y", "f32[4][m]" }, { "s", "f32[4]" } },
  stages = { { "tsum" }, { "tnorm" } },
}
frame "teams2" {
  params = { { "Y", "f32[m][nb]" } },
  stages = { { "tcol" }, { "tcol" } },                  -- first extent not the league: grid
}

persistent "loop" { layout = "many_blocks", commands = { "hazards", "independent", "chain8", "dup" },
                    buffering = { ring = 4 } }
