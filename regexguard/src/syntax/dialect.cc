#include "robotscan/regexguard/dialect.h"

#include <string>

namespace robotscan::regexguard {

std::optional<Dialect> DialectFromName(std::string_view name) {
  if (name == "pcre" || name == "php" || name == "pcre2") return Dialect::kPcre;
  if (name == "python" || name == "py") return Dialect::kPython;
  if (name == "javascript" || name == "js" || name == "typescript") {
    return Dialect::kJavaScript;
  }
  if (name == "java" || name == "kotlin") return Dialect::kJava;
  if (name == "ruby" || name == "onigmo") return Dialect::kRuby;
  if (name == "go" || name == "re2" || name == "rust") return Dialect::kGo;
  if (name == "dotnet" || name == ".net" || name == "csharp") {
    return Dialect::kDotNet;
  }
  return std::nullopt;
}

std::string_view DialectName(Dialect dialect) {
  switch (dialect) {
    case Dialect::kPcre:
      return "pcre";
    case Dialect::kPython:
      return "python";
    case Dialect::kJavaScript:
      return "javascript";
    case Dialect::kJava:
      return "java";
    case Dialect::kRuby:
      return "ruby";
    case Dialect::kGo:
      return "go";
    case Dialect::kDotNet:
      return "dotnet";
  }
  return "pcre";
}

bool IsLinearTimeEngine(Dialect dialect) { return dialect == Dialect::kGo; }

Result<PatternFlags> ParseFlagLetters(std::string_view letters) {
  PatternFlags flags;
  for (const char letter : letters) {
    switch (letter) {
      case 'i':
        flags.case_insensitive = true;
        break;
      case 'm':
        flags.multiline = true;
        break;
      case 's':
        flags.dot_all = true;
        break;
      case 'x':
        flags.extended = true;
        break;
      case 'u':
        flags.unicode = true;
        break;
      case 'a':
        flags.ascii = true;
        break;
      case 'g':
        flags.global = true;
        break;
      case 'l':
        flags.linear = true;
        break;
      default:
        return Status{StatusCode::kInvalidArgument,
                      std::string("unknown flag letter '") + letter +
                          "' (expected letters among imsxuagl)",
                      std::nullopt};
    }
  }
  return flags;
}

std::string PatternFlagLetters(const PatternFlags& flags) {
  std::string letters;
  if (flags.case_insensitive) letters += 'i';
  if (flags.multiline) letters += 'm';
  if (flags.dot_all) letters += 's';
  if (flags.extended) letters += 'x';
  if (flags.unicode) letters += 'u';
  if (flags.ascii) letters += 'a';
  if (flags.global) letters += 'g';
  if (flags.linear) letters += 'l';
  return letters;
}

}  // namespace robotscan::regexguard
