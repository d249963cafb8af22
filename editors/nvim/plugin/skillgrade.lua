-- Defines :SkillgradeCertify, :SkillgradeJudge, :SkillgradeReport, :SkillgradeScore so they exist
-- even when the server is enabled only through vim.lsp.enable('skillgrade') (Neovim >= 0.11).
-- Starting the server is left to require('skillgrade').setup() or vim.lsp.enable('skillgrade').
if vim.g.loaded_skillgrade then
  return
end
vim.g.loaded_skillgrade = true

local commands = {
  SkillgradeCertify = 'skillgrade.certify',
  SkillgradeJudge = 'skillgrade.judge',
  SkillgradeReport = 'skillgrade.report',
  SkillgradeScore = 'skillgrade.score',
}
for name, command in pairs(commands) do
  vim.api.nvim_create_user_command(name, function(o)
    if command == 'skillgrade.certify' then
      require('skillgrade').certify(0) -- the cost estimate and a confirmation first
    elseif name == 'SkillgradeReport' then
      require('skillgrade').report_html(0, nil, o.bang) -- the HTML report, in the browser
    else
      require('skillgrade').execute(command, 0)
    end
  end, { desc = 'skillgrade: run ' .. command .. ' on the current SKILL.md', bang = name == 'SkillgradeReport' })
end
