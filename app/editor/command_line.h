// The editor's command line: its options, and --help / --version answered without a display.
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace isochron::editor {

inline constexpr const char* kEditorName = "isochron";
inline constexpr const char* kEditorVersion = "0.1.0";

/// The parser with every option of the editor declared (the plugin options too, for --help: they
/// leave argv before parsing, see plugin_options.h). [main thread]
struct CommandLine {
    CommandLine();

    QCommandLineParser parser;
    const QCommandLineOption run{"run", "Run the graph once it is open."};
    const QCommandLineOption dark{"dark", "Use the dark theme (it is remembered)."};
    const QCommandLineOption quitAfter{"quit-after", "Quit after this many seconds.", "seconds"};
    const QCommandLineOption windowSize{"window-size", "Open the window at the top left with this size.", "WxH"};
    const QCommandLineOption startupTime{"startup-time", "Print the time from start to the first frame."};
    const QCommandLineOption report{"report", "Write the report of each run (JSON, as isochron-run --report).", "file"};
    const QCommandLineOption quitWhenDone{"quit-when-done", "Quit when the first run ends."};
    const QCommandLineOption plugin{"plugin", "Load an operator plugin (also: ISOCHRON_PLUGIN_PATH and the user's plugin folder).", "file"};
    const QCommandLineOption sandbox{"sandbox",
                                     "Run every plugin's nodes (as --sandbox=NAME,...: those of the plugins named, by file name without .so) "
                                     "each in a process of its own: a crash, hang or abort() then disables that node only."};
    const QCommandLineOption watchdog{"watchdog",
                                      "Sandboxed: the longest one call into a plugin may take before its process is killed "
                                      "(0.01-86400; by default 10, shorter for a graph with live sources; needs --sandbox).",
                                      "seconds"};
    const QCommandLineOption compare{"compare", "Compare schedulers (comma-separated) on the graph at once.", "schedulers"};
    const QCommandLineOption compareSeconds{"compare-seconds", "Seconds per scheduler in a comparison (default 5).", "seconds", "5"};
    const QCommandLineOption probe{"probe", "Probe a wire (from.port>to.port) with a scope or a spectrum (kind).", "wire:kind"};
    const QCommandLineOption measurePanZoom{"measure-pan-zoom", "Pan and zoom every frame for a while, print the frame rate, quit.", "seconds"};
};

/// When argv asks for --help (-h, -?, --help-all) or --version (-v), prints it and exits with status 0,
/// before any window system is needed (a terminal without a display still gets the usage);
/// otherwise returns. [main thread, before the application is made]
void answerHelpOrVersion(int argc, char** argv);

}  // namespace isochron::editor
