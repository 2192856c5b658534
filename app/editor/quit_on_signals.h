// SIGTERM, SIGHUP and SIGINT quit the editor as its own Quit does: a desktop logout, `kill` or a
// closed terminal ends a running graph's recordings whole instead of leaving them as `.partial`.
#pragma once

class QCoreApplication;

namespace isochron::editor {

/// From now on, each of SIGTERM, SIGHUP and SIGINT makes `app` quit through its event loop (a second
/// one while quitting ends the process at once, status 128 + the signal). [main thread, once]
void quitOnSignals(QCoreApplication& app);

}  // namespace isochron::editor
