/* C API of robotscan::robots: opaque handles, no C++ types, no exceptions.
 *
 *   robots_txt *r = robots_parse(body, body_len, ROBOTS_COMPAT_RFC9309);
 *   robots_match m;
 *   if (!robots_check(r, "Googlebot", 9, url, strlen(url), &m))
 *     printf("disallowed by line %d\n", m.line);
 *   robots_free(r);
 *
 * Thread-safety: a robots_txt is immutable; robots_check and the getters may
 * be called concurrently. Strings are (pointer, length) pairs and need not be
 * NUL-terminated. Returned pointers live as long as the handle. */
#ifndef ROBOTSCAN_ROBOTS_ROBOTS_C_H_
#define ROBOTSCAN_ROBOTS_ROBOTS_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct robots_txt robots_txt;

typedef enum robots_compat {
  ROBOTS_COMPAT_RFC9309 = 0,
  ROBOTS_COMPAT_GOOGLE = 1,
  ROBOTS_COMPAT_URLLIB = 2 /* CPython 3.11's urllib.robotparser */
} robots_compat;

typedef enum robots_decision {
  ROBOTS_DECISION_RULE_MATCHED = 0,
  ROBOTS_DECISION_NO_MATCHING_RULE = 1,
  ROBOTS_DECISION_NO_GROUP_FOR_AGENT = 2,
  ROBOTS_DECISION_ROBOTS_TXT_PATH = 3,
  ROBOTS_DECISION_ALLOW_ALL_POLICY = 4,
  ROBOTS_DECISION_DISALLOW_ALL_POLICY = 5,
  ROBOTS_DECISION_INVALID_URL = 6 /* urllib mode: CPython raises on the URL */
} robots_decision;

typedef struct robots_match {
  int allowed; /* 1 allowed, 0 disallowed */
  robots_decision decision;
  int line;            /* deciding line, 0 if none */
  int rule_is_allow;   /* 1 allow rule, 0 disallow rule */
  const char* pattern; /* deciding rule as written; NULL if none */
  size_t pattern_len;
} robots_match;

/* Parses a body (any bytes). Returns NULL only when out of memory. */
robots_txt* robots_parse(const char* body, size_t body_len,
                         robots_compat compat);

/* Parses the outcome of fetching robots.txt per RFC 9309 §2.3.1: status 0
 * with network_error=1 for failures; 2xx parses the body, 4xx allows all,
 * 5xx disallows all. too_many_requests_unreachable=1 reads 429 as Google
 * does (disallow all) instead of as a 4xx. */
robots_txt* robots_from_http(int status, int network_error, const char* body,
                             size_t body_len, robots_compat compat,
                             int too_many_requests_unreachable);

void robots_free(robots_txt* robots);

/* Returns 1 if allowed, 0 if not; fills *out when out is not NULL. */
int robots_check(const robots_txt* robots, const char* agent, size_t agent_len,
                 const char* url, size_t url_len, robots_match* out);

/* The agent's matcher, for checking many URLs for one agent: the same
 * answers as robots_check, the agent's group looked up once and, with
 * expected_checks >= 4096, compiled to an automaton (see AgentMatcher in
 * robots.h). Independent of the robots_txt's lifetime; immutable, so usable
 * from several threads. NULL only when out of memory. */
typedef struct robots_matcher robots_matcher;
robots_matcher* robots_matcher_new(const robots_txt* robots, const char* agent,
                                   size_t agent_len, size_t expected_checks);
int robots_matcher_check(const robots_matcher* matcher, const char* url,
                         size_t url_len, robots_match* out);
/* robots_matcher_check's verdict (1 allowed, 0 not) for each of `count`
 * URLs into allowed[i], urls[i] being url_lens[i] bytes long: the same
 * answers, faster for a batch (AgentMatcher::AreAllowed). */
void robots_matcher_check_many(const robots_matcher* matcher,
                               const char* const* urls, const size_t* url_lens,
                               size_t count, unsigned char* allowed);
void robots_matcher_free(robots_matcher* matcher);

/* Crawl-delay in seconds for the agent, or -1.0 when none applies. */
double robots_crawl_delay(const robots_txt* robots, const char* agent,
                          size_t agent_len);

size_t robots_sitemap_count(const robots_txt* robots);
/* The i-th Sitemap URL (file order); NULL when i is out of range. */
const char* robots_sitemap(const robots_txt* robots, size_t i, size_t* len);

/* Usage preferences in effect for an agent and URL (RobotsTxt::PreferencesFor
 * in robots.h, the rules in preferences.h): the aipref Content-Usage labels
 * (y/n), Cloudflare's Content-Signal keys (yes/no) and the RSL License URL.
 * None apply where the agent may not crawl the URL. Independent of the
 * robots_txt's lifetime. NULL only when out of memory. */
typedef struct robots_preferences robots_preferences;
robots_preferences* robots_preferences_for(const robots_txt* robots,
                                           const char* agent, size_t agent_len,
                                           const char* url, size_t url_len);
/* 1 when the agent may crawl the URL (robots_check's answer), else 0. */
int robots_preferences_crawl_allowed(const robots_preferences* preferences);
/* Content-Usage labels in effect, sorted by label. */
size_t robots_preferences_usage_count(const robots_preferences* preferences);
/* The i-th label (not NUL-terminated: its length is *len), its value in
 * *allowed (1 y, 0 n) and its deciding line in *line (either may be NULL);
 * NULL when i is out of range. */
const char* robots_preferences_usage(const robots_preferences* preferences,
                                     size_t i, size_t* len, int* allowed,
                                     int* line);
/* Content-Signal keys in effect, sorted by key, read the same way. */
size_t robots_preferences_signal_count(const robots_preferences* preferences);
const char* robots_preferences_signal(const robots_preferences* preferences,
                                      size_t i, size_t* len, int* allowed,
                                      int* line);
/* The file's first License URL and its line, or NULL when it has none. */
const char* robots_preferences_license(const robots_preferences* preferences,
                                       size_t* len, int* line);
void robots_preferences_free(robots_preferences* preferences);

/* Library version, e.g. "0.1.0". */
const char* robots_version(void);

#ifdef __cplusplus
}
#endif

#endif /* ROBOTSCAN_ROBOTS_ROBOTS_C_H_ */
