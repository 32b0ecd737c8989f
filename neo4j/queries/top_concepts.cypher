// Top concepts by mentions: which ontology concepts the crawled pages name most often.
// One row per concept: how many pages mention it and how often in all.
// @param domain = ""  only the concepts of this domain's ontology ("" = every domain's)
// @param crawl = ""  only the pages this crawl fetched ("" = every page in the graph)
// @param limit = 20  how many concepts to list
MATCH (p:Page)-[m:MENTIONS]->(c:Concept)
WHERE ($domain = '' OR c.domain = $domain)
  AND ($crawl = '' OR (:Crawl {id: $crawl})-[:FETCHED {status: 'ok'}]->(p))
RETURN c.label AS concept, c.iri AS iri, c.domain AS domain, count(p) AS pages,
       toInteger(sum(m.count)) AS mentions, c.weight AS weight
ORDER BY mentions DESC, pages DESC, concept
LIMIT $limit
