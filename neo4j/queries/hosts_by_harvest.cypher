// Hosts by harvest rate: which sites gave the largest share of relevant pages.
// harvest_rate = relevant pages / downloaded pages of the host (Eq. 10 per host);
// failed fetches (status other than "ok") do not count.
// @param min_pages = 1  leave out hosts with fewer downloaded pages
// @param limit = 20  how many hosts to list
MATCH (p:Page)-[:ON_HOST]->(h:Host)
WHERE p.status = 'ok'
WITH h, count(p) AS pages, count(CASE WHEN p.relevant THEN 1 END) AS relevant,
     avg(p.relevance) AS mean_relevance
WHERE pages >= $min_pages
RETURN h.name AS host, pages, relevant, toFloat(relevant) / pages AS harvest_rate,
       mean_relevance
ORDER BY harvest_rate DESC, pages DESC, host
LIMIT $limit
