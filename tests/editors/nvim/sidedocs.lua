-- Opens each file of SIDE_FILES (':'-separated: task suites, eval files, a plain YAML/JSON file) and records,
-- per file, whether a skillgrade client attached and the diagnostics it published.
-- The first ATTACHING files (a number) should get a client: wait for it up to 20 s (the server may still be
-- starting); for the others wait 1.5 s, enough for a client that would start.
--   SKILLGRADE_MODE=setup|enable SIDE_FILES=a.yaml:b.json:... ATTACHING=N OUT=...
--   nvim --headless --clean --cmd 'set rtp^=<repo>/editors/nvim' -c 'luafile sidedocs.lua'
local out_path = assert(os.getenv('OUT'))
local mode = os.getenv('SKILLGRADE_MODE') or 'setup'
local R = { mode = mode, files = {} }

local function client_count(bufnr)
  local n = 0
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
    or vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  for _, c in ipairs(clients) do
    if c.name == 'skillgrade' then
      n = n + 1
    end
  end
  return n
end

local function diags(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, { code = d.code or lsp.code, lnum = d.lnum, col = d.col, source = d.source,
      message = d.message })
  end
  return out
end

local ok, err = pcall(function()
  if mode == 'enable' then
    vim.lsp.enable('skillgrade')
  else
    require('skillgrade').setup()
  end
  local attaching = tonumber(os.getenv('ATTACHING') or '0')
  local i = 0
  for path in string.gmatch(assert(os.getenv('SIDE_FILES')), '[^:]+') do
    i = i + 1
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local buf = vim.api.nvim_get_current_buf()
    local attached = vim.wait(i <= attaching and 20000 or 1500, function() return client_count(buf) > 0 end, 20)
    if attached then
      vim.wait(15000, function() return #diags(buf) > 0 end, 20)
    end
    table.insert(R.files, { path = path, filetype = vim.bo[buf].filetype, attached = attached,
      diagnostics = diags(buf) })
  end
end)
R.ok = ok
R.error = ok and vim.NIL or tostring(err)
local f = assert(io.open(out_path, 'w'))
f:write(vim.fn.json_encode(R))
f:close()
vim.cmd('qall!')
