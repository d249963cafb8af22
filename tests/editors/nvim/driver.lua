-- Headless end-to-end driver for the skillgrade Neovim plugin.
--
-- Run (the plugin is on the runtimepath exactly as a user's plugin manager would put it):
--   SKILLGRADE_MODE=setup|enable|start SKILL_FILE=... OUT=result.json \
--   nvim --headless --clean --cmd 'set rtp^=<repo>/editors/nvim' -c 'luafile driver.lua'
--
-- MODE setup : require('skillgrade').setup()   (Neovim 0.7: start_client + buf_attach_client)
-- MODE enable: vim.lsp.enable('skillgrade')    (Neovim >= 0.11: lsp/skillgrade.lua)
-- MODE start : require('skillgrade').setup({ use_lsp_enable = false }) (vim.lsp.start path of 0.8-0.10)
--
-- Every step is recorded into a JSON object written to $OUT; pytest asserts on it.
local out_path = assert(os.getenv('OUT'), 'OUT not set')
local skill_file = assert(os.getenv('SKILL_FILE'), 'SKILL_FILE not set')
local mode = os.getenv('SKILLGRADE_MODE') or 'setup'
local timeout = tonumber(os.getenv('SKILLGRADE_TIMEOUT_MS') or '30000')

local t0 = vim.loop.hrtime()
local R = { mode = mode, steps = {}, notifications = {}, errors = {} }

local function ms()
  return math.floor((vim.loop.hrtime() - t0) / 1e6)
end

local function step(name)
  table.insert(R.steps, { name = name, ms = ms() })
end

local function jsonable(v)
  -- vim.fn.json_encode cannot encode functions/userdata; keep plain data only.
  local t = type(v)
  if v == vim.NIL then
    return v
  elseif t == 'table' then
    local o = {}
    for k, x in pairs(v) do
      o[k] = jsonable(x)
    end
    return o
  elseif t == 'function' or t == 'userdata' or t == 'thread' then
    return tostring(v)
  end
  return v
end

local function write()
  R.total_ms = ms()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(jsonable(R)))
  f:close()
end

-- Record every vim.notify (the plugin reports command results, errors and progress through it).
vim.notify = function(msg, level)
  table.insert(R.notifications, { msg = tostring(msg), level = level or vim.log.levels.INFO, ms = ms() })
end

local function skill_client(bufnr)
  return require('skillgrade').get_client(bufnr)
end

local function diag_list(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(list, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      code = d.code or lsp.code,
      source = d.source,
      severity = d.severity,
      message = d.message,
      href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
      has_data = lsp.data ~= nil,
    })
  end
  table.sort(list, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and tostring(a.code) < tostring(b.code))
  end)
  return list
end

-- vim.diagnostic -> LSP Diagnostic (0.7 keeps only code/codeDescription/data in user_data.lsp).
local function to_lsp(d)
  local lsp = d.user_data and d.user_data.lsp or {}
  return {
    range = {
      start = { line = d.lnum, character = d.col },
      ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col },
    },
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = d.code or lsp.code,
    codeDescription = lsp.codeDescription,
    data = lsp.data,
  }
end

local function has_code(list, code)
  for _, d in ipairs(list) do
    if d.code == code then
      return d
    end
  end
  return nil
end

local function find_win_with_buf_pred(pred)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    local buf = vim.api.nvim_win_get_buf(win)
    if pred(win, buf) then
      return win, buf
    end
  end
  return nil
end

local function main()
  -- Record window/showMessage on every version (0.7 echoes it instead of using vim.notify).
  R.show_messages = {}
  local show = vim.lsp.handlers['window/showMessage']
  vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, config)
    table.insert(R.show_messages, result or vim.NIL)
    return show(err, result, ctx, config)
  end

  -- 1. Plugin loading, as a user's init.lua would do it.
  local settings_json = os.getenv('SKILLGRADE_SETTINGS')
  local settings = settings_json and vim.fn.json_decode(settings_json) or nil
  if mode == 'enable' then
    if settings then
      vim.lsp.config('skillgrade', { settings = settings })
    end
    vim.lsp.enable('skillgrade')
  elseif mode == 'start' then
    require('skillgrade').setup({ use_lsp_enable = false, settings = settings })
  else
    require('skillgrade').setup({ settings = settings })
  end
  R.nvim_version = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch
  R.commands_defined = vim.fn.exists(':SkillgradeCertify') == 2 and vim.fn.exists(':SkillgradeReport') == 2
    and vim.fn.exists(':SkillgradeJudge') == 2
  step('plugin_loaded')

  -- 2. Open the SKILL.md the way a user does.
  vim.cmd('edit ' .. vim.fn.fnameescape(skill_file))
  local bufnr = vim.api.nvim_get_current_buf()
  R.filetype = vim.bo[bufnr].filetype

  local attached = vim.wait(timeout, function()
    return skill_client(bufnr) ~= nil
  end, 20)
  R.attached = attached
  if not attached then
    error('no skillgrade client attached to ' .. skill_file)
  end
  local client = skill_client(bufnr)
  R.client = { name = client.name, root_dir = client.config.root_dir, cmd = client.config.cmd }
  step('client_attached')

  -- 3. Diagnostics (pushed on 0.7, pulled on >= 0.10).
  R.got_diagnostics = vim.wait(timeout, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  R.diagnostics = diag_list(bufnr)
  step('diagnostics')
  local absent = os.getenv('SKILLGRADE_EXPECT_ABSENT')
  if absent then
    -- Settings test: wait until the server has applied the settings (it re-publishes / is re-pulled).
    R.settled = vim.wait(timeout, function()
      local l = diag_list(bufnr)
      return #l > 0 and has_code(l, absent) == nil
    end, 20)
    R.diagnostics = diag_list(bufnr)
    step('diagnostics_with_settings')
    vim.lsp.stop_client(client.id)
    return
  end
  -- A second SKILL.md in the same root must reuse the client (one client per root).
  local second = os.getenv('SECOND_SKILL_FILE')
  if second then
    vim.cmd('edit ' .. vim.fn.fnameescape(second))
    local b2 = vim.api.nvim_get_current_buf()
    R.second_attached = vim.wait(timeout, function()
      return skill_client(b2) ~= nil
    end, 20)
    R.second_same_client = R.second_attached and skill_client(b2).id == client.id
    vim.cmd('buffer ' .. bufnr)
  end
  R.clients_running = #vim.tbl_filter(function(c)
    return c.name == 'skillgrade'
  end, vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients())

  -- 4. Hover: as a user, K / vim.lsp.buf.hover() opens a floating window.
  -- On plain body text (the server shows field help over frontmatter keys, rule help over findings).
  local hover_line = tonumber(os.getenv('SKILLGRADE_HOVER_LINE') or '0')
  vim.api.nvim_win_set_cursor(0, { hover_line + 1, 0 })
  local main_win = vim.api.nvim_get_current_win()
  vim.lsp.buf.hover()
  local float_found = vim.wait(timeout, function()
    return find_win_with_buf_pred(function(win)
      return vim.api.nvim_win_get_config(win).relative ~= ''
    end) ~= nil
  end, 20)
  if float_found then
    local win, buf = find_win_with_buf_pred(function(w)
      return vim.api.nvim_win_get_config(w).relative ~= ''
    end)
    R.hover_float = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
    vim.api.nvim_win_close(win, true)
  end
  vim.api.nvim_set_current_win(main_win)
  -- Also the raw response, for a precise error message if the float is missing.
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', vim.lsp.util.make_position_params(0, 'utf-16'), timeout)
  R.hover = vim.NIL
  for _, r in pairs(responses or {}) do
    if r.result and r.result.contents then
      local c = r.result.contents
      R.hover = type(c) == 'table' and (c.value or vim.fn.json_encode(c)) or tostring(c)
    elseif r.err then
      R.hover_error = r.err.message
    end
  end
  step('hover')

  -- 5. Quick fix through vim.lsp.buf.code_action(), the user path; vim.ui.select picks the fix.
  -- First find a diagnostic that has a quickfix with an edit (preferred code first).
  local preferred = os.getenv('SKILLGRADE_FIX_CODE') or 'MISSING_TRIGGER'
  local candidates = {}
  for _, d in ipairs(R.diagnostics) do
    if d.code == preferred then
      table.insert(candidates, 1, d)
    else
      table.insert(candidates, d)
    end
  end
  local target = nil
  for _, d in ipairs(candidates) do
    vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
    local params = vim.lsp.util.make_range_params(0, 'utf-16')
    params.context = { diagnostics = vim.tbl_map(to_lsp, vim.diagnostic.get(bufnr, { lnum = d.lnum })) }
    local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, timeout) or {}
    for _, r in pairs(res) do
      for _, a in ipairs(r.result or {}) do
        if a.kind == 'quickfix' and a.edit ~= nil and not target then
          target = d
        end
      end
    end
    if target then
      break
    end
  end
  R.code_actions = {}
  R.quickfix = { applied = false, code = target and target.code or vim.NIL }
  if target then
    vim.api.nvim_win_set_cursor(0, { target.lnum + 1, target.col })
    local before_lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    local before_tick = vim.api.nvim_buf_get_changedtick(bufnr)
    local select_called = false
    vim.ui.select = function(items, opts, on_choice)
      select_called = true
      local chosen, chosen_idx
      for i, item in ipairs(items) do
        local action = item.action or item[2] or item
        table.insert(R.code_actions, { title = action.title, kind = action.kind or vim.NIL, has_edit = action.edit ~= nil })
        if not chosen and action.kind == 'quickfix' and action.edit ~= nil then
          chosen, chosen_idx = item, i
        end
      end
      if chosen then
        R.quickfix.title = (chosen.action or chosen[2] or chosen).title
      end
      on_choice(chosen, chosen_idx)
    end
    vim.lsp.buf.code_action()
    local changed = vim.wait(timeout, function()
      return vim.api.nvim_buf_get_changedtick(bufnr) ~= before_tick
    end, 20)
    R.quickfix.select_called = select_called
    R.quickfix.applied = changed
    local after_lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    R.quickfix.changed_lines = {}
    for i = 1, math.max(#before_lines, #after_lines) do
      if before_lines[i] ~= after_lines[i] then
        table.insert(R.quickfix.changed_lines, { lnum = i - 1, before = before_lines[i] or vim.NIL, after = after_lines[i] or vim.NIL })
      end
    end
    step('quickfix')
    -- The server re-diagnoses the edited buffer: the fixed code should go away.
    if changed then
      R.quickfix.cleared = vim.wait(timeout, function()
        return has_code(diag_list(bufnr), target.code) == nil
      end, 20)
      R.diagnostics_after_fix = diag_list(bufnr)
      step('diagnostics_after_fix')
    end
  else
    R.quickfix.error = 'no diagnostic offers a quickfix with an edit'
  end

  -- 6. executeCommand skillgrade.score (raw request, the way other plugins would call it).
  local score = vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand',
    { command = 'skillgrade.score', arguments = { vim.uri_from_bufnr(bufnr) } }, timeout)
  for _, r in pairs(score or {}) do
    R.score = r.result
    if r.err then
      R.score_error = r.err.message
    end
  end
  step('score')

  -- 7. :SkillgradeReport -> the HTML report written to a temp file, opened with vim.ui.open (>= 0.10: stubbed
  -- here, recording the path) or its path printed (0.7 - 0.9). Then :SkillgradeScore -> the JSON scratch buffer.
  vim.api.nvim_set_current_win(main_win)
  local n_before = #R.notifications
  local ui_open = vim.ui and vim.ui.open
  if ui_open then
    vim.ui.open = function(path)
      R.ui_open_path = path
      return { wait = function() end }, nil
    end
  end
  vim.cmd('SkillgradeReport')
  local html_msg = nil
  vim.wait(timeout, function()
    for i = n_before + 1, #R.notifications do
      local m = R.notifications[i].msg
      if m:find('skillgrade: report ', 1, true) then
        html_msg = m
        return true
      end
    end
    return false
  end, 20)
  if ui_open then
    vim.ui.open = ui_open
  end
  R.report_html = { message = html_msg, has_ui_open = ui_open ~= nil, opened_path = R.ui_open_path }
  local path = html_msg and (html_msg:match('(%S+%.html)'))
  if path then
    local f = io.open(path, 'rb')
    if f then
      local page = f:read('*a')
      f:close()
      R.report_html.path = path
      R.report_html.size = #page
      R.report_html.head = page:sub(1, 400)
      R.report_html.table = page:find('<table class="grid" id="skills">', 1, true) ~= nil
      local charts = 0
      for _ in page:gmatch('<svg class="chart dims"') do
        charts = charts + 1
      end
      R.report_html.charts = charts
      os.remove(path)
    end
  end
  vim.cmd('SkillgradeScore')
  local report_found = vim.wait(timeout, function()
    return find_win_with_buf_pred(function(_, buf)
      return vim.api.nvim_buf_get_name(buf):match('skillgrade://report') ~= nil
    end) ~= nil
  end, 20)
  if report_found then
    local win, buf = find_win_with_buf_pred(function(_, b)
      return vim.api.nvim_buf_get_name(b):match('skillgrade://report') ~= nil
    end)
    R.report_buffer = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    R.report_buffer_filetype = vim.bo[buf].filetype
    vim.api.nvim_win_close(win, true)
  end
  vim.api.nvim_set_current_win(main_win)
  step('report')

  -- 8. :SkillgradeCertify and :SkillgradeJudge without a key -> the server's sentence through vim.notify.
  local function run_and_wait(cmd, what)
    local start = #R.notifications
    vim.cmd(cmd)
    local done = vim.wait(timeout, function()
      for i = start + 1, #R.notifications do
        local m = R.notifications[i].msg
        if m:find('skillgrade: ' .. what .. ' failed', 1, true) or m:find('skillgrade: ' .. what .. ': ', 1, true) then
          return true
        end
      end
      return false
    end, 20)
    local msgs = {}
    for i = start + 1, #R.notifications do
      table.insert(msgs, R.notifications[i])
    end
    return done, msgs
  end
  local _, certify_msgs = run_and_wait('SkillgradeCertify', 'certify')
  R.certify_notifications = certify_msgs
  step('certify')
  local _, judge_msgs = run_and_wait('SkillgradeJudge', 'judge')
  R.judge_notifications = judge_msgs
  step('judge')
  R.n_notifications_before_report = n_before

  -- 9. Shut down cleanly.
  vim.lsp.stop_client(client.id)
  vim.wait(5000, function()
    return vim.lsp.get_client_by_id(client.id) == nil
  end, 20)
  step('stopped')
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  table.insert(R.errors, tostring(err))
end
R.ok = ok
local wok, werr = pcall(write)
if not wok then
  io.stderr:write('driver: cannot write result: ' .. tostring(werr) .. '\n')
  vim.cmd('cquit 2')
end
vim.cmd(ok and 'qall!' or 'cquit 1')
