#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "nodes/spatial/array_geometry.h"

using namespace isochron;

namespace {

constexpr double kTolerance = 1e-12;

/// Writes `text` to a fresh file in the temp folder and returns its path.
std::string writeTempFile(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("isochron-geometry-test-" + name);
    std::ofstream(path) << text;
    return path.string();
}

std::string loadError(const std::string& spec) {
    try {
        loadGeometry(spec);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

void checkMic(const ArrayGeometry& geometry, int mic, double x, double y, double z) {
    INFO(geometry.origin << " mic " << mic);
    const Eigen::Vector3d& p = geometry.mics[static_cast<std::size_t>(mic)];
    CHECK(p.x() == Approx(x).margin(kTolerance));
    CHECK(p.y() == Approx(y).margin(kTolerance));
    CHECK(p.z() == Approx(z).margin(kTolerance));
}

}  // namespace

TEST_CASE("geometry presets place the mics as documented", "[spatial][geometry]") {
    const ArrayGeometry square = presetGeometry("square4:0.2");
    REQUIRE(square.micCount() == 4);
    checkMic(square, 0, 0.1, 0.1, 0.0);
    checkMic(square, 1, -0.1, 0.1, 0.0);
    checkMic(square, 2, -0.1, -0.1, 0.0);
    checkMic(square, 3, 0.1, -0.1, 0.0);
    CHECK(square.aperture() == Approx(0.2 * std::sqrt(2.0)));
    CHECK(square.isPlanar());

    for (int count : {6, 8}) {
        const ArrayGeometry circle = presetGeometry("circular" + std::to_string(count) + ":0.05");
        REQUIRE(circle.micCount() == count);
        for (int i = 0; i < count; ++i) {
            const double azimuth = 2.0 * M_PI * i / count;
            checkMic(circle, i, 0.05 * std::cos(azimuth), 0.05 * std::sin(azimuth), 0.0);
        }
    }
    const ArrayGeometry line = presetGeometry("linear4:0.05");
    REQUIRE(line.micCount() == 4);
    checkMic(line, 0, 0.0, -0.075, 0.0);
    checkMic(line, 3, 0.0, 0.075, 0.0);
}

TEST_CASE("malformed presets are refused with a reason", "[spatial][geometry]") {
    CHECK_THAT(loadError("square3:0.2"), Catch::Contains("4 mics"));
    CHECK_THAT(loadError("circular6:-1"), Catch::Contains("positive number of metres"));
    CHECK_THAT(loadError("circular6:abc"), Catch::Contains("positive number of metres"));
    CHECK_THAT(loadError("linear1:0.1"), Catch::Contains("2 to 64"));
    // Found by fuzzing: a huge size gave an infinite aperture, a tiny one mics at the same place.
    CHECK_THAT(loadError("circular5:1e250"), Catch::Contains("farther than 1000 km"));
    CHECK_THAT(loadError("linear64:40000"), Catch::Contains("farther than 1000 km"));
    CHECK_THAT(loadError("circular8:1e-12"), Catch::Contains("at the same position"));
    CHECK_THAT(loadError("hexagon6:0.1"), Catch::Contains("no such file"));
    CHECK_THAT(loadError(""), Catch::Contains("no array geometry"));
}

TEST_CASE("a geometry path that is a device or a folder says what it is, not \"no such file\"", "[spatial][geometry]") {
    CHECK_THAT(loadError("/dev/zero"), Catch::Contains("'/dev/zero': it is a device, not a file"));
    const std::string folder = std::filesystem::temp_directory_path().string();
    CHECK_THAT(loadError(folder), Catch::Contains("'" + folder + "': it is a folder, not a file"));
}

TEST_CASE("a preset behind a folder (a graph-relative path) is still the preset", "[spatial][geometry]") {
    const ArrayGeometry geometry = loadGeometry("/some/graph/folder/circular8:0.1");
    CHECK(geometry.micCount() == 8);
    CHECK(geometry.origin == "preset 'circular8:0.1'");
}

TEST_CASE("geometry files load, and their errors name the file and the problem", "[spatial][geometry]") {
    const std::string good = writeTempFile("good.json", R"({"mics": [[0.1, 0, 0], [0, 0.1, 0], [-0.1, 0, 0.05]]})");
    const ArrayGeometry geometry = loadGeometry(good);
    REQUIRE(geometry.micCount() == 3);
    checkMic(geometry, 2, -0.1, 0.0, 0.05);
    CHECK_FALSE(geometry.isPlanar());
    CHECK(geometry.origin.find(good) != std::string::npos);

    struct Case {
        const char* name;
        const char* text;
        const char* problem;
    };
    const Case cases[] = {
        {"not-json.json", "{\"mics\": [[0, 0", "not valid JSON"},
        // Found by fuzzing: nlohmann reports this as out_of_range, which used to escape untranslated.
        {"overflow.json", R"({"mics": [[0, 0, 0], [1e999, 0, 0]]})", "at mics[1][0]: the number '1e999' is beyond the range of numbers"},
        {"no-mics.json", R"({"microphones": []})", "expected an object"},
        {"one-mic.json", R"({"mics": [[0, 0, 0]]})", "at least two"},
        {"short.json", R"({"mics": [[0, 0, 0], [1, 2]]})", "mics[1] is [1,2]"},
        {"text.json", R"({"mics": [[0, 0, 0], [1, "a", 0]]})", "mics[1][1] (y) is \"a\""},
        {"same.json", R"({"mics": [[0, 0, 0], [0.1, 0, 0], [0, 0, 0]]})", "mics[0] and mics[2] are at the same position"},
        {"empty.json", "  \n", "is empty"},
        {"no-list.json", R"({"mics": []})", "at least two [x, y, z] positions (it has 0)"},
        {"nan.json", R"({"mics": [[0, 0, 0], [0.1, NaN, 0]]})", "mics[1][1] (y) is NaN, not a finite number of metres"},
        {"infinite.json", R"({"mics": [[0, 0, 0], [0.1, 0, -Infinity]]})", "mics[1][2] (z) is -Infinity"},
        {"null.json", R"({"mics": [[0, 0, 0], [0.1, null, 0]]})", "mics[1][1] (y) is null, not a number of metres"},
        // Found by fuzzing: mics this far apart made the aperture overflow to infinity.
        {"far.json", R"({"mics": [[0, 0, 0], [0.3, 7e300, 0]]})", "mics[1][1] (y) is 7e+300 m, farther than 1000 km"},
        // The second "mics" won silently.
        {"twice.json", R"({"mics": [[0, 0, 0], [0.1, 0, 0]], "mics": [[0, 0, 0], [0.2, 0, 0]]})",
         "key \"mics\" is given twice in the top-level object"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const std::string path = writeTempFile(c.name, c.text);
        const std::string message = loadError(path);
        CHECK_THAT(message, Catch::Contains(path));
        CHECK_THAT(message, Catch::Contains(c.problem));
        std::filesystem::remove(path);
    }
    CHECK_THAT(loadError("/no/such/array.json"), Catch::Contains("cannot read geometry file '/no/such/array.json'"));
    std::filesystem::remove(good);
}

TEST_CASE("direction vectors and steering delays match a hand computation", "[spatial][geometry]") {
    const Eigen::Vector3d front = directionVector(0.0, 0.0);
    const Eigen::Vector3d left = directionVector(90.0, 0.0);
    const Eigen::Vector3d up = directionVector(123.0, 90.0);
    CHECK(front.isApprox(Eigen::Vector3d(1, 0, 0)));
    CHECK(left.isApprox(Eigen::Vector3d(0, 1, 0), 1e-12));
    CHECK((up - Eigen::Vector3d(0, 0, 1)).norm() < 1e-12);

    // Two mics 0.343 m apart on y: a source on the left reaches mic 1 (+y) 0.5 ms early, mic 0 0.5 ms late.
    const ArrayGeometry pair = presetGeometry("linear2:0.343");
    const auto fromLeft = steeringDelays(pair, left, 343.0);
    CHECK(fromLeft[0] == Approx(0.0005));
    CHECK(fromLeft[1] == Approx(-0.0005));
    const auto fromFront = steeringDelays(pair, front, 343.0);
    CHECK(std::abs(fromFront[0]) < 1e-15);

    // Square of side s, source at azimuth 45 deg: mic 0 at (s/2, s/2) is s / sqrt(2) nearer than the origin.
    const double side = 0.2;
    const auto diagonal = steeringDelays(presetGeometry("square4:0.2"), directionVector(45.0, 0.0));
    CHECK(diagonal[0] == Approx(-side / std::sqrt(2.0) / kSpeedOfSoundMetresPerSecond));
    CHECK(std::abs(diagonal[1]) < 1e-15);
    CHECK(diagonal[2] == Approx(side / std::sqrt(2.0) / kSpeedOfSoundMetresPerSecond));

    // Elevation 30 deg towards the front: a mic 0.1 m up is 0.05 m nearer.
    ArrayGeometry tall;
    tall.mics = {{0, 0, 0}, {0, 0, 0.1}};
    const auto raised = steeringDelays(tall, directionVector(0.0, 30.0), 340.0);
    CHECK(raised[1] == Approx(-0.05 / 340.0));
}
