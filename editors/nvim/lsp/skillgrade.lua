-- Neovim >= 0.11 config for the skillgrade language server (SKILL.md files).
--   vim.lsp.enable('skillgrade')
-- Override with vim.lsp.config('skillgrade', { settings = { skillgrade = { ... } } }).
-- See docs/protocol.md for the settings keys.
local ok, skillgrade = pcall(require, 'skillgrade')

local function is_skill(name)
  return name ~= nil and vim.fs.basename(name) == 'SKILL.md'
end

return {
  cmd = { 'skillgrade', 'server' },
  -- Neovim detects SKILL.md as markdown; `skill` for users who set that filetype themselves.
  filetypes = { 'markdown', 'skill' },
  -- Only SKILL.md buffers get a client: if on_dir() is not called, nothing starts.
  -- Root: the nearest directory holding .git, else the parent of the skill's directory.
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if not is_skill(name) then
      return
    end
    local root = vim.fs.root(bufnr, { '.git' })
    on_dir(root or vim.fs.dirname(vim.fs.dirname(name)))
  end,
  -- vim.empty_dict(): an empty Lua table would go out as a JSON list `[]`, not an object.
  -- Keys (docs/protocol.md): debounceMs, docsBaseUrl, select, ignore, severity, threshold,
  -- judgeModel, simulationModel, budgetUsd, logLevel.
  settings = { skillgrade = vim.empty_dict() },
  handlers = ok and { ['$/progress'] = skillgrade.progress_handler } or nil,
}
