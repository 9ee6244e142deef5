# Installs the cartex build tree into a scratch prefix, then configures, builds and runs the downstream
# project against it with find_package(cartex) (which must pick cartex's MPI and HDF5 by itself); then
# checks that find_package(cartex) refuses another Kokkos than the one cartex was built with, even of
# the same version, and another MPI (the other of Open MPI and MPICH, when both are installed).
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, MPIEXEC, FLAGS (mpiexec options, space-separated),
# GENERATOR, KOKKOS_VERSION, MPI_FAMILY ("Open MPI" or "MPICH").
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
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
execute_process(COMMAND ${MPIEXEC} -n 2 ${flags} ${WORK_DIR}/build/downstream
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

# Another MPI: the downstream project asks for it with its compiler wrappers, and is refused by name.
if(MPI_FAMILY STREQUAL "MPICH")
  set(other_family "Open MPI")
  find_program(other_cxx NAMES mpicxx.openmpi)
  find_program(other_c NAMES mpicc.openmpi)
else()
  set(other_family "MPICH")
  find_program(other_cxx NAMES mpicxx.mpich)
  find_program(other_c NAMES mpicc.mpich)
endif()
if(NOT other_cxx OR NOT other_c)
  message("another MPI is not checked: no ${other_family} compiler wrappers here (scripts/setup.sh --mpi mpich installs MPICH)")
  return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build-other-mpi -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DMPI_C_COMPILER=${other_c} -DMPI_CXX_COMPILER=${other_cxx}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE "\n" " " text "${out}${err}")
string(REGEX REPLACE " +" " " text "${text}")
if(NOT rc OR NOT text MATCHES "cartex was built with ${MPI_FAMILY} \\(.*\\), but this project found ${other_family} \\(${other_cxx}: ")
  message(FATAL_ERROR "find_package(cartex) accepted another MPI (exit ${rc}):\n${out}${err}")
endif()
message("another MPI (${other_family}) is refused")
