-- Headless driver: the user's path to a server code action on a SKILL.md. vim.lsp.buf.code_action() with
-- `only` = ACTION_KIND lists the actions through vim.ui.select (stubbed to pick the one whose title contains
-- ACTION_TITLE, as the user would); Neovim then runs its command on the server (workspace/executeCommand).
-- Afterwards the hover is polled until it contains HOVER_EXPECT. ACTION_LINE (1-based, default 1): where the
-- cursor is. A question from the server (window/showMessageRequest: inputlist on old Neovim, vim.ui.select on
-- new; a confirmable edit: vim.fn.confirm) is answered ANSWER (e.g. "Apply"); the questions asked are recorded, and the buffer's lines at the end.
--   SKILLGRADE_MODE=setup|enable SKILL_FILE=... ACTION_KIND=... ACTION_TITLE=... HOVER_EXPECT=... OUT=...
-- The server inherits ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY from this process's environment.
local out_path = assert(os.getenv('OUT'), 'OUT not set')
local skill_file = assert(os.getenv('SKILL_FILE'), 'SKILL_FILE not set')
local kind = assert(os.getenv('ACTION_KIND'), 'ACTION_KIND not set')
local want_title = assert(os.getenv('ACTION_TITLE'), 'ACTION_TITLE not set')
local expect = assert(os.getenv('HOVER_EXPECT'), 'HOVER_EXPECT not set')
local mode = os.getenv('SKILLGRADE_MODE') or 'setup'
local timeout = tonumber(os.getenv('SKILLGRADE_TIMEOUT_MS') or '60000')
local answer = os.getenv('ANSWER') or ''
local R = { mode = mode, offered = {}, notifications = {}, questions = {} }

vim.notify = function(msg, level)
  table.insert(R.notifications, { msg = tostring(msg), level = level or vim.log.levels.INFO })
end

-- Neovim >= 0.10 honours a change annotation's needsConfirmation with vim.fn.confirm
vim.fn.confirm = function(msg)
  table.insert(R.questions, msg)
  return answer == 'Apply' and 1 or 2
end

vim.fn.inputlist = function(lines)
  table.insert(R.questions, table.concat(lines, ' | '))
  for _, line in ipairs(lines) do
    local n, title = line:match('^(%d+)%. (.*)$')
    if n and title == answer then
      return tonumber(n)
    end
  end
  return 0
end

vim.ui.select = function(items, opts, on_choice)
  if opts and opts.kind == 'lsp_message' then
    table.insert(R.questions, opts.prompt)  -- a question from the server, not the code-action menu
    for i, item in ipairs(items) do
      local text = opts.format_item and opts.format_item(item) or (type(item) == 'table' and item.title) or tostring(item)
      if text == answer then
        on_choice(item, i)
        return
      end
    end
    on_choice(nil, nil)
    return
  end
  for i, item in ipairs(items) do
    local text = opts and opts.format_item and opts.format_item(item) or tostring(item)
    table.insert(R.offered, text)
  end
  for i, item in ipairs(items) do
    local text = opts and opts.format_item and opts.format_item(item) or tostring(item)
    if text:find(want_title, 1, true) then
      R.picked = text
      on_choice(item, i)
      return
    end
  end
  on_choice(nil, nil)
end

local function hover_text(bufnr)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 0, character = 0 } }
  local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, timeout)
  for _, r in pairs(res or {}) do
    if r.result and r.result.contents then
      local c = r.result.contents
      return type(c) == 'table' and (c.value or vim.inspect(c)) or tostring(c)
    end
  end
  return ''
end

local ok, err = pcall(function()
  if mode == 'enable' then
    vim.lsp.enable('skillgrade')
  else
    require('skillgrade').setup({})
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(skill_file))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.wait(timeout, function()
    return require('skillgrade').get_client(bufnr) ~= nil
  end, 20), 'no skillgrade client attached')
  vim.wait(timeout, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  R.hover_before = hover_text(bufnr)
  vim.api.nvim_win_set_cursor(0, { tonumber(os.getenv('ACTION_LINE') or '1'), 0 })
  if vim.fn.has('nvim-0.8') == 1 then
    vim.lsp.buf.code_action({ context = { only = { kind }, diagnostics = {} } })
  else
    vim.lsp.buf.code_action({ only = { kind } })  -- 0.7: the argument is the context itself
  end
  R.done = vim.wait(timeout, function()
    return hover_text(bufnr):find(expect, 1, true) ~= nil
  end, 500)
  R.hover_after = hover_text(bufnr)
  R.lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end)
R.ok = ok
R.error = ok and vim.NIL or tostring(err)
local f = assert(io.open(out_path, 'w'))
f:write(vim.fn.json_encode(R))
f:close()
vim.cmd('qall!')
