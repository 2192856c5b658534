// The editor's own log lines on the "isochron.ui" logging category: off by default,
// QT_LOGGING_RULES="isochron.ui.info=true" shows them. GUI tests wait for these lines (dialogs
// opening and closing, files chosen, runs starting) instead of sleeping.
pragma Singleton
import QtQml

QtObject {
    readonly property LoggingCategory category: LoggingCategory { name: "isochron.ui"; defaultLogLevel: LoggingCategory.Warning }
    function info(message) { console.info(category, message) }
}
