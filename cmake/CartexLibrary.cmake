# cartex_add_library(<name> SOURCES ... [PUBLIC_LINK ...] [PRIVATE_LINK ...]): the static library
# cartex_<name>, its alias and exported name cartex::<name>, headers from include/, install rules.
function(cartex_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_LINK;PRIVATE_LINK" ${ARGN})
  set(target cartex_${name})
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(cartex::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_LINK} PRIVATE ${ARG_PRIVATE_LINK})
  target_compile_features(${target} PUBLIC cxx_std_${CMAKE_CXX_STANDARD})
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra>)
  # A sanitized library needs the sanitizer runtimes in whatever links it, including find_package users.
  if(CARTEX_SANITIZE)
    target_link_options(${target} INTERFACE -fsanitize=${CARTEX_SANITIZE})
  endif()
  set_property(GLOBAL APPEND PROPERTY CARTEX_INSTALLED_TARGETS ${target})
  install(TARGETS ${target} EXPORT cartexTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h*")
endfunction()
