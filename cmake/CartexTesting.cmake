# Test helpers: mpiexec flags for this kind of machine, one ctest per rank count, and an Open MPI
# session directory of its own for every test.

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

# Open MPI 4 keeps one session directory per user and host (/tmp/ompi.<host>.<uid>), creates it when a
# job starts and removes it when the last job ends; a job that starts at that moment fails with
# "mkdir ...: File exists" (open-mpi/ompi#8510), and ctest -j starts jobs side by side. So every test
# of the calling folder gets a session-directory base of its own in the build tree (Open MPI creates
# it). Call once at the end of a tests/ folder's CMakeLists.txt; tests/scripts checks that none is
# missing. The multinode tests do not call it: their testbed gives each simulated node its own TMPDIR.
function(cartex_isolate_mpi_sessions)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
                 "OMPI_MCA_orte_tmpdir_base=${CMAKE_BINARY_DIR}/mpi-sessions/${test}")
  endforeach()
endfunction()
