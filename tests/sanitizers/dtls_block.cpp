// The library tests/sanitizers/dtls_probe.cpp opens: one 8-byte thread-local, so that each thread's
// dynamic TLS block for it is an 8-byte heap block that glibc allocates at its first use.
extern "C" void** dtls_slot() {
  thread_local void* slot = nullptr;
  return &slot;
}
