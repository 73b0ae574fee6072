import CMappedFileGuard
import Glibc

/// One picture's bytes mapped from a file, read-only, unmapped when the last frame holding it goes.
///
/// Why map (issue 31): read with `pread`, a 720p frame is copied from the page cache into a buffer and then
/// again by x264 into its own frame; mapped, x264's copy is the only one: about 70 µs less CPU a 720p frame in
/// the read-and-encode loop, 1.7 % of `onair publish` on a clip (docs/engine-profile.md, session 15), and no
/// buffers of our own (peak RSS 69.0 → 65.9 MiB). The range is guarded (`CMappedFileGuard`): if another
/// process truncates the file while the picture is held, a touch of a lost page reads zeros instead of
/// ending the process with SIGBUS, and `damaged` says so, so the encoder drops that picture.
final class MappedPicture: @unchecked Sendable {
    // @unchecked: every stored property is immutable after `init`, and the mapping is read-only.

    /// The picture's first byte (inside the mapping, which starts at a page boundary).
    let base: UnsafeRawPointer
    let count: Int
    private let mapping: UnsafeMutableRawPointer
    private let mappingLength: Int
    private let guardSlot: Int32
    /// The rest of the mapping's last page after the picture: readable (zeros past the file's end), nothing after.
    let readableBytesAfter: Int

    /// Maps `count` bytes at `offset` of `descriptor`; nil when no guard slot is free (or mapping failed),
    /// so the caller reads the bytes instead. The caller checks afterwards that the file still holds them.
    init?(descriptor: Int32, offset: Int, count: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0, offset >= 0, count > 0 else { return nil }
        let start = offset - offset % page
        let (length, overflow) = (offset - start).addingReportingOverflow(count)
        guard !overflow else { return nil }
        // MAP_POPULATE: the page tables are filled in one call, not one fault per page in x264's copy.
        guard let mapped = mmap(nil, length, PROT_READ, MAP_SHARED | MAP_POPULATE, descriptor, off_t(start)),
              mapped != MAP_FAILED else { return nil }
        let slot = onair_mapped_guard_register(mapped, length)
        guard slot >= 0 else {
            munmap(mapped, length)
            return nil
        }
        mapping = mapped
        mappingLength = length
        let (pages, pagesOverflow) = length.addingReportingOverflow(page - 1)
        readableBytesAfter = pagesOverflow ? 0 : pages / page * page - length
        guardSlot = slot
        base = UnsafeRawPointer(mapped + (offset - start))
        self.count = count
    }

    deinit {
        // Unregistered first: the slot must never name an address range the process may map again.
        onair_mapped_guard_unregister(guardSlot)
        munmap(mapping, mappingLength)
    }

    /// True when a page of the picture was lost (the file shrank under it) and read as zeros.
    var damaged: Bool { onair_mapped_guard_damaged(guardSlot) != 0 }

    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }
}
