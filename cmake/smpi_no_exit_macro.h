/* Force-included after SimGrid's smpi_helpers.h in the SMPI build (cmake/CartexMpiOnly.cmake): that
 * header defines exit(x) as a macro, which breaks CLI11's App::exit member. cartex's programs leave
 * main by returning; an exit() left in an error path ends the whole simulation, not one rank. */
#undef exit
