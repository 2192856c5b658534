// Outputs growing under their final name: a text sink's new file is written under its own name, where a
// reader can follow it, and is only warned of when a run is cut short. A process that must end at once
// (an in-process plugin called exit()) runs no sink's ending, so such a file would stay under its final
// name looking complete; the exit handler moves each one aside to its partial name instead, as it does
// for every other output cut short. Kept in fixed slots so the handler reads them without allocating.
#pragma once

#include <string>

namespace isochron {

/// Remember that `path` grows under its final name and would be renamed to `partialPath` if the process
/// must end at once. Returns the ticket forgetOutputUnderFinalName() takes, or -1 when the table is
/// full or a name is too long (that file is then left where it is). [setup thread]
int rememberOutputUnderFinalName(const std::string& path, const std::string& partialPath);

/// The output of `ticket` got its ending (it finished or was removed); -1 does nothing. [any thread]
void forgetOutputUnderFinalName(int ticket) noexcept;

/// Rename every remembered output to its partial name (never over an existing file) and forget it.
/// [async-signal-safe]
void moveOutputsUnderFinalNameAside() noexcept;

}  // namespace isochron
