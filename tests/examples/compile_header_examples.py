#!/usr/bin/env python3
"""Compiles the usage examples in robotscan's public headers, so that they
cannot rot.

An example is the indented block that follows a line `// Usage:` or
`// Example:` in a header's comments, up to the first comment line that is
not indented (or the end of the comment). Each example is pasted into a
function inside its library's namespace, after the declarations its free
names need (CONTEXTS below: a `body` to parse, a `Use(row)` to call), with
a #line directive, so that a compiler error points at the header's own
line. Every built library's headers are searched; an example without a
context, or a context whose example is gone, fails the test too.

usage: compile_header_examples.py --compiler CXX --source-dir DIR
           --components robots;storage;... [--include DIR]... [--work DIR]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

# Per header (relative to the source tree): what its example may take for
# granted. "includes": extra headers; "prelude": declarations before the
# example; "returns": the function's return type (default void);
# "epilogue": statements after it (a return for non-void functions).
CONTEXTS = {
    "base/include/robotscan/base/status.h": {
        "prelude": "auto Use = [](int) {};",
        "returns": "Status",
        "epilogue": "return Status();",
    },
    "base/include/robotscan/base/parallel_for.h": {
        "prelude": "std::vector<int> values{1, 2, 3};",
    },
    "robots/include/robotscan/robots/robots.h": {
        "includes": ["<cstdio>"],
        "prelude": 'std::string_view body = "User-agent: *\\nDisallow: /x\\n";',
    },
    "robots/include/robotscan/robots/lint.h": {
        "prelude": 'std::string_view body = "User-agent: *\\nDisallow: /x\\n";',
        "epilogue": "(void)diagnostics;",
    },
    "robots/include/robotscan/robots/preferences.h": {
        "includes": ["<cstdio>", '"robotscan/robots/robots.h"'],
        "prelude": "const RobotsTxt robots = RobotsTxt::Parse(\n"
                   '    "User-agent: *\\nContent-Usage: train-ai=n\\n");',
    },
    "robots/include/robotscan/robots/tokenizer.h": {
        "prelude": 'std::string_view body = "User-agent: *\\nDisallow: /x\\n";',
    },
    "storage/include/robotscan/storage/crawl_store.h": {
        "prelude": "RunInfo info;\nstd::vector<FetchRecord> records;",
        "returns": "Status",
        "epilogue": "return s;",
    },
    "storage/include/robotscan/storage/latest_fetch_reader.h": {
        "prelude": "auto Use = [](const LatestFetchRow&) {};",
        "returns": "Status",
        "epilogue": "return Status();",
    },
    "storage/include/robotscan/storage/crawl_lock.h": {
        "includes": ['"robotscan/storage/crawl_store.h"'],
        "prelude": ("CrawlStore* store = nullptr;\nCrawlHolder me;\n"
                    "auto Refuse = [](const CrawlHolder&) {};\n"
                    "auto Note = [](const CrawlHolder&) {};"),
        "returns": "Status",
        "epilogue": "return Status();",
    },
    "storage/include/robotscan/storage/shared_frontier.h": {
        "prelude": "WorkerInfo me;",
        "returns": "Status",
        "epilogue": "return claim.status();",
    },
    "storage/include/robotscan/storage/copy_crawl.h": {
        "returns": "Status",
        "epilogue": "return copied.status();",
    },
    "storage/include/robotscan/storage/database_location.h": {
        "includes": ["<string>"],
        "prelude": ('std::string db = "postgresql://u:pw@host/crawls";\n'
                    "auto Say = [](const std::string&) {};"),
    },
    "crawler/include/robotscan/crawler/top_list_download.h": {
        "epilogue": "(void)s;",
    },
    "crawler/include/robotscan/crawler/history.h": {
        "epilogue": "(void)s;",
    },
    "crawler/include/robotscan/crawler/download.h": {
        "includes": ['"robotscan/crawler/crawler.h"'],
        "returns": "robotscan::Status",
        "epilogue": "(void)found;\nreturn robotscan::Status();",
    },
    "crawler/include/robotscan/crawler/crawler.h": {
        "epilogue": "(void)status;",
    },
    "crawler/include/robotscan/crawler/top_list.h": {
        "prelude": ("auto Use = [](const TopListEntry&) {};\n"
                    "auto Report = [](const MalformedLine&) {};\n"
                    "auto Fail = [](const std::string&) {};"),
    },
    "report/include/robotscan/report/report.h": {
        "includes": ['"robotscan/report/render.h"'],
        "returns": "robotscan::storage::Status",
        "epilogue": "return s;",
    },
    "report/include/robotscan/report/series.h": {
        "returns": "robotscan::storage::Status",
        "epilogue": "return s;",
    },
    "report/include/robotscan/report/agent_registry.h": {
        "includes": ["<cstdio>"],
    },
    "regexguard/include/robotscan/regexguard/analyzer.h": {},
    "regexguard/include/robotscan/regexguard/syntax.h": {},
    "regexguard/include/robotscan/regexguard/extract.h": {
        "includes": ['"robotscan/regexguard/analyzer.h"'],
        "prelude": 'std::string_view source = "re.compile(r\'(a+)+$\')";',
    },
    "regexguard/include/robotscan/regexguard/scan.h": {"returns": "int"},
    "regexguard/include/robotscan/regexguard/injection.h": {
        "includes": ["<cstdio>"],
        "prelude": 'std::string_view source = "new RegExp(req.query.q);";',
    },
    "regexguard/include/robotscan/regexguard/pre_commit_hook.h": {},
    "regexguard/include/robotscan/regexguard/engine_versions.h": {},
}

MARKER = re.compile(r"^//\s*(Usage|Example):\s*$")


def extract_examples(path):
    """[(first line number, [code lines])] of every marked block."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    examples = []
    i = 0
    while i < len(lines):
        if not MARKER.match(lines[i]):
            i += 1
            continue
        i += 1
        start = i
        block = []
        while i < len(lines) and lines[i].startswith("//"):
            text = lines[i][2:]
            if text.strip() and not text.startswith("  "):
                break  # prose again ("// Thread-safety: ...")
            block.append(text)
            i += 1
        # Leading and trailing blank comment lines are not code.
        while block and not block[0].strip():
            block.pop(0)
            start += 1
        while block and not block[-1].strip():
            block.pop()
        if block:
            indent = min(len(l) - len(l.lstrip()) for l in block if l.strip())
            examples.append((start + 1, [l[indent:] for l in block]))
    return examples


def translation_unit(header_rel, header_abs, component, context, examples,
                     source):
    include = header_rel.split("/include/", 1)[1]
    out = [f"// Generated from {header_rel} by {os.path.basename(__file__)}.",
           f'#include "{include}"', "", "#include <string>",
           "#include <string_view>", "#include <vector>"]
    out += [f"#include {h}" for h in context.get("includes", [])]
    out += ["", f"namespace robotscan::{component} {{", ""]
    for n, (line, code) in enumerate(examples):
        out.append(f"{context.get('returns', 'void')} HeaderExample{n}() {{")
        if context.get("prelude"):
            out.append(context["prelude"])
        out.append(f'#line {line} "{header_abs}"')
        out += code
        out.append(f'#line {len(out) + 2} "{source}"')
        if context.get("epilogue"):
            out.append(context["epilogue"])
        out += ["}", ""]
    out.append(f"}}  // namespace robotscan::{component}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compiler", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--components", required=True)
    parser.add_argument("--include", action="append", default=[])
    parser.add_argument("--work")
    args = parser.parse_args()
    components = [c for c in args.components.split(";") if c]
    work = args.work or tempfile.mkdtemp(prefix="header-examples-")
    os.makedirs(work, exist_ok=True)

    failures = []
    jobs = []
    seen = set()
    for component in components:
        pattern = os.path.join(args.source_dir, component, "include",
                               "robotscan", component, "*.h")
        for header_abs in sorted(glob.glob(pattern)):
            header_rel = os.path.relpath(header_abs, args.source_dir)
            examples = extract_examples(header_abs)
            if not examples:
                continue
            seen.add(header_rel)
            if header_rel not in CONTEXTS:
                failures.append(f"{header_rel}: has an example but no entry in "
                                f"CONTEXTS ({__file__})")
                continue
            source = os.path.join(work, header_rel.replace("/", "_") + ".cc")
            with open(source, "w", encoding="utf-8") as f:
                f.write(translation_unit(header_rel, header_abs, component,
                                         CONTEXTS[header_rel], examples,
                                         source))
            jobs.append((header_rel, len(examples), source))
    for header_rel in CONTEXTS:
        if header_rel.split("/", 1)[0] in components and header_rel not in seen:
            failures.append(f"{header_rel}: CONTEXTS names it, but it has no "
                            "'// Usage:' or '// Example:' block any more")

    flags = ["-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
             "-Wno-unused-variable", "-Wno-unused-but-set-variable"]
    flags += [f"-I{d}" for d in args.include]

    def compile_one(job):
        header_rel, count, source = job
        proc = subprocess.run([args.compiler, *flags, source],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=300)
        return header_rel, count, source, proc.returncode, proc.stdout

    passed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for header_rel, count, source, rc, output in pool.map(compile_one, jobs):
            if rc == 0:
                passed += 1
                print(f"ok    {header_rel} ({count} example{'s' * (count > 1)})")
            else:
                print(f"FAIL  {header_rel} (generated {source}):\n{output}")
                failures.append(f"{header_rel}: its example does not compile")
    for failure in failures:
        print(f"error: {failure}")
    print(f"header examples: {passed} passed, {len(failures)} failed")
    if not jobs:
        print("error: no header example found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
