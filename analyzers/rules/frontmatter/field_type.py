"""FIELD_TYPE: a frontmatter value has the wrong type (a list description, nested metadata, ...)."""

from __future__ import annotations

from collections.abc import Iterator

from ...document import SkillDocument
from ...fields import FIELDS, agent_namespaces, metadata_namespace, skill_dialect
from ...findings import Edit, Finding, Fix, Severity
from ...package_code import package_reads, package_reads_lines
from ...rule import FixAvailability, RuleContext, rule
from ...targets import known_fields
from .._helpers import yaml_quote


def _type_name(v: object) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        if v and all(isinstance(x, dict) for x in v):
            return "a list of mappings"
        odd = next((x for x in v if isinstance(x, dict | list)), None)
        return "a list" if odd is None else f"a list holding {_type_name(odd)}"
    if v is None:
        return "empty"
    if isinstance(v, int | float):
        return "a number"
    if isinstance(v, str):
        return "text"
    return f"a {type(v).__name__}"  # dates and times

def _quote_flow_list(doc: SkillDocument, fld) -> Fix | None:
    """`argument-hint: [issue-number]`: quote the brackets the author meant as text (one-line flow lists)."""
    rng = fld.value_range
    written = doc.source(rng)
    if rng.start.line != rng.end.line or not (written.startswith("[") and written.endswith("]")):
        return None
    return Fix.unsafe(f"Quote it: `{yaml_quote(written)}`", Edit(rng, yaml_quote(written)))


@rule("FIELD_TYPE", family="frontmatter", severity=Severity.ERROR, fix=FixAvailability.SOMETIMES)
def field_type(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A known frontmatter field holds a value of the wrong type.

    ## What it does
    Checks value types: text fields must be strings (not lists or mappings), `metadata` must map
    strings to strings, `allowed-tools` and `paths` must be a string or a list of strings (or empty:
    `allowed-tools:` with no value names no tool, as an empty text field says nothing),
    `disable-model-invocation` and `user-invocable` must be `true` or `false`, `hooks` a mapping (a host's optional
    setting written as null, `hooks: ~` or no value, is unset, as if absent: not reported). An `arguments` list of
    records each with a `name` (`- name: dir` / `type: string`) is another tool's schema of its options
    (Gemini CLI skill packs), not Claude Code's argument names: not reported. Unquoted values that
    YAML reads as numbers, dates or booleans are reported by `YAML_AMBIGUOUS_VALUE` instead.

    OpenClaw (formerly Clawdbot) reads its settings from one nested object in `metadata`, under
    `openclaw` (or the older names `clawdbot`, `clawdis`, `moltbot`), often written as one line of JSON
    (`metadata: {"clawdbot":{"requires":{"bins":["jq"]}}}`): that one key may hold a mapping, and
    `metadata` may be that JSON as text. Forks of OpenClaw use their own name for the key (elizaOS:
    `otto`); such a key is known by its shape: a mapping of OpenClaw's keys only (`requires`, `install`,
    `emoji`, `os`, `primaryEnv`, `skillKey`, `always`, `homepage`) holding `requires`, `install` or
    `emoji`. Turning it into text would remove the skill's gating and install specs; Claude Code does not
    read `metadata`. NousResearch Hermes Agent reads its own nested `metadata.hermes` (tags, category,
    related skills): not reported either, beside OpenClaw's or alone. Nor is a mapping of five or more keys
    under any other name (`metadata.helixforge` with its engine, tier, limits and workflow): a runtime's
    configuration block, read by that runtime; nor a mapping named after a folder above the skill or the
    leading words of its name (`metadata.ts_agents` in `ts_agents/resources/skills/…`, `metadata.echo` in
    `echo_agent/…`, `metadata.dcc-mcp` in `dcc_mcp_gaea/…`): the shipping package's own block; nor a nested key that the shipping package's own code
    reads (`meta.get("routing.kind")`, `fm["intake"]` in a source that names SKILL.md or frontmatter, as
    UNKNOWN_FIELD asks it). Other nested `metadata` keys (`metadata.requires: {bins: …}`) are still reported.
    A one-line `[…]` value (`argument-hint: [file]`) in a skill whose shipping package parses the frontmatter line
    by line (`line.partition(":")` in a source naming SKILL.md that imports no YAML library) and never names `.claude` is the text
    its own loader reads: not reported.

    ## Why is this bad?
    Tools read these fields as text; a list `description` crashes the reference evaluator and is
    rendered as `['a', 'b']` by others. Nested `metadata` is silently stringified by the spec's
    reference library.

    ## Example
    ```markdown
    ---
    name: pdf-tools
    description:
      - Use when filling PDF forms.
    ---
    ```

    Use instead:
    ```markdown
    ---
    name: pdf-tools
    description: Use when filling PDF forms.
    ---
    ```

    ## Fix
    Rewrite the value with the expected type. A text field written as a one-line list in brackets,
    the common `argument-hint: [issue-number]`, is quoted (`argument-hint: "[issue-number]"`):
    YAML reads unquoted brackets as a list, which Claude Code happens to join back into text but
    other clients (GitHub Copilot CLI) reject.

    ## Fix safety
    Unsafe: the quoted value keeps the brackets and commas as written, which is what a hint
    means; for another field (`description: [a, b]`) the brackets may not be wanted.
    """
    if not doc.frontmatter.ok:
        return
    meta = doc.frontmatter.fields.get("metadata")
    namespace = metadata_namespace(meta.value) if meta is not None else None
    namespaces = agent_namespaces(meta.value) if meta is not None else frozenset()
    if meta is not None and isinstance(meta.value, dict) and doc.skill_dir is not None:
        namespaces = namespaces | _package_namespaces(meta.value, doc.skill_dir)
    known = known_fields(ctx.config.target, skill_dialect(doc.frontmatter.data, doc.text))
    for key, fld in doc.frontmatter.fields.items():
        spec = FIELDS.get(key)
        if spec is None or key not in known:  # another target's field: UNKNOWN_FIELD reports it
            continue
        v = fld.value
        plain = fld.is_plain_scalar
        if v is None and spec.kind in ("bool", "mapping"):
            continue  # `hooks: ~`, `user-invocable:`: a host's optional setting left unset, as if absent
        if spec.kind == "string":
            if isinstance(v, list) and package_reads_lines(doc) and _quote_flow_list(doc, fld) is not None:
                continue  # `argument-hint: [file]` read by the package's own line parser: the text written
            if isinstance(v, dict | list):
                yield ctx.finding(fld.value_range, f"`{key}` must be text, not {_type_name(v)}",
                                  _quote_flow_list(doc, fld))
        elif spec.kind == "bool":
            if not isinstance(v, bool) and not (plain and str(fld.node.value).lower() in
                                                ("yes", "no", "on", "off", "y", "n")):
                yield ctx.finding(fld.value_range, f"`{key}` must be `true` or `false`, not {_type_name(v)}")
        elif spec.kind == "string-map":
            if namespace is not None and isinstance(v, str):
                continue  # OpenClaw's JSON text, which it parses itself
            if not isinstance(v, dict):
                yield ctx.finding(fld.value_range, f"`{key}` must be a mapping of text keys to text values")
                continue
            node = fld.node
            if node.__class__.__name__ != "MappingNode":
                continue
            for k_node, v_node in node.value:
                if v_node.__class__.__name__ != "ScalarNode" and k_node.value not in namespaces:
                    if isinstance(k_node.value, str) and package_reads(doc, k_node.value, nested=True):
                        continue  # the shipping package's own code reads this block (`.get("routing.kind")`)
                    inner = v.get(k_node.value)

                    rng = doc.node_range(k_node)
                    yield ctx.finding(rng, f"`metadata.{k_node.value}` must be text, not {_type_name(inner)}")
        elif spec.kind == "string-or-list":
            ok = v is None or isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v))
            if not ok and key == "arguments" and _argument_schema(v):
                continue  # another tool's argument records (`- name: dir` / `type: string`), not Claude Code's names
            if not ok:
                yield ctx.finding(fld.value_range, f"`{key}` must be text or a list of text, not {_type_name(v)}")
        elif spec.kind == "mapping" and not isinstance(v, dict):
            yield ctx.finding(fld.value_range, f"`{key}` must be a mapping, not {_type_name(v)}")


def _argument_schema(v: object) -> bool:
    """`arguments` is a list of records each with a `name` (`- name: dir`, `type: string`, `required: true`): a
    tool's own schema of its command-line options (Gemini CLI skill packs), not Claude Code's argument names."""
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) and "name" in x for x in v)


PACKAGE_LEVELS = 6  # folders above the skill whose names may be the shipping package's


def _package_namespaces(metadata: dict, skill_dir) -> frozenset[str]:
    """Mapping keys of `metadata` named after a folder above the skill, or a leading run of its name's words
    (`metadata.ts_agents` in `ts_agents/resources/skills/x/`, `metadata.echo` in `echo_agent/skills/x/`,
    `metadata.dcc-mcp` in `dcc_mcp_gaea/skills/x/`): the
    package that ships the skill, reading its own block."""
    keys = {k.lower().replace("-", "_"): k for k, v in metadata.items() if isinstance(k, str) and isinstance(v, dict)}
    if not keys:
        return frozenset()
    out = set()
    for folder in list(skill_dir.parents)[:PACKAGE_LEVELS]:
        norm = folder.name.lower().replace("-", "_")
        words = norm.split("_")
        # `echo_agent` reads `metadata.echo`; `dcc_mcp_gaea` reads `metadata.dcc-mcp` (a leading run of its words)
        for k in ["_".join(words[:n]) for n in range(1, len(words) + 1)]:
            if k in keys and len(k) >= 3:
                out.add(keys[k])
    return frozenset(out)
