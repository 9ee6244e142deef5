# The MPI-only build (CARTEX_MPI_ONLY, the smpi preset): comm/cart, comm/graph, comm/ranks, cartbench,
# graphbench and haloplans (heat3d's halo plans without Kokkos, apps/haloplans) with what they need of
# core and apps/entry, compiled here from those folders' sources without Kokkos, yaml-cpp or HDF5 (their
# own CMakeLists.txt build the full libraries). Built with SimGrid's smpicxx it runs on a simulated
# cluster (scripts/simulate.sh, docs/scale.md). The MPI features this MPI lacks are checked at configure
# time (cmake/CartexMpiFeatures.cmake) and left out of the programs, which list them as unavailable.
include(CartexMpiFeatures)
if(CARTEX_SMPI)
  add_compile_options(-include ${CMAKE_CURRENT_LIST_DIR}/smpi_no_exit_macro.h)
endif()

# cartex::core, MPI part: checked MPI calls, the error types, run_collectively and its agreement.
add_library(cartex_core STATIC core/src/mpi_check.cpp core/src/mpi_main.cpp core/src/agreement.cpp
                               core/src/launcher_output.cpp)
add_library(cartex::core ALIAS cartex_core)
target_include_directories(cartex_core PUBLIC ${PROJECT_SOURCE_DIR}/core/include)
target_link_libraries(cartex_core PUBLIC MPI::MPI_CXX PRIVATE fmt::fmt)

add_subdirectory(comm/cart)
add_subdirectory(comm/graph)
add_subdirectory(comm/ranks)

# cartex::entry without Kokkos: MPI start and stop, run_main (kokkos_args.cpp is the Kokkos part).
add_library(cartex_entry STATIC apps/entry/src/run_main.cpp apps/entry/src/mpi_session.cpp)
add_library(cartex::entry ALIAS cartex_entry)
target_include_directories(cartex_entry PUBLIC ${PROJECT_SOURCE_DIR}/apps/entry/include)
target_link_libraries(cartex_entry PUBLIC cartex::core MPI::MPI_CXX PRIVATE cartex::cart fmt::fmt)

add_subdirectory(apps/benchstats)
add_subdirectory(apps/cartbench)
add_subdirectory(apps/graphbench)
add_custom_target(cartex_apps)
add_dependencies(cartex_apps cartbench graphbench)

if(CARTEX_BUILD_TESTS)
  enable_testing()
  add_subdirectory(tests/smpi)
endif()
