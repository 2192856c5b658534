// How long a stored piece of f32 samples is, so that whole pieces fill SQLite's pages.
//
// A stored piece is one row of table `segments`, and SQLite packs whole rows into the file's pages
// (64 KiB for new archives). A row a little larger than a quarter, a half or a whole page leaves the
// rest of the page empty: the recorder's 4 096-sample blocks (16 KiB plus the row's few dozen bytes)
// filled 3 quarters of each page, 8 192-sample blocks half of it. So the store's pieces do not follow
// the recorder's blocks: the recorder coalesces its blocks and cuts them into pieces of
// f32PieceSamples() (engine/archive/archive_writer.h), the store cuts any longer append (archive_store.h),
// and a page holds a whole number of pieces with a few hundred bytes to spare (about 4.03 bytes per
// f32 sample on disk). Readers never depend on a piece's length: get() clips and joins whatever pieces
// a file holds, so files written with other piece lengths read the same.
#pragma once

#include <cstdint>

namespace isochron {

/// Samples of f32 in a piece such that whole pieces fill a page of `pageSize` bytes (512 to 65536,
/// a power of two): a 64 KiB page holds four, a page of 16 KiB or less one. [any thread] [no allocation]
std::int64_t f32PieceSamples(std::int64_t pageSize);

}  // namespace isochron
