-- Opens a markdown file that is NOT a SKILL.md and records whether a skillgrade client started.
--   SKILLGRADE_MODE=setup|enable OTHER_FILE=... OUT=... nvim --headless --clean --cmd 'set rtp^=...' -c 'luafile noclient.lua'
local out_path = assert(os.getenv('OUT'))
local mode = os.getenv('SKILLGRADE_MODE') or 'setup'
local R = {}
local ok, err = pcall(function()
  if mode == 'enable' then
    vim.lsp.enable('skillgrade')
  else
    require('skillgrade').setup()
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(assert(os.getenv('OTHER_FILE'))))
  R.filetype = vim.bo.filetype
  vim.wait(1500, function() return false end, 50)
  local clients = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  R.clients = vim.tbl_map(function(c) return c.name end, clients)
end)
R.ok = ok
R.error = ok and vim.NIL or tostring(err)
local f = assert(io.open(out_path, 'w'))
f:write(vim.fn.json_encode(R))
f:close()
vim.cmd('qall!')
