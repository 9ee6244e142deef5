# Sourced: the sanitizer runtime options of the asan configuration (scripts/ci.sh asan sources it for
# its tests, CMakePresets.json) and of the test that checks them, tests/sanitizers/leak_check_test.sh.
# Every report goes to a file under REPORTS_DIR (log_path; created, made absolute), so a report is seen
# even where a test driver does not look at a program's exit code or stderr
# (scripts/sanitizer_reports.sh fails on any).
# Usage: . scripts/sanitizer_env.sh REPORTS_DIR
sanitizer_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sanitizer_reports=$(realpath -m "$1")
mkdir -p "$sanitizer_reports"
# Leaks: the mains check just before MPI_Finalize, with MPI_Init's own blocks untracked
# (cartex/core/leak_check.h), so every library that keeps a block for good is still loaded and
# the first frame of its stack names it (lsan.supp) although malloc stacks are unwound the fast way
# (the default; the full unwinder made the sanitized tests about 4x slower: core_test 346 s, 75 s).
# intercept_tls_get_addr=0: GCC 12's ASan (Debian 12) records each dynamic TLS block __tls_get_addr
# returns and, for a block that starts 16 bytes into a page, assumes glibc 2.19's layout and takes
# the two words before it (ASan's own chunk header) for the block's start and size. LeakSanitizer's
# tracer then scans that range at exit and dies: "Tracer caught signal 11: addr=<the header's
# allocation-stack id>". Where the TLS block of a dlopen'd library (an Open MPI component's) lands
# depends on every allocation before it, so one program crashed on one machine, every run. Without
# the interception the blocks are still scanned: they are heap blocks that the thread's DTV points to.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:print_stacktrace=1:intercept_tls_get_addr=0:log_path=$sanitizer_reports/asan
export LSAN_OPTIONS=suppressions=$sanitizer_root/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$sanitizer_reports/ubsan
unset sanitizer_root sanitizer_reports
