// The choices of the command lines' enumerated flags, from the libraries'
// name tables, so that a mode a library learns is offered where it is
// parsed and nowhere else needs to change.
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_CHOICES_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_CHOICES_H_

#include <string>
#include <vector>

#include "robotscan/robots/robots.h"

namespace robotscan::cli {

// --compat: every name of robots::kCompatNames ("rfc", "rfc9309", ...).
inline std::vector<std::string> CompatChoices() {
  std::vector<std::string> names;
  for (const robots::CompatNameEntry& entry : robots::kCompatNames) {
    names.emplace_back(entry.name);
  }
  return names;
}

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_CHOICES_H_
