# Installs the libraries, their headers, a CMake package
# (find_package(robotscan) -> robotscan::robots, ...) and pkg-config files.
include(CMakePackageConfigHelpers)

set(ROBOTSCAN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/robotscan)

install(EXPORT robotscanTargets
  NAMESPACE robotscan::
  DESTINATION ${ROBOTSCAN_CMAKE_DIR}
  COMPONENT dev)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/robotscanConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/robotscanConfig.cmake
  INSTALL_DESTINATION ${ROBOTSCAN_CMAKE_DIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/robotscanConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/robotscanConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/robotscanConfigVersion.cmake
  DESTINATION ${ROBOTSCAN_CMAKE_DIR}
  COMPONENT dev)

# pkg-config: one .pc per installable library. A static libstdc++-using
# library needs -lstdc++ when a C program links it.
if(BUILD_SHARED_LIBS)
  set(ROBOTSCAN_PC_LIBS_PRIVATE "")
else()
  set(ROBOTSCAN_PC_LIBS_PRIVATE "-lstdc++ -lm")
endif()
# Relocatable: the prefix is found relative to the .pc file, so that
# `cmake --install --prefix P` works whatever prefix was configured.
file(RELATIVE_PATH ROBOTSCAN_PC_PREFIX_FROM_PCDIR
  "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/robotscan-robots.pc.in
  ${CMAKE_CURRENT_BINARY_DIR}/robotscan-robots.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/robotscan-robots.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
  COMPONENT dev)
