# Test helpers: mpiexec flags for this kind of machine and one ctest per rank count.

# 2 cores, tests run up to 8 ranks, CI may run as root.
set(CARTEX_MPIEXEC_FLAGS --oversubscribe --allow-run-as-root --bind-to none)

# cartex_add_mpi_test(<target> RANKS n... [ARGS ...]): one ctest "<target>.np<n>" per rank count.
function(cartex_add_mpi_test target)
  cmake_parse_arguments(ARG "" "" "RANKS;ARGS" ${ARGN})
  foreach(np IN LISTS ARG_RANKS)
    add_test(NAME ${target}.np${np}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${CARTEX_MPIEXEC_FLAGS}
              $<TARGET_FILE:${target}> ${ARG_ARGS})
    # Two cores: ctest -j2 may run two 1-rank tests side by side, a larger run alone.
    if(np GREATER 1)
      set_tests_properties(${target}.np${np} PROPERTIES PROCESSORS 2 TIMEOUT 300)
    else()
      set_tests_properties(${target}.np${np} PROPERTIES PROCESSORS 1 TIMEOUT 300)
    endif()
  endforeach()
endfunction()
