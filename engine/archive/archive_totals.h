// Schema version 4's running totals (docs/archive.md, "Tables"): per stream and channel, what is
// stored (`channel_totals`: first start, stop, pieces, samples, payload bytes) and, for signals, the
// stretches it covers (`stretches`: adjacent pieces merged). SQLite triggers on `segments` and
// `events` keep both, so every insert and delete (a recorder's commit, prune, retention, another
// process, a hand-written SQL statement) updates them in its own transaction: a crash or a rolled back
// commit leaves them as exact as the rows. `isochron-archive ls` and `info` then read a few rows per
// stream and stretch instead of every piece, whose payload shares the rows' pages.
//
// The stretches stay exact as long as the pieces of a channel never overlap (ArchiveStore's contract;
// the recorder drops what is already stored): deleting a piece cuts its samples out of its stretch.
// Inserts merge any overlap correctly.
#pragma once

namespace isochron {

/// The tables and triggers that keep the totals, for a new file or an upgrade (CREATE ... IF NOT
/// EXISTS; run inside the transaction that creates or upgrades the file). [any thread]
extern const char* const kArchiveTotalsSchema;

/// Fills the totals of a file that has rows but no totals yet (a version-3 file being upgraded): reads
/// every row once. Run right after kArchiveTotalsSchema, in the same transaction. [any thread]
extern const char* const kArchiveTotalsFill;

}  // namespace isochron
