// Uses the installed C++ API; exits 0 only if the answers are right.
#include <robotscan/robots/robots.h>

#include <cstdio>

int main() {
  const auto robots = robotscan::robots::RobotsTxt::Parse(
      "User-agent: *\nDisallow: /private\n");
  const auto result = robots.Check("ConsumerBot", "https://e.com/private/x");
  std::printf("%s line %d\n", result.allowed ? "allowed" : "disallowed",
              result.line);
  return (!result.allowed && result.line == 2 &&
          robots.IsAllowedFor("ConsumerBot", "/public"))
             ? 0
             : 1;
}
