-- Headless driver: :SkillgradeJudge against the fake Messages API, then hover (the judge's grades).
--   SKILLGRADE_MODE=setup|enable SKILL_FILE=... OUT=result.json nvim --headless --clean ... -c 'luafile judge.lua'
-- The server inherits ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY from this process's environment.
local out_path = assert(os.getenv('OUT'), 'OUT not set')
local skill_file = assert(os.getenv('SKILL_FILE'), 'SKILL_FILE not set')
local mode = os.getenv('SKILLGRADE_MODE') or 'setup'
local timeout = tonumber(os.getenv('SKILLGRADE_TIMEOUT_MS') or '60000')
local R = { mode = mode, notifications = {}, errors = {} }

vim.notify = function(msg, level)
  table.insert(R.notifications, { msg = tostring(msg), level = level or vim.log.levels.INFO })
end

local function hover_text(bufnr, line)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = 0 } }
  local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, timeout)
  for _, r in pairs(res or {}) do
    if r.result and r.result.contents then
      local c = r.result.contents
      return type(c) == 'table' and (c.value or vim.inspect(c)) or tostring(c)
    end
  end
  return ''
end

local function main()
  if mode == 'enable' then
    vim.lsp.enable('skillgrade')
  else
    require('skillgrade').setup({})
  end
  R.nvim_version = tostring(vim.version().major) .. '.' .. vim.version().minor
  vim.cmd('edit ' .. vim.fn.fnameescape(skill_file))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.wait(timeout, function()
    return require('skillgrade').get_client(bufnr) ~= nil
  end, 20), 'no skillgrade client attached')
  vim.wait(timeout, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  R.hover_before = hover_text(bufnr, 5)
  vim.cmd('SkillgradeJudge')
  R.judge_done = vim.wait(timeout, function()
    for _, n in ipairs(R.notifications) do
      if n.msg:find('skillgrade: judge: ', 1, true) or n.msg:find('judge failed', 1, true) then
        return true
      end
    end
    return false
  end, 20)
  R.hover_after = hover_text(bufnr, 5)
  R.judge_diagnostics = vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == 'skillgrade judge' then
        return true
      end
    end
    return false
  end, 20)
  if os.getenv('CERTIFY') == '1' then
    -- :SkillgradeCertify: the estimate in vim.ui.select (answered 'Certify' here), then the run
    vim.ui.select = function(items, opts, on_choice)
      R.select_prompt = opts and opts.prompt
      R.select_items = items
      on_choice(items[1], 1)
    end
    vim.cmd('SkillgradeCertify')
    R.certify_done = vim.wait(timeout, function()
      for _, n in ipairs(R.notifications) do
        if n.msg:find('skillgrade: certify: ', 1, true) or n.msg:find('certify failed', 1, true) then
          return true
        end
      end
      return false
    end, 20)
    R.hover_certified = hover_text(bufnr, 5)
  end
  local client = require('skillgrade').get_client(bufnr)
  vim.lsp.stop_client(client.id)
  vim.wait(5000, function()
    return vim.lsp.get_client_by_id(client.id) == nil
  end, 20)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  table.insert(R.errors, tostring(err))
end
R.ok = ok
local f = assert(io.open(out_path, 'w'))
f:write(vim.fn.json_encode(R))
f:close()
vim.cmd(ok and 'qall!' or 'cquit 1')
