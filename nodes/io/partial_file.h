// Partial files: a file that takes time to write (a recording, a run's report) grows under a name of
// its own beside its target and is renamed over the target only when complete, so a run that is cut
// short or fails (a full disk) never leaves a half-written file where the complete one was.
#pragma once

#include <string>

namespace isochron {

/// Creates, beside `path`, the empty file a write of `path` grows under and returns its name:
/// "<name>.<pid>.partial" ("<name>.<pid>-<k>.partial" when another writer in this process holds that),
/// so runs writing one path at once never share it, and shortened so that any name that fits the
/// folder works. Throws std::runtime_error when the folder refuses it. [setup thread]
std::string createPartialFile(const std::string& path);

/// The partial name createPartialFile() tries first for `path` ("<name>.<pid>.partial", shortened
/// alike), without creating it: where an output growing under `path` itself is moved when the process
/// must end at once (engine/files/outputs_under_final_name.h). [setup thread]
std::string partialFileName(const std::string& path);

}  // namespace isochron
