// Runs a check in a child process, so a plugin that crashes or hangs is reported, not fatal.
#pragma once

#include <functional>

#include "app/plugin_check/operator_check.h"

namespace isochron::check {

/// Run `work` in a forked child that relays its findings to `report` as they come. A crash (signal)
/// becomes a problem naming the cell that was running and the plugin operator and hook it crashed
/// in; a child still busy after `timeoutSeconds` is ended and reported with the plugin hook it was in
/// at that moment; exit() (or _exit()) called in the child, by the plugin, is a problem naming the
/// operator and hook it came from and the status it gave. Returns when the child has ended, whatever it did.
/// [checker thread; the process must be single-threaded when called]
void runIsolated(const std::function<void(CheckReport&)>& work, CheckReport& report, unsigned timeoutSeconds);

}  // namespace isochron::check
