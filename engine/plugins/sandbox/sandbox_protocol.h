// The messages between a sandboxed node's host (SandboxedOperator) and its child process
// (SandboxServer), written with exchange_codec.h.
//
// A request: the number of hook calls in it (several while items stream in: see
// sandboxed_operator.cpp), then each call: its kind, the progress the host deferred (see below),
// the progress of every input, then what the kind needs:
//   Activate           node id, parameters (JSON object), inputs (name, type, group index,
//                      connected), outputs (name, type, group index)
//   Process            input port, item (its samples as an offset into the host's shared sample
//                      arena when they lie there, else inline)
//   Produce            production budget, whether admission is open
//   Finish             -
//   ParameterChanged   name, value (JSON)
//   Progress           -   (only the deferred progress hook runs: see below)
//   Deactivate         -   (the child answers, then exits)
// The response, for each call in order: records in the order the hook made them (Emit: port and
// item; Progress: time; Warning: text), then Done: how the call ended (an Outcome), its error, and a
// source's state and wake time. The child stops at the first call that fails. Activate's answer
// also holds a Route record (input port, output port) for each route the plugin was granted
// (isochron/ext/routes.h): the host hands those inputs' items over itself and never sends them.
// When a call runs more than one plugin hook (the deferred progress hook before the call's own;
// Activate: the constructor, then activate) the child writes an Entering record (the Hook) before
// each and commits the answer so far: a child that dies or hangs there is known to have died in
// that hook.
//
// Progress is deferred: the host does not ask the child when input progress rises, it sends the
// new progress with the next request and the child runs the progress hook first. Meanwhile the
// host promises what the child promised last, which is always safe (a promise may lag). This
// halves the round trips of a stream whose source punctuates every block. A node whose inputs are
// routed gets no Process calls to carry the progress, so its host sends Progress calls for it,
// batched like a stream's items.
#pragma once

#include <cstdint>

namespace isochron::sandbox {

/// What the host asks the child to do.
enum class Request : std::uint32_t { Activate, Process, Produce, Finish, ParameterChanged, Deactivate, Progress };

/// One record of a response.
enum class Reply : std::uint32_t { Emit, Progress, Warning, Done, Route, Entering };

/// The plugin hook a call is in, in an Entering record.
enum class Hook : std::uint32_t { Create, Activate, Process, Produce, Finish, ParameterChanged, Deactivate, Progress };

/// A hook's name as the SDK and docs/writing-plugins.md spell it ("parameterChanged"); null for a
/// value that is no Hook (the child is not trusted). [any thread]
constexpr const char* hookName(Hook hook) {
    switch (hook) {
        case Hook::Create: return "create";
        case Hook::Activate: return "activate";
        case Hook::Process: return "process";
        case Hook::Produce: return "produce";
        case Hook::Finish: return "finish";
        case Hook::ParameterChanged: return "parameterChanged";
        case Hook::Deactivate: return "deactivate";
        case Hook::Progress: return "progress";
    }
    return nullptr;
}

/// The plugin hook a request of `kind` runs (after the deferred progress hook, if any).
constexpr Hook hookOf(Request kind) {
    switch (kind) {
        case Request::Activate: return Hook::Activate;
        case Request::Process: return Hook::Process;
        case Request::Produce: return Hook::Produce;
        case Request::Finish: return Hook::Finish;
        case Request::ParameterChanged: return Hook::ParameterChanged;
        case Request::Deactivate: return Hook::Deactivate;
        case Request::Progress: return Hook::Progress;
    }
    return Hook::Process;
}

/// How a call ended, in its Done record: the deferred progress hook run before the call can fail it.
enum class Outcome : std::uint32_t { Failed, Succeeded, ProgressFailed };

/// Command-line options of the child (isochron-plugin-sandbox).
inline constexpr const char* kPluginOption = "--plugin";
inline constexpr const char* kTypeOption = "--type";
inline constexpr const char* kExchangeOption = "--exchange-fd";
inline constexpr const char* kParentOption = "--parent";
inline constexpr const char* kArenaOption = "--arena-fd";
/// The exchange's memfd number in the child.
inline constexpr int kExchangeFd = 3;
/// The shared sample arena's memfd number in the child (mapped read-only; absent when the host has none).
inline constexpr int kArenaFd = 4;

}  // namespace isochron::sandbox
