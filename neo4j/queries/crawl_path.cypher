// Crawl path: by which links a crawl could reach a page from its seeds (fewest hops).
// The path follows LINKS_TO from a seed of the crawl to the page; each step lists the
// page and its relevance, so a tunnel through off-topic pages shows as low values.
// A seed itself has no path (it was not reached by a link).
// @param url  the page's URL, as stored (canonical)
// @param crawl = ""  the crawl id ("" = any crawl that fetched the page)
MATCH (c:Crawl)-[:FETCHED]->(t:Page {url: $url})
WHERE $crawl = '' OR c.id = $crawl
MATCH (c)-[:FETCHED]->(s:Page)
WHERE s.url IN c.seeds AND s <> t
WITH c, s, t, shortestPath((s)-[:LINKS_TO*]->(t)) AS path
WHERE path IS NOT NULL
RETURN c.id AS crawl, length(path) AS hops, [n IN nodes(path) | n.url] AS urls,
       [n IN nodes(path) | n.relevance] AS relevance
ORDER BY hops, crawl
LIMIT 1
