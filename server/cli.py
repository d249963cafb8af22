"""The `skillgrade` command line: score, compare, rules, explain, server. A thin adapter over analyzers."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

VERSION = "0.1.0"
LLM_DEPTHS = {"standard": "the LLM judge", "deep": "the LLM judge and Monte Carlo simulation",
              "certify": "the LLM judge, Monte Carlo simulation and Elo ranking"}
FORMATS = ("text", "json", "sarif", "markdown", "github", "gitlab", "html")


class UsageError(Exception):
    """Exit code 2 with one line on stderr."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse's own behaviour, minus usage spam)
        raise UsageError(message)


def _codes(value: str) -> list[str]:
    return [c.strip().upper() for c in value.replace(" ", ",").split(",") if c.strip()]


def _score_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("paths", nargs="+", type=Path)
    s.add_argument("--format", "--output", dest="format", choices=FORMATS, default="text",
                   help="output format (--output is accepted, as PluginEval users type it)")
    s.add_argument("--threshold", type=float, default=None, help="exit 1 when a skill scores below N")
    s.add_argument("--strict", action="store_true", help="exit 1 on warnings too, not only on errors")
    s.add_argument("--select", type=_codes, default=None, help="only these codes (comma-separated)")
    s.add_argument("--ignore", type=_codes, default=None, help="skip these codes (comma-separated)")
    s.add_argument("--config", type=Path, default=None, help="a .skillgrade.toml or pyproject.toml")
    s.add_argument("--target", choices=("claude-code", "claude-api", "agentskills"), default=None,
                   help="where the skills run: decides the platform rules and known fields (default: "
                        "the config's `target`, else claude-code)")
    s.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    s.add_argument("--cache-dir", type=Path, default=None,
                   help="cache folder (default: .skillgrade_cache at the workspace root)")
    s.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: all cores)")
    s.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    s.add_argument("--fix", action="store_true", help="apply safe fixes ([*]) to the files, then report")
    s.add_argument("--unsafe-fixes", action="store_true", help="with --fix, also apply unsafe fixes")
    s.add_argument("--diff", action="store_true",
                   help="print the unified diff of what --fix would change, write nothing; exit 1 when "
                        "there is something to change")
    s.add_argument("--baseline", type=Path, default=None, metavar="FILE",
                   help="report and fail only on findings not in this baseline (`skillgrade baseline write`;"
                        " config: baseline)")
    s.add_argument("--no-baseline", action="store_true", help="ignore the configured baseline")
    s.add_argument("--skip-outside-skills", action="store_true",
                   help="ignore given files that belong to no skill (the pre-commit hook passes this)")
    llm = s.add_argument_group("LLM layers (--depth standard, `judge`)")
    llm.add_argument("--judges", type=_positive_int, default=1, metavar="N",
                     help="N independent judges, averaged, with their agreement (default 1)")
    llm.add_argument("--budget", type=_usd, default=None, metavar="USD",
                     help="stop before a model call that would pass this many dollars")
    llm.add_argument("--dry-run", action="store_true",
                     help="print the estimated calls, tokens and cost; call no model (no key needed)")
    llm.add_argument("--batch", action="store_true",
                     help="send the model calls through the Message Batches API (half price, slower); an "
                          "interrupted run resumes its batches when run again")
    llm.add_argument("--judge-model", default=None, metavar="MODEL", help="the judge model (config: judge-model)")
    llm.add_argument("--simulate-model", default=None, metavar="MODEL",
                     help="the routing-simulation model (config: simulate-model)")
    llm.add_argument("--base-url", default=None, metavar="URL",
                     help="an Anthropic-compatible endpoint (ANTHROPIC_BASE_URL wins)")
    from skillgrade.server.cli_certify import add_mc_args

    add_mc_args(s)


def count_upto(hi: int):  # type: ignore[no-untyped-def]
    """An argparse type: a whole number from 1 to hi ("expected a number from 1 to 10")."""
    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
        if not 1 <= n <= hi:
            raise argparse.ArgumentTypeError(f"expected a number from 1 to {hi}")
        return n
    return parse


_positive_int = count_upto(10)


def int_in(flag: str, lo: int, hi: int):  # type: ignore[no-untyped-def]
    """An argparse type: a whole number from lo to hi ("--mc-n must be between 2 and 1000")."""
    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag}: {value!r} is not a whole number") from None
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"{flag} must be between {lo} and {hi}")
        return n
    return parse


def float_below(flag: str, lo: float, hi: float):  # type: ignore[no-untyped-def]
    """An argparse type: a number at least lo and below hi ("--holdout must be at least 0 and below 1")."""
    def parse(value: str) -> float:
        try:
            x = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag}: {value!r} is not a number") from None
        if not lo <= x < hi:
            raise argparse.ArgumentTypeError(f"{flag} must be at least {lo:g} and below {hi:g}")
        return x
    return parse


def _usd(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected dollars, got {value!r}") from None
    if not x >= 0 or x == float("inf"):
        raise argparse.ArgumentTypeError("expected dollars >= 0")
    return x


# Verbs that live in modules of their own (one line each): `add_parser(sub)` adds the subparser and sets
# `verb_module` in its defaults; `cmd(args) -> int` runs it. Their imports stay out of the static path.
VERB_MODULES: tuple[str, ...] = (
    "cli_init",
    "cli_comprehension",
    "cli_evaluate",
    "cli_optimize",
    "cli_baseline",
    "cli_calibrate",
)


BUILTIN_VERBS = ("score", "judge", "certify", "compare", "rules", "explain", "server")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or (only=a built-in verb) just that verb's subparser: `skillgrade score`
    then neither imports nor builds the other verbs' parsers (~15 ms of every run's start)."""

    def want(verb: str) -> bool:
        return only is None or only == verb

    p = _Parser(prog="skillgrade", description="Grade Agent Skills (SKILL.md): lint, score, serve the editor.")
    p.add_argument("--version", action="version", version=f"skillgrade {VERSION}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    if want("score"):
        s = sub.add_parser("score", help="score skills (a skill dir, a SKILL.md, or any tree)")
        s.add_argument("--depth", choices=("quick", "standard", "deep", "certify"), default="quick",
                       help="quick: static analysis; standard: + the LLM judge (needs ANTHROPIC_API_KEY); deep: "
                            "+ Monte Carlo simulation; certify: + Elo (= `skillgrade certify`)")
        _score_args(s)
    if want("judge"):
        j = sub.add_parser("judge", help="score skills with the LLM judge (= score --depth standard)")
        j.set_defaults(depth="standard")
        _score_args(j)
    if want("certify"):
        cf = sub.add_parser("certify",
                            help="static + judge + Monte Carlo + Elo, and the badge (= score --depth certify)")
        cf.set_defaults(depth="certify")
        _score_args(cf)

    if want("compare"):
        c = sub.add_parser("compare", help="compare two skills dimension by dimension")
        c.add_argument("a", type=Path)
        c.add_argument("b", type=Path)
        c.add_argument("--depth", choices=("quick", "standard", "deep", "certify"), default="quick")
        c.add_argument("--format", "--output", dest="format", choices=("text", "json"), default="text")

    if want("rules"):
        r = sub.add_parser("rules", help="list every rule")
        r.add_argument("--format", "--output", dest="format", choices=("text", "json"), default="text")

    if want("explain"):
        e = sub.add_parser("explain", help="show a rule's documentation")
        e.add_argument("code")

    if only is None:
        for verb in VERB_MODULES:  # verbs kept in their own modules: add_parser(sub) and cmd(args)
            importlib.import_module(f"skillgrade.server.{verb}").add_parser(sub)

    if want("server"):
        sv = sub.add_parser("server", help="start the language server (stdio)")
        sv.add_argument("--stdio", action="store_true", help="accepted and ignored: stdio is the default")
        sv.add_argument("--tcp", type=int, default=None, metavar="PORT")
        sv.add_argument("--host", default="127.0.0.1")
    return p


def _color(mode: str) -> bool:
    if mode == "always":
        return True
    if mode == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def _check_depth(depth: str, allowed: tuple[str, ...] = ("quick",)) -> None:
    if depth not in allowed:
        if depth == "standard":  # compare
            raise UsageError("compare --depth standard is not available yet; judge each skill with "
                             "`skillgrade judge PATH`")
        raise UsageError(
            f"--depth {depth} needs {LLM_DEPTHS[depth]}, and the LLM layers are not available in this "
            "version; use --depth quick (static analysis)"
        )


def _config_loader(args: argparse.Namespace):
    from skillgrade.analyzers.config import Config, ConfigError, find_config_file, load_config

    overrides: dict = {}
    if args.select is not None:
        overrides["select"] = args.select
    if args.ignore is not None:
        overrides["ignore"] = args.ignore
    if getattr(args, "target", None) is not None:
        overrides["target"] = args.target
    if args.config is not None:
        if not args.config.is_file():
            raise UsageError(f"{args.config}: config file not found")
        try:
            fixed = load_config(args.config).merged(overrides)
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
        return lambda _p: fixed
    by_dir: dict[str, object] = {}
    by_file: dict[Path | None, object] = {}  # skills sharing a config file share one Config object

    def for_path(p: Path):
        d = os.path.dirname(p)
        cfg = by_dir.get(d)
        if cfg is None:
            found = find_config_file(d or ".")
            cfg = by_file.get(found)
            if cfg is None:
                try:
                    cfg = by_file[found] = (load_config(found) if found else Config()).merged(overrides)
                except ConfigError as exc:
                    raise UsageError(str(exc)) from None
            by_dir[d] = cfg
        return cfg

    return for_path


def cmd_score(args: argparse.Namespace) -> int:
    _check_depth(args.depth, ("quick", "standard", "deep", "certify"))
    args.paths = resolve_paths(args.paths, outside_ok=args.skip_outside_skills)
    if not args.paths:
        return 0  # only files outside skills were given (pre-commit), and --skip-outside-skills
    config_for = _config_loader(args)
    if args.diff:
        from skillgrade.server.cli_fixdiff import print_fix_diff

        return print_fix_diff(list(args.paths), config_for, args.unsafe_fixes)
    if args.fix:
        fixed = _apply_fixes(list(args.paths), config_for, args.unsafe_fixes)
        if fixed:
            print(f"skillgrade: applied {fixed} fix{'es' if fixed != 1 else ''}", file=sys.stderr)
    if args.depth in ("deep", "certify"):
        from skillgrade.server.cli_certify import score_deep

        code = score_deep(args, config_for, _color(args.color), certify=args.depth == "certify")
        if code is not None:
            return code
    elif args.depth == "standard":
        from skillgrade.server.cli_judge import score_standard

        code = score_standard(args, config_for, _color(args.color))
        if code is not None:
            return code
        # no API key: the message is on stderr; the static result follows
    from skillgrade.analyzers.batch import score_paths

    cache_dir = None if args.no_cache else (args.cache_dir or Path(".skillgrade_cache"))
    tty = sys.stdout.isatty()
    texts: list[str] | None = [] if args.format == "json" and not tty else None  # compact JSON splices these
    reports, errors = score_paths(list(args.paths), config_for, cache_dir=cache_dir, jobs=args.jobs,
                                  json_texts=texts)
    if not reports and errors:
        raise UsageError(errors[0])
    threshold = strictest_threshold(reports, args, config_for)  # the strictest configured one
    emit(reports, errors, args, config_for, tty=tty, texts=texts)
    return exit_code(reports, errors, args, threshold)


def resolve_paths(paths: list[Path], *, outside_ok: bool = False) -> list[Path]:
    """The paths to score: directories and SKILL.md files as given; any other file is replaced by the
    SKILL.md of the skill it belongs to (the nearest folder above it with one), so a bundled file grades
    its skill once. A file in no skill is a usage error, or skipped when `outside_ok`."""
    from skillgrade.analyzers.workspace import is_manifest_name

    out: list[Path] = []
    seen: set[str] = set()
    for p in paths:
        if not p.exists():
            raise UsageError(f"{p}: no such file or directory")
        if p.is_file() and not is_manifest_name(p.name):
            skill = next((d / "SKILL.md" for d in p.resolve().parents if (d / "SKILL.md").is_file()), None)
            if skill is None:
                if outside_ok:
                    continue
                raise UsageError(f"{p}: not a SKILL.md nor a file of a skill (give a SKILL.md, a skill "
                                 "directory, a file in one, or a tree)")
            try:
                p = skill.relative_to(Path.cwd())
            except ValueError:
                p = skill
        key = os.path.abspath(p)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def emit(reports: list[dict], errors: list[str], args: argparse.Namespace, config_for, *, tty: bool,
         texts: list[str] | None = None, ledger: dict | None = None) -> None:
    """Write the reports in the chosen format (JSON gets a top-level `ledger` when one is given).

    With a baseline (--baseline, config `baseline`), the baselined findings are first removed from the
    reports (in place, so the exit code counts only the others) and their number is reported."""
    from skillgrade.analyzers import render
    from skillgrade.server.cli_baseline import apply_baseline, baselined_line

    hidden = apply_baseline(reports, args, config_for)
    if hidden is not None:
        texts = None  # the cached compact JSON still holds the baselined findings
    if args.format == "json":
        # pretty on a terminal; compact (and much faster) when piped
        indent = 2 if tty or len(reports) <= 20 else None
        if ledger is not None:
            import json

            doc = json.loads(render.to_json(reports, errors, indent=None))
            doc["ledger"] = ledger
            out = render.dumps(doc, indent=indent) + "\n"
        else:
            out = render.to_json(reports, errors, indent=indent, texts=texts)
    elif args.format == "sarif":
        from skillgrade.analyzers.registry import ALL_RULES
        from skillgrade.analyzers.rule import as_dict

        rules = []
        for r in ALL_RULES:
            d = as_dict(r)
            d["doc"] = r.doc
            d["help"] = r.section("What it does") or r.summary
            rules.append(d)
        base = config_for(Path(reports[0]["skill"]["path"])).docs_base_url if reports else ""
        out = render.to_sarif(reports, rules, base)
    elif args.format == "markdown":
        out = render.to_markdown(reports)
    elif args.format == "html":
        from skillgrade.analyzers.html_report import to_html

        base = config_for(Path(reports[0]["skill"]["path"])).docs_base_url if reports else None
        out = to_html(reports, errors, ledger=ledger, docs_base=base)
    elif args.format == "github":
        out = render.to_github(reports)
        if hidden is not None:
            out += f"skillgrade: {baselined_line(hidden)}\n"
    elif args.format == "gitlab":
        from skillgrade.server.cli_baseline import gitlab_fingerprints

        out = render.to_gitlab(reports, gitlab_fingerprints(reports))
    else:
        out = render.to_text(reports, render.Style(_color(args.color)))
        if ledger is not None:
            from skillgrade.server.cli_judge import judge_text

            out += judge_text(reports, render.Style(_color(args.color)))
            from skillgrade.server.cli_certify import mc_text

            out += mc_text(reports, render.Style(_color(args.color)))
        if hidden is not None:
            out += render.Style(_color(args.color)).dim(baselined_line(hidden)) + "\n"
    sys.stdout.write(out)
    if hidden is not None and args.format in ("sarif", "markdown", "gitlab"):
        print(f"skillgrade: {baselined_line(hidden)}", file=sys.stderr)
    if args.format != "text":
        for e in errors:
            print(f"skillgrade: {e}", file=sys.stderr)


def strictest_threshold(reports: list[dict], args: argparse.Namespace, config_for) -> float | None:
    if args.threshold is not None:
        return args.threshold
    cfgs = {id(c): c for c in (config_for(r["skill"]["path"]) for r in reports)}
    ths = [c.threshold for c in cfgs.values() if getattr(c, "threshold", None) is not None]
    return min(ths) if ths else None


def exit_code(reports: list[dict], errors: list[str], args: argparse.Namespace, threshold: float | None) -> int:
    failed = bool(errors)
    failing = ("error", "warning") if args.strict else ("error",)
    if any(f["severity"] in failing for r in reports for f in r["findings"]):
        failed = True
    if threshold is not None and any(
        r["composite"]["score"] is None or r["composite"]["score"] < threshold for r in reports
    ):
        failed = True
    return 1 if failed else 0


def _apply_fixes(paths: list[Path], config_for, unsafe: bool, overlay: dict[str, str] | None = None) -> int:
    """Apply fixes skill by skill, re-analysing until nothing more applies (at most 5 rounds).

    With `overlay` (absolute path -> new text) nothing is written: the new texts go there (`--diff`), the
    SKILL.md is re-read from it, and a bundled file is edited in the first round that edits it only (the
    analysis of bundled files reads the disk, so later rounds would offer the same edits again)."""
    from skillgrade.analyzers.batch import workspace_root_for
    from skillgrade.analyzers.fixes import applicable, apply_fixes, edits_by_file
    from skillgrade.analyzers.report import UnreadableError, analyze, read_skill
    from skillgrade.analyzers.workspace import find_skill_files

    def write(path: Path, text: str) -> None:
        if overlay is None:
            path.write_text(text, "utf-8", newline="")
        else:
            overlay[os.path.abspath(path)] = text

    total = 0
    for skill in find_skill_files(paths):
        for _ in range(5):
            try:
                text, binary = read_skill(skill)
                text = overlay.get(os.path.abspath(skill), text) if overlay is not None else text
            except UnreadableError:
                break
            if binary:
                break
            rep = analyze(text, skill, config=config_for(skill), workspace_root=workspace_root_for(skill))
            fixes = [f.fix for f in rep.findings if applicable(f.fix, unsafe)]
            drop_bom = text.startswith("\ufeff") and any(f.code == "UTF8_BOM" for f in rep.findings)
            text = text.removeprefix("\ufeff")  # positions are relative to the text without the BOM
            if drop_bom:
                write(skill, text)
                total += 1
            if not fixes:
                break
            created = 0
            for fx in fixes:
                for c in fx.creates:
                    target = Path(c.path)
                    if overlay is not None:
                        if not target.exists() and os.path.abspath(target) not in overlay:
                            overlay[os.path.abspath(target)] = c.content
                            created += 1
                    elif not target.exists():
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_text(c.content, "utf-8")
                        created += 1
            new_text, applied = apply_fixes(text, fixes)
            if new_text != text:
                write(skill, new_text)
            for target, edits in edits_by_file(fixes).items():  # fixes of findings on bundled files
                if overlay is not None and os.path.abspath(target) in overlay:
                    continue
                applied += _edit_file(skill.parent, Path(target), edits, overlay)
            if applied + created == 0:
                break
            total += applied + created
    return total


def _edit_file(skill_dir: Path, target: Path, edits: list, overlay: dict[str, str] | None = None) -> int:
    """Apply edits to a file of the skill (never outside its folder); the count applied. With `overlay`,
    the new text goes there instead of the disk."""
    from skillgrade.analyzers.fixes import apply_edits

    try:
        target.resolve().relative_to(skill_dir.resolve())
        data = target.read_bytes().decode("utf-8")
    except (ValueError, OSError, UnicodeDecodeError):
        return 0
    bom = "\ufeff" if data.startswith("\ufeff") else ""  # positions count from after the BOM
    new, applied = apply_edits(data[len(bom):], edits)
    if applied and bom + new != data:
        if overlay is not None:
            overlay[os.path.abspath(target)] = bom + new
        else:
            target.write_text(bom + new, "utf-8", newline="")
    return applied


def _one(path: Path) -> dict:
    from skillgrade.analyzers.batch import workspace_root_for
    from skillgrade.analyzers.config import ConfigError, config_for
    from skillgrade.analyzers.report import UnreadableError, analyze_file

    if not path.exists():
        raise UsageError(f"{path}: no such file or directory")
    skill = path / "SKILL.md" if path.is_dir() else path
    if not skill.is_file():
        raise UsageError(f"{path}: no SKILL.md here")
    try:
        cfg = config_for(skill.parent)
        return analyze_file(skill, config=cfg, workspace_root=workspace_root_for(skill)).to_dict()
    except (UnreadableError, ConfigError) as exc:
        raise UsageError(str(exc)) from None


def cmd_compare(args: argparse.Namespace) -> int:
    _check_depth(args.depth)
    a, b = _one(args.a), _one(args.b)
    from skillgrade.analyzers import render

    if args.format == "json":
        import json

        sys.stdout.write(json.dumps({"a": a, "b": b}, indent=2) + "\n")
    else:
        sys.stdout.write(render.compare_text(a, b, render.Style(_color("auto"))))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from skillgrade.analyzers.registry import ALL_RULES
    from skillgrade.analyzers.rule import as_dict

    if args.format == "json":
        import json

        sys.stdout.write(json.dumps([as_dict(r) for r in ALL_RULES], indent=2) + "\n")
        return 0
    w = max(len(r.code) for r in ALL_RULES)
    for r in ALL_RULES:
        flags = ("AP " if r.anti_pattern else "   ") + ("fix" if r.fix.value != "none" else "   ")
        only = "" if len(r.targets) == 3 else f" [{', '.join(sorted(r.targets))}]"
        print(f"{r.code.ljust(w)}  {r.severity.label:<7}  {flags}  {r.summary}{only}")
    print("\nAP = methodology anti-pattern (counts toward the penalty); fix = a quick fix exists; "
          "[target] = applies only to these targets (docs/targets.md)")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from skillgrade.analyzers.registry import ALL_RULES, by_code

    r = by_code(args.code)
    if r is None:
        import difflib

        close = difflib.get_close_matches(args.code.upper(), [x.code for x in ALL_RULES], n=1)
        hint = f"; did you mean {close[0]}?" if close else "; `skillgrade rules` lists them"
        raise UsageError(f"unknown rule code {args.code!r}{hint}")
    flags = [r.severity.label, r.family]
    if r.anti_pattern:
        flags.append("anti-pattern")
    print(f"# {r.code} ({', '.join(flags)})\n")
    print(r.doc)
    return 0


def cmd_server(args: argparse.Namespace, argv: list[str]) -> int:
    try:
        from skillgrade.server.lsp import main as server_main
    except ImportError as exc:
        raise UsageError(f"the language server cannot start: {exc}") from None
    rest = [a for a in argv if a != "--stdio"]
    return server_main(rest) or 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv and argv[0] in BUILTIN_VERBS else None)
    try:
        if argv and argv[0] == "server":
            args = parser.parse_args(argv)
            return cmd_server(args, argv[1:])
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        handler = {"score": cmd_score, "judge": cmd_score, "certify": cmd_score, "compare": cmd_compare,
                   "rules": cmd_rules, "explain": cmd_explain}
        if args.command in handler:
            return handler[args.command](args)
        return importlib.import_module(f"skillgrade.server.{args.verb_module}").cmd(args)
    except UsageError as exc:
        print(f"skillgrade: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback (SKILLGRADE_DEBUG=1 shows it)
        if os.environ.get("SKILLGRADE_DEBUG"):
            raise
        print(f"skillgrade: internal error: {type(exc).__name__}: {exc} (set SKILLGRADE_DEBUG=1 for details; "
              "please report it)", file=sys.stderr)
        return 2
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        except OSError:
            pass
        return 1


if __name__ == "__main__":
    # `python -m skillgrade.server.cli`: let the helper modules' `from skillgrade.server.cli import UsageError`
    # get this module, so their usage errors are caught here (exit 2) rather than reported as internal errors
    sys.modules.setdefault("skillgrade.server.cli", sys.modules[__name__])
    sys.exit(main())
