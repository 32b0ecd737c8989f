"""jieba's dictionary as a trie: the same mapping, so jieba cuts every text as with its dict."""

from __future__ import annotations

import pytest

from kgcrawl.sandbox.world import World
from kgcrawl.text.dictionary import TrieFreq, install, word_pairs
from kgcrawl.text.tokenize import noun_tokens, tokenize

LABELS = ("暴雨灾害", "山体滑坡", "国家森林公园", "旅游业态")


@pytest.fixture(scope="module")
def tokenizers(tmp_path_factory):
    """(jieba's own dict, the trie), each a fresh tokenizer with the same labels added."""
    import jieba

    cache = tmp_path_factory.mktemp("cache")
    plain, trie = jieba.Tokenizer(), jieba.Tokenizer()
    plain.initialize()
    assert install(trie, cache) and isinstance(trie.FREQ, TrieFreq)
    reopened = jieba.Tokenizer()
    assert install(reopened, cache), "a second process opens the trie already built"
    assert not install(plain, cache), "a loaded dictionary is never replaced"
    for tokenizer in (plain, trie):
        for label in LABELS:
            tokenizer.add_word(label, freq=2000, tag="nz")
    return plain, trie


def sandbox_texts(pages: int = 40) -> list[str]:
    """Visible text of sandbox pages: news-like Chinese with labels, names and numbers."""

    from kgcrawl.text.html import parse_html

    world = World(0, "small")
    texts = []
    for url in world.seeds("tourism")[:3]:
        for link in [url, *world.links(url)][:pages]:
            reply = world.get(link)
            if reply.status == 200 and reply.body.startswith(b"<"):
                texts.append(parse_html(reply.body, link).text)
    return texts


def test_the_trie_cuts_as_the_dict_does(tokenizers) -> None:
    plain, trie = tokenizers
    texts = [
        *sandbox_texts(),
        "今天暴雨灾害预警，山体滑坡；国家森林公园的旅游业态。Hotel chain 5A景区",
    ]
    assert len(texts) > 20
    for text in texts:
        assert trie.lcut(text) == plain.lcut(text)
        assert trie.lcut(text, HMM=False) == plain.lcut(text, HMM=False)


def test_the_trie_answers_as_the_dict(tokenizers) -> None:
    plain, trie = tokenizers
    for key in ("旅游", "旅", "暴雨灾害", "暴雨灾", "不是一个词语啊", "the", ""):
        assert (key in trie.FREQ) == (key in plain.FREQ)
        assert trie.FREQ.get(key) == plain.FREQ.get(key)
    assert trie.FREQ["暴雨灾"] == 0  # a prefix added with the label
    with pytest.raises(KeyError):
        trie.FREQ["不是一个词语啊"]
    assert len(trie.FREQ) == len(plain.FREQ)
    assert trie.total == plain.total
    assert trie.FREQ.longest == max(map(len, plain.FREQ))


def test_a_pair_is_known_when_a_word_holds_it(tokenizers) -> None:
    """The matcher trusts `pair_sets` to name every two characters side by side in a word
    (frequency > 0), the labels added later among them: checked against jieba's dict."""
    plain, trie = tokenizers
    held = {pair for word, freq in plain.FREQ.items() if freq for pair in word_pairs(word)}
    pairs, added = trie.FREQ.pair_sets
    text = "".join(sandbox_texts(10)) + "".join(LABELS)
    asked = {text[i : i + 2] for i in range(len(text) - 1)}
    assert {p for p in asked if p in pairs or p in added} == asked & held
    assert {"雨灾", "体滑"} <= added - set(pairs)  # only the labels hold these
    assert "害山" in asked - held


def test_remembered_answers_follow_added_words(tokenizers, monkeypatch) -> None:
    """The trie remembers its answers (and forgets them when it holds too many): a word
    added after it was asked about is answered anew, and jieba still cuts as with its dict."""
    plain, trie = tokenizers
    monkeypatch.setattr(trie.FREQ._known, "size", 8)
    word = "台风眼墙区"
    for tokenizer in (plain, trie):
        assert word not in tokenizer.FREQ and tokenizer.FREQ.get("台风眼") is None
        tokenizer.add_word(word, freq=500, tag="nz")
    for key in (word, "台风眼", "台风", "眼墙区"):
        assert (key in trie.FREQ, trie.FREQ.get(key)) == (key in plain.FREQ, plain.FREQ.get(key))
    text = "台风眼墙区的暴雨灾害引发山体滑坡，国家森林公园关闭。"
    assert trie.lcut(text) == plain.lcut(text)
    assert len(trie.FREQ._known) <= 8


def test_a_process_that_segments_text_reads_the_trie_and_no_pkg_resources(
    tmp_path, jieba_words
) -> None:
    """Any process's first cut installs the trie (`tokenize._jieba`): the builder's noun
    tagger as an analyser's matcher. jieba is imported without pkg_resources (136 ms and
    10 MB) and opens its own data files: the HMM's tables cut words the dictionary lacks
    as before."""
    import os
    import subprocess
    import sys

    text = "暴雨灾害后，张晓梅在滑坡现场"  # 张晓梅: no dictionary word, the HMM joins it
    probe = (
        "import sys; from kgcrawl.text.tokenize import noun_tokens, tokenize; "
        f"print(noun_tokens({text!r})); print(tokenize({text!r})); "
        "print(type(sys.modules['jieba'].dt.FREQ).__name__, 'pkg_resources' in sys.modules)"
    )
    env = {**os.environ, "KGCRAWL_CACHE": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    ).stdout.split("\n")
    import jieba

    assert isinstance(jieba.dt.FREQ, dict), "this process cuts with jieba's own dict"
    assert out[:3] == [str(noun_tokens(text)), str(tokenize(text)), "TrieFreq False"]
