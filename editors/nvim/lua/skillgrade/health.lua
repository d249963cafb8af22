-- :checkhealth skillgrade
local M = {}

-- vim.health.start/ok/... on >= 0.10; require('health').report_* on 0.7 - 0.9.
local function reporter()
  local h = vim.health
  if h == nil or (h.start == nil and h.report_start == nil) then
    h = require('health')
  end
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

local function system(cmd)
  local out = vim.fn.system(cmd)
  return vim.v.shell_error, vim.trim(out or '')
end

-- The interpreter named on the first line of a console script (`#!/path/python`), if any.
local function script_python(path)
  local ok, lines = pcall(vim.fn.readfile, path, '', 1)
  if not ok or not lines or not lines[1] then
    return nil
  end
  local shebang = lines[1]:match('^#!%s*(%S+)')
  if shebang and shebang:match('python[%d%.]*$') then
    return shebang
  end
  return nil
end

function M.check()
  local h = reporter()
  local cfg = require('skillgrade').config
  local exe = cfg.cmd and cfg.cmd[1] or 'skillgrade'

  h.start('skillgrade: Neovim')
  local v = vim.version()
  local version = string.format('%d.%d.%d', v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.11') == 1 then
    h.ok('Neovim ' .. version .. ": uses lsp/skillgrade.lua with vim.lsp.enable('skillgrade')")
  elseif vim.fn.has('nvim-0.8') == 1 then
    h.ok('Neovim ' .. version .. ": require('skillgrade').setup() starts the server with vim.lsp.start()")
  elseif vim.fn.has('nvim-0.7') == 1 then
    h.ok('Neovim ' .. version .. ": require('skillgrade').setup() starts the server with vim.lsp.start_client()")
  else
    h.error('Neovim ' .. version .. ' is too old: skillgrade needs Neovim 0.7 or newer')
  end

  h.start('skillgrade: server executable')
  if vim.fn.executable(exe) ~= 1 then
    h.error(string.format("'%s' not found on PATH", exe), {
      'Install it: pip install skillgrade (or pipx install skillgrade)',
      "Or point the plugin at it: require('skillgrade').setup({ cmd = { '/path/to/skillgrade', 'server' } })",
    })
  else
    local path = vim.fn.exepath(exe)
    local code, out = system({ path, '--version' })
    if code == 0 and out ~= '' then
      h.ok(string.format('%s: %s', path, out))
    else
      h.error(string.format("'%s --version' failed (exit %d): %s", path, code, out))
    end
  end

  h.start('skillgrade: Python')
  local python = nil
  if vim.fn.executable(exe) == 1 then
    python = script_python(vim.fn.exepath(exe))
  end
  local candidates = { 'python3', 'python' }
  if python then
    table.insert(candidates, 1, python)
  end
  local found = false
  for _, py in ipairs(candidates) do
    if py and vim.fn.executable(py) == 1 then
      local code, out = system({ py, '-c',
        'import sys, skillgrade.server, pygls, lsprotocol; print(sys.version.split()[0], sys.executable)' })
      if code == 0 then
        h.ok(string.format('skillgrade.server, pygls and lsprotocol import with Python %s', out))
        found = true
        break
      elseif py == python then
        h.warn(string.format("%s (from the '%s' script) cannot import the server: %s", py, exe, out))
      end
    end
  end
  if not found then
    if python then
      h.error('no Python interpreter can import skillgrade.server', { 'Reinstall: pip install skillgrade' })
    else
      h.info('skillgrade is not importable from python3 on PATH (fine if it is installed with pipx)')
    end
  end

  h.start('skillgrade: clients')
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'skillgrade' })
    or vim.tbl_filter(function(c)
      return c.name == 'skillgrade'
    end, vim.lsp.get_active_clients())
  if #clients == 0 then
    h.info('no skillgrade client running (open a SKILL.md to start one)')
  else
    for _, c in ipairs(clients) do
      h.ok(string.format('client %d, root %s', c.id, tostring(c.config.root_dir)))
    end
  end
end

return M
