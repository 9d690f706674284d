# Installs every built library with its headers, a CMake package with one
# component per library (find_package(robotscan COMPONENTS ...) ->
# robotscan::<name>) and one pkg-config file per library.
#
# Per component <c>, in ${ROBOTSCAN_CMAKE_DIR}:
#   robotscan-<c>-targets.cmake       the imported target (install(EXPORT))
#   robotscan-<c>-dependencies.cmake  its third-party dependencies, as
#                                     recorded by robotscan_dependency()
# and robotscan-<c>.pc in <libdir>/pkgconfig. robotscanConfig.cmake loads
# the asked-for components and those they link.
include(CMakePackageConfigHelpers)

set(ROBOTSCAN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/robotscan)
set(generated ${PROJECT_BINARY_DIR}/robotscan-package)

# Relocatable .pc files: the prefix is found relative to the .pc file, so
# that `cmake --install --prefix P` works whatever prefix was configured.
file(RELATIVE_PATH ROBOTSCAN_PC_PREFIX_FROM_PCDIR
  "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
# Static C++ libraries need the C++ runtime when a C program links them.
if(BUILD_SHARED_LIBS)
  set(pc_libs "")
else()
  set(pc_libs -lstdc++ -lm)
endif()

set(ROBOTSCAN_CONFIG_COMPONENT_LINKS "")
foreach(component IN LISTS ROBOTSCAN_BUILT_COMPONENTS)
  install(TARGETS ${component} EXPORT robotscan-${component}-targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${component}/include/robotscan/${component}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/robotscan COMPONENT dev)
  # Generated headers (base's version.h).
  if(IS_DIRECTORY ${PROJECT_BINARY_DIR}/${component}/include/robotscan/${component})
    install(DIRECTORY ${PROJECT_BINARY_DIR}/${component}/include/robotscan/${component}
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/robotscan COMPONENT dev)
  endif()
  install(EXPORT robotscan-${component}-targets
    NAMESPACE robotscan::
    FILE robotscan-${component}-targets.cmake
    DESTINATION ${ROBOTSCAN_CMAKE_DIR}
    COMPONENT dev)

  get_property(dependencies GLOBAL PROPERTY
    ROBOTSCAN_CONFIG_DEPENDENCIES_${component})
  file(CONFIGURE OUTPUT ${generated}/robotscan-${component}-dependencies.cmake
    CONTENT "# Third-party dependencies of robotscan::${component} (generated \
from its\n# robotscan_dependency() calls; loaded by robotscanConfig.cmake).\n\
${dependencies}" @ONLY)
  install(FILES ${generated}/robotscan-${component}-dependencies.cmake
    DESTINATION ${ROBOTSCAN_CMAKE_DIR} COMPONENT dev)

  string(APPEND ROBOTSCAN_CONFIG_COMPONENT_LINKS
    "set(_robotscan_links_${component} ${ROBOTSCAN_COMPONENT_LINKS_${component}})\n")

  # pkg-config: robotscan libraries whose headers ours include are Requires,
  # everything else the library links is Requires.private for a shared
  # library (needed only by `pkg-config --static`). A static archive needs
  # its dependencies in every link, so there they are Requires: with
  # Requires.private the consumer would have to ask for --static, and that
  # also drags in every system library's own static dependencies (libcurl's
  # nghttp2, rtmp, ssh2, psl, krb5, ldap, ...), which fails without their
  # -dev packages, although the consumer links the shared libcurl.
  set(pc_component ${component})
  set(pc_description "${ROBOTSCAN_COMPONENT_DESCRIPTION_${component}}")
  set(requires "")
  set(requires_private "")
  foreach(link IN LISTS ROBOTSCAN_COMPONENT_LINKS_${component})
    if(link IN_LIST ROBOTSCAN_COMPONENT_PUBLIC_LINKS_${component})
      list(APPEND requires robotscan-${link})
    else()
      list(APPEND requires_private robotscan-${link})
    endif()
  endforeach()
  get_property(modules GLOBAL PROPERTY ROBOTSCAN_PC_REQUIRES_${component})
  list(APPEND requires_private ${modules})
  get_property(libs_private GLOBAL PROPERTY
    ROBOTSCAN_PC_LIBS_PRIVATE_${component})
  if(component IN_LIST ROBOTSCAN_HEADER_ONLY_COMPONENTS)
    set(pc_own_lib "")
    set(libs "")
  else()
    set(pc_own_lib "-lrobotscan_${component}")
    set(libs ${pc_libs})
  endif()
  if(NOT BUILD_SHARED_LIBS)
    list(APPEND requires ${requires_private})
    set(requires_private "")
    list(APPEND libs ${libs_private})
    set(libs_private "")
  endif()
  list(JOIN requires ", " pc_requires)
  list(JOIN requires_private ", " pc_requires_private)
  list(JOIN libs " " pc_link_libs)
  list(JOIN libs_private " " pc_libs_private)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/robotscan-component.pc.in
    ${generated}/robotscan-${component}.pc @ONLY)
  install(FILES ${generated}/robotscan-${component}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endforeach()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/robotscanConfig.cmake.in
  ${generated}/robotscanConfig.cmake
  INSTALL_DESTINATION ${ROBOTSCAN_CMAKE_DIR})
write_basic_package_version_file(
  ${generated}/robotscanConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${generated}/robotscanConfig.cmake
  ${generated}/robotscanConfigVersion.cmake
  DESTINATION ${ROBOTSCAN_CMAKE_DIR}
  COMPONENT dev)
