"""English (Latin-script) term candidates for the ontology builder (SPEC §3.1.2, turn 2).

A term is a lemma (simplemma: "courses" and "course" are one term; a plural it does
not know joins its singular when the corpus holds that as a term, ontology/terms.py
`plurals_of_terms`) or a phrase
of two or three content words in a row ("office hours", "cherry tomatoes" →
"cherry tomato": the last word lemmatised, the others as written). Stop words
come from a maintained list (stopwordsiso's English list and the shipped
list), minus the few nouns that list also drops (`stopwords_keep_en.txt`:
course, room, system ... name things in some domain). Numbers, words with
digits (00pm, cs101) and one-letter words are dropped. Phrases never cross
punctuation or a stop word.

Only words that can be inflected (ending in -s or -ed) are lemmatised:
simplemma maps some base forms to other words (spade → spay). Four rules
stand in for the noun tagger Chinese gets from jieba:
* a word lemminflect's lexicon knows only as a verb, adjective or adverb
  (ripen, sunny, deeply) ends no term;
* `heads` counts a one-word term where it heads a noun phrase (after a
  determiner, preposition or another content word, before none): a word never
  seen there (green, damp, pick) is an adjective or a verb (terms.py);
* an "-ing" word stays as written: pruning, hiking, camping name activities,
  and simplemma would make them the verbs prune, hike, camp;
* an "-ed" participle (located, named, visited) is no term on its own and ends
  no phrase, but may start one ("raised bed"); a phrase's other words must be
  uninflected ("tomatoes ripen" is a clause, not a name).

Words are cut as `tokenize.word_tokens` cuts them (the same Unicode-word
pattern), here with their positions, to see the punctuation between them.
Crawl-side tokenizing (tokenize.py) is untouched: the crawler matches the
surface forms the builder records as altLabels (build.py), and the plural of
every English label (`plural_forms`, through scoring/relevance.py).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_DIGIT = re.compile(r"\d")
_POSSESSIVE = ("'s", "’s")
MAX_PHRASE = 3
EDGE = ""  # the context of a term at the start or end of a run of words
# Words after which a noun phrase starts: determiners, possessives, prepositions, conjunctions.
_SLOT_WORDS = """the a an your their its this these those every each some any his her my our
of in on with for from by at into onto under over about like than and or no more most few many
such"""
NOUN_SLOT_AFTER = frozenset(_SLOT_WORDS.split())
# Plurals simplemma gets wrong (verb-first: leaves → leave) or cannot know.
_NOUN_LEMMAS = {
    "leaves": "leaf", "lenses": "lens", "media": "media", "data": "data", "children": "child",
    "men": "man", "women": "woman", "feet": "foot", "teeth": "tooth", "mice": "mouse",
    "geese": "goose", "larvae": "larva",
}  # fmt: skip


@cache
def english_stop_words() -> frozenset[str]:
    """stopwordsiso's English list ∪ the shipped list − the domain nouns we keep."""
    import stopwordsiso

    here = resources.files("kgcrawl.text")

    def lines(name: str) -> set[str]:
        text = here.joinpath(name).read_text(encoding="utf-8")
        return {w.strip().lower() for w in text.splitlines() if w.strip() and w[0] != "#"}

    words = set(stopwordsiso.stopwords("en")) | lines("stopwords_en.txt")
    return frozenset(words - lines("stopwords_keep_en.txt"))


@cache
def lemma(word: str) -> str:
    """A lower-case word's term form (module docstring).

    Only words that can be inflected forms (ending in -s or -ed) go to simplemma:
    it maps some base forms to other words (spade → spay).
    """
    if word in _NOUN_LEMMAS:
        return _NOUN_LEMMAS[word]
    if not word.endswith(("s", "ed")) or word.endswith("ss"):
        return word
    import simplemma

    return simplemma.lemmatize(word, lang="en").lower()


@cache
def can_be_noun(word: str) -> bool:
    """False for a word lemminflect knows only as a verb, adjective or adverb (ripen, sunny).

    Words it does not know (haulm, secateurs, names) and "-ing" words (pruning,
    hiking: gerunds) can be nouns.
    """
    if word.endswith("ing"):
        return True
    import lemminflect

    readings = lemminflect.getAllLemmas(word)
    return not readings or "NOUN" in readings or "PROPN" in readings


_PLURAL = {lemma: plural for plural, lemma in _NOUN_LEMMAS.items() if lemma != plural}
_SIBILANT = ("s", "x", "z", "ch", "sh")


@cache
def plural_forms(label: str) -> tuple[str, ...]:
    """An English label with its head noun in the plural: the forms a page may write.

    A Chinese word has one form; an English page writes "scenic areas" and "visitors"
    where the ontology says "scenic area" and "visitor", and 164 of the 170 English
    labels of the shipped tourism ontology have no plural among their labels. The head
    is the last word; a label whose last word is capitalised (a name: West Lake) or
    whose other words hold a stop word (means of transport: the head is not last) keeps
    its one form.

    **Interpretation** (rules, not lemminflect): lemminflect's tables take 1.2 s to load
    in every process that builds a crawl. For the 397 English labels of our ontologies
    (shipped and built) these rules give every plural lemminflect gives, and more where
    they cannot know (-o and -f nouns get both forms; an uncountable gets "tourisms").
    A form no page writes never matches. Plural labels are not made singular: a rule
    would turn "news" into "new" and "economics" into "economic", and the ontologies
    that hold a plural hold its singular too.

    >>> plural_forms("scenic area"), plural_forms("ferry"), plural_forms("West Lake")
    (('scenic areas',), ('ferries',), ())
    >>> plural_forms("means of transport"), plural_forms("volcano")
    ((), ('volcanos', 'volcanoes'))
    """
    *rest, head = label.split(" ")
    if not head.isalpha() or not head.islower() or english_stop_words() & set(rest):
        return ()
    if head in _PLURAL:
        forms = [_PLURAL[head]]
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        forms = [head[:-1] + "ies"]
    elif head.endswith(_SIBILANT):
        forms = [head + "es"]
    elif head.endswith("o"):
        forms = [head + "s", head + "es"]
    elif head.endswith("fe") or (head.endswith("f") and not head.endswith("ff")):
        forms = [head + "s", head[: -2 if head.endswith("fe") else -1] + "ves"]
    else:
        forms = [head + "s"]
    return tuple(" ".join([*rest, form]) for form in forms)


@dataclass
class EnglishTerms:
    """One document's terms with their counts, and what the corpus statistics need."""

    counts: Counter[str] = field(default_factory=Counter)
    tokens: int = 0  # every word token, stop words included: the base of relative frequency
    surfaces: Counter[tuple[str, str]] = field(default_factory=Counter)  # (term, as written)
    inside: Counter[tuple[str, str]] = field(default_factory=Counter)  # (term, longer term)
    contexts: set[tuple[str, str, str]] = field(default_factory=set)  # (term, word before, after)
    heads: Counter[str] = field(default_factory=Counter)  # one-word terms seen in a noun slot


@dataclass(frozen=True)
class _Token:
    surface: str
    lemma: str
    participle: bool  # "-ed" form of a verb: no term alone, no phrase end
    noun: bool  # may end a term (can_be_noun)


def english_terms(text: str) -> EnglishTerms:
    """Unigram lemmas and 2–3-word phrases of `text`, counted (module docstring)."""
    out = EnglishTerms()
    words: list[str] = []
    breaks: list[bool] = []  # punctuation or a line break before words[i]
    end = 0
    for match in _WORD.finditer(text):
        words.append(match.group().lower())
        breaks.append(bool(text[end : match.start()].strip(" \t-")))
        end = match.end()
    out.tokens = len(words)
    tokens = [_content(word) for word in words]
    start = 0
    for i in range(len(words) + 1):
        if i == len(words) or breaks[i] or tokens[i] is None:
            if i > start:
                _add_run(start, i, words, breaks, tokens, out)
            start = i if i < len(words) and tokens[i] is not None else i + 1
    return out


def _content(word: str) -> _Token | None:
    """The word as a content token, or None for a stop word, number or single letter."""
    for suffix in _POSSESSIVE:
        if word.endswith(suffix):
            word = word[: -len(suffix)]
    stops = english_stop_words()
    if len(word) < 2 or word in stops or _DIGIT.search(word):
        return None
    base = lemma(word)
    if base in stops or len(base) < 2:
        return None
    participle = word.endswith("ed") and base != word
    return _Token(word, base, participle, not participle and can_be_noun(base))


def _add_run(
    start: int,
    stop: int,
    words: list[str],
    breaks: list[bool],
    tokens: list[_Token | None],
    out: EnglishTerms,
) -> None:
    """Count every term of the run words[start:stop] of content tokens, with its nesting
    (which shorter terms each phrase holds: C-value's nested terms) and its context."""
    run: list[_Token] = tokens[start:stop]  # type: ignore[assignment]
    for i in range(len(run)):
        here = [_term_at(run, i, n) for n in range(1, min(MAX_PHRASE, len(run) - i) + 1)]
        for n, term in enumerate(here, start=1):
            if not term:
                continue
            out.counts[term] += 1
            out.surfaces[term, " ".join(w.surface for w in run[i : i + n])] += 1
            first, last = start + i, start + i + n  # the term is words[first:last]
            before = words[first - 1] if first > 0 and not breaks[first] else EDGE
            after = words[last] if last < len(words) and not breaks[last] else EDGE
            out.contexts.add((term, before, after))
            if n == 1 and _noun_slot(i, run, before, len(run)):
                out.heads[term] += 1
            for j in range(i, i + n):
                for m in range(1, i + n - j + 1):
                    inner = _term_at(run, j, m) if m < n else ""
                    if inner:
                        out.inside[inner, term] += 1


def _noun_slot(i: int, run: list[_Token], before: str, size: int) -> bool:
    """Is run[i] the head of a noun phrase: after a determiner or preposition, or after
    another content word (an adjective or noun), and not before one (then it modifies)?"""
    return (i > 0 or before in NOUN_SLOT_AFTER) and i == size - 1


def _term_at(run: list[_Token], j: int, m: int) -> str:
    """The term spelled by run[j : j+m], or "" when those words make no name: the last
    word must be able to be a noun, the others uninflected or participles."""
    words = run[j : j + m]
    if not words[-1].noun or any(w.surface != w.lemma and not w.participle for w in words[:-1]):
        return ""
    return " ".join([w.surface for w in words[:-1]] + [words[-1].lemma])
