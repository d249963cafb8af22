-- Runs :checkhealth skillgrade headless and writes the report buffer to $OUT (JSON).
--   OUT=health.json nvim --headless --clean --cmd 'set rtp^=<repo>/editors/nvim' -c 'luafile health.lua'
local out_path = assert(os.getenv('OUT'), 'OUT not set')
local R = { errors = {} }
local ok, err = pcall(vim.cmd, 'checkhealth skillgrade')
R.command_ok = ok
if not ok then
  table.insert(R.errors, tostring(err))
end
-- The report is in the current buffer (a `health://` / checkhealth buffer).
local buf = vim.api.nvim_get_current_buf()
R.bufname = vim.api.nvim_buf_get_name(buf)
R.filetype = vim.bo[buf].filetype
R.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local f = assert(io.open(out_path, 'w'))
f:write(vim.fn.json_encode(R))
f:close()
vim.cmd('qall!')
