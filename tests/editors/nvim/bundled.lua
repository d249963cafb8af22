-- Opens a SKILL.md, then a markdown file bundled with it (references/guide.md, a broken link in it), then a
-- markdown file outside any skill; records clients and diagnostics per buffer.
--   SKILLGRADE_MODE=setup|enable|start SKILL_FILE=... GUIDE_FILE=... OTHER_FILE=... OUT=...
--   nvim --headless --clean --cmd 'set rtp^=<repo>/editors/nvim' -c 'luafile bundled.lua'
local out_path = assert(os.getenv('OUT'))
local mode = os.getenv('SKILLGRADE_MODE') or 'setup'
local R = { mode = mode }

local function client_ids(bufnr)
  local ids = {}
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
    or vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  for _, c in ipairs(clients) do
    if c.name == 'skillgrade' then
      table.insert(ids, c.id)
    end
  end
  return ids
end

local function diags(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, { code = d.code or lsp.code, lnum = d.lnum, col = d.col, source = d.source })
  end
  return out
end

local ok, err = pcall(function()
  if mode == 'enable' then
    vim.lsp.enable('skillgrade')
  elseif mode == 'start' then
    require('skillgrade').setup({ use_lsp_enable = false })
  else
    require('skillgrade').setup()
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(assert(os.getenv('SKILL_FILE'))))
  local skill_buf = vim.api.nvim_get_current_buf()
  R.skill_attached = vim.wait(20000, function() return #client_ids(skill_buf) > 0 end, 20)
  R.skill_diagnostics = vim.wait(20000, function() return #diags(skill_buf) > 0 end, 20)

  vim.cmd('edit ' .. vim.fn.fnameescape(assert(os.getenv('GUIDE_FILE'))))
  local guide_buf = vim.api.nvim_get_current_buf()
  R.guide_attached = vim.wait(20000, function() return #client_ids(guide_buf) > 0 end, 20)
  R.guide_got = vim.wait(20000, function() return #diags(guide_buf) > 0 end, 20)
  R.guide = diags(guide_buf)
  R.same_client = client_ids(guide_buf)[1] == client_ids(skill_buf)[1]
  R.skill = diags(skill_buf)

  -- fix the link in the buffer (unsaved): the diagnostic goes away
  local line = vim.api.nvim_buf_get_lines(guide_buf, 2, 3, false)[1]
  vim.api.nvim_buf_set_lines(guide_buf, 2, 3, false, { (line:gsub('api%.md', 'fields.md')) })
  R.guide_cleared = vim.wait(20000, function() return #diags(guide_buf) == 0 end, 20)

  vim.cmd('edit ' .. vim.fn.fnameescape(assert(os.getenv('OTHER_FILE'))))
  local other_buf = vim.api.nvim_get_current_buf()
  vim.wait(1500, function() return false end, 50)
  R.other_clients = #client_ids(other_buf)
  R.other = diags(other_buf)
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'skillgrade' }) or vim.lsp.get_active_clients()
  R.clients_running = #all
end)
R.ok = ok
R.error = ok and vim.NIL or tostring(err)
local f = assert(io.open(out_path, 'w'))
f:write(vim.fn.json_encode(R))
f:close()
vim.cmd('qall!')
