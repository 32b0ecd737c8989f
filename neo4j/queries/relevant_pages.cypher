// Relevant pages of a crawl: the downloaded pages it judged relevant, best first.
// @param crawl = ""  the crawl id ("" = all crawls)
// @param min_relevance = 0.0  leave out pages whose R(p) is not above this
// @param limit = 50  how many pages to list
// R(p) and the judgement are the crawl's own, from its FETCHED edge: a page is relevant
// when R(p) is above the α the crawl judged its language by (calibrated, else the
// pipeline's), which no one number here could stand for.
MATCH (c:Crawl)-[f:FETCHED]->(p:Page)
WHERE ($crawl = '' OR c.id = $crawl) AND f.status = 'ok' AND f.relevant
  AND f.relevance > $min_relevance
RETURN c.id AS crawl, f.order AS fetched, p.url AS url, p.title AS title,
       f.relevance AS relevance, p.host AS host
ORDER BY relevance DESC, crawl, fetched
LIMIT $limit
