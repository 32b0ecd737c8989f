// Crawl summary: one row per crawl with the paper's measures over its downloaded pages.
// pages = DP, relevant = LP, harvest_rate = AC = LP/DP (Eq. 10), mean_relevance = AR
// (Eq. 11), sd_relevance = SD, the population standard deviation of R(p) (Eq. 12).
// Failed fetches (status other than "ok") are not downloaded pages.
MATCH (c:Crawl)-[:FETCHED]->(p:Page)
WHERE p.status = 'ok'
WITH c, count(p) AS pages, count(CASE WHEN p.relevant THEN 1 END) AS relevant,
     avg(p.relevance) AS mean_relevance, stDevP(p.relevance) AS sd_relevance,
     count(DISTINCT p.host) AS hosts
RETURN c.id AS crawl, c.domain AS domain, c.strategy AS strategy, c.started_at AS started_at,
       pages, relevant, toFloat(relevant) / pages AS harvest_rate, mean_relevance,
       sd_relevance, hosts
ORDER BY started_at DESC, crawl
