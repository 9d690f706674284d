/* Uses the installed C API through pkg-config; exits 0 only if right. */
#include <robotscan/robots/robots_c.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  const char *body =
      "User-agent: *\nDisallow: /private\nCrawl-delay: 3\n"
      "Content-Usage: train-ai=n\n";
  robots_txt *robots = robots_parse(body, strlen(body), ROBOTS_COMPAT_RFC9309);
  robots_match match;
  robots_preferences *preferences;
  const char *label;
  size_t label_len = 0;
  int allowed = 1;
  int ok;
  if (robots == NULL) return 1;
  ok = robots_check(robots, "CBot", 4, "/private/a", 10, &match) == 0 &&
       match.line == 2 && robots_crawl_delay(robots, "CBot", 4) == 3.0;
  preferences = robots_preferences_for(robots, "CBot", 4, "/a", 2);
  if (preferences == NULL) return 1;
  label = robots_preferences_usage(preferences, 0, &label_len, &allowed, NULL);
  ok = ok && robots_preferences_usage_count(preferences) == 1 &&
       label != NULL && label_len == 8 && memcmp(label, "train-ai", 8) == 0 &&
       allowed == 0;
  printf("C consumer: %s (robotscan %s)\n", ok ? "ok" : "WRONG",
         robots_version());
  robots_preferences_free(preferences);
  robots_free(robots);
  return ok ? 0 : 1;
}
