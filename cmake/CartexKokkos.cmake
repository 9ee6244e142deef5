# Finds Kokkos (3.4 from Debian's Trilinos, or a user's own 4.x via -DKokkos_ROOT=...) and repairs the
# one known packaging defect: Debian's Kokkos::kokkos lists "<prefix>/include", which does not exist
# (its headers live in <prefix>/include/trilinos). Installed with cartex so downstream projects get
# the same repair from find_package(cartex).
# No version in find_package: Kokkos' version files reject ranges, and 3.x's reject a 4.x request.
find_package(Kokkos REQUIRED)
if(Kokkos_VERSION VERSION_LESS 3.4 OR NOT Kokkos_VERSION VERSION_LESS 5.0)
  message(FATAL_ERROR "cartex needs Kokkos 3.4 to 4.x; found ${Kokkos_VERSION} at ${Kokkos_DIR}")
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
