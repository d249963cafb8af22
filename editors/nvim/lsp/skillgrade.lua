-- Neovim >= 0.11 config for the skillgrade language server (SKILL.md files).
--   vim.lsp.enable('skillgrade')
-- Override with vim.lsp.config('skillgrade', { settings = { skillgrade = { ... } } }).
-- See docs/protocol.md for the settings keys.
local ok, skillgrade = pcall(require, 'skillgrade')

-- The SKILL.md a buffer belongs to: itself, or for a markdown file bundled with a skill
-- (references/forms.md) the SKILL.md of the nearest ancestor folder that has one.
local function skill_file_for(name)
  if ok then
    return skillgrade.skill_file_for(name)
  end
  return name ~= nil and vim.fs.basename(name) == 'SKILL.md' and name or nil
end

return {
  cmd = { 'skillgrade', 'server' },
  -- Neovim detects SKILL.md as markdown; `skill` for users who set that filetype themselves.
  -- yaml/json: task suites and comprehension eval files (skillgrade.side_file_for decides by content).
  filetypes = { 'markdown', 'skill', 'yaml', 'json' },
  -- Only SKILL.md buffers and markdown files bundled with a skill get a client: if on_dir() is not
  -- called, nothing starts. Root: the nearest directory holding .git, else the parent of the skill's
  -- directory (the same for a SKILL.md and its references, so they share one client).
  root_dir = function(bufnr, on_dir)
    local skill = ok and skillgrade.anchor_for(bufnr) or skill_file_for(vim.api.nvim_buf_get_name(bufnr))
    if not skill then
      return
    end
    local root = vim.fs.root(skill, { '.git' })
    on_dir(root or vim.fs.dirname(vim.fs.dirname(skill)))
  end,
  -- vim.empty_dict(): an empty Lua table would go out as a JSON list `[]`, not an object.
  -- Keys (docs/protocol.md): debounceMs, docsBaseUrl, select, ignore, severity, threshold,
  -- judgeModel, simulationModel, budgetUsd, logLevel.
  settings = { skillgrade = vim.empty_dict() },
  handlers = ok and { ['$/progress'] = skillgrade.progress_handler } or nil,
}
