# The MPI-only build (CARTEX_MPI_ONLY, the smpi preset): comm/cart, comm/graph, comm/ranks, cartbench,
# graphbench and haloplans (heat3d's halo plans without Kokkos, apps/haloplans) with what they need of
# core and apps/entry, compiled here from those folders' sources without Kokkos, yaml-cpp or HDF5 (their
# own CMakeLists.txt build the full libraries). Built with SimGrid's smpicxx it runs on a simulated
# cluster (scripts/simulate.sh, docs/scale.md). The MPI features this MPI lacks are checked at configure
# time (cmake/CartexMpiFeatures.cmake) and left out of the programs, which list them as unavailable.
include(CartexMpiFeatures)
if(CARTEX_SMPI)
  # smpi_helpers.h, force-included by smpicxx, turns exit(x) and malloc/free into macros: exit breaks
  # CLI11's App::exit, free a local name in core; cartex uses neither SMPI's shared malloc nor its exit.
  add_compile_options(-include ${CMAKE_CURRENT_LIST_DIR}/smpi_no_exit_macro.h)
  add_compile_definitions(SMPI_NO_OVERRIDE_MALLOC)
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

# heat3d's halo geometry without Kokkos: core's grid, decomposition and stencils (with the wall rows the
# grid spacing reads), comm/halo's geometry and stencil walk (HaloPattern and the backends include Kokkos).
# The wall rows also read walls from YAML input, which haloplans never does: compiled a function a
# section and hidden, the linker drops those functions (--gc-sections) instead of needing the input layer.
file(GLOB _cx_wall_sources ${PROJECT_SOURCE_DIR}/core/src/walls/*.cpp)
add_library(cartex_halo_geometry STATIC core/src/stencil.cpp core/src/stencil_registry.cpp core/src/decomposition.cpp
            core/src/yaml_reader.cpp ${_cx_wall_sources} comm/halo/src/geometry.cpp comm/halo/src/step_distance.cpp)
target_include_directories(cartex_halo_geometry PUBLIC ${PROJECT_SOURCE_DIR}/comm/halo/include)
target_compile_options(cartex_halo_geometry PRIVATE -ffunction-sections -fdata-sections -fvisibility=hidden)
target_link_libraries(cartex_halo_geometry PUBLIC cartex::core PRIVATE fmt::fmt)
target_link_options(cartex_halo_geometry INTERFACE -Wl,--gc-sections)
find_package(yaml-cpp REQUIRED)  # the wall rows' table holds their YAML readers: yaml-cpp links, unused
target_link_libraries(cartex_halo_geometry PRIVATE yaml-cpp)

add_subdirectory(apps/benchstats)
add_subdirectory(apps/cartbench)
add_subdirectory(apps/graphbench)
add_subdirectory(apps/haloplans)
add_custom_target(cartex_apps)
add_dependencies(cartex_apps cartbench graphbench haloplans)

if(CARTEX_BUILD_TESTS)
  enable_testing()
  add_subdirectory(tests/smpi)
endif()
