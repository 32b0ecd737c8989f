// Relevant pages of a crawl: the downloaded pages with R(p) above a threshold, best first.
// @param crawl = ""  the crawl id ("" = all crawls)
// @param min_relevance = 0.7  the relevance threshold (the crawl's α)
// @param limit = 50  how many pages to list
// R(p) is the crawl's own, from its FETCHED edge.
MATCH (c:Crawl)-[f:FETCHED]->(p:Page)
WHERE ($crawl = '' OR c.id = $crawl) AND f.status = 'ok' AND f.relevance > $min_relevance
RETURN c.id AS crawl, f.order AS fetched, p.url AS url, p.title AS title,
       f.relevance AS relevance, p.host AS host
ORDER BY relevance DESC, crawl, fetched
LIMIT $limit
