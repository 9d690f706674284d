#include "reference_matcher.h"

#include <cctype>
#include <string>

#include "pattern.h"
#include "robotscan/robots/tokenizer.h"
#include "robotscan/robots/url.h"

namespace robotscan::robots::testing {
namespace {

class StreamingMatcher : public LineListener {
 public:
  StreamingMatcher(std::string_view agent, std::string path)
      : agent_(agent), path_(std::move(path)) {}

  void OnLine(const Line& line) override {
    switch (line.directive) {
      case Directive::kUserAgent:
        OnUserAgent(line.value);
        break;
      case Directive::kAllow:
        OnRule(EscapePatternGoogle(line.value), /*allow=*/true);
        break;
      case Directive::kDisallow:
        OnRule(EscapePatternGoogle(line.value), /*allow=*/false);
        break;
      default:
        break;
    }
  }

  bool Allowed() const {
    if (allow_specific_ > 0 || disallow_specific_ > 0) {
      return disallow_specific_ <= allow_specific_;
    }
    if (ever_specific_) return true;
    if (allow_global_ > 0 || disallow_global_ > 0) {
      return disallow_global_ <= allow_global_;
    }
    return true;
  }

 private:
  void OnUserAgent(std::string_view value) {
    if (seen_separator_)
      seen_specific_ = seen_global_ = seen_separator_ = false;
    if (!value.empty() && value[0] == '*' &&
        (value.size() == 1 ||
         std::isspace(static_cast<unsigned char>(value[1])))) {
      seen_global_ = true;
    } else if (EqualsIgnoreAsciiCase(ExtractProductToken(value), agent_)) {
      seen_specific_ = ever_specific_ = true;
    }
  }

  void OnRule(const std::string& pattern, bool allow) {
    if (!seen_global_ && !seen_specific_) return;
    seen_separator_ = true;
    int priority = -1;
    if (internal::ReferencePatternMatches(path_, pattern)) {
      priority = static_cast<int>(pattern.size());
    } else if (allow) {
      const std::size_t slash = pattern.find_last_of('/');
      if (slash != std::string::npos &&
          pattern.compare(slash, 10, "/index.htm") == 0) {
        const std::string derived = pattern.substr(0, slash + 1) + "$";
        if (internal::ReferencePatternMatches(path_, derived)) {
          priority = static_cast<int>(derived.size());
        }
      }
    }
    if (priority < 0) return;
    int& slot = seen_specific_ ? (allow ? allow_specific_ : disallow_specific_)
                               : (allow ? allow_global_ : disallow_global_);
    if (priority > slot) slot = priority;
  }

  std::string_view agent_;
  std::string path_;
  bool seen_global_ = false;
  bool seen_specific_ = false;
  bool ever_specific_ = false;
  bool seen_separator_ = false;
  int allow_specific_ = -1;
  int disallow_specific_ = -1;
  int allow_global_ = -1;
  int disallow_global_ = -1;
};

}  // namespace

bool ReferenceAllowedGoogle(std::string_view body, std::string_view agent,
                            std::string_view url) {
  StreamingMatcher matcher(agent, GetPathParamsQuery(url));
  TokenizeRobotsTxt(body, matcher);
  return matcher.Allowed();
}

}  // namespace robotscan::robots::testing
