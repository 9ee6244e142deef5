# Finds Kokkos and repairs the one known packaging defect of Debian's: Kokkos::kokkos lists
# "<prefix>/include", which does not exist (its headers live in <prefix>/include/trilinos).
#
# In cartex's own build: any Kokkos from 3.4 on (Debian's 3.4 Serial, or a user's 4.x / 5.x with
# -DKokkos_ROOT=...); C++ is then 17, or what that Kokkos requires (Kokkos_CXX_STANDARD; 5.x needs 20).
# Installed with cartex: cartexConfig.cmake has found Kokkos already and set CARTEX_KOKKOS_BUILT_DIR and
# CARTEX_KOKKOS_BUILT_VERSION; this checks the Kokkos found is that one, and otherwise sets
# CARTEX_KOKKOS_MISMATCH to the reason (a different Kokkos would not link, or would mix backends).
# No version in cartex's own find_package: Kokkos' version files reject ranges, 3.x's reject 4.x.
if(NOT DEFINED CARTEX_KOKKOS_BUILT_DIR)
  find_package(Kokkos REQUIRED)
  if(Kokkos_VERSION VERSION_LESS 3.4)
    message(FATAL_ERROR "cartex needs Kokkos 3.4 or newer; found ${Kokkos_VERSION} at ${Kokkos_DIR}")
  endif()
  set(CARTEX_KOKKOS_CXX_STANDARD 17)
  if(Kokkos_CXX_STANDARD MATCHES "^[0-9]+$" AND Kokkos_CXX_STANDARD GREATER CARTEX_KOKKOS_CXX_STANDARD)
    set(CARTEX_KOKKOS_CXX_STANDARD ${Kokkos_CXX_STANDARD})
  endif()
else()
  get_filename_component(_cx_kokkos_found "${Kokkos_DIR}" REALPATH)
  set(CARTEX_KOKKOS_MISMATCH "")
  # A moved installation keeps only the version check.
  if(NOT Kokkos_VERSION VERSION_EQUAL CARTEX_KOKKOS_BUILT_VERSION OR
     (EXISTS "${CARTEX_KOKKOS_BUILT_DIR}" AND NOT _cx_kokkos_found STREQUAL CARTEX_KOKKOS_BUILT_DIR))
    string(CONCAT CARTEX_KOKKOS_MISMATCH
      "cartex was built with Kokkos ${CARTEX_KOKKOS_BUILT_VERSION} (${CARTEX_KOKKOS_BUILT_DIR}), but this "
      "project found Kokkos ${Kokkos_VERSION} (${_cx_kokkos_found}). Use the same Kokkos "
      "(-DKokkos_DIR=${CARTEX_KOKKOS_BUILT_DIR}), or rebuild cartex against this one.")
    return()
  endif()
endif()

if(TARGET Kokkos::kokkos)
  get_target_property(_cx_kokkos_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  if(_cx_kokkos_inc)
    set(_cx_kokkos_fixed "")
    foreach(_dir IN LISTS _cx_kokkos_inc)
      # Generator expressions cannot be checked here; keep them as they are.
      if(_dir MATCHES "^\\$<" OR EXISTS "${_dir}")
        list(APPEND _cx_kokkos_fixed "${_dir}")
      endif()
    endforeach()
    foreach(_dir IN LISTS Kokkos_INCLUDE_DIRS)
      get_filename_component(_dir "${_dir}" REALPATH)
      if(EXISTS "${_dir}/Kokkos_Core.hpp")
        list(APPEND _cx_kokkos_fixed "${_dir}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES _cx_kokkos_fixed)
    if(NOT _cx_kokkos_fixed STREQUAL _cx_kokkos_inc)
      set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_cx_kokkos_fixed}")
    endif()
  endif()
endif()

# A configuration that exists to test one Kokkos backend (the openmp, cuda and device presets) names it
# in CARTEX_REQUIRE_KOKKOS_BACKENDS: a build that found another Kokkos (Kokkos_ROOT unset, so Debian's
# Serial one) stops here instead of testing the wrong thing.
set(CARTEX_REQUIRE_KOKKOS_BACKENDS "" CACHE STRING
    "Kokkos backends the Kokkos found must have, e.g. OPENMP or CUDA (the openmp, cuda and device presets)")
foreach(_cx_backend IN LISTS CARTEX_REQUIRE_KOKKOS_BACKENDS)
  string(TOUPPER "${_cx_backend}" _cx_backend)
  if(NOT Kokkos_ENABLE_${_cx_backend})
    message(FATAL_ERROR "This configuration needs a Kokkos with ${_cx_backend}; the Kokkos found at ${Kokkos_DIR} "
                        "has ${Kokkos_DEVICES}. Set Kokkos_ROOT (the presets read CARTEX_KOKKOS_ROOT; "
                        "scripts/ci.sh sets it from scripts/kokkos.sh).")
  endif()
endforeach()
