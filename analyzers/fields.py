"""Known frontmatter fields: the Agent Skills spec and Claude Code's documented extensions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FieldSpec:
    key: str
    kind: str  # "string" | "bool" | "string-map" | "string-or-list" | "mapping" | "any"
    source: str  # "spec" | "claude-code"
    summary: str
    limit: int | None = None
    required: bool = False


FIELDS: dict[str, FieldSpec] = {
    f.key: f
    for f in (
        FieldSpec("name", "string", "spec",
                  "The skill's identifier: 1-64 characters, lowercase letters, digits and single hyphens, "
                  "equal to the skill's directory name.", 64, True),
        FieldSpec("description", "string", "spec",
                  "What the skill does and when to use it (1-1024 characters). The agent decides from this "
                  "text alone whether to load the skill, so include a trigger clause (\"Use when ...\").",
                  1024, True),
        FieldSpec("license", "string", "spec", "License name or the name of a bundled license file."),
        FieldSpec("compatibility", "string", "spec",
                  "Environment requirements: products, system packages, network access (1-500 characters).",
                  500),
        FieldSpec("metadata", "string-map", "spec",
                  "Additional properties: a map of string keys to string values."),
        FieldSpec("allowed-tools", "string-or-list", "spec",
                  "Space-separated tools the skill may use without asking, e.g. `Bash(git:*) Read` "
                  "(experimental)."),
        FieldSpec("argument-hint", "string", "claude-code",
                  "Claude Code: hint shown for the arguments of the skill's slash command, e.g. `[issue-number]`."),
        FieldSpec("arguments", "string-or-list", "claude-code",
                  "Claude Code: names for the positional arguments, used as `$name` in the body "
                  "(space-separated or a list)."),
        FieldSpec("disable-model-invocation", "bool", "claude-code",
                  "Claude Code: `true` keeps the model from loading the skill by itself; only `/name` runs it."),
        FieldSpec("user-invocable", "bool", "claude-code",
                  "Claude Code: `false` hides the skill from the `/` menu (the model can still load it)."),
        FieldSpec("model", "string", "claude-code", "Claude Code: the model to use while the skill is active."),
        FieldSpec("effort", "string", "claude-code", "Claude Code: reasoning effort while the skill is active."),
        FieldSpec("context", "string", "claude-code", "Claude Code: `fork` runs the skill in a forked sub-agent context."),
        FieldSpec("agent", "string", "claude-code", "Claude Code: the sub-agent type used with `context: fork`."),
        FieldSpec("hooks", "mapping", "claude-code", "Claude Code: hooks scoped to the skill's lifetime."),
        FieldSpec("paths", "string-or-list", "claude-code",
                  "Claude Code: glob patterns; the skill is loaded automatically for matching files."),
        FieldSpec("shell", "string", "claude-code", "Claude Code: the shell used for `!` command blocks."),
        FieldSpec("version", "string", "claude-code", "Version of the skill (free-form; quote it)."),
        FieldSpec("when_to_use", "any", "claude-code",
                  "Claude Code: extra trigger guidance appended to the description in the skill listing."),
    )
}

STRING_FIELDS = frozenset(k for k, f in FIELDS.items() if f.kind == "string")
BOOL_FIELDS = frozenset(k for k, f in FIELDS.items() if f.kind == "bool")
