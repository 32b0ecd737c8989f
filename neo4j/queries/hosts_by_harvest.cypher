// Hosts by harvest rate: which sites gave the largest share of relevant pages.
// harvest_rate = relevant pages / downloaded pages of the host (Eq. 10 per host);
// failed fetches (status other than "ok") do not count. A page several crawls fetched
// counts once, as the last of them judged it (a crawl of another domain judges otherwise).
// @param domain = ""  only the pages crawls of this domain fetched ("" = every crawl's)
// @param crawl = ""  only the pages this crawl fetched, as it judged them ("" = every crawl's)
// @param min_pages = 1  leave out hosts with fewer downloaded pages
// @param limit = 20  how many hosts to list
MATCH (c:Crawl)-[f:FETCHED]->(p:Page)-[:ON_HOST]->(h:Host)
WHERE f.status = 'ok' AND ($domain = '' OR c.domain = $domain) AND ($crawl = '' OR c.id = $crawl)
WITH h, p, f, c.started_at AS started ORDER BY started DESC
WITH h, p, collect(f)[0] AS last
WITH h, count(p) AS pages, count(CASE WHEN last.relevant THEN 1 END) AS relevant,
     avg(last.relevance) AS mean_relevance
WHERE pages >= $min_pages
RETURN h.name AS host, pages, relevant, toFloat(relevant) / pages AS harvest_rate,
       mean_relevance
ORDER BY harvest_rate DESC, pages DESC, host
LIMIT $limit
