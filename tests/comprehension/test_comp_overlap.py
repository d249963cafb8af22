"""Verbatim overlap (A.3) and the far-transfer lint (R4) against hand-computed values."""

from __future__ import annotations

import pytest

from skillgrade.analyzers.comprehension.overlap import (
    far_transfer_overlap,
    ngrams,
    tokenize,
    verbatim_overlap,
)

DEFINITION = ("Type safety is the property of a program in which type errors — operations applied to values of "
              "the wrong kind — are detected before they cause incorrect behavior.")


def test_tokenize_is_the_seeds():
    # lower-case; punctuation -> space; tokens of <= 3 characters and the seed's stopwords dropped
    assert tokenize("Type-safety: THIS is about `any` vs unknown; they'd x1234 don't") == \
        ["type", "safety", "unknown", "x1234"]
    # "they'd" -> "they" + "d": "they" is a stopword; "don't" -> "don" + "t" (both <= 3)
    # non-ASCII letters become spaces: "caf", "na", "ve", "internationalis"
    assert tokenize("café naïve internationalisé") == ["internationalis"]


def test_tokens_of_the_definition():
    assert tokenize(DEFINITION) == ["type", "safety", "property", "program", "type", "errors", "operations",
                                    "applied", "values", "wrong", "kind", "detected", "cause", "incorrect",
                                    "behavior"]


def test_ngrams_in_order_without_repeats():
    assert ngrams(["a", "b", "a", "b", "a"], 2) == ["a b", "b a"]
    assert ngrams(["a"], 2) == []
    with pytest.raises(ValueError):
        ngrams(["a"], 0)


def test_copied_definition_fails_with_the_exact_ngrams():
    answer = "Simply put: type safety is the property of a program in which type errors are caught early."
    got = verbatim_overlap(answer, "unrelated body text here", DEFINITION)
    # answer tokens: simply put type safety property program type errors caught early
    # ("put" is 3 characters, dropped) -> 6-grams shared with the definition: exactly one
    assert not got.passed
    assert got.overlap_ngrams == ("type safety property program type errors",)


def test_paraphrase_passes():
    answer = ("It's the property of a codebase where the compiler catches a category of mistakes — like calling a "
              "function with the wrong shape of input — before users see them.")
    assert verbatim_overlap(answer, DEFINITION, DEFINITION).passed


def test_n_is_configurable_and_junction_follows_the_seed():
    answer = "alpha bravo charlie delta echo foxtrot"
    # the seed joins body + " " + concept field: an n-gram may span the junction
    assert not verbatim_overlap(answer, "alpha bravo charlie", "delta echo foxtrot").passed
    assert verbatim_overlap(answer, "alpha bravo charlie", "delta echo", n=6).passed
    assert verbatim_overlap(answer, "alpha bravo charlie", "delta echo", n=5).overlap_ngrams == (
        "alpha bravo charlie delta echo",)


def test_far_transfer_four_grams():
    body = "Parse the JSON payload with Zod at the runtime boundary before trusting its type."
    prompt = "Should we parse the JSON payload with a validator at the edge?"
    # prompt tokens: should(stop) parse json payload validator edge -> 4-grams: "parse json payload validator",
    # "json payload validator edge"; body tokens: parse json payload runtime boundary trusting type
    assert far_transfer_overlap(prompt, body).passed
    prompt2 = "Why parse JSON payload with Zod runtime checks?"
    # "with" is a stopword, "zod" has 3 characters: prompt -> parse json payload runtime checks
    got = far_transfer_overlap(prompt2, body)
    assert not got.passed and got.overlap_ngrams == ("parse json payload runtime",) and got.n == 4
