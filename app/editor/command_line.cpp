#include "app/editor/command_line.h"

#include <QCoreApplication>

#include <cstring>

namespace isochron::editor {

CommandLine::CommandLine() {
    parser.setApplicationDescription("Isochron: edit, run and compare stream graphs.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("graph", "A graph file (*.isograph.json) to open.", "[GRAPH]");
    parser.addOptions({run, dark, quitAfter, windowSize, startupTime, report, quitWhenDone, measurePanZoom, probe, plugin, sandbox, watchdog, compare,
                       compareSeconds});
}

void answerHelpOrVersion(int argc, char** argv) {
    bool asked = false;
    for (int i = 1; i < argc && !asked; ++i) {
        for (const char* option : {"-h", "--help", "-?", "--help-all", "-v", "--version"}) asked = asked || std::strcmp(argv[i], option) == 0;
    }
    if (!asked) return;
    // A QGuiApplication would need a display just to print text: a core application answers.
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(kEditorName);
    QCoreApplication::setApplicationVersion(kEditorVersion);
    CommandLine commandLine;
    commandLine.parser.parse(QCoreApplication::arguments());  // Qt's own options (-platform X) are no errors here
    if (commandLine.parser.isSet("help") || commandLine.parser.isSet("help-all")) commandLine.parser.showHelp(0);
    if (commandLine.parser.isSet("version")) commandLine.parser.showVersion();
}

}  // namespace isochron::editor
