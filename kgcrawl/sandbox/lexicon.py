"""The sandbox's own topic vocabularies, Chinese and English.

The world writes every page from these lists, never from the shipped
ontologies: the truth of a page must not be computed by the code it judges
(ARCHITECTURE.md). So the lists overlap the ontologies' labels only in part —
they hold the common words a curator would also pick (旅游, 酒店, 暴雨, 洪水),
and as many that an ontology lacks: synonyms and near-synonyms (宾馆, 客栈,
强降水, 洪涝), slang (打卡, 网红景点), place names (黄山, 淮河) and trade terms.

Two topics are crawl domains (tourism, rainstorm); nine are off-topic themes, two
of them close neighbours that share a few words with a domain (weather with
rainstorm: 降水, 气象; food with tourism: 特产, 小吃) so that a word count alone
cannot tell the topics apart. Words are listed most frequent first; draws follow
a Zipf law over that order. An English entry written `a_b` is the phrase "a b".
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from functools import cache, lru_cache

DOMAIN_TOPICS: tuple[str, ...] = ("tourism", "rainstorm")
OFF_TOPICS: tuple[str, ...] = (
    "weather",
    "finance",
    "sports",
    "technology",
    "entertainment",
    "health",
    "education",
    "food",
    "industry",
)
TOPICS: tuple[str, ...] = DOMAIN_TOPICS + OFF_TOPICS
LANGS: tuple[str, ...] = ("zh", "en")
ZIPF_EXPONENT = 0.75

_WORDS: dict[str, dict[str, str]] = {
    "tourism": {
        "zh": """
旅游 景区 游客 旅行 景点 酒店 门票 自由行 攻略 旅行社 导游 线路 行程 度假 观光 休闲
风景 风光 名胜古迹 自然景观 人文景观 山水 古镇 民宿 客栈 宾馆 住宿 预订 机票 高铁 自驾游
游览 出游 踏青 赏花 登山 徒步 露营 游船 索道 温泉 海滨 海岛 沙滩 湖泊 瀑布 峡谷
森林公园 湿地公园 主题公园 游乐园 博物馆 寺庙 古建筑 世界遗产 5A级景区 乡村旅游 红色旅游
生态旅游 文化旅游 研学旅行 避暑 旅游节 黄金周 出境游 签证 护照 领队 散客 跟团游 一日游
观景台 栈道 游客中心 旅游局 文旅 旅游业 游记 打卡 网红景点 旅游线路 航班 大巴 租车 接送
特产 纪念品 导览 讲解 景色 美景 风情 夜景 日出 云海 黄山 张家界 九寨沟 桂林 丽江 西湖
故宫 长城 兵马俑 鼓浪屿 三亚 婺源 敦煌 布达拉宫 乌镇 泰山 峨眉山 武夷山 漓江 天门山
""",
        "en": """
travel tourism tourist trip hotel tour holiday vacation sightseeing tourist_attraction
scenic_spot scenery resort hostel inn guesthouse homestay accommodation booking itinerary
travel_agency tour_guide ticket museum theme_park national_park mountain lake waterfall
canyon beach island cruise temple world_heritage old_town backpacking camping hiking
trekking excursion destination visitor traveler passport visa airline flight cable_car
hot_spring souvenir sunrise viewpoint boardwalk landscape golden_week peak_season
group_tour day_trip road_trip tourism_bureau ancient_town heritage_site guided_tour
Huangshan Zhangjiajie Jiuzhaigou Guilin Lijiang West_Lake Forbidden_City Great_Wall
Terracotta_Army Sanya Dunhuang Potala_Palace Mount_Tai Wuyishan Li_River
""",
    },
    "rainstorm": {
        "zh": """
暴雨 强降雨 洪水 降雨 预警 防汛 洪涝 山洪 内涝 滑坡 泥石流 大暴雨 特大暴雨 强降水 暴雨灾害
暴雨预警 红色预警 橙色预警 黄色预警 蓝色预警 预警信号 城市内涝 积水 山体滑坡 崩塌 地质灾害
次生灾害 决堤 溃坝 漫堤 管涌 险情 汛期 主汛期 抗洪 抢险救灾 应急响应 应急管理 转移安置
受灾 受灾人口 灾情 灾害损失 经济损失 倒塌房屋 农作物受灾 救灾物资 灾后重建 减灾 防灾减灾
灾害防御 气象灾害 水位 超警戒水位 洪峰 流域 水库 河道 堤防 泄洪 排涝 雨量 累计雨量 雨情
水情 汛情 暴雨中心 短时强降水 雷暴 梅雨 强对流 致灾 隐患排查 应急预案 救援 转移群众 安置点
易涝点 防汛指挥部 应急管理部 减灾委 灾害等级 特别重大 四级应急响应 长江 淮河 珠江 海河
洞庭湖 鄱阳湖 江淮 华南 降水 气象
""",
        "en": """
rainstorm flood heavy_rain flooding rainfall torrential_rain downpour flash_flood landslide
mudslide debris_flow inundation waterlogging urban_flooding collapse geological_hazard
secondary_disaster levee dike dam_breach embankment evacuation relief rescue
emergency_response emergency_management disaster_relief disaster_reduction
disaster_prevention damage losses casualties displaced warning red_alert orange_alert
yellow_alert early_warning flood_season flood_control flood_peak water_level river_basin
reservoir spillway drainage cumulative_rainfall rain_belt monsoon thunderstorm plum_rain
meteorological_disaster hazard contingency_plan shelter Yangtze Huai_River Pearl_River
Poyang_Lake precipitation
""",
    },
    "weather": {
        "zh": """
天气 天气预报 气温 气象台 多云 晴 阴 小雨 阵雨 雷阵雨 降温 升温 冷空气 寒潮 大风 雾霾
空气质量 湿度 紫外线 体感温度 气象局 气候 气候变化 厄尔尼诺 季风 高温 霜冻 降雪 暴雪
能见度 风力 风向 气压 卫星云图 雷达 数值预报 降水概率 气象观测 气象站 节气 入梅 三伏
穿衣指数 生活指数 晴转多云 回暖 最高气温 最低气温 气象 降水
""",
        "en": """
weather forecast temperature sunny cloudy overcast showers drizzle cold_front heat_wave
humidity wind breeze fog haze smog air_quality visibility uv_index pressure climate
climate_change el_nino meteorology observatory weather_station satellite_image radar snow
frost warm_spell dew_point outlook precipitation
""",
    },
    "finance": {
        "zh": """
股市 股票 基金 债券 理财 银行 利率 贷款 存款 央行 货币政策 通胀 经济 财经 投资 投资者 券商
上市公司 财报 营收 净利润 市值 涨停 跌停 大盘 板块 融资 人民币 汇率 美元 外汇 保险 信托
资产 负债 期货 黄金 原油 楼市 房价 消费 零售 并购 分红 收益率 上证指数 创业板
""",
        "en": """
stock market shares index investors fund bond interest_rate loan bank central_bank inflation
economy earnings revenue profit dividend equity currency exchange_rate dollar yuan insurance
asset futures gold crude_oil mortgage portfolio trading broker valuation recession fiscal
""",
    },
    "sports": {
        "zh": """
体育 足球 篮球 比赛 球队 球员 冠军 联赛 中超 世界杯 奥运会 亚运会 教练 进球 比分 赛季 主场
客场 决赛 半决赛 乒乓球 羽毛球 排球 网球 游泳 田径 马拉松 运动员 金牌 破纪录 转会 门将
前锋 后卫 射门 点球 体育馆 训练 国家队 球迷
""",
        "en": """
football soccer basketball match team player champion championship league season coach goal
score final semifinal tournament Olympics World_Cup medal athlete marathon tennis badminton
volleyball swimming sprint stadium transfer striker goalkeeper penalty squad fans
""",
    },
    "technology": {
        "zh": """
科技 互联网 人工智能 大数据 云计算 芯片 半导体 手机 智能手机 软件 硬件 算法 数据 平台 应用
用户 操作系统 处理器 屏幕 电池 发布会 新品 创新 研发 专利 区块链 物联网 机器人 自动驾驶
新能源汽车 网络安全 数据中心 服务器 编程 开发者 开源 大模型 数字化
""",
        "en": """
technology software hardware internet artificial_intelligence machine_learning data cloud
computing chip semiconductor smartphone processor battery app platform users startup
innovation algorithm network cybersecurity robot robotics blockchain developer open_source
server datacenter device browser wireless
""",
    },
    "entertainment": {
        "zh": """
娱乐 明星 电影 电视剧 综艺 演员 导演 票房 上映 首映 粉丝 歌手 演唱会 音乐 新歌 专辑 偶像
剧集 热播 主演 角色 剧组 颁奖 红毯 八卦 恋情 影视 动漫 网剧 直播 网红 短视频 拍摄 杀青
预告片
""",
        "en": """
entertainment celebrity movie film actor actress director box_office premiere fans singer
concert music album song idol drama series episode show star award red_carpet trailer
streaming soundtrack comedy cast gossip variety_show
""",
    },
    "health": {
        "zh": """
健康 医疗 医院 医生 患者 疾病 治疗 药物 疫苗 养生 饮食 营养 睡眠 运动 减肥 血压 血糖 糖尿病
高血压 心脏病 癌症 体检 中医 中药 症状 感冒 发烧 免疫力 维生素 蛋白质 门诊 手术 康复 护理
心理健康 焦虑 保健 医保
""",
        "en": """
health medical hospital doctor patient disease treatment medicine drug vaccine nutrition diet
sleep exercise fitness obesity blood_pressure diabetes cancer heart symptom infection immunity
vitamin protein clinic surgery recovery nursing mental_health anxiety wellness therapy
""",
    },
    "education": {
        "zh": """
教育 学校 学生 老师 教师 高考 中考 考试 大学 高校 招生 录取 分数线 专业 课程 教学 课堂 培训
留学 研究生 考研 毕业 就业 奖学金 学位 校园 家长 作业 义务教育 幼儿园 小学 中学 学科 教材
辅导 在线教育 教研
""",
        "en": """
education school student teacher exam university college admission enrollment curriculum
course classroom lecture tuition scholarship degree graduate campus homework kindergarten
textbook tutoring online_learning semester diploma faculty academic
principal syllabus gaokao
""",
    },
    "food": {
        "zh": """
美食 小吃 餐厅 菜品 菜谱 做法 食材 味道 口味 火锅 烧烤 面条 米饭 饺子 包子 点心 甜品 川菜
粤菜 湘菜 烹饪 厨师 食谱 调料 辣椒 海鲜 牛肉 猪肉 鸡肉 蔬菜 水果 早餐 夜宵 外卖 老字号 特产
""",
        "en": """
food cuisine restaurant dish recipe cooking ingredient flavor taste hotpot barbecue noodles
rice dumpling dessert pastry chef spice sauce seafood beef pork chicken vegetable fruit
breakfast snack street_food bakery menu dining
""",
    },
    "industry": {
        "zh": """
纺织 面料 纱线 织造 印染 服装 生产线 设备 工厂 企业 产品 质量 订单 出口 客户 工艺 原料 棉纱
化纤 机械 制造 加工 批发 供应商 产能 技术参数 规格 型号 样品 报价 销售 售后 厂家 车间 质检
认证 园林 景观设计 绿化工程
""",
        "en": """
textile fabric yarn weaving dyeing garment manufacturing factory production equipment machinery
product quality order export customer supplier wholesale specification sample quotation sales
certification workshop cotton polyester landscape_design horticulture
assembly_line spinning
""",
    },
}

# The narrow register of a domain: what a web of small local sites writes about
# it — a handful of everyday words, synonyms and slang from the lists above (宾馆
# and 客栈 rather than the trade's terms) — so its pages name few distinct things.
NARROW: dict[str, dict[str, str]] = {
    "tourism": {
        "zh": """旅游 景区 游客 打卡 网红景点 民宿 客栈 宾馆 酒店 门票 自驾游 出游 踏青 美景 风光
        攻略 古镇 一日游 跟团游 导游""",
        "en": "travel trip hotel tourist homestay inn sightseeing scenery day_trip road_trip",
    },
    "rainstorm": {
        "zh": """暴雨 强降雨 强降水 洪水 洪涝 内涝 积水 山洪 滑坡 泥石流 汛期 汛情 雨情 险情 受灾
        灾情 转移群众 救援 水位 预警""",
        "en": "rainstorm downpour flooding heavy_rain waterlogging flash_flood evacuation",
    },
}

_FILLER: dict[str, str] = {
    "zh": """
的 在 了 是 和 与 对 将 等 也 都 就 还 我们 今年 已经 进行 相关 工作 情况 发展 表示 目前 需要
通过 部分 主要 同时 其中 以及 可以 没有 一个 时间 地区 人员 问题 方面 活动 提供 记者 据悉
日前 近日 今天 昨天 上午 下午 全国 国家 社会 城市 市民 继续 开展 加强 进一步 重要 不断 明显
大家 一些 很多 非常 比较 可能 应该 这样 因为 所以 但是 如果 北京 上海 广州 江苏 浙江 四川
湖南 湖北 安徽 福建 广东 云南
""",
    "en": """
the of and to in is for on with as by at this that from have has will more new year people
local said also during after many first recent area report according officials city week day
time there their which were been about into over than other some its these would could most
where while since
""",
}

# Anchors that say nothing about their target (SPEC §12 "noisy anchors").
NOISY_ANCHORS: dict[str, tuple[str, ...]] = {
    "zh": ("更多", "更多>>", "阅读全文", "点击这里", "详情", "查看详情", "进入", ">>"),
    "en": ("more", "Read more", "click here", "details", "here", "Continue reading", "»"),
}

# Channel slugs and display names per topic: (slug, zh name, en name).
CHANNELS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "tourism": (
        ("travel", "旅游资讯", "Travel"),
        ("jingdian", "景点介绍", "Attractions"),
        ("gonglue", "旅游攻略", "Guides"),
        ("hotel", "酒店住宿", "Hotels"),
        ("xianlu", "精品线路", "Routes"),
        ("youji", "游记", "Travelogues"),
    ),
    "rainstorm": (
        ("zaihai", "灾害资讯", "Disasters"),
        ("fangxun", "防汛抗洪", "Flood control"),
        ("yujing", "预警发布", "Warnings"),
        ("baoyu", "暴雨专题", "Rainstorms"),
        ("jianzai", "防灾减灾", "Disaster reduction"),
        ("dizhi", "地质灾害", "Geohazards"),
    ),
    "weather": (
        ("tianqi", "天气", "Weather"),
        ("forecast", "天气预报", "Forecasts"),
        ("qihou", "气候", "Climate"),
        ("kepu", "气象科普", "Meteorology"),
    ),
    "finance": (
        ("finance", "财经", "Finance"),
        ("stock", "股票", "Stocks"),
        ("money", "理财", "Money"),
    ),
    "sports": (
        ("sports", "体育", "Sports"),
        ("football", "足球", "Football"),
        ("nba", "篮球", "Basketball"),
    ),
    "technology": (
        ("tech", "科技", "Technology"),
        ("mobile", "手机", "Mobile"),
        ("ai", "人工智能", "AI"),
    ),
    "entertainment": (
        ("ent", "娱乐", "Entertainment"),
        ("movie", "电影", "Movies"),
        ("music", "音乐", "Music"),
    ),
    "health": (
        ("health", "健康", "Health"),
        ("yiliao", "医疗", "Medicine"),
        ("yangsheng", "养生", "Wellness"),
    ),
    "education": (
        ("edu", "教育", "Education"),
        ("kaoshi", "考试", "Exams"),
        ("gaoxiao", "高校", "Universities"),
    ),
    "food": (("food", "美食", "Food"), ("caipu", "菜谱", "Recipes"), ("xiaochi", "小吃", "Snacks")),
    "industry": (
        ("product", "产品中心", "Products"),
        ("news", "行业资讯", "Industry news"),
        ("service", "技术支持", "Support"),
    ),
}

# How likely a topic shows up beside another one (secondary topics, off-topic
# articles of a channel). Unlisted pairs weigh 1.
AFFINITY: dict[str, dict[str, float]] = {
    "tourism": {"food": 4, "entertainment": 2, "weather": 2, "rainstorm": 1.5, "education": 1},
    "rainstorm": {"weather": 6, "tourism": 1.5, "finance": 1.5, "health": 1, "education": 1},
    "weather": {"rainstorm": 3, "tourism": 2, "health": 1.5},
    "food": {"tourism": 3, "health": 2},
    "industry": {"technology": 3, "finance": 2},
    "finance": {"technology": 2, "industry": 2},
    "technology": {"finance": 2, "education": 1.5},
    "entertainment": {"sports": 2, "tourism": 1.5},
    "sports": {"entertainment": 2, "health": 1.5},
    "health": {"food": 2, "sports": 1.5},
    "education": {"technology": 1.5},
}


@dataclass(frozen=True)
class Vocabulary:
    """Words of one topic in one language, with cumulative Zipf weights for `random.choices`."""

    words: tuple[str, ...]
    cum_weights: tuple[float, ...]


def _split(block: str, lang: str) -> tuple[str, ...]:
    words = block.split()
    if lang == "en":
        words = [w.replace("_", " ") for w in words]
    return tuple(dict.fromkeys(words))


def _zipf(words: tuple[str, ...]) -> Vocabulary:
    weights = (1.0 / (rank + 1) ** ZIPF_EXPONENT for rank in range(len(words)))
    return Vocabulary(words, tuple(itertools.accumulate(weights)))


@cache
def vocabulary(topic: str, lang: str, register: str = "full") -> Vocabulary:
    """The topic's words in `lang`, built once per process; the "narrow" register of a
    domain topic is the few everyday words of `NARROW` (other topics have only one)."""
    if register == "narrow" and topic in NARROW:
        return _zipf(_split(NARROW[topic][lang], lang))
    return _zipf(_split(_WORDS[topic][lang], lang))


@cache
def filler(lang: str) -> Vocabulary:
    """Function words, common verbs and place names that carry no topic."""
    return _zipf(_split(_FILLER[lang], lang))


def topic_words(topic: str, lang: str | None = None) -> frozenset[str]:
    """Every word of a topic (both languages unless `lang` is given), English lower-cased."""
    langs = LANGS if lang is None else (lang,)
    return frozenset(
        w.lower() if la == "en" else w for la in langs for w in vocabulary(topic, la).words
    )


def affinity(topic: str, other: str) -> float:
    """Weight of `other` as a companion of `topic` (symmetric lookups fall back to 1)."""
    return AFFINITY.get(topic, {}).get(other, AFFINITY.get(other, {}).get(topic, 1.0))


def companion(rng: random.Random, topic: str, exclude: frozenset[str] = frozenset()) -> str:
    """A topic drawn by its affinity with `topic` (lexicon.AFFINITY), never `topic` itself."""
    topics, cum_weights = _companions(topic, exclude)
    return rng.choices(topics, cum_weights=cum_weights)[0]


@lru_cache(maxsize=4096)
def _companions(topic: str, exclude: frozenset[str]) -> tuple[tuple[str, ...], tuple[float, ...]]:
    topics = tuple(t for t in TOPICS if t != topic and t not in exclude)
    return topics, tuple(itertools.accumulate(affinity(topic, t) for t in topics))


# What a site of a topic calls itself: 四川旅游网, Blue River Travel.
SITE_NOUNS: dict[str, dict[str, tuple[str, ...]]] = {
    "tourism": {
        "zh": ("旅游网", "旅游资讯网", "国际旅行社", "风景区"),
        "en": ("Travel", "Tours", "Trips"),
    },
    "rainstorm": {
        "zh": ("防汛网", "减灾网", "灾害防御中心", "水情信息网"),
        "en": ("Flood Watch", "Disaster Relief"),
    },
    "weather": {"zh": ("天气网", "气象台"), "en": ("Weather", "Forecast")},
    "finance": {"zh": ("财经网", "理财网"), "en": ("Finance", "Money")},
    "sports": {"zh": ("体育网", "球迷网"), "en": ("Sports", "Goal")},
    "technology": {"zh": ("科技网", "数码网"), "en": ("Tech", "Digital")},
    "entertainment": {"zh": ("娱乐网", "影视网"), "en": ("Entertainment", "Screen")},
    "health": {"zh": ("健康网", "医疗网"), "en": ("Health", "Care")},
    "education": {"zh": ("教育网", "考试网"), "en": ("Education", "Learning")},
    "food": {"zh": ("美食网", "美食汇"), "en": ("Kitchen", "Food")},
    "industry": {"zh": ("纺织有限公司", "机械制造公司"), "en": ("Textiles", "Machinery")},
}
