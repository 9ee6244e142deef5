# Configure-time checks of the MPI features that not every MPI cartex meets has (SimGrid SMPI 3.32
# above all, docs/scale.md). Each sets CARTEX_HAVE_<FEATURE> (ON/OFF) and, when OFF,
# CARTEX_WHY_NO_<FEATURE> (the reason printed by cmake and by the programs that leave it out):
#
#   DIST_GRAPH    MPI_Dist_graph_create_adjacent and MPI_Neighbor_* work: compiled, and, under SMPI,
#                 run on 2 simulated ranks by smpirun (SMPI 3.32 declares them in smpi.h, links them,
#                 and aborts at run time: "Not yet implemented"); other MPIs: compiling is the check
#                 (a configure step does not start mpiexec)
#   PERSISTENT_COLLECTIVES   MPI_Neighbor_alltoallw_init (MPI-4) is declared
#
# CARTEX_SMPI is ON when the compiler is SimGrid's smpicc / smpicxx.
include(CheckCXXSourceCompiles)
include(CMakePushCheckState)

# CARTEX_SMPI: smpi.h's SMPI_H is what the MPI header defines under smpicxx.
check_cxx_source_compiles("#include <mpi.h>\n#ifndef SMPI_H\n#error not SMPI\n#endif\nint main() { return 0; }"
                          CARTEX_SMPI)

function(_cartex_mpi_feature name source why_compile)
  set(bin ${CMAKE_BINARY_DIR}/mpi-feature-checks/${name})
  file(MAKE_DIRECTORY ${bin})
  try_compile(compiled ${bin} SOURCES ${source}
              CMAKE_FLAGS -DINCLUDE_DIRECTORIES=${MPI_CXX_INCLUDE_DIRS}
              LINK_LIBRARIES ${MPI_CXX_LIBRARIES}
              COPY_FILE ${bin}/check OUTPUT_VARIABLE log)
  set(CARTEX_HAVE_${name} ON PARENT_SCOPE)
  set(CARTEX_WHY_NO_${name} "" PARENT_SCOPE)
  if(NOT compiled)
    set(CARTEX_HAVE_${name} OFF PARENT_SCOPE)
    set(CARTEX_WHY_NO_${name} "${why_compile}" PARENT_SCOPE)
    file(WRITE ${bin}/compile.log "${log}")
    return()
  endif()
  set(CARTEX_MPI_FEATURE_BINARY ${bin}/check PARENT_SCOPE)
endfunction()

# DIST_GRAPH
_cartex_mpi_feature(DIST_GRAPH ${CMAKE_CURRENT_LIST_DIR}/checks/dist_graph_neighbor.cpp
                    "the MPI header does not declare MPI_Dist_graph_create_adjacent and MPI_Neighbor_alltoall")
if(CARTEX_HAVE_DIST_GRAPH AND CARTEX_SMPI)
  find_program(CARTEX_SMPIRUN smpirun REQUIRED)
  set(dir ${CMAKE_BINARY_DIR}/mpi-feature-checks/DIST_GRAPH)
  file(WRITE ${dir}/platform.xml "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n  <zone id=\"check\" routing=\"Full\">\n    <host id=\"h0\" speed=\"1Gf\" core=\"2\"/>\n  </zone>\n</platform>\n")
  file(WRITE ${dir}/hosts "h0\nh0\n")
  execute_process(COMMAND ${CARTEX_SMPIRUN} -np 2 -platform ${dir}/platform.xml -hostfile ${dir}/hosts
                          --cfg=smpi/privatization:no ${CARTEX_MPI_FEATURE_BINARY}
                  WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT 60)
  file(WRITE ${dir}/run.log "${out}")
  if(NOT rc EQUAL 0)
    string(REGEX MATCH "Not yet implemented: [A-Za-z_]+" said "${out}")
    if(NOT said)
      set(said "exit ${rc}")
    endif()
    set(CARTEX_HAVE_DIST_GRAPH OFF)
    set(CARTEX_WHY_NO_DIST_GRAPH "SimGrid SMPI has no MPI_Dist_graph_create_adjacent / MPI_Neighbor_* (declared in smpi.h, but a 2-rank run under smpirun stops: ${said})")
  endif()
endif()

# PERSISTENT_COLLECTIVES
_cartex_mpi_feature(PERSISTENT_COLLECTIVES ${CMAKE_CURRENT_LIST_DIR}/checks/persistent_collectives.cpp
                    "the MPI header does not declare MPI_Neighbor_alltoallw_init (MPI-4 persistent collectives)")

foreach(feature DIST_GRAPH PERSISTENT_COLLECTIVES)
  if(CARTEX_HAVE_${feature})
    message(STATUS "MPI feature ${feature}: available")
  else()
    message(STATUS "MPI feature ${feature}: unavailable: ${CARTEX_WHY_NO_${feature}}")
  endif()
endforeach()
