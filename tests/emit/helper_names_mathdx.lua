-- helper_names.lua for the MathDx patterns (CUDA only): the fft's and
-- the gemm's helpers (gg_fft, gg_fft_back, gg_fft_load, ..., gg_gemm)
-- live in the kernel's namespace GG_NS_<kernel>, so kernels named like
-- them, alone or joined to another kernel's name, compile with NVRTC.
-- z and back_z, x and load_x once made the same gg_fft_back_z and
-- gg_fft_load_x: a compile error at the user's start-up.
module { name = "helper_names_mathdx", targets = { "cuda" } }

local function fft(name, dir, fields)
  local k = { pattern = "fft", size = 16, type = "c2c", input = "x", output = "y", direction = dir,
              params = { { "x", "f32[nb][16][2]" }, { "y", "f32[nb][16][2]", access = "out" } } }
  for key, v in pairs(fields or {}) do k[key] = v end
  kernel (name) (k)
end
fft("z", "forward")
fft("back_z", "inverse")
fft("fft_back_z", "inverse")
fft("x", "forward")
fft("load_x", "inverse")
fft("fft_load_x", "forward")
-- with into: the reduce's pieces and the fft's in one namespace
kernel "e" { pattern = "fft", size = 16, type = "c2c", input = "x", output = "y",
  params = { { "x", "f32[nb][16][2]" }, { "y", "f32[nb][16][2]", access = "out" },
             { "out", "f64[1]", access = "out" } },
  into = "out", post = "contribute((double)re * re);" }

kernel "mm" { pattern = "gemm", size = { 16, 16, 16 },
  params = { { "A", "f32[16][16]" }, { "B", "f32[16][16]" }, { "C", "f32[16][16]", access = "out" } },
  a = "A", b = "B", c = "C" }
kernel "gemm_mm" { pattern = "gemm", size = { 16, 16, 16 },
  params = { { "A", "f32[16][16]" }, { "B", "f32[16][16]" }, { "C", "f32[16][16]", access = "out" } },
  a = "A", b = "B", c = "C" }

-- the helpers' names as kernels, alone and joined to each fft kernel's
local roles = { "fft", "fft_back", "fft_load", "fft_store", "fft_stmts", "fft_post_shared",
                "fft_items", "gemm", "body" }
local taken = { z = 1, back_z = 1, fft_back_z = 1, x = 1, load_x = 1, fft_load_x = 1, e = 1,
                mm = 1, gemm_mm = 1 }
local function plain(name)
  if taken[name] then return end
  taken[name] = 1
  kernel (name) { pattern = "for", range = { "n" }, params = { { "v", "f32[n]", access = "inout" } },
                  body = "v(i) = 0.0f;" }
end
for _, role in ipairs(roles) do
  plain(role)
  for _, k in ipairs({ "z", "x", "e", "mm" }) do plain(role .. "_" .. k) end
end
