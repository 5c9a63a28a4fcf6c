-- wide_gpu.lua: a command whose arguments take more than one warp's worth
-- of tagged words (70 f32 coefficients, an index and a view: 75 words a
-- slot, three warp-wide reads).  Such a kernel once failed to compile for
-- CUDA: the ring's batched poll took one word a lane, and a non-template
-- kernel type-checks the branch it never takes.
module { name = "wide_gpu", targets = { "cuda", "hip" } }

local params, terms = {}, {}
for j = 1, 70 do
  params[#params + 1] = { "c" .. j, "f32" }
  terms[#terms + 1] = j .. ".0f * c" .. j
end
params[#params + 1] = { "k", "i32" }
params[#params + 1] = { "out", "f32[8]", access = "out", space = "mapped" }

-- out(k) = 1 c1 + 2 c2 + ... + 70 c70: every argument word, each in its place
kernel "wide" { pattern = "for", range = { 1 }, params = params,
  body = "out(k) = " .. table.concat(terms, " + ") .. ";" }

persistent "one" { layout = "one_block", block = 32, commands = { "wide" } }
persistent "many" { layout = "many_blocks", block = 64, blocks = 4, commands = { "wide" } }
