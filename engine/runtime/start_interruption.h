// Start interruption: one process-wide request that nodes still starting stop loading.
//
// Activating a graph can take seconds (a preloaded sound file decoding, an event file read), and a
// stop asked meanwhile (Ctrl-C or SIGTERM in isochron-run) must not wait for it: the run being started
// will stop before any data flows. A node's long load looks at startsInterrupted() now and then and,
// once it is set, gives up and holds nothing (its source emits nothing). Nothing clears the request:
// it is for a process that is ending.
#pragma once

namespace isochron {

/// Ask every load in progress, and every one to come in this process, to give up. [any thread]
/// [async-signal-safe]
void interruptStarts() noexcept;

/// Whether interruptStarts() was called. [any thread] [no allocation]
bool startsInterrupted() noexcept;

}  // namespace isochron
