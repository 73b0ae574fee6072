#ifndef ONAIR_MAPPED_FILE_GUARD_H
#define ONAIR_MAPPED_FILE_GUARD_H

#include <stddef.h>

/// A guard for memory-mapped ranges of files another process may truncate.
///
/// Touching a page of a shared file mapping past the file's end raises SIGBUS (POSIX mmap(2): "References
/// within the address range starting at pa and continuing for len bytes to whole pages following the end of
/// an object shall result in delivery of a SIGBUS signal"), and SIGBUS ends the process. A range registered
/// here is answered instead: the handler maps a zero page over the faulting page, marks the range damaged and
/// returns, so the access completes (reading zeros) and its owner learns from `onair_mapped_guard_damaged`
/// that the bytes it read are not the file's. A SIGBUS outside every registered range goes to the handler that
/// was installed before (Swift's crash reporter, or the default action: the process ends as it would have).

/// Registers `[start, start + length)`. Returns a slot (>= 0) to pass to the other calls, or -1 when every
/// slot is taken or the handler could not be installed: the caller must then not map (read instead).
int onair_mapped_guard_register(const void *start, size_t length);

/// 1 when a fault inside the slot's range was answered with zeros since it was registered, else 0.
int onair_mapped_guard_damaged(int slot);

/// Frees the slot. Call it before unmapping the range: the slot must never name memory that may be reused.
void onair_mapped_guard_unregister(int slot);

/// How many slots there are (the most ranges guarded at once).
int onair_mapped_guard_capacity(void);

#endif
