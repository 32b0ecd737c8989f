"""What sites call the parts of their pages (nav, pagers, footers), in Chinese and English.

Kept apart from the topic lexicons: these words are site chrome, the same on
every page whatever it is about, so they carry no topic.
"""

LABELS: dict[str, dict[str, str]] = {
    "zh": {
        "home": "首页", "calendar": "活动日历", "doc": "文档中心", "member": "会员中心",
        "export": "数据下载", "export_full": "完整数据", "live": "在线直播", "about": "关于我们",
        "contact": "联系我们", "sitemap": "网站地图", "loop": "旧版入口", "related": "相关阅读",
        "hot": "热门推荐", "friends": "友情链接", "more": "更多>>", "prev": "上一篇：",
        "next": "下一篇：", "print": "打印本页", "attach": "附件下载", "image": "查看大图",
        "up": "返回上级", "prev_page": "上一页", "next_page": "下一页", "links": "相关链接",
        "directory": "网址导航", "mirror": "本站为镜像站点，内容与源站同步更新。",
        "back": "返回原文", "prev_month": "上个月", "next_month": "下个月", "next_year": "明年",
        "prev_day": "前一天", "next_day": "后一天", "sites": "推荐网站",
    },
    "en": {
        "home": "Home", "calendar": "Events", "doc": "Docs", "member": "Members",
        "export": "Data", "export_full": "Full data", "live": "Live", "about": "About us",
        "contact": "Contact", "sitemap": "Site map", "loop": "Old version", "related": "Related",
        "hot": "Popular", "friends": "Partners", "more": "More", "prev": "Previous: ",
        "next": "Next: ", "print": "Print", "attach": "Attachment", "image": "Full image",
        "up": "Up", "prev_page": "Previous", "next_page": "Next", "links": "Links",
        "directory": "Directory", "mirror": "This is a mirror of the original site.",
        "back": "Back to article", "prev_month": "Previous month", "next_month": "Next month",
        "next_year": "Next year", "prev_day": "Previous day", "next_day": "Next day",
        "sites": "Sites",
    },
}  # fmt: skip
