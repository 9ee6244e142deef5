# The MPI cartex builds with, and the parallel HDF5 of that same MPI. Used by the build (after
# find_package(MPI)) and installed with the package config, which records both and refuses others.
#
#   cartex_mpi_family(OUT)       "Open MPI", "MPICH" (Hydra's family: MPICH, Intel MPI, Cray MPICH) or
#                                the first word of MPI_C_LIBRARY_VERSION_STRING
#   cartex_default_hdf5_root()   HDF5_ROOT, when nobody set it, to Debian's parallel HDF5 of this MPI
#                                (/usr/lib/<multiarch>/hdf5/{openmpi,mpich}): without it FindHDF5
#                                takes whichever parallel HDF5 comes first, e.g. Open MPI's in an
#                                MPICH build
#   cartex_hdf5_mpi_mismatch(OUT HDF5_LIBRARIES...)
#                                empty, or why the HDF5 libraries cannot go with this MPI: they need an
#                                MPI library (ELF NEEDED libmpi*, libmpich*) that is not one of
#                                MPI_C_LIBRARIES (their SONAMEs); no check without objdump
#   cartex_library_files(OUT LIBRARIES...)
#                                the real paths of the library files, sorted (to compare two lists)

function(cartex_mpi_family out)
  set(version "${MPI_C_LIBRARY_VERSION_STRING}")
  if(version MATCHES "Open MPI")
    set(${out} "Open MPI" PARENT_SCOPE)
  elseif(version MATCHES "MPICH|Intel\\(R\\) MPI|CRAY MPICH")
    set(${out} "MPICH" PARENT_SCOPE)
  elseif(MPI_CXX_COMPILER MATCHES "smpicxx")
    set(${out} "SimGrid SMPI" PARENT_SCOPE)  # its programs run only under smpirun: no version string
  else()
    string(REGEX MATCH "^[^ \n]+" first "${version}")
    set(${out} "${first}" PARENT_SCOPE)
  endif()
endfunction()

function(cartex_default_hdf5_root)
  if(DEFINED HDF5_ROOT OR DEFINED ENV{HDF5_ROOT} OR NOT CMAKE_LIBRARY_ARCHITECTURE)
    return()
  endif()
  cartex_mpi_family(family)
  set(flavour "")
  if(family STREQUAL "Open MPI")
    set(flavour openmpi)
  elseif(family STREQUAL "MPICH")
    set(flavour mpich)
  endif()
  set(dir /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/hdf5/${flavour})
  if(flavour AND IS_DIRECTORY ${dir})
    message(STATUS "HDF5_ROOT: ${dir} (the parallel HDF5 of ${family}; set HDF5_ROOT to choose another)")
    set(HDF5_ROOT ${dir} PARENT_SCOPE)
  endif()
endfunction()

# The ELF entries `kind` (NEEDED or SONAME) of `library`, via objdump -p.
function(_cartex_elf_entries out kind library)
  set(result "")
  get_filename_component(real "${library}" REALPATH)
  execute_process(COMMAND ${CARTEX_OBJDUMP} -p "${real}" OUTPUT_VARIABLE text ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    string(REGEX MATCHALL "${kind} +[^ \n]+" lines "${text}")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^${kind} +" "" name "${line}")
      list(APPEND result "${name}")
    endforeach()
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(cartex_hdf5_mpi_mismatch out)
  set(${out} "" PARENT_SCOPE)
  find_program(CARTEX_OBJDUMP NAMES objdump ${CMAKE_OBJDUMP})
  if(NOT CARTEX_OBJDUMP)
    return()
  endif()
  set(mpi_sonames "")
  foreach(lib IN LISTS MPI_C_LIBRARIES)
    if(lib MATCHES "\\.so")
      _cartex_elf_entries(names SONAME "${lib}")
      list(APPEND mpi_sonames ${names})
    endif()
  endforeach()
  foreach(lib IN LISTS ARGN)
    if(NOT lib MATCHES "hdf5.*\\.so")
      continue()
    endif()
    _cartex_elf_entries(needed NEEDED "${lib}")
    foreach(name IN LISTS needed)
      if(name MATCHES "^libmpi" AND NOT name IN_LIST mpi_sonames)
        cartex_mpi_family(family)
        list(JOIN mpi_sonames ", " have)
        set(${out} "the HDF5 library ${lib} is built on another MPI (it needs ${name}) than the ${family} cartex builds with (${have}); set HDF5_ROOT to the parallel HDF5 of this MPI" PARENT_SCOPE)
        return()
      endif()
    endforeach()
  endforeach()
endfunction()

# The real paths of the library files among `ARGN` (flags and names without a path left out), sorted:
# two lists compare equal when they name the same libraries, whatever symlinks led there.
function(cartex_library_files out)
  set(result "")
  foreach(lib IN LISTS ARGN)
    if(IS_ABSOLUTE "${lib}" AND EXISTS "${lib}")
      get_filename_component(real "${lib}" REALPATH)
      list(APPEND result "${real}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES result)
  list(SORT result)
  set(${out} "${result}" PARENT_SCOPE)
endfunction()
