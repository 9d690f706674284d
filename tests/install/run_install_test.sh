#!/usr/bin/env bash
# Outside consumers of robotscan:
#   1. the build tree installed into a temporary prefix, then
#      a. a CMake project: find_package(robotscan) (robots only) and
#         find_package(robotscan COMPONENTS <every library>);
#      b. a C program against robotscan-robots.pc (pkg-config);
#      c. a C++ program against every library's .pc (pkg-config; the
#         libraries are static, so their .pc files list what they link as
#         Requires: cmake/RobotscanInstall.cmake says why);
#   2. where no dependency but robotscan itself can be found:
#      a. the CMake consumer of 1a asking for robots only, which must build,
#         and asking for every component, which must fail for lack of
#         sqlite3 with robotscan's message (the control for the hiding);
#      b. a CMake project that adds the source tree with add_subdirectory,
#         asking for robots only, which must build; and asking for storage
#         too, which must fail for lack of sqlite3.
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
modules="robotscan-base robotscan-robots robotscan-storage robotscan-crawler robotscan-report robotscan-regexguard"
for module in $modules; do
  pkg-config --exists --print-errors "$module"
done
flags=$(pkg-config --cflags --libs $modules)
c++ -std=c++20 -Wall -Werror "$consumer/consumer_all.cc" $flags -o "$work/cxx-consumer"
"$work/cxx-consumer" "$work"
unset PKG_CONFIG_PATH

# Hiding every dependency: CMake looks for packages, libraries and headers
# only under ROOT (programs — compiler, ninja, pkg-config — are still found
# on the host), and pkg-config searches only an empty folder (CMake would
# otherwise add CMAKE_PREFIX_PATH's folders to its search, not re-rooted).
empty=$work/empty
mkdir -p "$empty"
hidden() {  # root, source, build-dir, extra cmake arguments...
  local root=$1 source=$2 dir=$3; shift 3
  PKG_CONFIG_LIBDIR="$empty" PKG_CONFIG_PATH="" \
    cmake -S "$source" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_FIND_ROOT_PATH="$root" \
    -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER \
    -DPKG_CONFIG_USE_CMAKE_PREFIX_PATH=OFF "$@" >"$dir.log" 2>&1
}
must_build() {  # root, source, build-dir, extra cmake arguments...
  hidden "$@" || { cat "$3.log"; exit 1; }
  cmake --build "$3" -j 2 >/dev/null
  "$3/consumer"
}
must_fail_for_sqlite3() {  # root, source, build-dir, extra cmake arguments...
  if hidden "$@"; then
    cat "$3.log"
    echo "FAIL: configured although the dependencies were hidden" >&2
    exit 1
  fi
  grep -q "sqlite3" "$3.log" || {
    cat "$3.log"
    echo "FAIL: the configure failed, but not for sqlite3" >&2
    exit 1
  }
  echo "   failed as expected: $(grep -m1 sqlite3 "$3.log")"
}

# The installed prefix is the root: only robotscan's own package is there
# (CMAKE_PREFIX_PATH=/ is re-rooted to it).
echo "-- find_package(robotscan) for robots, every other dependency hidden"
must_build "$work/prefix" "$consumer" "$work/hidden-robots" \
  -DCMAKE_PREFIX_PATH=/ -DROBOTSCAN_CONSUMER_ALL=OFF
echo "-- control: COMPONENTS <every library> must fail for lack of sqlite3"
must_fail_for_sqlite3 "$work/prefix" "$consumer" "$work/hidden-all" \
  -DCMAKE_PREFIX_PATH=/ -DROBOTSCAN_CONSUMER_ALL=ON

subproject=$source_dir/tests/install/subproject
echo "-- add_subdirectory(robotscan) for robots, every dependency hidden"
must_build "$empty" "$subproject" "$work/sub-robots" \
  -DROBOTSCAN_SOURCE_DIR="$source_dir"
echo "-- control: the same asking for storage too must fail for lack of sqlite3"
must_fail_for_sqlite3 "$empty" "$subproject" "$work/sub-storage" \
  -DROBOTSCAN_SOURCE_DIR="$source_dir" "-DROBOTSCAN_COMPONENTS=robots;storage"
echo "install consumers: all passed"
