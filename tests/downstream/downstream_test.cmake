# Installs the cartex build tree into a scratch prefix, then configures, builds and runs the downstream
# project against it with find_package(cartex) (which must pick cartex's MPI and HDF5 by itself); then
# checks that find_package(cartex) refuses another Kokkos than the one cartex was built with, even of
# the same version, and another MPI (the other of Open MPI and MPICH, when both are installed), and that
# configuring cartex itself with the other MPI's parallel HDF5 is refused.
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

# expect_refused(WHAT PATTERN SOURCE BUILD ARGS...): configuring SOURCE into BUILD with ARGS must fail
# with a message matching PATTERN (the output's lines joined, runs of blanks made one).
function(expect_refused what pattern source build)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source} -B ${build} -G ${GENERATOR} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE "\n" " " text "${out}${err}")
  string(REGEX REPLACE " +" " " text "${text}")
  if(NOT rc OR NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what} was accepted (exit ${rc}):\n${out}${err}")
  endif()
  message("${what} is refused")
endfunction()

# Another Kokkos of the same version (as Debian's 3.4 Serial is next to a 3.4 OpenMP build): refused.
file(WRITE ${WORK_DIR}/other-kokkos/KokkosConfig.cmake "set(Kokkos_FOUND TRUE)\n")
file(WRITE ${WORK_DIR}/other-kokkos/KokkosConfigVersion.cmake
  "set(PACKAGE_VERSION ${KOKKOS_VERSION})\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\nset(PACKAGE_VERSION_EXACT TRUE)\n")
expect_refused("another Kokkos of the same version"
  "cartex was built with Kokkos ${KOKKOS_VERSION} \\(.*\\), but this project found Kokkos ${KOKKOS_VERSION} \\(${WORK_DIR}/other-kokkos\\)"
  ${SOURCE_DIR} ${WORK_DIR}/build-other -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DKokkos_DIR=${WORK_DIR}/other-kokkos)

# Another MPI, and the HDF5 of another MPI, where both MPIs are installed.
if(MPI_FAMILY STREQUAL "MPICH")
  set(other_family "Open MPI")
  set(other_flavour openmpi)
else()
  set(other_family "MPICH")
  set(other_flavour mpich)
endif()
find_program(other_cxx NAMES mpicxx.${other_flavour})
find_program(other_c NAMES mpicc.${other_flavour})
if(NOT other_cxx OR NOT other_c)
  message("another MPI is not checked: no ${other_family} compiler wrappers here (scripts/setup.sh --mpi mpich installs MPICH)")
  return()
endif()
# The downstream project asks for the other MPI with its compiler wrappers: refused by name.
expect_refused("another MPI (${other_family})"
  "cartex was built with ${MPI_FAMILY} \\(.*\\), but this project found ${other_family} \\(${other_cxx}: "
  ${SOURCE_DIR} ${WORK_DIR}/build-other-mpi -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
  -DMPI_C_COMPILER=${other_c} -DMPI_CXX_COMPILER=${other_cxx})
# cartex itself, configured with this build's MPI and Kokkos but the other MPI's parallel HDF5: refused
# at configure time (cmake/CartexMpi.cmake), before anything is built.
file(STRINGS ${BUILD_DIR}/CMakeCache.txt cache REGEX "^(MPI_C_COMPILER|MPI_CXX_COMPILER|Kokkos_DIR|CMAKE_CXX_COMPILER):")
set(same "")
foreach(line IN LISTS cache)
  string(REGEX REPLACE "^([A-Za-z_]+):[A-Z]+=(.*)$" "-D\\1=\\2" arg "${line}")
  list(APPEND same "${arg}")
endforeach()
file(GLOB other_hdf5 /usr/lib/*/hdf5/${other_flavour})
if(NOT other_hdf5)
  message("the HDF5 of another MPI is not checked: no ${other_family} HDF5 under /usr/lib/<multiarch>/hdf5")
  return()
endif()
get_filename_component(cartex_source "${SOURCE_DIR}/../../.." REALPATH)
expect_refused("the HDF5 of another MPI (${other_family})"
  "is built on another MPI \\(it needs "
  ${cartex_source} ${WORK_DIR}/build-other-hdf5 ${same} -DHDF5_ROOT=${other_hdf5}
  -DCARTEX_BUILD_TESTS=OFF -DCARTEX_BUILD_APPS=OFF)
