"""Pure parts of the optimiser: split, per-prompt pass, split scores, exact paired test, winner rule."""

from __future__ import annotations

import pytest

from skillgrade.analyzers.optimize.measure import (
    Contender,
    PromptResult,
    choose_winner,
    f1_bootstrap,
    mcnemar_exact,
    paired_test,
    split_score,
)
from skillgrade.analyzers.optimize.split import SplitError, stratified_split
from skillgrade.analyzers.routing import TestPrompt

ME = "pdf-tools"


def prompts(n_pos: int, n_neg: int) -> list[TestPrompt]:
    return [TestPrompt(f"pos {i}", True) for i in range(n_pos)] + [TestPrompt(f"neg {i}", False) for i in range(n_neg)]


def test_split_stratified_fixed_seed_and_order_independent():
    ps = prompts(10, 10)
    s = stratified_split(ps, 0.4, seed=42)
    assert sum(p.should_trigger for p in s.test) == 4 and sum(not p.should_trigger for p in s.test) == 4
    assert len(s.train) == 12 and not set(s.train) & set(s.test)
    again = stratified_split(list(reversed(ps)), 0.4, seed=42)
    assert set(again.test) == set(s.test)  # the file's row order does not matter
    other = stratified_split(ps, 0.4, seed=1)
    assert set(other.test) != set(s.test)  # the seed does


def test_split_keeps_one_of_each_class_in_test_and_one_in_train():
    s = stratified_split(prompts(2, 5), 0.1)
    assert sum(p.should_trigger for p in s.test) == 1 and sum(not p.should_trigger for p in s.test) == 1
    s = stratified_split(prompts(2, 2), 0.9)
    assert len(s.test) == 2 and len(s.train) == 2
    assert stratified_split(prompts(3, 3), 0.0).test == ()
    with pytest.raises(SplitError):
        stratified_split(prompts(3, 0), 0.4)
    with pytest.raises(SplitError):
        stratified_split(prompts(3, 3), 1.0)


def r(prompt: TestPrompt, *decisions: str | None, split: str = "train") -> PromptResult:
    return PromptResult(prompt, split, tuple(decisions), skill=ME)


def test_pass_is_a_strict_majority_of_decided_runs():
    pos, neg = TestPrompt("p", True), TestPrompt("n", False)
    assert r(pos, ME, ME, None).passed is True
    assert r(pos, ME, None, None).passed is False
    assert r(pos, ME, None).passed is False  # a tie fails
    assert r(neg, ME, None, None).passed is True
    assert r(neg, ME, "other", ME).passed is False
    assert r(neg, "other", "other", "other").passed is True  # another skill is not this one
    assert r(pos).passed is None  # no decided run: unmeasured


def test_split_score_counts_and_wilson_intervals():
    ps = prompts(4, 4)
    res = [r(ps[0], ME), r(ps[1], ME), r(ps[2], ME), r(ps[3], None),
           r(ps[4], ME), r(ps[5], None), r(ps[6], None), r(ps[7])]
    s = split_score(res)
    assert (s.tp, s.fn, s.fp, s.tn) == (3, 1, 1, 2)
    assert s.n == 8 and s.measured == 7 and s.passed == 5 and not s.complete
    assert s.precision.x == 3 and s.precision.n == 4 and s.precision.method == "wilson"
    assert s.recall.x == 3 and s.recall.n == 4
    assert s.f1 == pytest.approx(6 / 8)
    # Wilson 3/4: centre (0.75 + 1.9208/4)/(1+3.8415/4) ...
    assert s.recall.lower == pytest.approx(0.30064, abs=1e-4) and s.recall.upper == pytest.approx(0.95441, abs=1e-4)
    lo, hi = s.f1_ci
    assert 0 <= lo <= s.f1 <= hi <= 1


def test_f1_bootstrap_deterministic_and_degenerate():
    out = [(True, True)] * 5 + [(False, False)] * 5
    assert f1_bootstrap(out) == (1.0, 1.0)
    mixed = [(True, True), (True, False), (False, True), (False, False)] * 3
    assert f1_bootstrap(mixed) == f1_bootstrap(mixed)
    assert f1_bootstrap([(True, True)]) is None


def test_mcnemar_exact_p_values():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32)  # 0.0625
    assert mcnemar_exact(0, 6) == pytest.approx(2 / 64)  # 0.03125
    assert mcnemar_exact(1, 9) == pytest.approx(2 * 11 / 1024)  # 0.021484375
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(2, 8) == pytest.approx(2 * 56 / 1024)  # 0.109375
    assert mcnemar_exact(7, 1) == mcnemar_exact(1, 7) == pytest.approx(2 * 9 / 256)


def test_paired_test_matches_prompts_and_says_when_within_noise():
    ps = prompts(4, 4)
    orig = [r(p, None, split="test") for p in ps]  # positives fail, negatives pass
    win = [r(p, ME, split="test") for p in ps]  # positives pass, negatives fail
    t = paired_test(orig, win, "test")
    assert (t.gained, t.lost, t.prompts) == (4, 4, 8) and t.p_value == 1.0 and not t.significant
    assert "within the noise" in t.reason
    many = prompts(7, 0)
    t = paired_test([r(p, None) for p in many], [r(p, ME) for p in many], "test")
    assert t.gained == 7 and t.lost == 0 and t.p_value == pytest.approx(2 / 128) and t.significant
    same = paired_test(orig, orig, "test")
    assert same.gained == same.lost == 0 and same.reason.startswith("no prompt changed")


def _score(passed: int, n: int = 4):
    ps = prompts(n, 0)
    return split_score([r(p, ME if i < passed else None) for i, p in enumerate(ps)])


def test_winner_by_score_then_shorter_then_earlier():
    assert choose_winner([Contender(0, "aaaa", _score(2)), Contender(1, "bb", _score(3))]) == 1
    assert choose_winner([Contender(0, "aaaa", _score(3)), Contender(1, "bb", _score(2))]) == 0
    # a rewrite that only ties the original does not replace it, even when shorter
    assert choose_winner([Contender(0, "aaaa", _score(3)), Contender(1, "bb", _score(3))]) == 0
    # among rewrites that beat the original: the most passes, then the shorter, then the earlier
    three = [Contender(0, "o", _score(2)), Contender(1, "bbbb", _score(3)), Contender(2, "cc", _score(3))]
    assert choose_winner(three) == 2
    assert choose_winner([*three[:2], Contender(2, "dddd", _score(3))]) == 1
    assert choose_winner([*three, Contender(3, "longer text", _score(4))]) == 3
    incomplete = split_score([r(TestPrompt("x", True))])
    assert choose_winner([Contender(0, "a", incomplete), Contender(1, "b", _score(4))]) is None
    assert choose_winner([Contender(0, "a", _score(1)), Contender(1, "b", incomplete)]) == 0


def test_improver_reply_forms_and_candidate_checks():
    from skillgrade.analyzers.layers.ask import Invalid
    from skillgrade.analyzers.llm.types import Reply, Usage
    from skillgrade.analyzers.optimize.improver import check_candidate, reply_value

    def rep(text, parsed=None):
        return Reply(text, parsed, (), Usage(), "m", "end_turn", 0.0)

    good = "Reads PDF files. Use when the user has a PDF to read."
    assert reply_value(rep('{"description": "x", "why": "y"}')) == {"description": "x", "why": "y"}
    assert reply_value(rep('"just text"'))["description"] == "just text"
    assert reply_value(rep(f"<new_description>{good}</new_description>"))["description"] == good
    assert reply_value(rep(good))["description"] == good
    with pytest.raises(Invalid):
        reply_value(rep("{broken"))
    skill = "---\nname: pdf-tools\ndescription: Old one. Use when asked.\n---\n# Body\n"
    assert check_candidate({"description": good}, skill_text=skill, tried=[]).description == good
    for bad, why in [("", "empty"), ("x" * 1100, "limit is 1024"), ("Reads and merges PDF files of any kind.", "MISSING_TRIGGER"),
                     ("Reads <b>PDF</b> files. Use when the user has a PDF.", "DESCRIPTION_XML_TAG"),
                     ("Old one. Use when asked.", "already tried")]:
        with pytest.raises(Invalid, match=why):
            check_candidate({"description": bad}, skill_text=skill, tried=["Old one. Use when asked."])


def test_redactor_removes_held_out_prompts_in_any_case_and_spacing():
    from skillgrade.analyzers.optimize.improver import WITHHELD, Redactor

    r = Redactor([TestPrompt("Merge  these PDFs", True)])
    assert r("please merge these\npdfs now") == f"please {WITHHELD} now"
    assert r("nothing here") == "nothing here"
