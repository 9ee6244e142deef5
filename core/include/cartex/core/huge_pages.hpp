#pragma once
// Transparent huge pages for large host allocations, asked for before their first touch.
//
// Linux backs anonymous memory with 4 KiB pages unless a range asks for 2 MiB ones (madvise
// MADV_HUGEPAGE; the usual distribution setting of /sys/kernel/mm/transparent_hugepage/enabled is
// "madvise"). A field of 256 x 256 x 128 doubles spans 16,384 small pages: the stencil's passes over z
// and the exchange's copies of whole planes (process_vm_readv, which pins page by page) pay for each.
//
//   [ data .......................................................... data + bytes )
//        [ 2 MiB | 2 MiB | 2 MiB | ... | 2 MiB ]   <- the whole huge pages inside: advised
//   ^ head and tail ^ stay small pages
//
// Only advice: the kernel may still give small pages (no huge page free, THP "never"); the values
// and the bits of every result are the same either way.
#include <cstddef>

namespace cartex::core {

// Advises the whole 2 MiB pages inside [data, data + bytes) as huge-page candidates; returns the
// bytes advised (0 where the system has no transparent huge pages or the range holds no whole page).
std::size_t advise_huge_pages(void* data, std::size_t bytes);

}  // namespace cartex::core
