// Plugins in the editor: a rebuilt plugin file is reloaded by itself (also when the build replaces
// the file), the palette and the open document follow while nodes keep their wires and parameters,
// a refused build keeps the old one and says why (and leaves running graphs alone), runs stop for the
// reload and start again, and a plugin operator that throws while running, or fails as it stops, is
// a problem naming its node while the rest runs on; a Stop while a plugin hangs in activate leaves it
// behind after the stop's grace.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <filesystem>

#include "engine/plugins/plugin_host.h"
#include "engine/plugins/plugin_manifest.h"
#include "nodes/register_builtin_nodes.h"
#include "ui/model/graph_document.h"
#include "ui/model/operator_catalog.h"
#include "ui/plugins/plugin_reloader.h"
#include "engine/plugins/plugin_crash_note.h"
#include "ui/run/run_controller.h"

using namespace isochron;
using namespace isochron::ui;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

fs::path fixturePlugin(const std::string& name) { return fs::path(ISOCHRON_FIXTURE_DIR) / (name + ".so"); }

// Put `plugin` and its manifest at `target` the way a build does: written beside it, then renamed
// over it (so the old file's watch is lost), or, with `inPlace`, overwritten where it is.
void installPlugin(const fs::path& plugin, const fs::path& target, bool inPlace) {
    for (const auto& [from, to] : {std::pair{plugin, target}, std::pair{manifestPathFor(plugin), manifestPathFor(target)}}) {
        if (inPlace) {
            fs::copy_file(from, to, fs::copy_options::overwrite_existing);
        } else {
            const fs::path temporary = to.string() + ".tmp";
            fs::copy_file(from, temporary, fs::copy_options::overwrite_existing);
            fs::rename(temporary, to);
        }
    }
}

bool waitUntil(const std::function<bool()>& done, int milliseconds = 20000) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

bool catalogHas(const OperatorCatalog& catalog, const QString& type) {
    for (int row = 0; row < catalog.rowCount(); ++row) {
        if (catalog.typeAt(row) == type) return true;
    }
    return false;
}

QStringList problemNodes(GraphDocument& document) {
    QStringList nodes;
    ProblemListModel& problems = *document.problems();
    for (int row = 0; row < problems.rowCount(); ++row) nodes.append(problems.index(row).data(ProblemListModel::NodeRole).toString());
    return nodes;
}

QVariant parameterDefault(GraphDocument& document, const QString& node, const QString& name) {
    for (const QVariant& entry : document.parametersOf(node)) {
        if (entry.toMap()["name"] == name) return entry.toMap()["defaultValue"];
    }
    return {};
}

OperatorRegistry builtins() {
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    return registry;
}

// The editor's pieces over a registry of the built-ins and one plugin host (destroyed last).
struct Editor {
    OperatorRegistry registry = builtins();
    PluginHost host{registry};
    GraphDocument document{registry, nullptr};
    RunController run;
    OperatorCatalog catalog{registry, nullptr};
    Editor() { run.setDocument(&document); }
};

}  // namespace

TEST_CASE("a rebuilt plugin file is reloaded; the palette and the document follow, wires and parameters kept", "[ui][plugins]") {
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    const fs::path plugin = fs::path(folder.path().toStdString()) / "versioned.so";
    installPlugin(fixturePlugin("versioned_v1"), plugin, true);
    Editor editor;
    editor.host.load(plugin);
    editor.catalog.refresh();
    PluginReloader reloader(&editor.host, std::chrono::milliseconds(200));
    reloader.attach(&editor.run);
    QStringList summaries;
    QList<bool> outcomes;
    QObject::connect(&reloader, &PluginReloader::reloaded, [&](const QString& summary, bool ok) {
        editor.catalog.refresh();
        summaries.append(summary);
        outcomes.append(ok);
    });

    GraphDocument& document = editor.document;
    const QString same = document.addNode("versioned.same", 0, 0);
    const QString gain = document.addNode("versioned.gain", 240, 0);
    const QString old = document.addNode("versioned.old", 480, 0);
    REQUIRE(document.connectPorts(same, "out", gain, "in").isEmpty());
    REQUIRE(document.connectPorts(gain, "out", old, "in").isEmpty());
    REQUIRE(document.setParameter(gain, "gain", 3.0).isEmpty());
    CHECK(catalogHas(editor.catalog, "versioned.old"));
    CHECK(parameterDefault(document, gain, "gain").toDouble() == 1.0);
    // The one problem to begin with: nothing feeds the first node.
    REQUIRE(waitUntil([&] { return problemNodes(document) == QStringList{same}; }));

    SECTION("release 2 renamed over release 1") {
        installPlugin(fixturePlugin("versioned_v2"), plugin, false);
        REQUIRE(waitUntil([&] { return summaries.size() == 1; }));
        CHECK(outcomes.front());
        CHECK_THAT(summaries.front().toStdString(), Contains("versioned.so 2.0.0 reloaded") && Contains("added versioned.new") &&
                                                        Contains("removed versioned.old") && Contains("changed versioned.gain") &&
                                                        Contains("1 unchanged"));
        CHECK(catalogHas(editor.catalog, "versioned.new"));
        CHECK_FALSE(catalogHas(editor.catalog, "versioned.old"));
        // Same nodes, wires and parameters; the changed type shows its new default; the node of the
        // removed type is a problem instead of disappearing.
        CHECK(document.nodeCount() == 3);
        CHECK(document.spec().edges.size() == 2);
        CHECK(document.spec().findNode(gain.toStdString())->params.at("gain") == 3.0);
        CHECK(parameterDefault(document, gain, "gain").toDouble() == 2.0);
        REQUIRE(waitUntil([&] { return problemNodes(document).contains(old); }));
        CHECK(document.nodes()->get(gain)["known"].toBool());
        CHECK_FALSE(document.nodes()->get(old)["known"].toBool());

        // Release 1 again, written in place this time (and watched again after the rename).
        installPlugin(fixturePlugin("versioned_v1"), plugin, true);
        REQUIRE(waitUntil([&] { return summaries.size() == 2; }));
        CHECK_THAT(summaries.back().toStdString(), Contains("versioned.so 1.0.0 reloaded") && Contains("added versioned.old"));
        CHECK(catalogHas(editor.catalog, "versioned.old"));
        REQUIRE(waitUntil([&] { return problemNodes(document) == QStringList{same}; }));
        CHECK(document.spec().edges.size() == 2);
    }

    SECTION("a new binary waits for its own manifest before it is reloaded") {
        // A build links the binary first and writes the manifest after it: the binary settles beside
        // the old manifest, which must not be read against it (no false "kept").
        fs::copy_file(fixturePlugin("versioned_v2"), plugin, fs::copy_options::overwrite_existing);
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 1500) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);  // several settling times
        CHECK(summaries.isEmpty());
        fs::copy_file(manifestPathFor(fixturePlugin("versioned_v2")), manifestPathFor(plugin), fs::copy_options::overwrite_existing);
        REQUIRE(waitUntil([&] { return summaries.size() == 1; }));
        CHECK(outcomes.front());
        CHECK_THAT(summaries.front().toStdString(), Contains("versioned.so 2.0.0 reloaded"));
    }

    SECTION("a refused build keeps the old one and says why until a good build loads") {
        // Release 2's binary beside release 1's manifest: once the watcher's patience for the new
        // manifest runs out, the loader refuses it.
        fs::copy_file(fixturePlugin("versioned_v2"), plugin, fs::copy_options::overwrite_existing);
        REQUIRE(waitUntil([&] { return summaries.size() == 1; }));
        CHECK_FALSE(outcomes.front());
        CHECK_THAT(summaries.front().toStdString(), Contains("versioned.so kept") && Contains("its manifest does not match the binary"));
        CHECK(catalogHas(editor.catalog, "versioned.old"));
        CHECK(editor.host.find(plugin)->version == "1.0.0");
        REQUIRE(document.problems()->problemsOf("plugins").size() == 1);
        CHECK_THAT(document.problems()->problemsOf("plugins").front().message, Contains("does not match"));
        CHECK(problemNodes(document) == (QStringList{same, ""}));

        // A build for another plugin ABI, with its manifest: refused as well, the old one stays.
        installPlugin(fixturePlugin("refused_abi"), plugin, false);
        REQUIRE(waitUntil([&] { return summaries.size() == 2; }));
        CHECK_FALSE(outcomes.back());
        CHECK_THAT(summaries.back().toStdString(), Contains("versioned.so kept") && Contains("ABI 2"));
        CHECK(catalogHas(editor.catalog, "versioned.old"));
        REQUIRE(document.problems()->problemsOf("plugins").size() == 1);
        CHECK_THAT(document.problems()->problemsOf("plugins").front().message, Contains("ABI 2"));

        // Reload Plugins (the menu action) with a consistent build clears it.
        installPlugin(fixturePlugin("versioned_v1"), plugin, true);
        reloader.reloadAll();
        REQUIRE(summaries.size() >= 3);
        CHECK(outcomes.back());
        CHECK(document.problems()->problemsOf("plugins").empty());
        CHECK(editor.host.find(plugin)->version == "1.0.0");
    }
}

TEST_CASE("a reload stops the running graphs and starts them again", "[ui][plugins][run]") {
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    const fs::path plugin = fs::path(folder.path().toStdString()) / "versioned.so";
    installPlugin(fixturePlugin("versioned_v1"), plugin, true);
    Editor editor;
    editor.host.load(plugin);
    PluginReloader reloader(&editor.host, std::chrono::milliseconds(200));
    reloader.attach(&editor.run);
    int reloads = 0;
    QObject::connect(&reloader, &PluginReloader::reloaded, [&] { ++reloads; });

    GraphDocument& document = editor.document;
    const QString generator = document.addNode("generators.signal_generator", 0, 0);
    const QString sink = document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.connectPorts(generator, "out", sink, "in").isEmpty());
    REQUIRE(document.setParameter(generator, "duration", 0.0).isEmpty());  // forever
    REQUIRE(editor.run.start());
    REQUIRE(waitUntil([&] { return editor.run.state() == "running"; }));

    reloader.reloadAll();
    CHECK(reloads == 0);  // not while the engine runs
    REQUIRE(waitUntil([&] { return reloads == 1; }));
    REQUIRE(waitUntil([&] { return editor.run.state() == "running"; }));
    CHECK(editor.run.telemetry()->runCount() == 2);
    editor.run.stopAll();
    REQUIRE(waitUntil([&] { return !editor.run.running(); }));
}

TEST_CASE("a build the loader refuses leaves the running graphs running: not stopped, not started again", "[ui][plugins][run]") {
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    const fs::path plugin = fs::path(folder.path().toStdString()) / "versioned.so";
    installPlugin(fixturePlugin("versioned_v1"), plugin, true);
    Editor editor;
    editor.host.load(plugin);
    // Release 2's binary beside release 1's manifest (a manifest edited by hand does the same): refused.
    fs::copy_file(fixturePlugin("versioned_v2"), plugin, fs::copy_options::overwrite_existing);
    PluginReloader reloader(&editor.host, std::chrono::milliseconds(200));
    reloader.attach(&editor.run);
    QStringList summaries;
    QObject::connect(&reloader, &PluginReloader::reloaded, [&](const QString& summary, bool ok) {
        if (!ok) summaries.append(summary);
    });

    GraphDocument& document = editor.document;
    const QString generator = document.addNode("generators.signal_generator", 0, 0);
    const QString sink = document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.connectPorts(generator, "out", sink, "in").isEmpty());
    REQUIRE(document.setParameter(generator, "duration", 0.0).isEmpty());  // forever
    REQUIRE(editor.run.start());
    REQUIRE(waitUntil([&] { return editor.run.state() == "running"; }));
    QStringList states;
    QObject::connect(&editor.run, &RunController::stateChanged, [&] { states.append(editor.run.state()); });

    reloader.reloadAll();
    REQUIRE(summaries.size() == 1);
    CHECK_THAT(summaries.front().toStdString(), Contains("versioned.so kept") && Contains("its manifest does not match the binary"));
    CHECK(states.isEmpty());  // never "stopping"
    CHECK(editor.run.state() == "running");
    CHECK(editor.run.telemetry()->runCount() == 1);
    CHECK(editor.host.find(plugin)->version == "1.0.0");
    REQUIRE(document.problems()->problemsOf("plugins").size() == 1);
    CHECK_THAT(document.problems()->problemsOf("plugins").front().message, Contains("does not match"));
    editor.run.stopAll();
    REQUIRE(waitUntil([&] { return !editor.run.running(); }));
    CHECK(editor.run.telemetry()->runCount() == 1);
}

TEST_CASE("a plugin operator that throws while running is a problem naming its node; the rest runs on", "[ui][plugins][faults]") {
    Editor editor;
    editor.host.load(fixturePlugin("flawed"));
    GraphDocument& document = editor.document;
    const QString tone = document.addNode("generators.signal_generator", 0, 0);
    const QString healthy = document.addNode("io.null_sink", 240, 0);
    const QString faulty = document.addNode("flawed.throws", 240, 120);
    const QString after = document.addNode("io.null_sink", 480, 120);
    REQUIRE(document.setParameter(tone, "duration", 0.0).isEmpty());  // forever
    REQUIRE(document.setParameter(tone, "rate", 8000.0).isEmpty());
    REQUIRE(document.setParameter(tone, "block", 200).isEmpty());
    REQUIRE(document.connectPorts(tone, "out", healthy, "in").isEmpty());
    REQUIRE(document.connectPorts(tone, "out", faulty, "in").isEmpty());
    REQUIRE(document.connectPorts(faulty, "out", after, "in").isEmpty());

    RunController& run = editor.run;
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !document.problems()->problemsOf("run").empty(); }));
    CHECK(run.running());
    const GraphError fault = document.problems()->problemsOf("run").front();
    CHECK(fault.node == faulty.toStdString());
    CHECK_THAT(fault.message, Contains("deliberate failure on segment 10") && Contains("[plugin "));
    CHECK(problemNodes(document).contains(faulty));
    CHECK(document.nodes()->get(faulty)["status"] == "failed");
    CHECK_THAT(document.nodes()->get(faulty)["statusText"].toString().toStdString(), Contains("deliberate failure"));

    // The healthy branch keeps going.
    const qint64 before = document.nodes()->get(healthy)["statusText"].toString().section(' ', 0, 0).toLongLong();
    REQUIRE(waitUntil([&] { return document.nodes()->get(healthy)["statusText"].toString().section(' ', 0, 0).toLongLong() > before + 100; }));
    CHECK(run.running());
    CHECK(document.nodes()->get(healthy)["status"] == "running");

    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }));
    CHECK(run.state() == "failed");
    CHECK_THAT(run.message().toStdString(), Contains("node '" + faulty.toStdString() + "'"));
    CHECK(document.problems()->problemsOf("run").size() == 1);  // still listed after the run
}

TEST_CASE("a plugin operator that fails in deactivate is a failure of the run, in the problems panel naming its node, as isochron-run reports it",
          "[ui][plugins][faults]") {
    Editor editor;
    editor.host.load(fixturePlugin("faults"));
    GraphDocument& document = editor.document;
    const QString tone = document.addNode("generators.signal_generator", 0, 0);
    const QString faulty = document.addNode("faults.in_hook", 240, 0);
    const QString after = document.addNode("io.null_sink", 480, 0);
    REQUIRE(document.setParameter(tone, "duration", 0.2).isEmpty());
    REQUIRE(document.setParameter(faulty, "hook", "deactivate").isEmpty());
    REQUIRE(document.connectPorts(tone, "out", faulty, "in").isEmpty());
    REQUIRE(document.connectPorts(faulty, "out", after, "in").isEmpty());

    RunController& run = editor.run;
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running() && run.state() != "starting"; }));
    CHECK(run.state() == "failed");
    CHECK_THAT(run.message().toStdString(), Contains("node '" + faulty.toStdString() + "': deliberate failure in deactivate (in deactivate)"));
    const std::vector<GraphError> problems = document.problems()->problemsOf("run");
    REQUIRE(problems.size() == 1);
    CHECK(problems.front().node == faulty.toStdString());
    CHECK_THAT(problems.front().message, Contains("deliberate failure in deactivate"));
    CHECK(document.nodes()->get(faulty)["status"] == "failed");
    CHECK(document.nodes()->get(after)["status"] != "failed");
}

TEST_CASE("sandboxed plugins get the watchdog of the graph each start runs: shorter than a live source's max_lag, or the given one with a warning",
          "[ui][plugins][faults]") {
    // A hung sandboxed call holds the whole graph until the watchdog: with the editor's fixed 10 s a
    // paced source (max_lag 3 s) dropped data. The choice is isochron-run's (sandbox_watchdog.h).
    Editor editor;
    PluginHosting sandboxed;
    sandboxed.sandboxed = true;
    const fs::path plugin = fixturePlugin("faults");
    editor.host.load(plugin, sandboxed);
    editor.run.setPluginHost(&editor.host);
    GraphDocument& document = editor.document;
    const QString tone = document.addNode("generators.signal_generator", 0, 0);
    const QString sink = document.addNode("io.null_sink", 240, 0);
    REQUIRE(document.setParameter(tone, "duration", 0.0).isEmpty());  // forever
    REQUIRE(document.setParameter(tone, "pace", 1.0).isEmpty());
    REQUIRE(document.setParameter(tone, "max_lag", 3.0).isEmpty());
    REQUIRE(document.connectPorts(tone, "out", sink, "in").isEmpty());
    RunController& run = editor.run;
    const auto runOnce = [&] {
        REQUIRE(run.start());
        REQUIRE(waitUntil([&] { return run.state() == "running"; }));
        const std::chrono::milliseconds watchdog = editor.host.find(plugin)->hosting.watchdog;
        const QStringList notices = run.notices();
        run.stopAll();
        REQUIRE(waitUntil([&] { return !run.running(); }));
        return std::pair{watchdog, notices.join('\n')};
    };

    const auto [chosen, quiet] = runOnce();
    CHECK(chosen == std::chrono::milliseconds(1500));  // half of max_lag: a hang is cut before the source drops
    CHECK_FALSE(quiet.contains("drop data"));

    run.setSandboxWatchdog(std::chrono::seconds(10));  // the editor's --watchdog 10
    const auto [given, warned] = runOnce();
    CHECK(given == std::chrono::seconds(10));
    CHECK_THAT(warned.toStdString(), Contains("would make '" + tone.toStdString() + "' drop data"));

    run.setSandboxWatchdog(std::nullopt);
    REQUIRE(document.setParameter(tone, "pace", 0.0).isEmpty());  // unpaced: nothing live to protect
    REQUIRE(document.setParameter(tone, "duration", 0.5).isEmpty());
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running() && run.state() != "starting"; }));
    CHECK(editor.host.find(plugin)->hosting.watchdog == std::chrono::seconds(10));
}

TEST_CASE("Stop while a plugin hangs in activate ends the run after the stop's grace, the problems panel naming node, plugin and hook",
          "[ui][plugins][faults]") {
    // The run stayed "stopping" for good: the engine thread never returned from activate, and the
    // editor waited for it (a quit too).
    Editor editor;
    const std::string faults = fs::canonical(fixturePlugin("faults")).string();
    editor.host.load(faults);
    GraphDocument& document = editor.document;
    const QString tone = document.addNode("generators.signal_generator", 0, 0);
    const QString faulty = document.addNode("faults.in_hook", 240, 0);
    const QString after = document.addNode("io.null_sink", 480, 0);
    REQUIRE(document.setParameter(faulty, "hook", "activate").isEmpty());
    REQUIRE(document.setParameter(faulty, "how", "hang").isEmpty());
    REQUIRE(document.connectPorts(tone, "out", faulty, "in").isEmpty());
    REQUIRE(document.connectPorts(faulty, "out", after, "in").isEmpty());

    RunController& run = editor.run;
    REQUIRE(run.start());
    const std::string stuck = "node '" + faulty.toStdString() + "' (plugin " + faults + ") in its activate hook";
    // (Another case of this process may have left a thread behind: it is named too.)
    REQUIRE(waitUntil([&] { return describeUnreturnedPluginCalls().find(stuck) != std::string::npos; }));
    CHECK(run.state() == "starting");
    run.stop();
    CHECK(run.state() == "stopping");
    REQUIRE(waitUntil([&] { return run.state() != "stopping"; }));
    CHECK(run.state() == "stopped");
    CHECK_THAT(run.message().toStdString(), Contains(stuck) && Contains(" did not return after the stop request"));
    const std::vector<GraphError> problems = document.problems()->problemsOf("run");
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems.front().message, Contains(stuck) && Contains(" did not return after the stop request"));
    CHECK(RunController::anyStartLeftBehind());
}

TEST_CASE("Stop while a plugin then hangs in deactivate ends the run after the stop's grace, naming node, plugin and hook",
          "[ui][plugins][faults]") {
    // The stop was given up on only while the nodes started: a deactivate after the run that did not
    // return left the editor "stopping" for good (tryout17d).
    Editor editor;
    const std::string faults = fs::canonical(fixturePlugin("faults")).string();
    editor.host.load(faults);
    GraphDocument& document = editor.document;
    const QString tone = document.addNode("generators.signal_generator", 0, 0);
    const QString faulty = document.addNode("faults.in_hook", 240, 0);
    const QString after = document.addNode("io.null_sink", 480, 0);
    REQUIRE(document.setParameter(tone, "duration", 0.0).isEmpty());  // forever: only the stop ends it
    REQUIRE(document.setParameter(faulty, "hook", "deactivate").isEmpty());
    REQUIRE(document.setParameter(faulty, "how", "hang").isEmpty());
    REQUIRE(document.connectPorts(tone, "out", faulty, "in").isEmpty());
    REQUIRE(document.connectPorts(faulty, "out", after, "in").isEmpty());

    RunController& run = editor.run;
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return run.state() == "running"; }));
    run.stop();
    const std::string stuck = "node '" + faulty.toStdString() + "' (plugin " + faults + ") in its deactivate hook";
    REQUIRE(waitUntil([&] { return run.state() != "stopping"; }));
    CHECK(run.state() == "stopped");
    // (A thread left behind by another case of this process may be named too.)
    CHECK_THAT(run.message().toStdString(), StartsWith("Stopped while closing its nodes: ") && Contains(stuck) && Contains(" did not return after the stop request"));
    const std::vector<GraphError> problems = document.problems()->problemsOf("run");
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems.front().message, Contains(stuck) && Contains(" did not return after the stop request"));
}
