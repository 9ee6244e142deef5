# cartex_equation(<source> EQUATION <name> PROGRAM <program>): one equation of physics/'s registry, in
# one line of physics/CMakeLists.txt: its row's source joins cartex_physics, and apps/ makes its
# program (cartex_equation_programs), a main that runs the row through cartex::app::app_main.
function(cartex_equation source)
  cmake_parse_arguments(ARG "" "EQUATION;PROGRAM" "" ${ARGN})
  if(NOT ARG_EQUATION OR NOT ARG_PROGRAM)
    message(FATAL_ERROR "cartex_equation(${source}): EQUATION and PROGRAM are required")
  endif()
  target_sources(cartex_physics PRIVATE ${source})
  set_property(GLOBAL APPEND PROPERTY CARTEX_EQUATION_PROGRAMS "${ARG_PROGRAM}:${ARG_EQUATION}")
endfunction()

# cartex_equation_programs(): every program cartex_equation declared (from apps/CMakeLists.txt, where
# cartex::app exists), generated from apps/driver/equation_main.cpp.in; their names in ${out}.
function(cartex_equation_programs out)
  get_property(entries GLOBAL PROPERTY CARTEX_EQUATION_PROGRAMS)
  set(programs "")
  foreach(entry IN LISTS entries)
    string(REPLACE ":" ";" pair "${entry}")
    list(GET pair 0 PROGRAM)
    list(GET pair 1 EQUATION)
    configure_file(${PROJECT_SOURCE_DIR}/apps/driver/equation_main.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/${PROGRAM}_main.cpp @ONLY)
    add_executable(${PROGRAM} ${CMAKE_CURRENT_BINARY_DIR}/${PROGRAM}_main.cpp)
    target_link_libraries(${PROGRAM} PRIVATE cartex::app)
    install(TARGETS ${PROGRAM} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    list(APPEND programs ${PROGRAM})
  endforeach()
  set(${out} ${programs} PARENT_SCOPE)
endfunction()
