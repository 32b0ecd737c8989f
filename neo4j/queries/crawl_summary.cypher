// Crawl summary: one row per crawl with the paper's measures over its downloaded pages.
// pages = DP, relevant = LP, harvest_rate = AC = LP/DP (Eq. 10), mean_relevance = AR
// (Eq. 11), sd_relevance = SD, the population standard deviation of R(p) (Eq. 12).
// Failed fetches (status other than "ok") are not downloaded pages. Each crawl's own
// judgement is on its FETCHED edge (a later crawl may judge the same Page otherwise).
// @param domain = ""  only the crawls of this domain ("" = every crawl)
// @param crawl = ""  only this crawl, by its id ("" = every crawl)
MATCH (c:Crawl)-[f:FETCHED]->(p:Page)
WHERE f.status = 'ok' AND ($domain = '' OR c.domain = $domain) AND ($crawl = '' OR c.id = $crawl)
WITH c, count(p) AS pages, count(CASE WHEN f.relevant THEN 1 END) AS relevant,
     avg(f.relevance) AS mean_relevance, stDevP(f.relevance) AS sd_relevance,
     count(DISTINCT p.host) AS hosts
RETURN c.id AS crawl, c.domain AS domain, c.strategy AS strategy, c.started_at AS started_at,
       pages, relevant, toFloat(relevant) / pages AS harvest_rate, mean_relevance,
       sd_relevance, hosts
ORDER BY started_at DESC, crawl
