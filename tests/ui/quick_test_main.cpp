// Runs the Qt Quick Tests in tests/ui/qml against the real editor window (module Isochron.Ui).
#include <QCoreApplication>
#include <QQmlContext>
#include <QQmlEngine>
#include <QQuickStyle>
#include <QTemporaryDir>
#include <QtQml/QQmlExtensionPlugin>
#include <QtQuickTest>

#include "tests/support/virtual_mic_array.h"

Q_IMPORT_QML_PLUGIN(Isochron_UiPlugin)

/// Gives the tests the module, the source tree and a folder for files they write (removed at the
/// end), with settings and recovery files in it, apart from the user's and from other runs'.
class EditorTestSetup : public QObject {
    Q_OBJECT
public Q_SLOTS:
    void applicationAvailable() {
        QCoreApplication::setOrganizationName("IsochronTests");
        QCoreApplication::setApplicationName("isochron-ui-tests");
        QQuickStyle::setStyle("Fusion");
        isochron::test::installNoAudioDevices();  // as on CI, whatever the machine has
        // Windows keep recovery files of unsaved graphs: here, not among the user's.
        qputenv("ISOCHRON_RECOVERY_DIR", temporary_.filePath("recovery").toUtf8());
        // Settings (window layout, splits, theme) too: a test that drags a split and checks that a new
        // window remembers it must not see another run's, or leave its own to the next.
        qputenv("XDG_CONFIG_HOME", temporary_.filePath("config").toUtf8());
        // Run on MPI Ranks starts mpirun, which refuses root (a CI container) unless told.
        qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
        qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    void qmlEngineAvailable(QQmlEngine* engine) {
        engine->addImportPath("qrc:/qt/qml");
        engine->rootContext()->setContextProperty("sourceDirectory", QStringLiteral(ISOCHRON_SOURCE_DIR));
        engine->rootContext()->setContextProperty("temporaryDirectory", temporary_.path());
    }

private:
    QTemporaryDir temporary_;
};

QUICK_TEST_MAIN_WITH_SETUP(editor_interactions, EditorTestSetup)

#include "quick_test_main.moc"
