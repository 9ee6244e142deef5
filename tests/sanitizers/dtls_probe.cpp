// Opens LIBRARY (dtls_block.cpp) and places its dynamic TLS block 16 bytes into a page, the place
// where GCC 12's ASan misreads the block's bounds and LeakSanitizer's tracer crashed at exit
// (scripts/sanitizer_env.sh). The only pointer to a heap block is kept in that TLS block; with
// "leak", a second heap block is lost. LeakSanitizer then checks at exit.
// Usage: dtls_probe LIBRARY [leak]     exit 3: the TLS block could not be placed
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
constexpr std::uintptr_t kPage = 4096;
void* padding[2 * kPage / 32];  // reachable: not leaks
void* volatile lost;
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dtls_probe LIBRARY [leak]\n");
    return 2;
  }
  void* library = dlopen(argv[1], RTLD_NOW);
  if (library == nullptr) {
    std::fprintf(stderr, "dtls_probe: %s\n", dlerror());
    return 2;
  }
  auto dtls_slot = reinterpret_cast<void** (*)()>(dlsym(library, "dtls_slot"));
  // ASan hands out 8-byte blocks as 32-byte chunks (16-byte header first) in address order: take
  // them until the next chunk starts a page, so that the next block, the TLS one, starts 16 into it.
  for (void*& p : padding) {
    p = std::malloc(8);
    if (reinterpret_cast<std::uintptr_t>(p) % kPage == kPage - 16) break;
  }
  void** slot = dtls_slot();
  if (reinterpret_cast<std::uintptr_t>(slot) % kPage != 16) {
    std::fprintf(stderr, "dtls_probe: the TLS block is at %p, not 16 bytes into a page\n", static_cast<void*>(slot));
    return 3;
  }
  *slot = std::malloc(100);
  if (argc > 2 && std::strcmp(argv[2], "leak") == 0) {
    lost = std::malloc(77);
    lost = nullptr;
  }
  std::printf("dtls_probe: TLS block at %p holds %p\n", static_cast<void*>(slot), *slot);
  return 0;
}
