"""Exact and near-duplicate detection."""

from kgcrawl.crawl.dedup import Fingerprints, exact_hash, simhash

BASE = " ".join(f"黄山 风景区 第{i}段 云海 奇松 怪石 温泉 游客 门票 索道" for i in range(40))


def test_exact_hash_folds_white_space() -> None:
    assert exact_hash("黄山  风景区\n云海") == exact_hash(" 黄山 风景区 云海 ")
    assert exact_hash("黄山 风景区") != exact_hash("黄山 景区")


def test_near_duplicate_is_close_and_other_text_far() -> None:
    near = BASE.replace("第7段", "第七段")
    other = " ".join(f"股票 市场 基金 第{i}季度 利率 银行 债券 指数" for i in range(40))
    assert (simhash(BASE) ^ simhash(near)).bit_count() <= 3
    assert (simhash(BASE) ^ simhash(other)).bit_count() > 10


def test_fingerprints_name_the_first_copy() -> None:
    seen = Fingerprints()
    seen.add(exact_hash(BASE), simhash(BASE), "http://a.cn/1")
    assert seen.match(exact_hash(BASE), simhash(BASE)) == "http://a.cn/1"
    near = BASE.replace("第7段", "第七段")
    assert seen.match(exact_hash(near), simhash(near)) == "http://a.cn/1"
    fresh = "完全 不同 的 内容 关于 足球 比赛 和 球队 " * 30
    assert seen.match(exact_hash(fresh), simhash(fresh)) is None
