-- chain.lua: a frame - three stages run inside one persistent kernel with
-- ONE host handshake per frame: scale the input, low-pass filter it, and
-- measure the energy of the result (the shape of examples/app's frame).
-- Each stage waits only for the stages whose views it depends on; `gpugen
-- explain examples/chain.lua chain` says where the barriers are and why.
module { name = "chain", targets = { "cuda", "hip" } }

kernel "scale" {
  pattern = "for", range = { "n" },
  params  = { { "gain", "f32" }, { "x", "f32[n]" }, { "y", "f32[n]", access = "out" } },
  body    = "y(i) = gain * x(i);",
}

kernel "filter" {        -- one pole low-pass: z = a * y + (1 - a) * z
  pattern = "for", range = { "n" },
  params  = { { "a", "f32" }, { "y", "f32[n]" }, { "z", "f32[n]", access = "inout" } },
  body    = "z(i) = a * y(i) + (1.0f - a) * z(i);",
}

kernel "energy" {
  pattern = "reduce", range = { "n" },
  params  = { { "v", "f32[n]" }, { "e", "f32[1]", access = "out" } },
  value   = "v(i) * v(i)", op = "sum", into = "e",
}

frame "chain" {
  params = {
    { "gain", "f32" },
    { "x", "f32[n]" },
    { "y", "f32[n]" },           -- access left out: what the stages do (inout here)
    { "z", "f32[n]" },
    { "e", "f32[1]" },
  },
  stages = {
    { "scale" },                 -- binds gain, x, y by name
    { "filter", a = 0.25 },      -- a constant; y, z by name
    { "energy", v = "z" },       -- the kernel's v is the frame's z
  },
}

for _, layout in ipairs { "one_block", "many_blocks", "hybrid" } do
  persistent ("loop_" .. layout) {
    layout = layout, commands = { "chain", "scale" }, buffering = "double",
  }
end
