/* Uses the installed C API through pkg-config; exits 0 only if right. */
#include <robotscan/robots/robots_c.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  const char *body = "User-agent: *\nDisallow: /private\nCrawl-delay: 3\n";
  robots_txt *robots = robots_parse(body, strlen(body), ROBOTS_COMPAT_RFC9309);
  robots_match match;
  int ok;
  if (robots == NULL) return 1;
  ok = robots_check(robots, "CBot", 4, "/private/a", 10, &match) == 0 &&
       match.line == 2 && robots_crawl_delay(robots, "CBot", 4) == 3.0;
  printf("C consumer: %s (robotscan %s)\n", ok ? "ok" : "WRONG",
         robots_version());
  robots_free(robots);
  return ok ? 0 : 1;
}
