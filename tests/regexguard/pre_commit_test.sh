#!/bin/sh
# End-to-end test of the `regexguard` pre-commit hook, offline: a temporary
# hooks repository holding robotscan's .pre-commit-hooks.yaml (cloned by
# pre-commit from a local path), a temporary project using it, and commits
# that the hook must block or let through.
#
# Usage: pre_commit_test.sh REGEXGUARD_BINARY PRE_COMMIT_HOOKS_YAML
set -eu

regexguard_bin=$1
hooks_yaml=$2
command -v pre-commit >/dev/null || {
  echo "FAIL: pre-commit is not installed (scripts/bootstrap --extras)" >&2
  exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin_dir=$(cd "$(dirname "$regexguard_bin")" && pwd)
PATH="$bin_dir:$PATH"
HOME="$tmp/home"
PRE_COMMIT_HOME="$tmp/pre-commit-cache"
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid
GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid
export PATH HOME PRE_COMMIT_HOME GIT_CONFIG_NOSYSTEM GIT_AUTHOR_NAME \
  GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
mkdir -p "$HOME"
[ "$(command -v regexguard)" = "$bin_dir/regexguard" ] || {
  echo "FAIL: the built regexguard is not first on PATH" >&2
  exit 1
}

fail() {
  echo "FAIL: $1" >&2
  [ -f "$tmp/out" ] && cat "$tmp/out" >&2
  exit 1
}

mkdir "$tmp/hooks"
cp "$hooks_yaml" "$tmp/hooks/.pre-commit-hooks.yaml"
git -C "$tmp/hooks" init -q
git -C "$tmp/hooks" add .pre-commit-hooks.yaml
git -C "$tmp/hooks" commit -q -m hooks
rev=$(git -C "$tmp/hooks" rev-parse HEAD)

mkdir "$tmp/project"
cd "$tmp/project"
git init -q
cat >.pre-commit-config.yaml <<CONFIG
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: regexguard
CONFIG
git add .pre-commit-config.yaml
git commit -q -m config
pre-commit install >/dev/null

# 1. A vulnerable regex: the commit is blocked, naming file, line and attack.
printf 'import re\n\nNAME = re.compile(r"^(a+)+$")\n' >app.py
git add app.py
if git commit -m vulnerable >"$tmp/out" 2>&1; then
  fail "the commit adding a vulnerable regex was not blocked"
fi
grep -q 'app.py:3:19: error: exponential backtracking' "$tmp/out" ||
  fail "no finding naming app.py:3:19"
grep -q 'app.py:3:19: note: attack: "" + "a" \* n + ' "$tmp/out" ||
  fail "no attack note"
[ "$(git rev-list --count HEAD)" = 1 ] || fail "a commit was recorded"

# 2. The same regex with a suppression comment passes.
printf 'import re\n\n# regexguard: ignore names are at most 8 chars\nNAME = re.compile(r"^(a+)+$")\n' >app.py
git add app.py
git commit -m suppressed >"$tmp/out" 2>&1 || fail "the suppressed regex was blocked"

# 3. A fixed regex passes; a vulnerable JavaScript one in another file is
# still caught in the same tree.
printf 'import re\n\nNAME = re.compile(r"^a+$")\n' >app.py
git add app.py
git commit -m fixed >"$tmp/out" 2>&1 || fail "the fixed regex was blocked"
printf 'const r = /^(a|a)*$/;\n' >web.js
git add web.js
if git commit -m js >"$tmp/out" 2>&1; then
  fail "the commit adding a vulnerable JavaScript regex was not blocked"
fi
grep -q 'web.js:1:11: error: exponential' "$tmp/out" || fail "no web.js finding"
[ "$(git rev-list --count HEAD)" = 3 ] || fail "unexpected commit count"

# 4. A regex built from a request value is blocked (regex injection); the
# escaped version passes.
printf 'const r = /^a+$/;
' >web.js
printf "app.get('/', (req, res) => {\n  const q = req.query.q;\n  res.send(new RegExp(q).source);\n});\n" >routes.js
git add web.js routes.js
if git commit -m injection >"$tmp/out" 2>&1; then
  fail "the commit adding a regex injection was not blocked"
fi
grep -q 'routes.js:3:23: error: regex injection: .*req.query (line 2).*\[regexguard/injection\]' \
  "$tmp/out" || fail "no routes.js injection finding"
printf "app.get('/', (req, res) => {\n  const q = escapeRegExp(req.query.q);\n  res.send(new RegExp(q).source);\n});\n" >routes.js
git add routes.js
git commit -m escaped >"$tmp/out" 2>&1 || fail "the escaped pattern was blocked"
[ "$(git rev-list --count HEAD)" = 4 ] || fail "unexpected commit count"
echo "pre-commit hook: all checks passed"
