-- skillgrade for Neovim: language-server client for SKILL.md files.
--
-- Neovim >= 0.11: `lsp/skillgrade.lua` is picked up by `vim.lsp.enable('skillgrade')`;
--                 `setup()` just calls `vim.lsp.config()` + `vim.lsp.enable()` (see README).
-- Neovim 0.8 - 0.10: `setup()` starts the server with `vim.lsp.start()` for buffers named SKILL.md.
-- Neovim 0.7: `setup()` uses `vim.lsp.start_client()` + `vim.lsp.buf_attach_client()`, one client per
--             root, and sends `workspace/didChangeConfiguration` itself (0.7 never does).
local M = {}

M.name = 'skillgrade'

local defaults = {
  cmd = { 'skillgrade', 'server' },
  -- yaml/json: task suites and comprehension eval files (M.side_file_for decides from the content)
  filetypes = { 'markdown', 'skill', 'yaml', 'json' },
  -- Files whose nearest ancestor holds one of these is the workspace root;
  -- otherwise the root is the parent of the skill's directory.
  root_markers = { '.git' },
  -- Sent as `workspace/didChangeConfiguration` (settings section `skillgrade`, see docs/protocol.md).
  settings = { skillgrade = {} },
  init_options = nil,
  capabilities = nil,
  on_attach = nil,
  handlers = nil,
  -- Echo `$/progress` from the server through vim.notify.
  progress = true,
  -- Neovim >= 0.11: register through vim.lsp.config/vim.lsp.enable (the lsp/skillgrade.lua config).
  -- Set to false to use the same vim.lsp.start() code path as 0.8 - 0.10.
  use_lsp_enable = true,
}

M.config = vim.deepcopy(defaults)

local function has(feature)
  return vim.fn.has(feature) == 1
end

local function notify(msg, level)
  vim.notify('skillgrade: ' .. msg, level or vim.log.levels.INFO)
end

-- ---------------------------------------------------------------------------
-- Helpers shared with lsp/skillgrade.lua
-- ---------------------------------------------------------------------------

local function dirname(path)
  return vim.fn.fnamemodify(path, ':h')
end

local function basename(path)
  return vim.fn.fnamemodify(path, ':t')
end

--- True if `path` names a SKILL.md file, or a case variant (`skill.md`): the server reports why Claude Code
--- skips such a file (SKILL_FILE_NAME) and treats it as bundled markdown where a real SKILL.md sits beside it.
function M.is_skill_file(path)
  return path ~= nil and path ~= '' and basename(path):lower() == 'skill.md'
end

-- Folders that are never part of a skill (the server's skip list, abridged): markdown under them is not linted.
local SKIP_DIRS = { ['node_modules'] = true, ['.git'] = true, ['.venv'] = true, ['venv'] = true,
  ['__pycache__'] = true, ['.hg'] = true, ['.svn'] = true }
local MAX_BUNDLE_DEPTH = 8

--- The SKILL.md a file belongs to: itself for a SKILL.md; for another markdown file (references/forms.md)
--- the SKILL.md of the nearest ancestor folder that has one (at most 8 levels up); nil otherwise.
function M.skill_file_for(path)
  if path == nil or path == '' then
    return nil
  end
  if M.is_skill_file(path) then
    return path
  end
  local ext = (path:match('%.([%w]+)$') or ''):lower()
  if ext ~= 'md' and ext ~= 'markdown' and ext ~= 'mdx' then
    return nil
  end
  local cur = dirname(vim.fn.fnamemodify(path, ':p'))
  for _ = 1, MAX_BUNDLE_DEPTH do
    if SKIP_DIRS[basename(cur)] then
      return nil
    end
    local candidate = cur .. '/SKILL.md'
    if vim.fn.filereadable(candidate) == 1 then
      return candidate
    end
    local parent = dirname(cur)
    if parent == cur then
      break
    end
    cur = parent
  end
  return nil
end

--- True for a task suite (YAML with a top-level `skill_id:`) or a comprehension eval file (JSON with an
--- "evals" list): the server validates these and reports their errors. Reads the buffer's first lines.
function M.side_file_for(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  local ext = (path:match('%.([%w]+)$') or ''):lower()
  if ext ~= 'yaml' and ext ~= 'yml' and ext ~= 'json' then
    return nil
  end
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 400, false)) do
    if ext == 'json' then
      if line:find('"evals"%s*:') then
        return path
      end
    elseif line:match('^skill_id%s*:') then
      return path
    end
  end
  return nil
end

--- What a buffer's client is rooted at: its SKILL.md (a skill or a markdown file bundled with one),
--- else the file itself when it is a task suite or an eval file; nil: not ours.
function M.anchor_for(bufnr)
  return M.skill_file_for(vim.api.nvim_buf_get_name(bufnr)) or M.side_file_for(bufnr)
end

--- Workspace root for a SKILL.md: the nearest ancestor holding one of `markers`,
--- else the parent of the skill's directory.
function M.find_root(path, markers)
  markers = markers or M.config.root_markers or defaults.root_markers
  path = vim.fn.fnamemodify(path, ':p')
  local dir = dirname(path)
  local cur = dir
  while true do
    for _, marker in ipairs(markers) do
      local candidate = cur .. '/' .. marker
      if vim.fn.isdirectory(candidate) == 1 or vim.fn.filereadable(candidate) == 1 then
        return cur
      end
    end
    local parent = dirname(cur)
    if parent == cur then
      break
    end
    cur = parent
  end
  return dirname(dir)
end

--- `root_dir` for vim.lsp.config (Neovim >= 0.11): only SKILL.md buffers and markdown files bundled
--- with a skill get a client, rooted where their SKILL.md is (so they share its client).
function M.root_dir_0_11(bufnr, on_dir)
  local skill = M.anchor_for(bufnr)
  if skill then
    on_dir(M.find_root(skill))
  end
end

-- token -> title of the `begin` report, so `report`/`end` messages can name the task.
local progress_titles = {}

local function progress_text(result, key)
  local value = result and result.value or {}
  if value.kind == 'begin' then
    progress_titles[key] = value.title
  end
  local title = (value.title or progress_titles[key] or 'working'):gsub('^skillgrade:%s*', '')
  if value.kind == 'end' then
    progress_titles[key] = nil
  end
  local text = title
  if value.message and value.message ~= '' then
    text = text .. ': ' .. value.message
  elseif value.kind == 'end' then
    text = text .. ': done'
  end
  if value.percentage and value.kind ~= 'end' then
    text = string.format('%s (%d%%)', text, value.percentage)
  end
  return text
end

--- `$/progress` handler: echoes through vim.notify, then runs Neovim's default handler
--- (which feeds the LspProgress autocmd / vim.lsp.status() on newer Neovim).
function M.progress_handler(err, result, ctx, config)
  if M.config.progress and result and type(result.value) == 'table' then
    local key = tostring(ctx and ctx.client_id) .. ':' .. tostring(result.token)
    notify(progress_text(result, key), vim.log.levels.INFO)
  end
  local default = vim.lsp.handlers['$/progress']
  if default and default ~= M.progress_handler then
    return default(err, result, ctx, config)
  end
end

--- Copy of `settings` in which empty tables that must be JSON objects are vim.empty_dict()
--- (an empty Lua table is encoded as `[]`).
function M.normalize_settings(settings)
  local function fix(t)
    if type(t) ~= 'table' then
      return t
    end
    if next(t) == nil then
      return vim.empty_dict()
    end
    return t
  end
  local out = vim.deepcopy(settings or {})
  for k, v in pairs(out) do
    out[k] = fix(v)
  end
  if out.skillgrade == nil then
    out.skillgrade = vim.empty_dict()
  end
  return out
end

local function client_notify(client, method, params)
  if has('nvim-0.11') then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function client_request(client, method, params, handler, bufnr)
  if has('nvim-0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- on_init: push the settings (Neovim 0.7 neither advertises workspace/configuration nor sends them).
function M.on_init(client)
  local settings = client.config and client.config.settings
  if settings and next(settings) ~= nil then
    client_notify(client, 'workspace/didChangeConfiguration', { settings = settings })
  end
  return true
end

-- ---------------------------------------------------------------------------
-- Clients
-- ---------------------------------------------------------------------------

--- The skillgrade client attached to `bufnr` (or any running skillgrade client).
function M.get_client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = bufnr, name = M.name })
  else
    clients = {}
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if c.name == M.name then
        table.insert(clients, c)
      end
    end
  end
  return clients[1]
end

local function client_config(root)
  local cfg = M.config
  local capabilities = cfg.capabilities or vim.lsp.protocol.make_client_capabilities()
  local handlers = vim.tbl_extend('force', { ['$/progress'] = M.progress_handler }, cfg.handlers or {})
  return {
    name = M.name,
    cmd = cfg.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    settings = M.normalize_settings(cfg.settings),
    init_options = cfg.init_options,
    capabilities = capabilities,
    handlers = handlers,
    on_init = function(client, result)
      M.on_init(client, result)
      if cfg.on_init then
        cfg.on_init(client, result)
      end
    end,
    on_attach = cfg.on_attach,
    flags = { debounce_text_changes = 150 },
  }
end

-- root -> client id (Neovim 0.7 has no vim.lsp.start, so we reuse clients ourselves).
M._clients = {}

local function alive(id)
  local c = id and vim.lsp.get_client_by_id(id)
  return c ~= nil and not c.is_stopped()
end

--- Start (or reuse) the server for `bufnr` and attach it. Returns the client id or nil.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local name = vim.api.nvim_buf_get_name(bufnr)
  -- a SKILL.md, a markdown file bundled with one, a task suite or an eval file
  local skill = M.skill_file_for(name) or M.side_file_for(bufnr)
  if not skill or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  if vim.fn.executable(M.config.cmd[1]) ~= 1 then
    notify(string.format("'%s' not found on PATH (pip install skillgrade); see :checkhealth skillgrade", M.config.cmd[1]),
      vim.log.levels.WARN)
    return nil
  end
  local root = M.find_root(skill)
  if vim.lsp.start then
    -- Neovim >= 0.8: vim.lsp.start reuses a client with the same name and root_dir.
    local id
    vim.api.nvim_buf_call(bufnr, function()
      id = vim.lsp.start(client_config(root), { bufnr = bufnr })
    end)
    return id
  end
  local id = M._clients[root]
  if not alive(id) then
    id = vim.lsp.start_client(client_config(root))
    M._clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

-- ---------------------------------------------------------------------------
-- Commands
-- ---------------------------------------------------------------------------

-- Pretty JSON (sorted keys) for the report buffer; vim.json has no indent option on old Neovim.
local function encode(value, indent)
  indent = indent or ''
  local t = type(value)
  if value == nil or value == vim.NIL then
    return 'null'
  elseif t == 'boolean' or t == 'number' then
    return tostring(value)
  elseif t == 'string' then
    return vim.fn.json_encode(value)
  elseif t == 'table' then
    local inner = indent .. '  '
    if (vim.islist or vim.tbl_islist)(value) and (next(value) ~= nil or (vim._empty_dict_mt == nil or getmetatable(value) ~= vim._empty_dict_mt)) then
      if #value == 0 then
        return '[]'
      end
      local items = {}
      for _, v in ipairs(value) do
        table.insert(items, inner .. encode(v, inner))
      end
      return '[\n' .. table.concat(items, ',\n') .. '\n' .. indent .. ']'
    end
    local keys = vim.tbl_keys(value)
    if #keys == 0 then
      return '{}'
    end
    table.sort(keys, function(a, b)
      return tostring(a) < tostring(b)
    end)
    local items = {}
    for _, k in ipairs(keys) do
      table.insert(items, inner .. vim.fn.json_encode(tostring(k)) .. ': ' .. encode(value[k], inner))
    end
    return '{\n' .. table.concat(items, ',\n') .. '\n' .. indent .. '}'
  end
  return vim.fn.json_encode(tostring(value))
end
M._encode = encode

local function summary(result)
  if type(result) ~= 'table' then
    return tostring(result)
  end
  local c = result.composite
  if type(c) == 'table' and c.score ~= nil then
    local parts = { string.format('%.1f', tonumber(c.score) or 0) }
    if c.badge and c.badge ~= vim.NIL then
      table.insert(parts, tostring(c.badge))
    end
    if c.confidence and c.confidence ~= vim.NIL then
      table.insert(parts, tostring(c.confidence))
    end
    if type(c.elo) == 'table' and c.elo.rating ~= nil and c.elo.rating ~= vim.NIL then
      table.insert(parts, string.format('Elo %d', math.floor((tonumber(c.elo.rating) or 0) + 0.5)))
    elseif type(c.elo) == 'number' then
      table.insert(parts, string.format('Elo %d', math.floor(c.elo + 0.5)))
    end
    return table.concat(parts, ' · ')
  end
  return vim.fn.json_encode(result)
end

--- Show a report in a scratch buffer (split). Returns the buffer number.
function M.show_report(result, source_bufnr)
  local src = source_bufnr and vim.api.nvim_buf_get_name(source_bufnr) or ''
  local lines = { '# skillgrade report: ' .. (src ~= '' and vim.fn.fnamemodify(src, ':~:.') or '[buffer]') }
  if type(result) == 'table' and result.composite then
    table.insert(lines, '# composite: ' .. summary(result))
  end
  for _, l in ipairs(vim.split(encode(result), '\n', { plain = true })) do
    table.insert(lines, l)
  end
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, 'skillgrade://report/' .. buf)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'json'
  return buf
end

local function label(command)
  return (command:gsub('^skillgrade%.', ''))
end

--- Run server command `command` (e.g. 'skillgrade.certify') on `bufnr`'s file.
--- `on_done(err, result)` overrides the default presentation (vim.notify / report buffer).
function M.execute(command, bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.get_client(bufnr)
  if not client then
    notify('no skillgrade language server attached to this buffer (is it a SKILL.md?)', vim.log.levels.ERROR)
    if on_done then
      on_done({ message = 'no skillgrade client' }, nil)
    end
    return false
  end
  local params = { command = command, arguments = { vim.uri_from_bufnr(bufnr) } }
  local what = label(command)
  if not on_done then
    notify(what .. ' running…')
  end
  client_request(client, 'workspace/executeCommand', params, function(err, result)
    if on_done then
      return on_done(err, result)
    end
    if err then
      notify(string.format('%s failed: %s', what, err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif command == 'skillgrade.report' or command == 'skillgrade.score' then
      M.show_report(result, bufnr)
      notify(what .. ': ' .. summary(result))
    elseif type(result) == 'table' and type(result.judgeRun or result.certifyRun) == 'table'
      and (result.judgeRun or result.certifyRun).status ~= 'ok' then
      -- e.g. no API key: the server's one sentence; the static result stands
      notify(what .. ': ' .. tostring((result.judgeRun or result.certifyRun).message), vim.log.levels.WARN)
    else
      notify(what .. ': ' .. summary(result))
      if command == 'skillgrade.judge' or command == 'skillgrade.certify' then
        M.repull_diagnostics(client, bufnr)
      end
    end
  end, bufnr)
  return true
end

--- Pull clients (Neovim >= 0.10 without workspace/diagnostic/refresh support) re-pull only after an
--- edit; after a judge run, ask once so the judge's evidence diagnostics appear now.
function M.repull_diagnostics(client, bufnr)
  local caps = client.server_capabilities or {}
  if not has('nvim-0.10') or not caps.diagnosticProvider or not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  client_request(client, 'textDocument/diagnostic', params, function(err, result, ctx)
    if not err and result then
      pcall(vim.lsp.diagnostic.on_diagnostic, err, result, ctx)
    end
  end, bufnr)
end

--- :SkillgradeCertify: ask the server what the run would cost (skillgrade.estimate, no model call), let
--- the user confirm with vim.ui.select, then run skillgrade.certify. Without a key: the server's sentence.
function M.certify(bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.get_client(bufnr)
  if not client then
    return M.execute('skillgrade.certify', bufnr, on_done) -- reports the missing client
  end
  local params = { command = 'skillgrade.estimate', arguments = { vim.uri_from_bufnr(bufnr), 'certify' } }
  client_request(client, 'workspace/executeCommand', params, function(err, est)
    if err or type(est) ~= 'table' or est.status == nil then
      -- a server without estimates: run without a confirmation
      return M.execute('skillgrade.certify', bufnr, on_done)
    end
    if est.status ~= 'ok' then
      notify('certify: ' .. tostring(est.message), vim.log.levels.WARN)
      if on_done then
        on_done({ message = tostring(est.message), status = est.status }, nil)
      end
      return
    end
    vim.ui.select({ 'Certify', 'Cancel' }, { prompt = tostring(est.message) .. ' ' }, function(choice)
      if choice == 'Certify' then
        M.execute('skillgrade.certify', bufnr, on_done)
      else
        notify('certify: not started')
        if on_done then
          on_done({ message = 'not confirmed', status = 'declined' }, nil)
        end
      end
    end)
  end, bufnr)
  return true
end

--- Write an HTML report to a temporary file; returns its path, or nil and the error.
function M.write_html(page)
  local path = vim.fn.tempname() .. '.html'
  local f, err = io.open(path, 'wb')
  if not f then
    return nil, err
  end
  f:write(page)
  f:close()
  return path
end

--- :SkillgradeReport: the server's HTML report (skillgrade.reportHtml) of the current SKILL.md (with `whole`,
--- of the workspace's skills), written to a temporary file and opened with vim.ui.open (Neovim >= 0.10);
--- older Neovim prints the path. A server without reportHtml: the JSON report in a scratch buffer.
--- `on_done(err, path, opened)` is called at the end.
function M.report_html(bufnr, on_done, whole)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.get_client(bufnr)
  if not client then
    return M.execute('skillgrade.report', bufnr) -- reports the missing client
  end
  local arg = whole and 'workspace' or vim.uri_from_bufnr(bufnr)
  local params = { command = 'skillgrade.reportHtml', arguments = { arg } }
  client_request(client, 'workspace/executeCommand', params, function(err, result)
    if err or type(result) ~= 'table' or type(result.html) ~= 'string' then
      if whole then
        notify('report failed: ' .. tostring(err and err.message or 'no HTML report'), vim.log.levels.ERROR)
        return on_done and on_done(err or { message = 'no HTML report' }, nil, false)
      end
      return M.execute('skillgrade.report', bufnr, on_done and function(e, r)
        if not e then
          M.show_report(r, bufnr)
        end
        on_done(e, nil, false)
      end or nil)
    end
    local path, werr = M.write_html(result.html)
    if not path then
      notify('cannot write the report: ' .. tostring(werr), vim.log.levels.ERROR)
      return on_done and on_done({ message = tostring(werr) }, nil, false)
    end
    local opened, why = false, nil
    if vim.ui and vim.ui.open then
      local ok, obj, oerr = pcall(vim.ui.open, path)
      opened = ok and obj ~= nil and oerr == nil
      why = not ok and obj or oerr
    end
    if opened then
      notify('report opened in the browser: ' .. path)
    else
      notify('report written to ' .. path .. (why and (' (could not open it: ' .. tostring(why) .. ')') or ''))
    end
    if on_done then
      on_done(nil, path, opened)
    end
  end, bufnr)
  return true
end

M.commands = {
  SkillgradeCertify = 'skillgrade.certify',
  SkillgradeJudge = 'skillgrade.judge',
  SkillgradeReport = 'skillgrade.report',
  SkillgradeScore = 'skillgrade.score',
}

--- Define :SkillgradeCertify, :SkillgradeJudge, :SkillgradeReport, :SkillgradeScore (idempotent).
function M.create_commands()
  for name, command in pairs(M.commands) do
    local desc = name == 'SkillgradeReport'
        and 'skillgrade: the HTML report of the current SKILL.md (with !: of the workspace) in the browser'
      or ('skillgrade: ' .. label(command) .. ' the current SKILL.md')
    vim.api.nvim_create_user_command(name, function(o)
      if command == 'skillgrade.certify' then
        M.certify(0)
      elseif name == 'SkillgradeReport' then
        M.report_html(0, nil, o.bang)
      else
        M.execute(command, 0)
      end
    end, { desc = desc, force = true, bang = name == 'SkillgradeReport' })
  end
end

-- ---------------------------------------------------------------------------
-- setup()
-- ---------------------------------------------------------------------------

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  M.create_commands()
  local group = vim.api.nvim_create_augroup('skillgrade', { clear = true })

  if has('nvim-0.11') and M.config.use_lsp_enable then
    -- lsp/skillgrade.lua holds the defaults; only pass what the user changed.
    local overrides = {}
    for _, key in ipairs({ 'cmd', 'filetypes', 'init_options', 'capabilities', 'on_attach', 'on_init' }) do
      if opts and opts[key] ~= nil then
        overrides[key] = opts[key]
      end
    end
    if opts and opts.settings ~= nil then
      overrides.settings = M.normalize_settings(opts.settings)
    end
    if opts and opts.root_markers then
      overrides.root_dir = function(bufnr, on_dir)
        local skill = M.anchor_for(bufnr)
        if skill then
          on_dir(M.find_root(skill, opts.root_markers))
        end
      end
    end
    if opts and opts.handlers then
      overrides.handlers = vim.tbl_extend('force', { ['$/progress'] = M.progress_handler }, opts.handlers)
    end
    if next(overrides) ~= nil then
      vim.lsp.config(M.name, overrides)
    end
    vim.lsp.enable(M.name)
    return M
  end

  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    -- markdown files too: those bundled with a skill (references/forms.md) get its client; M.attach
    -- leaves every other markdown file alone
    pattern = { 'SKILL.md', '*.md', '*.markdown', '*.mdx', '*.yaml', '*.yml', '*.json' },
    callback = function(ev)
      M.attach(ev.buf)
    end,
    desc = 'skillgrade: start the language server for SKILL.md and the markdown files bundled with it',
  })
  -- Buffers opened before setup() ran (e.g. lazy-loaded plugin).
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and M.anchor_for(buf) then
      M.attach(buf)
    end
  end
  return M
end

return M
