# The libraries ("components") of robotscan, which of them this build makes,
# and a record of each one's third-party dependencies, kept where they are
# found so that the installed CMake package and pkg-config files recreate
# exactly those (cmake/RobotscanInstall.cmake writes them).

# Every component, in an order where each comes after those it links.
set(ROBOTSCAN_ALL_COMPONENTS base robots storage crawler report regexguard)
# Header-only components: no archive, so their .pc files have no -l.
set(ROBOTSCAN_HEADER_ONLY_COMPONENTS base)

# The robotscan libraries each component links, directly or not (the
# component's CMakeLists.txt links the direct ones; this table must agree,
# which tests/install checks by building a consumer of each).
# robots uses base only while it is built (its headers and archive need
# nothing of it), so an installed robots needs no other component: the
# build-only links are listed apart.
set(ROBOTSCAN_COMPONENT_LINKS_base "")
set(ROBOTSCAN_COMPONENT_LINKS_robots "")
set(ROBOTSCAN_COMPONENT_BUILD_LINKS_robots base)
set(ROBOTSCAN_COMPONENT_LINKS_storage base robots)
set(ROBOTSCAN_COMPONENT_LINKS_crawler base robots storage)
set(ROBOTSCAN_COMPONENT_LINKS_report base robots storage)
set(ROBOTSCAN_COMPONENT_LINKS_regexguard base)
# Of those, the ones whose headers the component's public headers include
# (pkg-config Requires rather than Requires.private).
set(ROBOTSCAN_COMPONENT_PUBLIC_LINKS_storage base robots)
set(ROBOTSCAN_COMPONENT_PUBLIC_LINKS_crawler base storage)
set(ROBOTSCAN_COMPONENT_PUBLIC_LINKS_report base robots storage)
set(ROBOTSCAN_COMPONENT_PUBLIC_LINKS_regexguard base)

# One line each, for the pkg-config files.
set(ROBOTSCAN_COMPONENT_DESCRIPTION_base
  "robotscan base: Status/Result, ASCII helpers, version (header-only)")
set(ROBOTSCAN_COMPONENT_DESCRIPTION_robots
  "RFC 9309 robots.txt parser and matcher (C++ and C API)")
set(ROBOTSCAN_COMPONENT_DESCRIPTION_storage
  "robotscan crawl database (SQLite): schema, migrations, latest_fetch")
set(ROBOTSCAN_COMPONENT_DESCRIPTION_crawler
  "robotscan crawler: top lists, libcurl multi + c-ares + Asio fetching")
set(ROBOTSCAN_COMPONENT_DESCRIPTION_report
  "robotscan report: the analysis of a crawl database")
set(ROBOTSCAN_COMPONENT_DESCRIPTION_regexguard
  "regexguard: ReDoS analyser with PCRE2-confirmed attacks")

# ROBOTSCAN_COMPONENTS (asked for) -> ROBOTSCAN_BUILT_COMPONENTS: the asked
# ones and what they link, in ROBOTSCAN_ALL_COMPONENTS order.
function(robotscan_resolve_components)
  set(wanted "")
  foreach(component IN LISTS ROBOTSCAN_COMPONENTS)
    if(NOT component IN_LIST ROBOTSCAN_ALL_COMPONENTS)
      message(FATAL_ERROR "ROBOTSCAN_COMPONENTS: unknown component "
        "'${component}' (known: ${ROBOTSCAN_ALL_COMPONENTS})")
    endif()
    list(APPEND wanted ${component} ${ROBOTSCAN_COMPONENT_LINKS_${component}}
         ${ROBOTSCAN_COMPONENT_BUILD_LINKS_${component}})
  endforeach()
  set(built "")
  foreach(component IN LISTS ROBOTSCAN_ALL_COMPONENTS)
    if(component IN_LIST wanted)
      list(APPEND built ${component})
    endif()
  endforeach()
  set(ROBOTSCAN_BUILT_COMPONENTS ${built} PARENT_SCOPE)
endfunction()

# True in ${out} when every listed component is built.
function(robotscan_components_built out)
  set(all TRUE)
  foreach(component IN LISTS ARGN)
    if(NOT component IN_LIST ROBOTSCAN_BUILT_COMPONENTS)
      set(all FALSE)
    endif()
  endforeach()
  set(${out} ${all} PARENT_SCOPE)
endfunction()

# robotscan_dependency(COMPONENT
#     PACKAGE <find_package arguments...> [PC <pkg-config module>...]
#     [LIBS_PRIVATE <linker flags>...])
# robotscan_dependency(COMPONENT PKG_CONFIG <PREFIX> <module>)
#
# Finds a third-party dependency of COMPONENT (REQUIRED) and records it:
# PACKAGE becomes find_dependency(<arguments>) in the installed package,
# PKG_CONFIG becomes pkg_check_modules(<PREFIX> IMPORTED_TARGET <module>)
# (target PkgConfig::<PREFIX>), and the pkg-config module names go into
# the component's .pc as Requires.private. A macro, so that the variables
# find_package sets stay visible to the caller. Header-only dependencies
# that no consumer needs are linked $<BUILD_INTERFACE:...> instead.
macro(robotscan_dependency component)
  cmake_parse_arguments(_rd "" "" "PACKAGE;PC;PKG_CONFIG;LIBS_PRIVATE" ${ARGN})
  if(_rd_PACKAGE)
    find_package(${_rd_PACKAGE} REQUIRED)
    list(JOIN _rd_PACKAGE " " _rd_args)
    set_property(GLOBAL APPEND_STRING PROPERTY
      ROBOTSCAN_CONFIG_DEPENDENCIES_${component}
      "find_dependency(${_rd_args})\n")
    set_property(GLOBAL APPEND PROPERTY ROBOTSCAN_PC_REQUIRES_${component}
      ${_rd_PC})
  elseif(_rd_PKG_CONFIG)
    list(GET _rd_PKG_CONFIG 0 _rd_prefix)
    list(GET _rd_PKG_CONFIG 1 _rd_module)
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(${_rd_prefix} REQUIRED IMPORTED_TARGET ${_rd_module})
    set_property(GLOBAL APPEND_STRING PROPERTY
      ROBOTSCAN_CONFIG_DEPENDENCIES_${component}
      "_robotscan_pkg_config_dependency(${_rd_prefix} ${_rd_module})\n")
    set_property(GLOBAL APPEND PROPERTY ROBOTSCAN_PC_REQUIRES_${component}
      ${_rd_module})
  else()
    message(FATAL_ERROR "robotscan_dependency(${component}): PACKAGE or "
      "PKG_CONFIG expected")
  endif()
  set_property(GLOBAL APPEND PROPERTY ROBOTSCAN_PC_LIBS_PRIVATE_${component}
    ${_rd_LIBS_PRIVATE})
endmacro()
