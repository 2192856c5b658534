// Standard input, output and error stay where they are: a program started with one of them closed
// (`2>&-`, a daemon's launcher) would otherwise hand that number to the next file it opens, and
// every message meant for the terminal would be written into that file: into a recording, or into
// the shared memory the sample pool lives in.
#pragma once

namespace isochron {

/// Opens /dev/null read-only on each of descriptors 0, 1 and 2 that is closed, so that no file the
/// program opens later gets a standard stream's number; writes to them still fail with EBADF, as on
/// a closed descriptor. Call first thing in main. [main thread, at start]
void keepStandardStreamsOpen();

/// `fd` itself when it is above 2; otherwise a close-on-exec duplicate numbered 3 or more, with `fd`
/// closed (-1 and errno when it cannot be duplicated). For descriptors whose contents must never
/// receive a stray write to a standard stream. [any thread]
int aboveStandardStreams(int fd);

}  // namespace isochron
