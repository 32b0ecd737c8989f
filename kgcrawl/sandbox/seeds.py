"""The papers' seed tables and the roles their hosts play in the default world.

`SEEDS` is identical to `pipelines/*.toml` (a test holds them equal), so the
shipped pipelines crawl the sandbox unchanged. The roles resemble the real sites
— tourism portals, weather bureaus, a textile company among the tourism seeds as
in the paper — and give odd seed paths (`/home?m_id=730`) a page to stand for.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.hosts import Alias, Kind

# The papers' seed tables (Tables A and B), as in pipelines/*.toml.
SEEDS: dict[str, tuple[str, ...]] = {
    "tourism": (
        "http://www.029wyly.com/",
        "http://travel.sina.com.cn/",
        "http://www.cntour.cn/",
        "https://www.china-zjj.net/",
        "http://www.ezjj.cn/",
        "https://www.qyer.com/",
        "http://lffuye.com/",
        "http://www.springtour.com/",
        "http://www.china1004.com/",
        "http://www.ctscd.com/",
        "http://www.dazijia.com/",
        "http://www.huangjinlvyou.com/",
        "http://www.ljta.gov.cn/",
        "https://www.mafengwo.cn/",
        "http://www.gdslyw.com/",
        "https://www.chimelong.com/",
        "http://www.gzcts03.cn/",
        "https://travel.ifeng.com/",
        "https://tour.jxcn.cn/",
        "http://www.visitbeijing.com.cn/",
        "https://travel.sohu.com/",
        "http://www.xjlymh.com/",
        "https://www.maigoo.com/maigoo/1343zxly_index.html",
        "http://www.chinazjy.com/",
        "http://www.guanguang.net.cn/",
        "http://www.landscape.cn/",
        "http://www.sxwhlyw.com/",
        "http://www.huangshan.com.cn/home?m_id=730",
        "http://wxpt.lyta.com.cn/h5/scenic/view/8a928c4841a657c10141ab7da62b0140",
        "http://www.sxjqtextile.com/",
    ),
    "rainstorm": (
        "http://data.cma.cn",
        "http://www.weather.com.cn",
        "http://news.weather.com.cn",
        "http://zhfy.xnl21.com",
        "http://www.tianqi.com",
        "http://www.zaihai.cn",
        "http://news.cctv.com/special",
        "https://15tianqi.cn",
        "http://www.jsmb.gov.cn",
        "http://www.nmc.cn",
        "http://www.ndrcc.org.cn",
        "http://www.cma.gov.cn",
        "http://www.qgshzh.cn",
        "http://www.whihr.com.cn",
        "http://klme.nuist.edu.cn",
        "http://www.weather.com.cn/rain",
        "http://www.ninhm.ac.cn",
        "http://www.qixiangwang.cn/news",
        "https://baijiahao.baidu.com/s?id=1599783711923902434&wfr=spider&for=pc",
        "http://www.whihr.com.cn/news.do?method=showNewsList&netyId=17",
        "http://news.cctv.com/special/2016xq",
        "http://js.weather.com.cn",
        "https://www.mem.gov.cn/kp/zrzh/hlzh",
        "http://www.qxkp.net/zhfy/byhl",
        "http://www.jjeri6.com/baike/25506.html",
        "http://m.421688.com/news",
        "http://www.cma.gov.cn/2011xzt/kpbd/rainstorm/2018050901/201805/t20180509_468007.html",
        "http://www.lzjjdc.com/k/honglaozaihaidefangzhicuoshi",
        "http://www.cma.gov.cn/2011xzt/20120816/20130625/2013062504/201307.html",
        "http://www.csdata.org/p/618",
    ),
}


@dataclass(frozen=True)
class SeedRole:
    """What a seed host is in the default world."""

    kind: Kind
    topic: str | None
    title: str
    extra: tuple[str, ...] = ()
    hazards: tuple[Hazard, ...] = ()
    aliases: tuple[Alias, ...] = ()


_R = SeedRole
_H = Hazard
# Roles of the seed hosts, after what the real sites are. Some tourism seeds are
# mixed or off-topic (a textile company, a landscape-design site), as in the paper.
SEED_ROLES: dict[str, SeedRole] = {
    "www.029wyly.com": _R(Kind.SITE, "tourism", "西安文苑旅游"),
    "travel.sina.com.cn": _R(Kind.PORTAL, "tourism", "新浪旅游", ("food", "entertainment")),
    "www.cntour.cn": _R(Kind.PORTAL, "tourism", "中国旅游网", hazards=(_H.GBK,)),
    "www.china-zjj.net": _R(Kind.PORTAL, "tourism", "张家界旅游网"),
    "www.ezjj.cn": _R(Kind.SITE, "tourism", "e游张家界", hazards=(_H.GBK_BARE,)),
    "www.qyer.com": _R(Kind.FORUM, "tourism", "穷游网", hazards=(_H.SESSION_ID,)),
    "lffuye.com": _R(Kind.SITE, "food", "福业美食", ("tourism",), (_H.MALFORMED,)),
    "www.springtour.com": _R(Kind.SITE, "tourism", "春秋旅游"),
    "www.china1004.com": _R(Kind.PORTAL, "tourism", "中国旅游资讯网", hazards=(_H.GBK_META,)),
    "www.ctscd.com": _R(Kind.SITE, "tourism", "成都中国旅行社", hazards=(_H.SLOW,)),
    "www.dazijia.com": _R(Kind.FORUM, "tourism", "大自驾", hazards=(_H.SESSION_ID,)),
    "www.huangjinlvyou.com": _R(Kind.SITE, "tourism", "黄金旅游", hazards=(_H.REDIRECT,)),
    "www.ljta.gov.cn": _R(Kind.GOV, "tourism", "丽江市文化和旅游局", hazards=(_H.SLOW,)),
    "www.mafengwo.cn": _R(Kind.FORUM, "tourism", "马蜂窝", hazards=(_H.ROBOTS, _H.CRAWL_DELAY)),
    "www.gdslyw.com": _R(Kind.PORTAL, "tourism", "广东省旅游网"),
    "www.chimelong.com": _R(Kind.SITE, "tourism", "长隆旅游度假区", ("entertainment",)),
    "www.gzcts03.cn": _R(Kind.SITE, "tourism", "广州中旅", hazards=(_H.SERVER_ERROR,)),
    "travel.ifeng.com": _R(Kind.PORTAL, "tourism", "凤凰旅游", ("food",)),
    "tour.jxcn.cn": _R(Kind.PORTAL, "tourism", "江西旅游", ("weather",)),
    "www.visitbeijing.com.cn": _R(Kind.GOV, "tourism", "北京旅游网", hazards=(_H.CALENDAR,)),
    "travel.sohu.com": _R(Kind.PORTAL, "tourism", "搜狐旅游", ("entertainment",), (_H.ROBOTS,)),
    "www.xjlymh.com": _R(Kind.PORTAL, "tourism", "新疆旅游门户", hazards=(_H.DEEP_PATH,)),
    "www.maigoo.com": _R(
        Kind.DIRECTORY,
        None,
        "买购网",
        aliases=(Alias("/maigoo/1343zxly_index.html", "list", "tourism"),),
    ),
    "www.chinazjy.com": _R(Kind.SITE, "tourism", "中国张家界", hazards=(_H.RESET,)),
    "www.guanguang.net.cn": _R(Kind.PORTAL, "tourism", "中国观光网"),
    "www.landscape.cn": _R(Kind.SITE, "industry", "景观中国", ("tourism",)),
    "www.sxwhlyw.com": _R(Kind.GOV, "tourism", "山西文化旅游网"),
    "www.huangshan.com.cn": _R(
        Kind.PORTAL, "tourism", "黄山旅游官方网", aliases=(Alias("/home?m_id=730", "home"),)
    ),
    "wxpt.lyta.com.cn": _R(
        Kind.SITE,
        "tourism",
        "旅游微平台",
        aliases=(Alias("/h5/scenic/view/8a928c4841a657c10141ab7da62b0140", "article", "tourism"),),
    ),
    "www.sxjqtextile.com": _R(Kind.SITE, "industry", "嘉祺纺织有限公司"),
    "data.cma.cn": _R(Kind.GOV, "weather", "中国气象数据网", ("rainstorm",), (_H.OVERSIZED,)),
    "www.weather.com.cn": _R(
        Kind.PORTAL,
        "weather",
        "中国天气网",
        ("rainstorm", "rainstorm"),
        (_H.ROBOTS,),
        (Alias("/rain", "list", "rainstorm"),),
    ),
    "news.weather.com.cn": _R(Kind.PORTAL, "rainstorm", "天气新闻", ("weather",)),
    "zhfy.xnl21.com": _R(Kind.SITE, "rainstorm", "灾害防御网"),
    "www.tianqi.com": _R(Kind.PORTAL, "weather", "天气网", ("rainstorm",), (_H.GBK,)),
    "www.zaihai.cn": _R(Kind.PORTAL, "rainstorm", "中国灾害网", hazards=(_H.SERVER_ERROR,)),
    "news.cctv.com": _R(
        Kind.NEWS,
        None,
        "央视新闻",
        ("rainstorm",),
        aliases=(
            Alias("/special", "list", "rainstorm"),
            Alias("/special/2016xq", "article", "rainstorm"),
        ),
    ),
    "15tianqi.cn": _R(Kind.SITE, "weather", "15天天气预报"),
    "www.jsmb.gov.cn": _R(Kind.GOV, "rainstorm", "江苏省气象局", ("weather",), (_H.SLOW,)),
    "www.nmc.cn": _R(Kind.GOV, "weather", "中央气象台", ("rainstorm",), (_H.CALENDAR,)),
    "www.ndrcc.org.cn": _R(Kind.GOV, "rainstorm", "国家减灾网"),
    "www.cma.gov.cn": _R(
        Kind.GOV,
        "weather",
        "中国气象局",
        ("rainstorm",),
        aliases=(
            Alias(
                "/2011xzt/kpbd/rainstorm/2018050901/201805/t20180509_468007.html",
                "article",
                "rainstorm",
            ),
            Alias("/2011xzt/20120816/20130625/2013062504/201307.html", "article", "rainstorm"),
        ),
    ),
    "www.qgshzh.cn": _R(Kind.SITE, "rainstorm", "全国山洪灾害防治", hazards=(_H.RESET,)),
    "www.whihr.com.cn": _R(
        Kind.GOV,
        "rainstorm",
        "武汉暴雨研究所",
        aliases=(Alias("/news.do?method=showNewsList&netyId=17", "list", "rainstorm"),),
    ),
    "klme.nuist.edu.cn": _R(Kind.SITE, "education", "气象灾害重点实验室", ("weather", "rainstorm")),
    "www.ninhm.ac.cn": _R(Kind.SITE, "rainstorm", "水文气象研究所"),
    "www.qixiangwang.cn": _R(
        Kind.PORTAL,
        "weather",
        "气象网",
        ("rainstorm",),
        aliases=(Alias("/news", "list", "rainstorm"),),
    ),
    "baijiahao.baidu.com": _R(
        Kind.NEWS,
        None,
        "百家号",
        ("rainstorm",),
        aliases=(Alias("/s?id=1599783711923902434&wfr=spider&for=pc", "article", "rainstorm"),),
    ),
    "js.weather.com.cn": _R(Kind.PORTAL, "weather", "江苏天气", ("rainstorm",)),
    "www.mem.gov.cn": _R(
        Kind.GOV,
        "rainstorm",
        "应急管理部",
        aliases=(Alias("/kp/zrzh/hlzh", "list", "rainstorm"),),
    ),
    "www.qxkp.net": _R(
        Kind.SITE,
        "weather",
        "气象科普网",
        ("rainstorm",),
        aliases=(Alias("/zhfy/byhl", "list", "rainstorm"),),
    ),
    "www.jjeri6.com": _R(
        Kind.NEWS,
        None,
        "百科知识网",
        ("rainstorm",),
        (_H.MALFORMED,),
        (Alias("/baike/25506.html", "article", "rainstorm"),),
    ),
    "m.421688.com": _R(
        Kind.NEWS,
        None,
        "421688资讯",
        ("rainstorm",),
        aliases=(Alias("/news", "list", "rainstorm"),),
    ),
    "www.lzjjdc.com": _R(
        Kind.NEWS,
        None,
        "知识问答网",
        ("rainstorm",),
        aliases=(Alias("/k/honglaozaihaidefangzhicuoshi", "article", "rainstorm"),),
    ),
    "www.csdata.org": _R(
        Kind.SITE,
        "technology",
        "中国科学数据",
        ("rainstorm",),
        aliases=(Alias("/p/618", "article", "rainstorm"),),
    ),
}


def seed_hosts() -> dict[str, str]:
    """Every seed host → the scheme its seed URL uses."""
    out: dict[str, str] = {}
    for urls in SEEDS.values():
        for url in urls:
            scheme, rest = url.split("://", 1)
            out.setdefault(rest.split("/", 1)[0].split("?", 1)[0], scheme)
    return out
