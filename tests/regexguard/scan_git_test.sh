#!/bin/sh
# End-to-end test of the git integration of `regexguard scan`, in temporary
# repositories: directory listing through git (.gitignore honoured), --staged
# (the index's content, not the work tree's), and `regexguard install-hook`
# (a commit adding a vulnerable regex is blocked, the fixed one passes, a
# foreign hook is kept unless --force), with a baseline from .regexguard.toml.
#
# Usage: scan_git_test.sh REGEXGUARD_BINARY
set -eu

rg=$1
case $rg in /*) ;; *) rg=$(pwd)/$rg ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
HOME="$tmp/home"
XDG_CACHE_HOME="$tmp/cache"
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid
GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid
export HOME XDG_CACHE_HOME GIT_CONFIG_NOSYSTEM GIT_AUTHOR_NAME \
  GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
mkdir -p "$HOME"

fail() {
  echo "FAIL: $1" >&2
  [ -f "$tmp/out" ] && cat "$tmp/out" >&2
  exit 1
}

vulnerable='import re\n\nNAME = re.compile(r"^(a+)+$")\n'
fixed='import re\n\nNAME = re.compile(r"^a+$")\n'

mkdir "$tmp/repo"
cd "$tmp/repo"
git init -q
git commit -q --allow-empty -m root

# 1. .gitignore: an ignored build folder is not scanned by the git listing,
# but is by the plain walk (--no-git); untracked, unignored files are.
mkdir -p build src
printf "$vulnerable" >build/gen.py
printf "$vulnerable" >src/new.py
printf 'build/\n' >.gitignore
"$rg" scan >"$tmp/out" 2>&1 && fail "the untracked vulnerable file passed"
grep -q '^./src/new.py:3:19: error: exponential' "$tmp/out" ||
  fail "untracked src/new.py not reported"
grep -q 'build/gen.py' "$tmp/out" && fail "ignored build/gen.py was scanned"
"$rg" scan --no-git >"$tmp/out" 2>&1 || true
grep -q 'build/gen.py' "$tmp/out" || fail "--no-git did not walk build/"
"$rg" scan src >"$tmp/out" 2>&1 || true
grep -q '^src/new.py:3:19' "$tmp/out" || fail "subfolder listing is wrong"
rm -rf build src .gitignore

# 2. --staged reads the index, not the work tree.
printf "$vulnerable" >app.py
git add app.py
printf "$fixed" >app.py
"$rg" scan --staged >"$tmp/out" 2>&1 && fail "--staged passed a staged vulnerable regex"
grep -q '^app.py:3:19: error: exponential' "$tmp/out" || fail "no staged finding"
printf "$fixed" >app.py
git add app.py
printf "$vulnerable" >app.py
"$rg" scan --staged >"$tmp/out" 2>&1 || fail "--staged read the work tree"
# From a subfolder, paths are shown relative to it.
mkdir sub
printf "$vulnerable" >sub/deep.py
git add sub/deep.py
(cd sub && "$rg" scan --staged) >"$tmp/out" 2>&1 && fail "sub/deep.py passed"
grep -q '^deep.py:3:19: error' "$tmp/out" || fail "staged path not relative to the subfolder"
git rm -q --cached sub/deep.py
rm -rf sub
printf "$fixed" >app.py
git add app.py
git commit -q -m fixed
# Outside a work tree --staged is a usage error.
(cd "$tmp" && "$rg" scan --staged) >/dev/null 2>&1 && fail "--staged outside git"

# 3. install-hook: blocks, lets the fix through, respects foreign hooks.
printf '#!/bin/sh\nexit 0\n' >.git/hooks/pre-commit
"$rg" install-hook >"$tmp/out" 2>&1 && fail "a foreign hook was overwritten"
grep -q 'exit 0' .git/hooks/pre-commit || fail "the foreign hook changed"
"$rg" install-hook --force >"$tmp/out" 2>&1 || fail "--force did not install"
"$rg" install-hook >"$tmp/out" 2>&1 || fail "re-installing our own hook failed"
[ -x .git/hooks/pre-commit ] || fail "the hook is not executable"

printf "$vulnerable" >app.py
git add app.py
if git commit -q -m vulnerable >"$tmp/out" 2>&1; then
  fail "the commit adding a vulnerable regex was not blocked"
fi
grep -q 'app.py:3:19: error: exponential backtracking' "$tmp/out" ||
  fail "the hook output lacks the finding"
grep -q 'app.py:3:19: note: attack: ' "$tmp/out" || fail "no attack note"
[ "$(git rev-list --count HEAD)" = 2 ] || fail "a commit was recorded"

printf "$fixed" >app.py
git add app.py
printf 'x = 1\n' >other.py
git add other.py
git commit -q -m "fixed again" >"$tmp/out" 2>&1 || fail "the fixed regex was blocked"
[ "$(git rev-list --count HEAD)" = 3 ] || fail "the fixed commit is missing"

# 4. A baseline named in .regexguard.toml applies to the hook: a known
# finding moved by an edit passes, a new one is blocked.
printf "$vulnerable" >legacy.py
git add legacy.py
git commit -q --no-verify -m "legacy code"
"$rg" scan --write-baseline .regexguard-baseline.json >/dev/null 2>&1 ||
  fail "--write-baseline failed"
printf 'baseline = ".regexguard-baseline.json"\n' >.regexguard.toml
git add .regexguard.toml .regexguard-baseline.json
git commit -q -m baseline >"$tmp/out" 2>&1 || fail "committing the baseline"
printf "# moved down\n$vulnerable" >legacy.py
git add legacy.py
git commit -q -m "edit above the known finding" >"$tmp/out" 2>&1 ||
  fail "a baselined finding blocked the commit"
printf '%s\n' 'OTHER = re.compile(r"^(b|b)*$")' >>legacy.py
git add legacy.py
if git commit -q -m "new finding" >"$tmp/out" 2>&1; then
  fail "a new finding next to a baselined one was not blocked"
fi
grep -q 'legacy.py:5:20: error: exponential' "$tmp/out" ||
  fail "the new finding is not reported"
grep -q 'legacy.py:4:' "$tmp/out" && fail "the baselined finding was reported"

# Outside a git work tree install-hook refuses.
mkdir "$tmp/plain"
(cd "$tmp/plain" && GIT_CEILING_DIRECTORIES="$tmp" "$rg" install-hook) \
  >/dev/null 2>&1 && fail "install-hook outside git succeeded"
echo "scan git integration: all checks passed"
