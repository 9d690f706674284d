// regexguard's analyser (analyzer.h) for Python: robotscan.regexguard.
//
// The analysis runs with the GIL released: it can take up to its time budget
// (1 s by default) on hostile patterns, and the pytest plugin analyses many
// patterns on several threads at once.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <string_view>
#include <vector>

#include "arguments.h"
#include "bindings.h"
#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/dialect.h"

namespace robotscan::python {
namespace {

namespace py = pybind11;
namespace rg = robotscan::regexguard;

std::string ErrorCodeName(rg::StatusCode code) {
  switch (code) {
    case rg::StatusCode::kInvalidInput:
      return "invalid-pattern";
    case rg::StatusCode::kUnsupported:
      return "unsupported-syntax";
    case rg::StatusCode::kInvalidArgument:
      return "invalid-argument";
    case rg::StatusCode::kBudgetExceeded:
      return "budget-exceeded";
    case rg::StatusCode::kInternal:
      return "engine-error";
    case rg::StatusCode::kIoError:
      return "io-error";
    default:  // Codes regexguard never returns.
      break;
  }
  return "unknown";
}

rg::AnalysisReport Analyze(py::handle pattern_object, std::string_view dialect,
                           std::string_view flags, bool anchored,
                           double timeout) {
  const std::string pattern(TextOf(pattern_object, "pattern"));
  const std::optional<rg::Dialect> parsed_dialect =
      rg::DialectFromName(dialect);
  if (!parsed_dialect) {
    throw py::value_error(
        "unknown dialect '" + std::string(dialect) +
        "' (pcre, python, javascript, java, ruby, go, dotnet)");
  }
  rg::Result<rg::PatternFlags> parsed_flags = rg::ParseFlagLetters(flags);
  if (!parsed_flags) throw py::value_error(parsed_flags.status().message());
  if (!(timeout > 0)) throw py::value_error("timeout must be positive");

  rg::AnalyzeOptions options;
  options.parse.dialect = *parsed_dialect;
  options.parse.flags = *parsed_flags;
  options.anchored = anchored;
  options.time_budget_seconds = timeout;
  rg::AnalysisReport report;
  {
    py::gil_scoped_release release;
    report = rg::AnalyzePattern(pattern, options);
  }
  if (report.error && report.error->code() == rg::StatusCode::kInvalidInput) {
    std::string message = "invalid " +
                          std::string(rg::DialectName(*parsed_dialect)) +
                          " pattern: " + report.error->message();
    if (report.error->span()) {
      message +=
          " (at offset " + std::to_string(report.error->span()->begin) + ")";
    }
    throw py::value_error(message);
  }
  return report;
}

}  // namespace

void BindRegexguard(py::module_& m) {
  py::class_<rg::Attack>(
      m, "Attack",
      "An input that makes the pattern blow up: prefix + pump * n + suffix.")
      .def_readonly("prefix", &rg::Attack::prefix, "Text before the pump.")
      .def_readonly("pump", &rg::Attack::pump,
                    "Text repeated n times; the work grows with n.")
      .def_readonly("suffix", &rg::Attack::suffix,
                    "Text that makes the match fail, forcing backtracking.")
      .def("build", &rg::Attack::Build, py::arg("pump_count"),
           "prefix + pump * pump_count + suffix.")
      .def("__repr__", [](const rg::Attack& a) {
        return "Attack(prefix=" +
               py::repr(py::str(a.prefix)).cast<std::string>() +
               ", pump=" + py::repr(py::str(a.pump)).cast<std::string>() +
               ", suffix=" + py::repr(py::str(a.suffix)).cast<std::string>() +
               ")";
      });

  py::class_<rg::AnalysisReport>(
      m, "RegexAnalysis",
      "regexguard's verdict on one pattern, with its proof. Immutable.")
      .def_readonly("pattern", &rg::AnalysisReport::pattern,
                    "The pattern analysed.")
      .def_property_readonly(
          "dialect",
          [](const rg::AnalysisReport& r) {
            return rg::DialectName(r.dialect);
          },
          "The dialect it was read in ('python', 'pcre', ...).")
      .def_property_readonly(
          "verdict",
          [](const rg::AnalysisReport& r) {
            return rg::VerdictName(r.verdict);
          },
          "'safe', 'polynomial', 'exponential' or 'unknown' (never "
          "claimed safe without proof).")
      .def_readonly("degree", &rg::AnalysisReport::degree,
                    "For 'polynomial': 2 = quadratic, 3 = cubic, ...")
      .def_property_readonly(
          "cause",
          [](const rg::AnalysisReport& r) { return rg::CauseName(r.cause); },
          "'backtracking' (inside one match), 'search-restart' (only the "
          "unanchored search loop makes it super-linear) or ''.")
      .def_readonly("attack", &rg::AnalysisReport::attack,
                    "The confirmed Attack for polynomial/exponential, else "
                    "None.")
      .def_property_readonly(
          "exploding_engines",
          [](const rg::AnalysisReport& r) {
            std::vector<std::string> names;
            for (rg::EngineConfig c : r.exploding_configs) {
              names.emplace_back(rg::EngineConfigName(c));
            }
            return names;
          },
          "PCRE2 configurations on which the attack was confirmed.")
      .def_readonly("explanation", &rg::AnalysisReport::explanation,
                    "Why it explodes (or why it is safe), in words.")
      .def_readonly("fix_hints", &rg::AnalysisReport::fix_hints,
                    "Mechanical rewrites that remove the blow-up, if any.")
      .def_readonly("unknown_reason", &rg::AnalysisReport::unknown_reason,
                    "Why the verdict is 'unknown' (budget, unsupported "
                    "syntax, ...).")
      .def_property_readonly(
          "unknown_code",
          [](const rg::AnalysisReport& r) -> std::optional<std::string> {
            if (r.unknown_code == rg::StatusCode::kOk) return std::nullopt;
            return ErrorCodeName(r.unknown_code);
          },
          "For 'unknown', why, as a code a program can test: "
          "'budget-exceeded' (a state, step or time budget ran out; a larger "
          "timeout may answer), 'unsupported-syntax', 'invalid-pattern', "
          "...; else None.")
      .def_property_readonly(
          "error",
          [](const rg::AnalysisReport& r) -> std::optional<std::string> {
            if (!r.error) return std::nullopt;
            return ErrorCodeName(r.error->code()) + ": " + r.error->message();
          },
          "The analyser's error (e.g. unsupported syntax), else None.")
      .def_property_readonly(
          "re2_accepted",
          [](const rg::AnalysisReport& r) { return r.re2.accepted; },
          "True if RE2 (linear time) compiles the pattern.")
      .def_property_readonly(
          "versions",
          [](const rg::AnalysisReport& r) -> std::optional<std::string> {
            if (r.versions.empty()) return std::nullopt;
            return r.versions;
          },
          "The engine versions (or options) the verdict holds for, when "
          "that is not every one: 'exponential on Ruby < 3.2; linear on "
          "Ruby >= 3.2 (memoization)'; else None (docs/regexguard.md).")
      .def_property_readonly(
          "defences",
          [](const rg::AnalysisReport& r) {
            std::vector<std::string> reached;
            for (const rg::DefenceReach& d : r.defences) {
              if (d.reached_from) {
                reached.emplace_back(rg::EngineDefenceName(d.defence));
              }
            }
            return reached;
          },
          "The dialect engine's defences that reach this pattern "
          "('memoization', 'non-backtracking', 'linear-engine', "
          "'loop-memo'); empty when none does.")
      .def_property_readonly(
          "text_report",
          [](const rg::AnalysisReport& r) { return rg::FormatTextReport(r); },
          "The report `regexguard check` prints.")
      .def("__repr__", [](const rg::AnalysisReport& r) {
        return "RegexAnalysis(pattern=" +
               py::repr(py::str(r.pattern)).cast<std::string>() +
               ", verdict='" + std::string(rg::VerdictName(r.verdict)) + "')";
      });

  m.def("_analyze_regex", &Analyze, py::arg("pattern"), py::arg("dialect"),
        py::arg("flags"), py::arg("anchored"), py::arg("timeout"),
        "Native part of robotscan.regexguard.analyze (flags as letters).");
}

}  // namespace robotscan::python
