"""Every rule, in one explicit table (ruff's codes.rs): importing a rule here registers it."""

from __future__ import annotations

from .rule import Rule
from .rules.body.bloated_skill import bloated_skill
from .rules.body.body_over_budget import body_over_budget
from .rules.body.over_constrained import over_constrained
from .rules.body.reference_no_toc import reference_no_toc
from .rules.claude_code.agent_without_fork import agent_without_fork
from .rules.claude_code.argument_in_code import argument_in_code
from .rules.claude_code.invalid_field_value import invalid_field_value
from .rules.claude_code.permission_rule_syntax import permission_rule_syntax
from .rules.claude_code.uninvocable_skill import uninvocable_skill
from .rules.claude_code.unknown_model import unknown_model
from .rules.claude_code.unknown_tool import unknown_tool
from .rules.claude_code.unrestricted_bash import unrestricted_bash
from .rules.code.code_block_invalid import code_block_invalid
from .rules.code.code_block_untagged import code_block_untagged
from .rules.code.fence_in_html_block import fence_in_html_block
from .rules.code.nested_fence import nested_fence
from .rules.code.unclosed_fence import unclosed_fence
from .rules.content.absolute_user_path import absolute_user_path
from .rules.content.hardcoded_secret import hardcoded_secret
from .rules.content.hidden_instruction import hidden_instruction
from .rules.content.invisible_unicode import invisible_unicode
from .rules.description.description_too_long import description_too_long
from .rules.description.description_xml_tag import description_xml_tag
from .rules.description.empty_description import empty_description
from .rules.description.missing_trigger import missing_trigger
from .rules.description.weak_trigger import weak_trigger
from .rules.frontmatter.compatibility_too_long import compatibility_too_long
from .rules.frontmatter.field_type import field_type
from .rules.frontmatter.frontmatter_missing import frontmatter_missing
from .rules.frontmatter.frontmatter_not_mapping import frontmatter_not_mapping
from .rules.frontmatter.frontmatter_unterminated import frontmatter_unterminated
from .rules.frontmatter.unknown_field import unknown_field
from .rules.frontmatter.yaml_ambiguous_value import yaml_ambiguous_value
from .rules.frontmatter.yaml_duplicate_key import yaml_duplicate_key
from .rules.frontmatter.yaml_syntax import yaml_syntax
from .rules.input.binary_content import binary_content
from .rules.input.file_too_large import file_too_large
from .rules.input.utf8_bom import utf8_bom
from .rules.links.dead_cross_ref import dead_cross_ref
from .rules.links.dead_link import dead_link
from .rules.links.link_case_mismatch import link_case_mismatch
from .rules.links.link_escapes_workspace import link_escapes_workspace
from .rules.links.missing_mentioned_file import missing_mentioned_file
from .rules.links.nested_reference import nested_reference
from .rules.links.orphan_reference import orphan_reference
from .rules.links.unreferenced_file import unreferenced_file
from .rules.name.duplicate_skill_name import duplicate_skill_name
from .rules.name.name_dir_mismatch import name_dir_mismatch
from .rules.name.name_format import name_format
from .rules.name.name_missing import name_missing
from .rules.name.name_reserved_word import name_reserved_word
from .rules.name.name_too_long import name_too_long
from .rules.name.skill_file_name import skill_file_name
from .rules.scripts.interactive_script import interactive_script

ALL_RULES: tuple[Rule, ...] = tuple(
    sorted(
        (
            binary_content,
            file_too_large,
            utf8_bom,
            frontmatter_missing,
            frontmatter_unterminated,
            yaml_syntax,
            yaml_duplicate_key,
            yaml_ambiguous_value,
            frontmatter_not_mapping,
            unknown_field,
            field_type,
            compatibility_too_long,
            name_missing,
            name_format,
            name_too_long,
            name_reserved_word,
            name_dir_mismatch,
            skill_file_name,
            duplicate_skill_name,
            empty_description,
            missing_trigger,
            weak_trigger,
            description_too_long,
            description_xml_tag,
            over_constrained,
            bloated_skill,
            body_over_budget,
            orphan_reference,
            dead_cross_ref,
            dead_link,
            link_escapes_workspace,
            link_case_mismatch,
            missing_mentioned_file,
            unreferenced_file,
            code_block_untagged,
            code_block_invalid,
            unclosed_fence,
            fence_in_html_block,
            nested_fence,
            hardcoded_secret,
            invisible_unicode,
            absolute_user_path,
            hidden_instruction,
            nested_reference,
            reference_no_toc,
            interactive_script,
            unknown_model,
            invalid_field_value,
            agent_without_fork,
            unknown_tool,
            permission_rule_syntax,
            unrestricted_bash,
            uninvocable_skill,
            argument_in_code,
        ),
        key=lambda r: r.code,
    )
)

_BY_CODE = {r.code: r for r in ALL_RULES}
ANTI_PATTERNS = tuple(r.code for r in ALL_RULES if r.anti_pattern)


def by_code(code: str) -> Rule | None:
    return _BY_CODE.get(code.strip().upper())
