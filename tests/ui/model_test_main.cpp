// Catch2 main for the editor's model tests, inside a QCoreApplication so queued signals can run.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QCoreApplication>

#include "tests/support/virtual_mic_array.h"

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    isochron::test::installNoAudioDevices();  // as on CI, whatever the machine has
    return Catch::Session().run(argc, argv);
}
