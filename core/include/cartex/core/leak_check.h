#ifndef CARTEX_CORE_LEAK_CHECK_H
#define CARTEX_CORE_LEAK_CHECK_H
/* LeakSanitizer around MPI (the asan configuration, scripts/sanitizer_env.sh); elsewhere nothing.
 *
 *   main:  MPI_Init, inside an UntrackedAllocations scope    MPI's start-up blocks: never reported
 *          ... the program ...
 *          check_leaks_now()                                   the one leak check, MPI still loaded
 *          MPI_Finalize                                        not checked
 *
 * Open MPI keeps blocks for the life of the process, some made in components it opens, tries and
 * unloads while selecting, and some in PMIx, which it unloads at MPI_Finalize. With the fast
 * (frame-pointer) malloc unwinder such a stack has one frame, and once its library is gone it reads
 * "<unknown module>", which no suppression can name; the full unwinder costs the sanitized tests
 * about 4x their time. So MPI_Init's blocks are not tracked, and the leak check runs before
 * MPI_Finalize, while every library that made a block is loaded and lsan.supp can name it.
 * Header-only, no dependencies, C and C++: every test main uses it (C: the cartex_ functions). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CARTEX_LEAK_CHECKED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CARTEX_LEAK_CHECKED 1
#endif

#ifdef CARTEX_LEAK_CHECKED
#include <sanitizer/lsan_interface.h>
#endif

/* From the first call to the second, LeakSanitizer never reports what this thread allocates. */
static inline void cartex_untracked_allocations_begin(void) {
#ifdef CARTEX_LEAK_CHECKED
  __lsan_disable();
#endif
}
static inline void cartex_untracked_allocations_end(void) {
#ifdef CARTEX_LEAK_CHECKED
  __lsan_enable();
#endif
}

/* The process's leak check, now instead of at exit (a leak ends the process with the sanitizer's
 * exit code, as at exit). Call it just before MPI_Finalize. */
static inline void cartex_check_leaks_now(void) {
#ifdef CARTEX_LEAK_CHECKED
  __lsan_do_leak_check();
#endif
}

#ifdef __cplusplus
namespace cartex::core {

class UntrackedAllocations {
 public:
  UntrackedAllocations() { cartex_untracked_allocations_begin(); }
  ~UntrackedAllocations() { cartex_untracked_allocations_end(); }
  UntrackedAllocations(const UntrackedAllocations&) = delete;
  UntrackedAllocations& operator=(const UntrackedAllocations&) = delete;
};

inline void check_leaks_now() { cartex_check_leaks_now(); }

}  // namespace cartex::core
#endif

#endif
