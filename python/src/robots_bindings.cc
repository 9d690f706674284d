// robotscan.RobotsTxt and friends: the robots library (robots.h, lint.h,
// access_policy.h, url.h) for Python.
//
// The C++ objects are immutable and thread-safe, so the Python objects are
// too. Batched checks (check_many) and parsing release the GIL; single checks
// keep it, because a check costs less than releasing and re-taking it (a few
// hundred nanoseconds) and is bounded (robots.h: linear in path and rule).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arguments.h"
#include "bindings.h"
#include "robotscan/robots/access_policy.h"
#include "robotscan/robots/lint.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/url.h"
#include "robotscan/storage/fetch_classes.h"

namespace robotscan::python {

robots::Compat CompatFromName(std::string_view name) {
  robots::Compat compat = robots::Compat::kRfc9309;
  if (!robots::ParseCompatName(name, &compat)) {
    // The names of robots::kCompatNames: "'rfc', 'rfc9309', ... or 'urllib'".
    std::string names;
    const std::size_t count = std::size(robots::kCompatNames);
    for (std::size_t i = 0; i < count; ++i) {
      if (i > 0) names += i + 1 == count ? " or " : ", ";
      names += "'" + std::string(robots::kCompatNames[i].name) + "'";
    }
    throw pybind11::value_error("compat must be " + names + ", not '" +
                                std::string(name) + "'");
  }
  return compat;
}

namespace {

namespace py = pybind11;
using robots::Compat;
using robots::RobotsTxt;

// What check() returns: the verdict and what decided it, as Python values
// (MatchResult's pattern is a view into the RobotsTxt; this owns a copy).
struct CheckResult {
  bool allowed = true;
  std::string reason;  // DecisionName: "rule", "no-matching-rule", ...
  int line = 0;
  std::optional<std::string> kind;     // "allow" / "disallow"
  std::optional<std::string> pattern;  // As written in the file.
  bool used_global_group = false;

  std::optional<std::string> rule() const {
    if (!kind) return std::nullopt;
    return *kind + ": " + *pattern;
  }
  bool operator==(const CheckResult&) const = default;
};

// What policy_for_http returns.
struct AccessPolicy {
  std::string access;  // "success" / "unavailable" / "unreachable"
  RobotsTxt robots;
};

std::string_view KindName(robots::RuleKind kind) {
  return kind == robots::RuleKind::kAllow ? "allow" : "disallow";
}

CheckResult ToCheckResult(const robots::MatchResult& match) {
  CheckResult result;
  result.allowed = match.allowed;
  result.reason = std::string(robots::DecisionName(match.decision));
  result.line = match.line;
  result.used_global_group = match.used_global_group;
  if (match.decision == robots::Decision::kRuleMatched) {
    result.kind = std::string(KindName(match.kind));
    result.pattern = std::string(match.pattern);
  }
  return result;
}

// max_body_bytes as `robotscan check --max-bytes` reads it: 0 is no limit
// (robots::kNoParseLimit), anything below 500 KiB is raised to it by the
// library. (0 used to mean 500 KiB here, the opposite of the command line.)
std::size_t ParseLimitOf(std::int64_t max_body_bytes) {
  if (max_body_bytes < 0) {
    throw py::value_error("max_body_bytes must not be negative");
  }
  return max_body_bytes == 0 ? robots::kNoParseLimit
                             : static_cast<std::size_t>(max_body_bytes);
}

// Raises ValueError for URLs no URL may be (controls, space, DEL): the same
// refusal as `robotscan check`.
void RequireCheckableUrl(std::string_view url) {
  if (const auto problem = robots::UrlSyntaxError(url)) {
    throw py::value_error(MessageText("cannot check URL '" +
                                      robots::PrintableUrl(url) +
                                      "': " + *problem)
                              .cast<std::string>());
  }
}

RobotsTxt ParseBody(py::handle body, std::string_view compat,
                    std::int64_t max_body_bytes) {
  std::string storage;
  const std::string_view text = BodyOf(body, "body", &storage);
  robots::ParseOptions options;
  options.compat = CompatFromName(compat);
  options.max_body_bytes = ParseLimitOf(max_body_bytes);
  // `body` (or `storage`) outlives the parse; parsing 500 KiB takes a few
  // milliseconds, long enough to let other threads run.
  py::gil_scoped_release release;
  return RobotsTxt::Parse(text, options);
}

// References to a stretch of a sequence's items, taken (with the GIL) when
// the stretch is read and dropped (with the GIL) when the next one is:
// another thread cannot free an item while the GIL is released, even if
// it empties the sequence.
class HeldStretch {
 public:
  explicit HeldStretch(std::size_t capacity)
      : items_(new PyObject*[capacity]) {}
  HeldStretch(const HeldStretch&) = delete;
  HeldStretch& operator=(const HeldStretch&) = delete;
  ~HeldStretch() { Drop(); }

  // With the GIL: references to items[0, count), the previous ones dropped.
  void Take(PyObject* const* items, std::size_t count) {
    Drop();
    // Each reference count is a load and a store to its object, one
    // object after another: asked for ahead, they overlap.
    for (std::size_t i = 0; i < count; ++i) {
      if (i + kAhead < count) {
        // The object's head, and the line after it (most URLs' bytes,
        // read soon after without the GIL): a shuffled list then reads
        // about as fast as one in allocation order.
        const auto* ahead = reinterpret_cast<const char*>(items[i + kAhead]);
        __builtin_prefetch(ahead, 1);
        __builtin_prefetch(ahead + 64);
      }
      Py_INCREF(items[i]);
      items_[i] = items[i];
    }
    count_ = count;
  }
  // With the GIL. The objects were read since they were taken: they are
  // in the cache, and dropping them costs little.
  void Drop() {
    for (std::size_t i = 0; i < count_; ++i) Py_DECREF(items_[i]);
    count_ = 0;
  }
  PyObject* operator[](std::size_t i) const { return items_[i]; }

 private:
  static constexpr std::size_t kAhead = 16;
  std::unique_ptr<PyObject*[]> items_;
  std::size_t count_ = 0;
};

// The bytes of a str or bytes object read without the GIL, which only an
// ASCII str (nearly every URL) and bytes allow: both are immutable, and
// their bytes lie in the object. False for anything else (a str with
// non-ASCII characters needs its UTF-8 form made, under the GIL).
bool ViewWithoutGil(PyObject* item, std::string_view* view) {
  if (PyUnicode_CheckExact(item) && PyUnicode_IS_COMPACT_ASCII(item)) {
    *view = {static_cast<const char*>(PyUnicode_DATA(item)),
             static_cast<std::size_t>(PyUnicode_GET_LENGTH(item))};
    return true;
  }
  if (PyBytes_CheckExact(item)) {
    *view = {PyBytes_AS_STRING(item),
             static_cast<std::size_t>(PyBytes_GET_SIZE(item))};
    return true;
  }
  return false;
}

// URLs check_many reads and answers at a time.
constexpr std::size_t kChunk = 256;
// URLs check_many takes references to at a time (with the GIL), then reads
// and answers (without it), then lets go of (with it): about 600 KB of str
// objects, which stay in the core's cache from the first of these to the
// last, instead of being read from memory three times (bench/RESULTS.md).
constexpr std::size_t kStretch = 16 * kChunk;

// check_many: a stretch of URLs at a time, a reference is taken to each
// (so that another thread cannot free it while the GIL is released); then,
// without the GIL, they are read and checked. The sequence is read as a
// loop over it would be: if another thread shortens it meanwhile, the
// answer stops where it now ends. The first URL that cannot be checked is
// reported by index.
py::object CheckMany(const RobotsTxt& robots, py::handle agent_object,
                     py::handle urls_object, std::optional<bool> as_numpy) {
  const std::string_view agent = TextOf(agent_object, "agent");
  if (PyUnicode_Check(urls_object.ptr()) || PyBytes_Check(urls_object.ptr())) {
    throw py::type_error("urls must be an iterable of URLs, not a single " +
                         TypeNameOf(urls_object) + " (wrap one URL in a list)");
  }
  // A list or tuple as it is; another iterable made into a list.
  PyObject* fast = PySequence_Fast(urls_object.ptr(), "");
  if (fast == nullptr) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      throw py::type_error("urls must be an iterable of str or bytes, not " +
                           TypeNameOf(urls_object));
    }
    throw py::error_already_set();
  }
  const py::object sequence = py::reinterpret_steal<py::object>(fast);
  std::size_t count = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(fast));

  py::module_ numpy;
  bool use_numpy = as_numpy.value_or(true);
  if (use_numpy) {
    try {
      numpy = py::module_::import("numpy");
    } catch (const py::error_already_set& error) {
      if (!error.matches(PyExc_ImportError) || as_numpy.has_value()) throw;
      use_numpy = false;  // Automatic choice: no NumPy, so a list.
    }
  }
  std::unique_ptr<bool[]> flags = std::make_unique<bool[]>(count);
  bool* const out = flags.get();

  std::optional<robots::AgentMatcher> matcher;
  {
    // The agent's group is looked up (perhaps compiled) once for the batch.
    py::gil_scoped_release release;
    matcher.emplace(robots.MatcherFor(agent, count));
  }
  HeldStretch held(std::min(count, kStretch));
  // The first URL that cannot be checked, if any. (Not `count`, which
  // shrinks if the sequence does.)
  constexpr std::size_t kNoBadUrl = std::numeric_limits<std::size_t>::max();
  std::size_t bad_index = kNoBadUrl;
  std::vector<std::size_t> need_gil;
  for (std::size_t stretch = 0; stretch < count && bad_index == kNoBadUrl;
       stretch += kStretch) {
    // With the GIL. (Nothing here runs Python code: the sequence cannot
    // change between reading its size and taking its items.)
    const auto size = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(fast));
    if (size <= stretch) {
      count = stretch;  // Shortened by another thread: the answer ends here.
      break;
    }
    if (size < count) count = size;
    const std::size_t stretch_end = std::min(count, stretch + kStretch);
    held.Take(PySequence_Fast_ITEMS(fast) + stretch, stretch_end - stretch);
    {
      py::gil_scoped_release release;
      // The chunk's URLs as views (chunks are small: no allocation).
      std::string_view views[kChunk];
      for (std::size_t begin = stretch;
           begin < stretch_end && bad_index == kNoBadUrl; begin += kChunk) {
        const std::size_t end = std::min(stretch_end, begin + kChunk);
        need_gil.clear();
        for (std::size_t i = begin; i < end; ++i) {
          if (!ViewWithoutGil(held[i - stretch], &views[i - begin])) {
            need_gil.push_back(i);
          }
        }
        if (!need_gil.empty()) {
          // Non-ASCII str, subclasses and wrong types: read (or refused)
          // the usual way. (A TypeError leaves through both scopes.)
          py::gil_scoped_acquire acquire;
          for (const std::size_t i : need_gil) {
            PyObject* item = held[i - stretch];
            if (!PyUnicode_Check(item) && !PyBytes_Check(item)) {
              throw py::type_error("urls[" + std::to_string(i) +
                                   "] must be str or bytes, not " +
                                   TypeNameOf(item));
            }
            views[i - begin] = TextOf(item, "url");
          }
        }
        // Answered up to the first URL with a control byte or space, in
        // the same pass over each URL's bytes.
        const std::size_t answered =
            matcher->AreAllowedUntilMalformed(views, end - begin, out + begin);
        if (answered < end - begin) bad_index = begin + answered;
      }
    }
    if (bad_index != kNoBadUrl) {
      const std::string_view url = TextOf(held[bad_index - stretch], "url");
      throw py::value_error(MessageText("urls[" + std::to_string(bad_index) +
                                        "]: cannot check URL '" +
                                        robots::PrintableUrl(url) +
                                        "': " + *robots::UrlSyntaxError(url))
                                .cast<std::string>());
    }
  }
  held.Drop();
  if (use_numpy) {
    py::array_t<bool> array(static_cast<py::ssize_t>(count));
    std::memcpy(array.mutable_data(), out, count);
    return array;
  }
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(count));
  if (list == nullptr) throw py::error_already_set();
  for (std::size_t i = 0; i < count; ++i) {
    PyObject* value = out[i] ? Py_True : Py_False;
    Py_INCREF(value);
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), value);
  }
  return py::reinterpret_steal<py::object>(list);
}

// For robotscan.robotparser: urllib.robotparser callers pass whole
// User-Agent strings ("FigTree Robot libwww-perl/5.04"); RFC 9309 §2.2.1
// matches the crawler's product token, its leading [A-Za-z_-] run. "*"
// (and anything without such a run) is checked as given, so it falls to the
// `*` group. No URL refusal: urllib percent-encodes what it is given, and so
// does the RFC reading.
bool CanFetchForUserAgent(const RobotsTxt& robots, py::handle agent_object,
                          py::handle url_object) {
  const std::string_view user_agent = TextOf(agent_object, "useragent");
  const std::string_view url = TextOf(url_object, "url");
  std::string_view token = robots::ExtractProductToken(user_agent);
  if (token.empty()) token = user_agent;
  return robots.IsAllowedFor(token, url);
}

// repr() of file text, as the str attributes show it.
std::string Quoted(std::string_view text) {
  return py::repr(FileText(text)).cast<std::string>();
}

std::string FormatNumber(double value) {
  return py::repr(py::float_(value)).cast<std::string>();
}

void BindValueTypes(py::module_& m) {
  py::class_<CheckResult>(m, "CheckResult",
                          "The verdict of RobotsTxt.check and what decided "
                          "it. Immutable.")
      .def_readonly("allowed", &CheckResult::allowed,
                    "True if the agent may fetch the URL.")
      .def_readonly("reason", &CheckResult::reason,
                    "Why: 'rule' (a rule matched; see line/rule), "
                    "'no-matching-rule', 'no-group' (no group for the agent "
                    "and no '*'), 'robots-txt-path' (/robots.txt is always "
                    "allowed, RFC 9309 §2.2.2), 'allow-all' or 'disallow-all' "
                    "(a policy from the HTTP status, see policy_for_http).")
      .def_readonly("line", &CheckResult::line,
                    "1-based line of the deciding rule, 0 when no rule "
                    "decided.")
      .def_readonly("kind", &CheckResult::kind,
                    "'allow' or 'disallow' for the deciding rule, else None.")
      .def_property_readonly(
          "pattern",
          [](const CheckResult& r) -> py::object {
            if (!r.pattern) return py::none();
            return FileText(*r.pattern);
          },
          "The deciding rule's pattern as written, else None.")
      .def_property_readonly(
          "rule",
          [](const CheckResult& r) -> py::object {
            const auto rule = r.rule();
            if (!rule) return py::none();
            return FileText(*rule);
          },
          "'allow: PATTERN' / 'disallow: PATTERN' (as "
          "`robotscan check` prints it), else None.")
      .def_readonly("used_global_group", &CheckResult::used_global_group,
                    "True when the '*' group applied (no group names the "
                    "agent).")
      .def("__eq__",
           [](const CheckResult& a, const CheckResult& b) { return a == b; })
      .def("__hash__",
           [](const CheckResult& r) {
             return py::hash(py::make_tuple(
                 r.allowed, r.reason, r.line, r.kind,
                 r.pattern ? py::object(py::bytes(*r.pattern)) : py::none()));
           })
      .def("__repr__", [](const CheckResult& r) {
        const auto rule = r.rule();
        return std::string("CheckResult(allowed=") +
               (r.allowed ? "True" : "False") +
               ", line=" + std::to_string(r.line) +
               ", rule=" + (rule ? Quoted(*rule) : "None") +
               ", reason=" + Quoted(r.reason) + ")";
      });

  py::class_<robots::Rule>(m, "Rule", "One allow/disallow line of a group.")
      .def_property_readonly(
          "kind", [](const robots::Rule& r) { return KindName(r.kind); },
          "'allow' or 'disallow'.")
      .def_readonly("line", &robots::Rule::line, "1-based line number.")
      .def_property_readonly(
          "pattern", [](const robots::Rule& r) { return FileText(r.pattern); },
          "The value as written (comment removed).")
      .def_property_readonly(
          "match_pattern",
          [](const robots::Rule& r) { return FileText(r.match_pattern); },
          "What is matched: the pattern escaped/normalised for the "
          "compat mode.")
      .def("__repr__", [](const robots::Rule& r) {
        return "Rule(" + std::string(KindName(r.kind)) + ": " +
               Quoted(r.pattern) + ", line=" + std::to_string(r.line) + ")";
      });

  py::class_<robots::RequestRate>(
      m, "RequestRate",
      "Non-standard 'Request-rate: N/T': N requests per T seconds.")
      .def_readonly("requests", &robots::RequestRate::requests,
                    "N: requests allowed per period.")
      .def_readonly("seconds", &robots::RequestRate::seconds,
                    "T: the period in seconds (units m/h converted).")
      .def_readonly("line", &robots::RequestRate::line, "1-based line.")
      .def("__eq__",
           [](const robots::RequestRate& a, const robots::RequestRate& b) {
             return a.requests == b.requests && a.seconds == b.seconds &&
                    a.line == b.line;
           })
      .def("__hash__",
           [](const robots::RequestRate& r) {
             return py::hash(py::make_tuple(r.requests, r.seconds, r.line));
           })
      .def("__repr__", [](const robots::RequestRate& r) {
        return "RequestRate(requests=" + FormatNumber(r.requests) +
               ", seconds=" + FormatNumber(r.seconds) +
               ", line=" + std::to_string(r.line) + ")";
      });

  py::class_<robots::VisitTime>(
      m, "VisitTime",
      "Non-standard 'Visit-time: HHMM-HHMM' (UTC) as minutes since "
      "midnight.")
      .def_readonly("start_minute", &robots::VisitTime::start_minute,
                    "Start, minutes after 00:00 UTC.")
      .def_readonly("end_minute", &robots::VisitTime::end_minute,
                    "End, minutes after 00:00 UTC.")
      .def_readonly("line", &robots::VisitTime::line, "1-based line.")
      .def("__repr__", [](const robots::VisitTime& v) {
        return "VisitTime(start_minute=" + std::to_string(v.start_minute) +
               ", end_minute=" + std::to_string(v.end_minute) +
               ", line=" + std::to_string(v.line) + ")";
      });

  py::class_<robots::CleanParam>(
      m, "CleanParam", "Yandex's 'Clean-param: p1&p2 [/path-prefix]'.")
      .def_property_readonly(
          "params",
          [](const robots::CleanParam& c) { return FileTextList(c.params); },
          "Parameter names.")
      .def_property_readonly(
          "path_prefix",
          [](const robots::CleanParam& c) { return FileText(c.path_prefix); },
          "Paths it applies to; '' means every path.")
      .def_readonly("line", &robots::CleanParam::line, "1-based line.")
      .def("__repr__", [](const robots::CleanParam& c) {
        return "CleanParam(params=" +
               py::repr(FileTextList(c.params)).cast<std::string>() +
               ", path_prefix=" + Quoted(c.path_prefix) +
               ", line=" + std::to_string(c.line) + ")";
      });

  py::class_<robots::UnknownDirective>(m, "UnknownDirective",
                                       "A line the library does not interpret.")
      .def_property_readonly(
          "key",
          [](const robots::UnknownDirective& u) { return FileText(u.key); },
          "The key as written.")
      .def_property_readonly(
          "value",
          [](const robots::UnknownDirective& u) { return FileText(u.value); },
          "The value as written.")
      .def_readonly("line", &robots::UnknownDirective::line, "1-based line.")
      .def("__repr__", [](const robots::UnknownDirective& u) {
        return "UnknownDirective(" + Quoted(u.key) + ", " + Quoted(u.value) +
               ", line=" + std::to_string(u.line) + ")";
      });

  py::class_<robots::Group>(
      m, "Group",
      "A group as written in the file (before merging): user-agent lines and "
      "the lines that follow them.")
      .def_property_readonly(
          "agents",
          [](const robots::Group& g) { return FileTextList(g.agents); },
          "User-agent values as written ('*', 'Googlebot/2.1').")
      .def_property_readonly(
          "tokens",
          [](const robots::Group& g) { return FileTextList(g.tokens); },
          "Product tokens as matched, lower-case ('googlebot').")
      .def_readonly("first_line", &robots::Group::first_line,
                    "Line of its first user-agent line.")
      .def_readonly("rules", &robots::Group::rules, "Rules in file order.")
      .def_readonly("crawl_delay", &robots::Group::crawl_delay,
                    "Seconds (first valid Crawl-delay), or None.")
      .def_readonly("crawl_delay_line", &robots::Group::crawl_delay_line,
                    "Line of the Crawl-delay used, 0 if none.")
      .def_readonly("request_rate", &robots::Group::request_rate,
                    "Its Request-rate, or None.")
      .def_readonly("visit_time", &robots::Group::visit_time,
                    "Its Visit-time, or None.")
      .def_readonly("clean_params", &robots::Group::clean_params,
                    "Its Clean-param lines.")
      .def_property_readonly(
          "hosts", [](const robots::Group& g) { return FileTextList(g.hosts); },
          "Host lines inside the group.")
      .def_readonly("unknown", &robots::Group::unknown,
                    "Directives the library does not interpret.")
      .def_readonly("shares_rules_with_next",
                    &robots::Group::shares_rules_with_next,
                    "True when only extension lines separate it from the "
                    "next group, whose rules then also apply to its agents "
                    "(Google's grouping).")
      .def("__repr__", [](const robots::Group& g) {
        return "Group(agents=" +
               py::repr(FileTextList(g.agents)).cast<std::string>() +
               ", first_line=" + std::to_string(g.first_line) +
               ", rules=" + std::to_string(g.rules.size()) + ")";
      });

  py::class_<robots::Diagnostic>(m, "Diagnostic",
                                 "One finding of lint(). Immutable.")
      .def_readonly("line", &robots::Diagnostic::line,
                    "1-based line; 0 for findings about the whole file.")
      .def_property_readonly(
          "severity",
          [](const robots::Diagnostic& d) {
            return robots::SeverityName(d.severity);
          },
          "'info', 'warning' or 'error'.")
      .def_readonly("code", &robots::Diagnostic::code,
                    "Stable identifier, e.g. 'typo' (docs/cli.md lists "
                    "them).")
      .def_property_readonly(
          "message",
          [](const robots::Diagnostic& d) { return MessageText(d.message); },
          "One sentence for humans (bytes of the file that are not UTF-8 "
          "shown as U+FFFD).")
      .def("__repr__", [](const robots::Diagnostic& d) {
        return "Diagnostic(line=" + std::to_string(d.line) +
               ", severity=" + Quoted(robots::SeverityName(d.severity)) +
               ", code=" + Quoted(d.code) + ", message=" +
               py::repr(MessageText(d.message)).cast<std::string>() + ")";
      });
}

void BindRobotsTxt(py::module_& m) {
  py::class_<RobotsTxt>(
      m, "RobotsTxt",
      "A parsed robots.txt: immutable, safe to share between threads.\n\n"
      "Semantics are RFC 9309 (compat='rfc', the default) or exactly Google's "
      "open-source parser (compat='google') or of CPython's "
      "urllib.robotparser (compat='urllib'); README.md lists where they "
      "differ. Build one with RobotsTxt.parse(body), then query it as often "
      "as needed. Agents are product tokens ('Googlebot'); use "
      "product_token() to get one from a User-Agent header. check_many "
      "releases the GIL.")
      .def(py::init<>(), "An empty robots.txt: everything is allowed.")
      .def_static(
          "parse",
          [](py::handle body, std::string_view compat,
             std::int64_t max_body_bytes) {
            return ParseBody(body, compat, max_body_bytes);
          },
          py::arg("body"), py::arg("compat") = "rfc", py::kw_only(),
          py::arg("max_body_bytes") =
              static_cast<std::int64_t>(robots::kMinParseLimitBytes),
          "Parses a robots.txt body (bytes as fetched, or str, read as "
          "UTF-8). Never fails: bytes that are not UTF-8, NUL bytes and "
          "garbage lines are read as the matcher reads them; lint() says "
          "what was wrong. Only the first max_body_bytes (at least 512000, "
          "RFC 9309 §2.5; 0: no limit) are parsed, cut at a line end; "
          "ignored_bytes counts the rest. compat is 'rfc' (or 'rfc9309'), "
          "'google' or 'urllib'. "
          "Releases the GIL.")
      .def_static(
          "allow_all",
          [](std::string_view compat) {
            return RobotsTxt::AllowAll(CompatFromName(compat));
          },
          py::arg("compat") = "rfc",
          "The policy of an unavailable robots.txt (HTTP 4xx): every URL "
          "allowed.")
      .def_static(
          "disallow_all",
          [](std::string_view compat) {
            return RobotsTxt::DisallowAll(CompatFromName(compat));
          },
          py::arg("compat") = "rfc",
          "The policy of an unreachable robots.txt (HTTP 5xx, network "
          "error): every URL disallowed.")
      .def(
          "check",
          [](const RobotsTxt& robots, py::handle agent, py::handle url) {
            const std::string_view url_text = TextOf(url, "url");
            RequireCheckableUrl(url_text);
            return ToCheckResult(
                robots.Check(TextOf(agent, "agent"), url_text));
          },
          py::arg("agent"), py::arg("url"),
          "May `agent` fetch `url`, and which line decided? `url` is "
          "absolute ('https://h/p?q') or a path ('/p?q'). Raises ValueError "
          "for URLs containing control bytes, spaces or DEL (no URL may), "
          "TypeError for arguments that are not str or bytes.")
      .def(
          "is_allowed",
          [](const RobotsTxt& robots, py::handle agent, py::handle url) {
            const std::string_view url_text = TextOf(url, "url");
            RequireCheckableUrl(url_text);
            return robots.IsAllowedFor(TextOf(agent, "agent"), url_text);
          },
          py::arg("agent"), py::arg("url"),
          "check(agent, url).allowed, without building the result.")
      .def("check_many", &CheckMany, py::arg("agent"), py::arg("urls"),
           py::kw_only(), py::arg("as_numpy") = py::none(),
           "is_allowed for every URL of `urls` (any iterable of str or "
           "bytes) in one native call with the GIL released. Returns a "
           "NumPy bool array when NumPy can be imported, else a list of "
           "bool; as_numpy=True/False forces one. Raises ValueError naming "
           "the index of the first URL that cannot be checked. A list is "
           "read as a loop over it would read it: if another thread "
           "shortens it meanwhile, the answer ends where the list now "
           "ends.")
      .def("_can_fetch", &CanFetchForUserAgent, py::arg("useragent"),
           py::arg("url"),
           "For robotscan.robotparser: matches the product token at the "
           "start of a User-Agent string; URLs are not refused.")
      .def(
          "preferences",
          [](const RobotsTxt& robots, py::handle agent, py::handle url) {
            const std::string_view url_text = TextOf(url, "url");
            RequireCheckableUrl(url_text);
            const robots::Preferences p =
                robots.PreferencesFor(TextOf(agent, "agent"), url_text);
            py::dict usage, signal, usage_lines, signal_lines;
            for (const robots::AppliedPreference& a : p.content_usage) {
              const py::str key = FileText(std::string(a.key));
              usage[key] = a.allowed ? "y" : "n";
              usage_lines[key] = a.line;
            }
            for (const robots::AppliedPreference& a : p.content_signal) {
              const py::str key = FileText(std::string(a.key));
              signal[key] = a.allowed ? "yes" : "no";
              signal_lines[key] = a.line;
            }
            py::dict lines;
            lines["content_usage"] = usage_lines;
            lines["content_signal"] = signal_lines;
            lines["license"] = p.license_line == 0
                                   ? py::object(py::none())
                                   : py::object(py::int_(p.license_line));
            py::dict result;
            result["crawl_allowed"] = p.crawl.allowed;
            result["content_usage"] = usage;
            result["content_signal"] = signal;
            result["license"] =
                p.license_line == 0
                    ? py::object(py::none())
                    : py::object(FileText(std::string(p.license)));
            result["lines"] = lines;
            return result;
          },
          py::arg("agent"), py::arg("url"),
          "The usage preferences in effect for `agent` at `url` "
          "(robots/preferences.h): {'crawl_allowed': bool, 'content_usage': "
          "{label: 'y'|'n'}, 'content_signal': {key: 'yes'|'no'}, "
          "'license': URL or None, 'lines': the deciding line of each}. "
          "Shaped as `robotscan check --json` prints them; none apply where "
          "the agent may not crawl `url` (draft-ietf-aipref-attach-05).")
      .def(
          "has_group_for",
          [](const RobotsTxt& robots, py::handle agent) {
            return robots.HasGroupFor(TextOf(agent, "agent"));
          },
          py::arg("agent"),
          "True if a group names `agent` (so '*' does not apply to it).")
      .def(
          "crawl_delay",
          [](const RobotsTxt& robots, py::handle agent) {
            return robots.ExtensionsFor(TextOf(agent, "agent")).crawl_delay;
          },
          py::arg("agent"),
          "Crawl-delay in seconds (float) for `agent` (its groups, or '*'), "
          "or None.")
      .def(
          "request_rate",
          [](const RobotsTxt& robots, py::handle agent) {
            return robots.ExtensionsFor(TextOf(agent, "agent")).request_rate;
          },
          py::arg("agent"), "Request-rate for `agent`, or None.")
      .def(
          "visit_time",
          [](const RobotsTxt& robots, py::handle agent) {
            return robots.ExtensionsFor(TextOf(agent, "agent")).visit_time;
          },
          py::arg("agent"), "Visit-time for `agent`, or None.")
      .def(
          "clean_params",
          [](const RobotsTxt& robots, py::handle agent) {
            return robots.ExtensionsFor(TextOf(agent, "agent")).clean_params;
          },
          py::arg("agent"), "Clean-param lines for `agent` (list).")
      .def_property_readonly(
          "sitemaps",
          [](const RobotsTxt& robots) {
            py::list urls;
            for (const robots::Sitemap& s : robots.sitemaps()) {
              urls.append(FileText(s.url));
            }
            return urls;
          },
          "Sitemap URLs, file-wide, in file order.")
      .def_property_readonly(
          "hosts",
          [](const RobotsTxt& robots) { return FileTextList(robots.hosts()); },
          "Host lines (Yandex), file-wide.")
      .def_property_readonly("groups", &RobotsTxt::groups,
                             "Groups as written, in file order.")
      .def_property_readonly("unknown_directives",
                             &RobotsTxt::unknown_directives,
                             "Lines the library does not interpret.")
      .def_property_readonly("rules_outside_groups",
                             &RobotsTxt::rules_outside_groups,
                             "Rules before any user-agent line (ignored).")
      .def_property_readonly(
          "compat",
          [](const RobotsTxt& robots) {
            return robots::CompatName(robots.compat());
          },
          "'rfc', 'google' or 'urllib'.")
      .def_property_readonly("body_bytes", &RobotsTxt::body_bytes,
                             "Size of the body given to parse().")
      .def_property_readonly("ignored_bytes", &RobotsTxt::ignored_bytes,
                             "Bytes past the parse limit (not parsed).")
      .def_property_readonly(
          "line_count", &RobotsTxt::line_count,
          "Lines in the parsed part (text after the last line end counts as "
          "one, as in Google's parser).")
      .def("__copy__", [](py::object self) { return self; })
      .def("__deepcopy__", [](py::object self, py::handle) { return self; })
      .def("__repr__", [](const RobotsTxt& robots) {
        return "<RobotsTxt compat=" +
               Quoted(robots::CompatName(robots.compat())) +
               " groups=" + std::to_string(robots.groups().size()) +
               " lines=" + std::to_string(robots.line_count()) +
               " bytes=" + std::to_string(robots.body_bytes()) + ">";
      });
}

void BindFunctions(py::module_& m) {
  py::class_<AccessPolicy>(
      m, "AccessPolicy",
      "What RFC 9309 §2.3.1 makes of a robots.txt fetch: the access class "
      "and the robots.txt to obey.")
      .def_readonly("access", &AccessPolicy::access,
                    "'success' (2xx: the body), 'unavailable' (4xx, "
                    "unresolved redirects: allow all) or 'unreachable' (5xx, "
                    "network error: disallow all).")
      .def_readonly("robots", &AccessPolicy::robots, "The RobotsTxt in effect.")
      .def("__repr__", [](const AccessPolicy& p) {
        return "AccessPolicy(access=" + Quoted(p.access) + ")";
      });

  m.def(
      "policy_for_http",
      [](py::handle status_object, py::handle body, bool network_error,
         bool redirects_unresolved, std::string_view compat,
         std::string_view too_many_requests, std::int64_t max_body_bytes) {
        if (!PyLong_Check(status_object.ptr()) ||
            PyBool_Check(status_object.ptr())) {
          throw py::type_error("status must be int, not " +
                               TypeNameOf(status_object));
        }
        int overflow = 0;
        const long long wide =
            PyLong_AsLongLongAndOverflow(status_object.ptr(), &overflow);
        // Statuses no server sends classify as unreachable (nothing usable
        // was received), like any other garbage status.
        const int status = overflow != 0 || wide < 0 || wide > 999
                               ? -1
                               : static_cast<int>(wide);
        robots::AccessPolicyOptions options;
        options.parse.compat = CompatFromName(compat);
        options.parse.max_body_bytes = ParseLimitOf(max_body_bytes);
        // Which access class a 429 gets, by its name (the crawl database's
        // table, fetch_classes.h).
        const std::optional<robots::AccessClass> as_class =
            storage::ParseAccessClass(too_many_requests);
        if (as_class == robots::AccessClass::kUnavailable) {
          options.too_many_requests = robots::TooManyRequests::kAsUnavailable;
        } else if (as_class == robots::AccessClass::kUnreachable) {
          options.too_many_requests = robots::TooManyRequests::kAsUnreachable;
        } else {
          throw py::value_error(
              "too_many_requests must be 'unavailable' (RFC 9309) or "
              "'unreachable' (Google), not '" +
              std::string(too_many_requests) + "'");
        }
        std::string storage;
        robots::HttpOutcome outcome;
        outcome.status = status;
        outcome.network_error = network_error;
        outcome.redirects_unresolved = redirects_unresolved;
        outcome.body = BodyOf(body, "body", &storage);
        py::gil_scoped_release release;
        const robots::AccessClass access =
            robots::ClassifyHttpOutcome(outcome, options.too_many_requests);
        return AccessPolicy{std::string(robots::AccessClassName(access)),
                            robots::RobotsTxtForHttpOutcome(outcome, options)};
      },
      py::arg("status"), py::arg("body") = py::bytes(), py::kw_only(),
      py::arg("network_error") = false, py::arg("redirects_unresolved") = false,
      py::arg("compat") = "rfc", py::arg("too_many_requests") = "unavailable",
      py::arg("max_body_bytes") =
          static_cast<std::int64_t>(robots::kMinParseLimitBytes),
      "The RFC 9309 §2.3.1 policy for a robots.txt fetch: 2xx parses the "
      "body; 4xx (and redirects_unresolved) allow everything; 5xx, "
      "network_error and statuses outside 200-599 disallow everything. 429 "
      "is a 4xx for the RFC (too_many_requests='unavailable'); Google treats "
      "it as a 5xx ('unreachable'). max_body_bytes as for RobotsTxt.parse "
      "(0: no limit). Returns an AccessPolicy.");

  m.def(
      "lint",
      [](py::handle body, std::int64_t max_body_bytes) {
        std::string storage;
        const std::string_view text = BodyOf(body, "body", &storage);
        robots::LintOptions options;
        options.max_body_bytes = ParseLimitOf(max_body_bytes);
        py::gil_scoped_release release;
        return robots::LintRobotsTxt(text, options);
      },
      py::arg("body"), py::kw_only(),
      py::arg("max_body_bytes") =
          static_cast<std::int64_t>(robots::kMinParseLimitBytes),
      "Diagnostics for a robots.txt body (list of Diagnostic, ordered by "
      "line, file-wide ones first): the same findings as `robotscan lint`. "
      "max_body_bytes as for RobotsTxt.parse (0: no limit). Releases the "
      "GIL.");

  m.def(
      "product_token",
      [](py::handle user_agent) {
        return std::string(
            robots::ExtractProductToken(TextOf(user_agent, "user_agent")));
      },
      py::arg("user_agent"),
      "The product token at the start of a User-Agent value, as robots.txt "
      "matching reads it: its leading run of [A-Za-z_-] ('Googlebot/2.1' -> "
      "'Googlebot').");

  m.def(
      "is_valid_product_token",
      [](py::handle agent) {
        return robots::IsValidUserAgentToObey(TextOf(agent, "agent"));
      },
      py::arg("agent"),
      "True for a non-empty string of [A-Za-z_-] (RFC 9309 §2.2.1), the only "
      "kind of name a group can match.");
}

}  // namespace

void BindRobots(py::module_& m) {
  BindValueTypes(m);
  BindRobotsTxt(m);
  BindFunctions(m);
}

}  // namespace robotscan::python
