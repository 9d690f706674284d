#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds and runs two
# outside consumers against it: a CMake project (find_package(robotscan)) and
# a C program compiled with flags from pkg-config.
#
# usage: run_install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null

echo "-- CMake consumer (find_package)"
cmake -S "$source_dir/tests/install/consumer" -B "$work/cmake-build" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer"

echo "-- C consumer (pkg-config)"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig"
flags=$(pkg-config --cflags --libs robotscan-robots)
cc -std=c99 -Wall -Werror "$source_dir/tests/install/consumer/consumer.c" \
  $flags -o "$work/c-consumer"
"$work/c-consumer"
