// Concept co-occurrence: which pairs of concepts the same pages mention together.
// CO_OCCURS is refreshed at the end of each crawl and by `kgcrawl graph sync`.
// @param min_pages = 1  leave out pairs found together on fewer pages
// @param limit = 20  how many pairs to list
MATCH (a:Concept)-[c:CO_OCCURS]->(b:Concept)
WHERE c.pages >= $min_pages
RETURN a.label AS concept_a, b.label AS concept_b, c.pages AS pages
ORDER BY pages DESC, concept_a, concept_b
LIMIT $limit
