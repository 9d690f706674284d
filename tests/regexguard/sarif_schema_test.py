#!/usr/bin/env python3
"""Validates the SARIF logs of `regexguard scan` and `regexguard check`
against the official SARIF 2.1.0 JSON schema (tests/data/sarif/, see its
README for the origin), with python3-jsonschema.

Usage: sarif_schema_test.py REGEXGUARD_BINARY SCHEMA_JSON
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def run(binary, args, cwd):
    result = subprocess.run([binary] + args, cwd=cwd, capture_output=True,
                            text=True, check=False,
                            env=dict(os.environ, XDG_CACHE_HOME=cwd))
    if result.returncode not in (0, 1):
        sys.exit(f"FAIL: regexguard {' '.join(args)} exited "
                 f"{result.returncode}: {result.stderr}")
    return json.loads(result.stdout)


def main():
    binary, schema_path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(
        schema, format_checker=jsonschema.FormatChecker())

    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "src dir"))
        with open(os.path.join(tmp, "src dir", "app.py"), "w") as f:
            f.write("import re\n"
                    "A = re.compile(r'^(a+)+$')\n"
                    "B = re.compile(r'^a*a*$')\n"
                    "C = re.compile(r'\\s*x\\s*$')\n"
                    "D = re.compile(r'^(a|b)+(')\n")
        with open(os.path.join(tmp, "lin.go"), "w") as f:
            f.write('package m\nimport "regexp"\n'
                    "var r = regexp.MustCompile(`(a+)+$`)\n")
        with open(os.path.join(tmp, "routes.js"), "w") as f:
            f.write("app.get('/', (req, res) => {\n"
                    "  res.send(new RegExp(req.query.q).source);\n"
                    "});\n")
        # Ruby: its findings carry the engine versions (properties).
        with open(os.path.join(tmp, "app.rb"), "w") as f:
            f.write("NAME = /\\A(a+)+\\z/\n")
        with open(os.path.join(tmp, "patterns.txt"), "w") as f:
            f.write("^(a+)+$\n^a*a*$\n\\d+\n")
        logs = {
            "scan": run(binary, ["scan", "--format", "sarif", "--show-info",
                                 "--no-cache"], tmp),
            "scan (budget exceeded)": run(
                binary, ["scan", "--format", "sarif", "--no-cache",
                         "--timeout-per-regex", "0.000001"], tmp),
            "check --file": run(binary, ["check", "--format", "sarif",
                                         "--dialect", "python", "--file",
                                         "patterns.txt"], tmp),
            "check PATTERN": run(binary, ["check", "--format", "sarif",
                                          "^(\\w+\\s?)+$"], tmp),
            "check (engine versions)": run(
                binary, ["check", "--format", "sarif", "--dialect", "ruby",
                         "--engine-version", "ruby=3.1", "^(a+)+$"], tmp),
        }
    failed = False
    for name, log in logs.items():
        errors = sorted(validator.iter_errors(log), key=lambda e: e.path)
        for error in errors:
            failed = True
            print(f"FAIL: {name}: {'/'.join(map(str, error.path))}: "
                  f"{error.message}")
        results = log["runs"][0]["results"]
        if not results:
            failed = True
            print(f"FAIL: {name}: no results, nothing was validated")
        print(f"{name}: {len(results)} results, "
              f"{'valid' if not errors else 'INVALID'}")
    for name in ("scan", "check (engine versions)"):
        versions = [r["properties"]["versions"]
                    for r in logs[name]["runs"][0]["results"]
                    if "properties" in r]
        if not versions:
            failed = True
            print(f"FAIL: {name}: no result carries properties.versions")
    rules = {r["ruleId"] for r in logs["scan"]["runs"][0]["results"]}
    expected = {"regexguard/exponential", "regexguard/polynomial",
                "regexguard/search-restart", "regexguard/unknown",
                "regexguard/info", "regexguard/injection"}
    if rules != expected:
        failed = True
        print(f"FAIL: scan rule ids {sorted(rules)} != {sorted(expected)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
