# Warning and sanitizer flags, applied per target through the INTERFACE
# library robotscan_build_flags (never exported, never global).
add_library(robotscan_build_flags INTERFACE)
target_compile_options(robotscan_build_flags INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wformat=2
  # GCC 12 at -O3 reports impossible overlaps inside libstdc++'s own
  # std::string code (GCC bug 105329); the warning says nothing about ours.
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
  $<$<BOOL:${ROBOTSCAN_WERROR}>:-Werror>)

if(ROBOTSCAN_BUILD_FUZZERS)
  # Instrument the libraries too, so libFuzzer sees their coverage.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

if(ROBOTSCAN_SANITIZE)
  # Applied to every target, third-party-facing code included, so that the
  # whole process runs instrumented.
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# robotscan_add_library(NAME SOURCES...): one library per folder, public
# headers in <lib>/include, alias robotscan::NAME, installed and exported.
function(robotscan_add_library name)
  add_library(${name} ${ARGN})
  add_library(robotscan::${name} ALIAS ${name})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_compile_features(${name} PUBLIC cxx_std_17)
  target_link_libraries(${name} PRIVATE $<BUILD_INTERFACE:robotscan_build_flags>)
  set_target_properties(${name} PROPERTIES OUTPUT_NAME robotscan_${name}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
endfunction()

# robotscan_add_fuzzer(NAME SOURCES... LIBS ...): a libFuzzer target, built
# only in the fuzz preset (clang), output in <build>/fuzzers/NAME.
function(robotscan_add_fuzzer name)
  cmake_parse_arguments(F "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${F_SOURCES})
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined
                         -fno-sanitize-recover=undefined)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(${name} PRIVATE ${F_LIBS} $<BUILD_INTERFACE:robotscan_build_flags>)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzzers)
endfunction()
