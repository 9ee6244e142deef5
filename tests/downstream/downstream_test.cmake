# Installs the cartex build tree into a scratch prefix, then configures, builds and runs the downstream
# project against it with find_package(cartex); then checks that find_package(cartex) refuses another
# Kokkos than the one cartex was built with, even of the same version. Variables: BUILD_DIR, SOURCE_DIR,
# WORK_DIR, MPIEXEC, GENERATOR, KOKKOS_VERSION.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the downstream project against the install tree failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the downstream project failed (${rc})")
endif()
execute_process(COMMAND ${MPIEXEC} -n 2 --oversubscribe --allow-run-as-root ${WORK_DIR}/build/downstream
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc OR NOT out MATCHES "downstream ok")
  message(FATAL_ERROR "the downstream program failed (${rc})")
endif()

# Another Kokkos of the same version (as Debian's 3.4 Serial is next to a 3.4 OpenMP build): refused.
file(WRITE ${WORK_DIR}/other-kokkos/KokkosConfig.cmake "set(Kokkos_FOUND TRUE)\n")
file(WRITE ${WORK_DIR}/other-kokkos/KokkosConfigVersion.cmake
  "set(PACKAGE_VERSION ${KOKKOS_VERSION})\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\nset(PACKAGE_VERSION_EXACT TRUE)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build-other -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DKokkos_DIR=${WORK_DIR}/other-kokkos
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE "\n" " " text "${out}${err}")
string(REGEX REPLACE " +" " " text "${text}")
if(NOT rc OR NOT text MATCHES "cartex was built with Kokkos ${KOKKOS_VERSION} \\(.*\\), but this project found Kokkos ${KOKKOS_VERSION} \\(${WORK_DIR}/other-kokkos\\)")
  message(FATAL_ERROR "find_package(cartex) accepted another Kokkos (exit ${rc}):\n${out}${err}")
endif()
message("another Kokkos of the same version is refused")
