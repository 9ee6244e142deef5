# Test helpers: mpiexec flags for this kind of machine, one ctest per rank count, and an Open MPI
# session directory of its own for every test.

# The flags come from the one launcher description (scripts/mpi_launcher.py: Open MPI or Hydra) for
# MPIEXEC_EXECUTABLE: 2 cores, tests run up to 8 ranks, side by side, as root or not.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
execute_process(
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/mpi_launcher.py --mpiexec ${MPIEXEC_EXECUTABLE}
          flags 8 --any-user --unbound
  OUTPUT_VARIABLE CARTEX_MPIEXEC_FLAGS ERROR_VARIABLE why RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(rc)
  message(FATAL_ERROR "cartex tests: no launcher for MPIEXEC_EXECUTABLE=${MPIEXEC_EXECUTABLE}: ${why}")
endif()
string(REPLACE "\n" ";" CARTEX_MPIEXEC_FLAGS "${CARTEX_MPIEXEC_FLAGS}")

# Labels say which configurations run a test (docs/testing.md, "Configurations"); the test presets
# of CMakePresets.json choose by them, no script names a test:
#
#   label        set by                         meaning                               chosen by
#   <folder>     cartex_finish_test_folder()    the tests/ folder, i.e. the layer     openmp, mpich (include)
#   np<N>        cartex_add_mpi_test()          one MPI program run on N ranks        openmp (no 5-8),
#                                                                                     mpich (no 3-8)
#   long         the test's declaration         10-60 s, outside the everyday run     everyday, mpich
#                                                                                     (exclude)
#   slow         the test's declaration         8-20 s, outside the everyday run      everyday (exclude)
#                                               only: the other configurations keep it
#   inputs       the test's declaration         refused before any Kokkos loop runs   openmp (exclude)
#   wide         the test's declaration         a driver that starts many jobs of     openmp, mpich
#                                               up to 8 ranks                         (exclude)
#   asan         cartex_asan_tests() or         cheap enough under ASan, and reaches  asan (include)
#                cartex_add_mpi_test(ASAN_RANKS) code no cheaper test reaches
#   numerics     the test's declaration         checks numbers through 1-2 rank runs  mpich (exclude)
#   testbed      tests/multinode                needs the network-namespace cluster   mpich (exclude)
#   slurm        cartex_finish_test_folder()    jobs on the Slurm testbed (needs          everyday
#                (tests/slurm)                  scripts/setup.sh --slurm)                 (exclude)

# cartex_add_mpi_test(<target> RANKS n... [ASAN_RANKS n...] [ARGS ...]): one ctest "<target>.np<n>" per
# rank count, labelled np<n>; those of ASAN_RANKS also asan (the sanitized configuration runs them).
function(cartex_add_mpi_test target)
  cmake_parse_arguments(ARG "" "" "RANKS;ASAN_RANKS;ARGS" ${ARGN})
  foreach(np IN LISTS ARG_ASAN_RANKS)
    if(NOT np IN_LIST ARG_RANKS)
      message(FATAL_ERROR "cartex_add_mpi_test(${target}): ASAN_RANKS ${np} is not one of RANKS ${ARG_RANKS}")
    endif()
  endforeach()
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
    set_property(TEST ${target}.np${np} APPEND PROPERTY LABELS np${np})
  endforeach()
  if(ARG_ASAN_RANKS)
    list(TRANSFORM ARG_ASAN_RANKS PREPEND ${target}.np OUTPUT_VARIABLE asan_tests)
    cartex_asan_tests(${asan_tests} NEEDS ${target})
  endif()
endfunction()

# cartex_asan_tests(test... NEEDS target...): the tests join the sanitized configuration (label asan),
# and the build target cartex_tests_asan (cartex_finish_asan_target()) builds what they run, so that
# configuration builds no more than its tests need.
function(cartex_asan_tests)
  cmake_parse_arguments(ARG "" "" "NEEDS" ${ARGN})
  set_property(TEST ${ARG_UNPARSED_ARGUMENTS} APPEND PROPERTY LABELS asan)
  set_property(GLOBAL APPEND PROPERTY CARTEX_ASAN_TARGETS ${ARG_NEEDS})
endfunction()

function(cartex_finish_asan_target)
  get_property(targets GLOBAL PROPERTY CARTEX_ASAN_TARGETS)
  list(REMOVE_DUPLICATES targets)
  add_custom_target(cartex_tests_asan)
  add_dependencies(cartex_tests_asan ${targets})
endfunction()

# cartex_finish_test_folder(): called once at the end of a tests/ folder's CMakeLists.txt; gives every
# test of the folder
#  - the folder's name as ctest label (core, cart, halo, apps, ...): the CI configurations other than
#    Release run the layers they can change, chosen by label (docs/testing.md, "Configurations");
#  - an Open MPI session-directory base of its own in the build tree (Open MPI creates it). Open MPI 4
#    keeps one session directory per user and host (/tmp/ompi.<host>.<uid>), creates it when a job
#    starts and removes it when the last job ends; a job that starts at that moment fails with
#    "mkdir ...: File exists" (open-mpi/ompi#8510), and ctest -j starts jobs side by side. Other MPIs
#    ignore the variable;
#  - Open MPI's point-to-point layer named: ob1, the one it selects on one node anyway. Selecting it
#    opens the cm layer's MTLs first (libfabric, PSM2) to find none: 0.2 s of every launch, half of a
#    small job's wall time, thousands of launches in the suite (docs/testing.md, "The CI budget");
#  - no grace between Open MPI's SIGTERM and SIGKILL when a job ends with a rank's non-zero exit
#    (odls_base_sigkill_timeout, default 1 s): mpirun sleeps that second twice even when every rank has
#    already exited, 2.4 s instead of 0.35 s for every refused input, hundreds of them in the suite. No
#    test relies on the grace: the ones that stop ranks by signal send them themselves.
#  - to every test program of the folder linked with a GoogleTest main, the precompiled header of that
#    main (tests/support/CMakeLists.txt), where the build makes one.
# tests/scripts checks that no test misses either. The multinode tests do not call it: their testbed
# gives each simulated node its own TMPDIR, and they carry their label themselves.
function(cartex_finish_test_folder)
  get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    set_property(TEST ${test} APPEND PROPERTY LABELS ${folder})
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
                 "OMPI_MCA_orte_tmpdir_base=${CMAKE_BINARY_DIR}/mpi-sessions/${test}" "OMPI_MCA_pml=ob1"
                 "OMPI_MCA_odls_base_sigkill_timeout=0")
  endforeach()
  get_property(targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(libs ${target} LINK_LIBRARIES)
    if(NOT type STREQUAL "EXECUTABLE" OR NOT libs)
      continue()
    endif()
    foreach(main cartex_gtest_mpi_kokkos cartex_gtest_mpi)
      if(main IN_LIST libs AND TARGET ${main}_pch AND NOT target STREQUAL "${main}_pch")
        target_precompile_headers(${target} REUSE_FROM ${main}_pch)
        break()
      endif()
    endforeach()
  endforeach()
  # cartex_tests_<folder>: what the tests of this label need built (the folder's own targets and the
  # apps the test drivers launch), so that a configuration that runs some labels builds only those.
  add_custom_target(cartex_tests_${folder})
  if(targets)
    add_dependencies(cartex_tests_${folder} ${targets})
  endif()
  if(TARGET cartex_apps)
    add_dependencies(cartex_tests_${folder} cartex_apps)
  endif()
endfunction()
