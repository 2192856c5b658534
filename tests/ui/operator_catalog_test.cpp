// The palette lists every registered operator by category, filters as the user types, and says
// where each operator comes from.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "engine/plugins/plugin_host.h"
#include "nodes/register_builtin_nodes.h"
#include "ui/model/operator_catalog.h"

using namespace isochron;
using namespace isochron::ui;

TEST_CASE("the palette lists every registered operator, grouped by category", "[ui][palette]") {
    OperatorCatalog catalog;
    REQUIRE(catalog.rowCount() == static_cast<int>(builtinRegistry().all().size()));
    QString previous;
    for (int row = 0; row < catalog.rowCount(); ++row) {
        const QString category = catalog.index(row).data(OperatorCatalog::CategoryRole).toString();
        CHECK(category >= previous);
        previous = category;
        CHECK_FALSE(catalog.index(row).data(OperatorCatalog::SummaryRole).toString().isEmpty());
    }
}

TEST_CASE("search matches every word against name, category and summary", "[ui][palette]") {
    OperatorCatalog catalog;
    catalog.setFilter("fft");
    REQUIRE(catalog.rowCount() >= 1);
    bool foundFft = false;
    for (int row = 0; row < catalog.rowCount(); ++row) foundFft |= catalog.typeAt(row) == "spectral.fft";
    CHECK(foundFft);
    catalog.setFilter("silence detector");
    REQUIRE(catalog.rowCount() == 1);
    CHECK(catalog.typeAt(0) == "detect.silence_detector");
    catalog.setFilter("SPECTRAL");
    int spectralFamily = 0;
    for (int row = 0; row < catalog.rowCount(); ++row) {
        const QModelIndex index = catalog.index(row);
        INFO(catalog.typeAt(row).toStdString());
        spectralFamily += index.data(OperatorCatalog::CategoryRole) == "spectral";
        const QString text = index.data(OperatorCatalog::CategoryRole).toString() + " " + catalog.typeAt(row) + " " +
                             index.data(OperatorCatalog::SummaryRole).toString();
        CHECK(text.contains("spectral", Qt::CaseInsensitive));  // any case, in the family, the name or the summary
    }
    CHECK(spectralFamily >= 1);
    catalog.setFilter("zzzz-nothing");
    CHECK(catalog.rowCount() == 0);
    CHECK(catalog.typeAt(0).isEmpty());
}

TEST_CASE("quick-add ranks the types whose name starts with what was typed first", "[ui][palette]") {
    OperatorCatalog catalog;
    catalog.setProperty("ranked", true);
    catalog.setFilter("sig");  // "signal" is in several summaries
    REQUIRE(catalog.rowCount() > 1);
    CHECK(catalog.typeAt(0) == "generators.signal_generator");
    catalog.setFilter("detector");  // in two names, neither starting with it
    CHECK(catalog.typeAt(0).endsWith("_detector"));
    CHECK(catalog.typeAt(1).endsWith("_detector"));
    catalog.setProperty("ranked", false);
    catalog.setFilter("sig");
    CHECK(catalog.typeAt(0) != "generators.signal_generator");  // the palette keeps its categories
}

TEST_CASE("the palette names each plugin operator's file and marks built-ins", "[ui][palette][plugins]") {
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    PluginHost host(registry);
    const std::filesystem::path flawed = std::filesystem::path(ISOCHRON_FIXTURE_DIR) / "flawed.so";
    host.load(flawed);
    OperatorCatalog catalog(registry, nullptr);
    int fromPlugin = 0;
    for (int row = 0; row < catalog.rowCount(); ++row) {
        const QModelIndex index = catalog.index(row);
        INFO(catalog.typeAt(row).toStdString());
        if (catalog.typeAt(row).startsWith("flawed.")) {
            ++fromPlugin;
            CHECK(index.data(OperatorCatalog::OriginNameRole) == "flawed.so");
            CHECK(std::filesystem::equivalent(index.data(OperatorCatalog::OriginRole).toString().toStdString(), flawed));
        } else {
            CHECK(index.data(OperatorCatalog::OriginNameRole) == "built-in");
            CHECK(index.data(OperatorCatalog::OriginRole) == "built-in");
        }
    }
    CHECK(fromPlugin == 9);  // every operator of tests/plugins/fixtures/flawed.cpp
}

TEST_CASE("The palette finds operators by parameter name and by what their ports carry", "[ui][catalog]") {
    OperatorCatalog catalog;
    auto types = [&] {
        std::vector<std::string> found;
        for (int row = 0; row < catalog.rowCount(); ++row) found.push_back(catalog.typeAt(row).toStdString());
        return found;
    };
    auto has = [](const std::vector<std::string>& found, const std::string& type) {
        return std::find(found.begin(), found.end(), type) != found.end();
    };
    catalog.setFilter("pad edges");  // a parameter's name, spelled with a space
    CHECK(has(types(), "spectral.stft"));
    CHECK(has(types(), "spectral.spectrogram"));
    catalog.setFilter("in:frame<c32> out:signal");
    CHECK(has(types(), "spectral.istft"));
    CHECK_FALSE(has(types(), "spectral.stft"));
    for (const std::string& type : types()) {
        const OperatorDescriptor* d = builtinRegistry().find(type);
        REQUIRE(d);
        bool takesSpectra = false, givesSignal = false;
        for (const PortSpec& port : d->inputs) takesSpectra = takesSpectra || port.type.accepts(PortType::frame(SampleType::ComplexFloat32));
        for (const PortSpec& port : d->outputs) givesSignal = givesSignal || port.type.kind == ItemKind::Signal;
        CHECK(takesSpectra);
        CHECK(givesSignal);
    }
    catalog.setFilter("in:event beam");
    CHECK(has(types(), "spatial.delay_and_sum_beamformer"));
    CHECK(has(types(), "spatial.mvdr_beamformer"));
    CHECK_FALSE(has(types(), "spatial.srp_phat"));  // "beam" in its text, but no event input
    catalog.setFilter("port:signal<f32> spectrogram");
    CHECK(has(types(), "spectral.spectrogram"));
    catalog.setFilter("out:nonsense<x>");
    CHECK(catalog.rowCount() == 0);
    CHECK(portCarries(PortType::anySignal(), "signal<f32>"));
    CHECK(portCarries(PortType::event(), "event"));
    CHECK_FALSE(portCarries(PortType::scalar(), "event"));
}

TEST_CASE("a plain word naming what a port carries finds the operators with such a port", "[ui][catalog]") {
    OperatorCatalog catalog;
    auto listed = [&] {
        std::vector<std::string> found;
        for (int row = 0; row < catalog.rowCount(); ++row) found.push_back(catalog.typeAt(row).toStdString());
        return found;
    };
    // The reference: the descriptors' own port types, read field by field.
    auto hasPort = [](const OperatorDescriptor& d, auto&& carries) {
        return std::any_of(d.inputs.begin(), d.inputs.end(), [&](const PortSpec& p) { return carries(p.type); }) ||
               std::any_of(d.outputs.begin(), d.outputs.end(), [&](const PortSpec& p) { return carries(p.type); });
    };
    const auto isEvent = [](const PortType& t) { return t.kind == ItemKind::Event; };
    const auto isFrame = [](const PortType& t) { return t.kind == ItemKind::Frame; };
    const auto isFloatSignal = [](const PortType& t) {
        return t.kind == ItemKind::Signal && (!t.sampleType || *t.sampleType == SampleType::Float32);
    };
    struct Case {
        QString word;
        std::function<bool(const PortType&)> carries;
    };
    for (const Case& c : {Case{"event", isEvent}, Case{"FRAME", isFrame}, Case{"signal<f32>", isFloatSignal}}) {
        INFO(c.word.toStdString());
        catalog.setFilter(c.word);
        const std::vector<std::string> found = listed();
        int withPort = 0;
        for (const OperatorDescriptor* d : builtinRegistry().all()) {
            if (!hasPort(*d, c.carries)) continue;
            ++withPort;
            INFO(d->typeName);
            CHECK(std::find(found.begin(), found.end(), d->typeName) != found.end());
        }
        CHECK(withPort >= 3);
    }
    // Port words combine with keywords: the signal<f32> operators of the filters family.
    catalog.setFilter("signal<f32> lowpass");
    const std::vector<std::string> lowpass = listed();
    CHECK(std::find(lowpass.begin(), lowpass.end(), "filters.fir") != lowpass.end());
    for (const std::string& type : lowpass) CHECK(hasPort(*builtinRegistry().find(type), isFloatSignal));
    // A word that is no port type ("eventually", "signal<nonsense>") is only a keyword.
    catalog.setFilter("signal<nonsense>");
    CHECK(catalog.rowCount() == 0);
}
