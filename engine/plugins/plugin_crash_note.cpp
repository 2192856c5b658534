#include "engine/plugins/plugin_crash_note.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mutex>

#include "engine/files/outputs_under_final_name.h"
#include "engine/runtime/thread_slots.h"

namespace isochron {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction previousActions[sizeof kSignals / sizeof kSignals[0]];

void put(const char* text) {
    for (std::size_t length = strlen(text); length > 0;) {
        const ssize_t written = write(STDERR_FILENO, text, length);
        if (written <= 0) return;
        text += written;
        length -= static_cast<std::size_t>(written);
    }
}

void onFatalSignal(int signal) {
    writeCrashNote(signal);
    // Let whatever handled the signal before (the default action, a sanitizer) handle it now: it is
    // raised again and stays pending until this handler returns.
    for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
        if (kSignals[i] == signal) sigaction(signal, &previousActions[i], nullptr);
    }
    raise(signal);
}

}  // namespace

constinit __attribute__((tls_model("initial-exec"))) thread_local PluginCallInProgress* thisThreadsFoundPluginCall = nullptr;

PluginCallInProgress* thisThreadsPluginCall() noexcept {
    thisThreadsFoundPluginCall = ThreadSlots<PluginCallInProgress>::mine();
    return thisThreadsFoundPluginCall;
}

std::string describeUnreturnedPluginCalls() {
    std::string text;
    ThreadSlots<PluginCallInProgress>::forEach([&](const PluginCallInProgress& call) {
        const PluginCallSite* site = call.site.load(std::memory_order_acquire);
        const char* hook = call.hook.load(std::memory_order_relaxed);
        if (site && hook) text += (text.empty() ? "" : ", ") + site->text + " in its " + hook + " hook";
    });
    return text;
}

constinit __attribute__((tls_model("initial-exec"))) thread_local const PluginCallScope* innermostPluginCall = nullptr;

std::string describeThisThreadsPluginCall() {
    const PluginCallScope* call = innermostPluginCall;
    return call ? call->site_->text + " in its " + call->hook_ + " hook" : std::string();
}

void writeCrashNote(int signal) noexcept {
    const PluginCallScope* call = innermostPluginCall;
    if (!call) return;
    put("isochron: ");
    put(call->site_->text.c_str());
    put(" crashed in its ");
    put(call->hook_);
    put(" hook (");
    const char* description = sigdescr_np(signal);
    put(description ? description : "a fatal signal");
    put("); the process ends here (hosted in a sandbox, it would only have disabled its node).\n");
}

void catchExitInPluginCall(int status, void*) noexcept {
    const PluginCallScope* call = innermostPluginCall;
    if (!call) return;
    // The plugin's exit(0) would report success for a run that stopped halfway: say so, and end
    // here before the other exit handlers and static destructors flush or rename any output.
    char number[16];
    int length = 0;
    unsigned magnitude = status < 0 ? 0u - static_cast<unsigned>(status) : static_cast<unsigned>(status);
    do {
        number[length++] = static_cast<char>('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0 && length < 15);
    if (status < 0) number[length++] = '-';
    char digits[17];
    for (int i = 0; i < length; ++i) digits[i] = number[length - 1 - i];
    digits[length] = '\0';
    put("isochron: ");
    put(call->site_->text.c_str());
    put(" called exit(");
    put(digits);
    put(") in its ");
    put(call->hook_);
    put(" hook: the run cannot go on (hosted in a sandbox, it would only have disabled its node).\n");
    // No sink finishes now: a text file growing under its own name would look complete there.
    moveOutputsUnderFinalNameAside();
    _Exit(2);
}

void installPluginExitCatch() {
    static std::once_flag once;
    std::call_once(once, [] { on_exit(&catchExitInPluginCall, nullptr); });
}

void installPluginCrashNote() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
            struct sigaction action {};
            action.sa_handler = &onFatalSignal;
            sigemptyset(&action.sa_mask);
            action.sa_flags = SA_ONSTACK;
            sigaction(kSignals[i], &action, &previousActions[i]);
        }
    });
}

}  // namespace isochron
