#!/usr/bin/env bash
# Outside consumers of robotscan:
#   1. the build tree installed into a temporary prefix, then
#      a. a CMake project: find_package(robotscan) (robots only) and
#         find_package(robotscan COMPONENTS <every library>);
#      b. a C program against robotscan-robots.pc (pkg-config);
#      c. a C++ program against every library's .pc (pkg-config; the
#         libraries are static, so their .pc files list what they link as
#         Requires: cmake/RobotscanInstall.cmake says why);
#   2. a CMake project that adds the source tree with add_subdirectory,
#      asking for robots only, configured where no other library's
#      dependency can be found; and, as the control that proves the hiding
#      works, the same asking for storage too, which must fail.
#
# usage: run_install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
consumer=$source_dir/tests/install/consumer

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null

echo "-- CMake consumers (find_package)"
cmake -S "$consumer" -B "$work/cmake-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer"
"$work/cmake-build/consumer_all" "$work"

echo "-- C consumer (pkg-config robotscan-robots)"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig"
flags=$(pkg-config --cflags --libs robotscan-robots)
cc -std=c99 -Wall -Werror "$consumer/consumer.c" $flags -o "$work/c-consumer"
"$work/c-consumer"

echo "-- C++ consumer (pkg-config, every library)"
modules="robotscan-robots robotscan-storage robotscan-crawler robotscan-report robotscan-regexguard"
for module in $modules; do
  pkg-config --exists --print-errors "$module"
done
flags=$(pkg-config --cflags --libs $modules)
c++ -std=c++20 -Wall -Werror "$consumer/consumer_all.cc" $flags -o "$work/cxx-consumer"
"$work/cxx-consumer" "$work"
unset PKG_CONFIG_PATH

# Hiding every dependency: CMake looks for packages, libraries and headers
# only under an empty root (programs — compiler, ninja, pkg-config — are
# still found on the host), and pkg-config searches only an empty folder.
empty=$work/empty
mkdir -p "$empty"
hidden() {  # build-dir, extra cmake arguments...
  local dir=$1; shift
  PKG_CONFIG_LIBDIR="$empty" PKG_CONFIG_PATH="" \
    cmake -S "$source_dir/tests/install/subproject" -B "$dir" -G Ninja \
    -DROBOTSCAN_SOURCE_DIR="$source_dir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_FIND_ROOT_PATH="$empty" \
    -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER "$@"
}

echo "-- add_subdirectory(robotscan) for robots, with every dependency hidden"
hidden "$work/sub-robots" >"$work/sub-robots.log" 2>&1 ||
  { cat "$work/sub-robots.log"; exit 1; }
cmake --build "$work/sub-robots" -j 2 >/dev/null
"$work/sub-robots/consumer"

echo "-- control: the same asking for storage too must fail for lack of sqlite3"
if hidden "$work/sub-storage" "-DROBOTSCAN_COMPONENTS=robots;storage" \
    >"$work/sub-storage.log" 2>&1; then
  cat "$work/sub-storage.log"
  echo "FAIL: storage configured although its dependencies were hidden" >&2
  exit 1
fi
grep -q "sqlite3" "$work/sub-storage.log" || {
  cat "$work/sub-storage.log"
  echo "FAIL: the storage configure failed, but not for sqlite3" >&2
  exit 1
}
echo "   failed as expected: $(grep -m1 sqlite3 "$work/sub-storage.log")"
echo "install consumers: all passed"
