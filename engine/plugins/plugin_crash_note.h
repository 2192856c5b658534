// What a process dying inside plugin code says first: which node and plugin were running. A
// crash (segfault, abort, ...) in an in-process plugin cannot be survived, but it can be named:
// every call into a plugin marks the thread with the node and plugin, and a signal handler
// writes them to stderr before the signal takes its usual course (a core dump, a sanitizer's
// report, the exit status of a killed process).
#pragma once

#include <atomic>
#include <string>

namespace isochron {

/// The words naming one node's plugin operator in a crash note, e.g. "node 'gain' (plugin /p/x.so)".
/// [immutable once made]
struct PluginCallSite {
    std::string text;
};

class PluginCallScope;

/// The plugin call one thread is in (null when none), readable from any thread: what a stop request
/// that is not honoured names as the call that did not return. [any thread]
struct PluginCallInProgress {
    std::atomic<const PluginCallSite*> site{nullptr};
    std::atomic<const char*> hook{nullptr};
    void clear() noexcept { site.store(nullptr); }
};

/// This thread's entry in the table describeUnreturnedPluginCalls() reads; null when the table is
/// full (the call is then not named). [engine thread]
PluginCallInProgress* thisThreadsPluginCall() noexcept;

/// thisThreadsPluginCall() once it found an entry, else null. Initial-exec TLS like
/// innermostPluginCall: the table's own thread_local is reached through two calls into the
/// dynamic loader's TLS lookup, which every plugin call paid. Kept until the thread ends (its slot
/// is given back then; a thread calls no plugin while its thread_locals are destroyed).
extern constinit __attribute__((tls_model("initial-exec"))) thread_local PluginCallInProgress* thisThreadsFoundPluginCall;

/// thisThreadsPluginCall(), inline once found. [engine thread] [no allocation]
inline PluginCallInProgress* shownPluginCall() noexcept {
    PluginCallInProgress* found = thisThreadsFoundPluginCall;
    return found ? found : thisThreadsPluginCall();
}

/// The innermost plugin call of this thread (PluginCallScope keeps it). Initial-exec TLS: the
/// signal handler must read it without the dynamic loader (the engine library is loaded with the
/// program, never by dlopen), and marking a call is then two moves, inline.
extern constinit __attribute__((tls_model("initial-exec"))) thread_local const PluginCallScope* innermostPluginCall;

/// Marks the calling thread as running `hook` of `site` while alive. [engine thread] [no allocation]
class PluginCallScope {
public:
    PluginCallScope(const PluginCallSite& site, const char* hook) noexcept
        : site_(&site), hook_(hook), previous_(innermostPluginCall), shown_(shownPluginCall()) {
        innermostPluginCall = this;
        show(site_, hook_);
    }
    ~PluginCallScope() {
        innermostPluginCall = previous_;
        show(previous_ ? previous_->site_ : nullptr, previous_ ? previous_->hook_ : nullptr);
    }
    PluginCallScope(const PluginCallScope&) = delete;
    PluginCallScope& operator=(const PluginCallScope&) = delete;

private:
    const PluginCallSite* site_;
    const char* hook_;
    const PluginCallScope* previous_;
    PluginCallInProgress* shown_;

    void show(const PluginCallSite* site, const char* hook) noexcept {
        if (!shown_) return;
        shown_->hook.store(hook, std::memory_order_relaxed);
        shown_->site.store(site, std::memory_order_release);
    }
    friend void writeCrashNote(int signal) noexcept;
    friend void catchExitInPluginCall(int status, void*) noexcept;
    friend std::string describeThisThreadsPluginCall();
};

/// The innermost plugin call of the calling thread, e.g. "node 'f' (plugin /p/x.so) in its process
/// hook"; "" when none. Still right in an exit handler, after exit() destroyed the thread's
/// thread_locals (describeUnreturnedPluginCalls() no longer sees the call then). [thread calling]
std::string describeThisThreadsPluginCall();

/// The plugin calls in progress on any thread, e.g. "node 'f' (plugin /p/x.so) in its process hook";
/// "" when none. Read while those calls may return: a call that ends meanwhile may be named. [any thread]
std::string describeUnreturnedPluginCalls();

/// Install the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT (once per process; the
/// handlers that were there before still run afterwards). [any thread]
void installPluginCrashNote();

/// Writes the crash note for the innermost plugin call of this thread, if any. [async-signal-safe]
void writeCrashNote(int signal) noexcept;

/// Make exit() called from inside an in-process plugin hook end the process with status 2 and a
/// message naming node, plugin, hook and the status the plugin asked for, before anything else runs
/// at exit (no sink finishes, so no partial output gets its final name). Only hosts that run plugins
/// in their own process install it: in a sandbox process or a checker's child the parent reports
/// the exit. (once per process) [any thread]
void installPluginExitCatch();

/// The on_exit handler installPluginExitCatch() registers. [thread calling exit]
void catchExitInPluginCall(int status, void*) noexcept;

}  // namespace isochron
