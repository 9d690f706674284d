// A deliberately simple reference for differential tests: Google's streaming
// algorithm (re-parse the file for every query, track "seen agent" state,
// keep the best allow/disallow priority per specific/global group), written
// independently of RobotsTxt's group builder and prefix index.
#ifndef ROBOTSCAN_TESTS_ROBOTS_REFERENCE_MATCHER_H_
#define ROBOTSCAN_TESTS_ROBOTS_REFERENCE_MATCHER_H_

#include <string_view>

namespace robotscan::robots::testing {

// Google-mode verdict for (body, agent, url).
bool ReferenceAllowedGoogle(std::string_view body, std::string_view agent,
                            std::string_view url);

}  // namespace robotscan::robots::testing

#endif  // ROBOTSCAN_TESTS_ROBOTS_REFERENCE_MATCHER_H_
