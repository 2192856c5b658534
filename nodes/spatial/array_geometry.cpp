#include "nodes/spatial/array_geometry.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <fstream>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/files/file_kind.h"
#include "engine/graph/json_duplicate_keys.h"
#include "engine/graph/json_nesting.h"

namespace isochron {
namespace {

constexpr double kDegreesToRadians = std::numbers::pi / 180.0;
// Beyond this, distances between mics overflow (found by fuzz_array_geometry), and no array is this large.
constexpr double kLargestCoordinateMetres = 1e6;

/// A preset spelling split into its layout name ("square", "circular", "linear"), mic count and size.
struct PresetSpelling {
    std::string layout;
    int count = 0;
    double sizeMetres = 0.0;
};

/// Splits "circular6:0.05"; nullopt when the text is not spelled like a preset at all.
std::optional<PresetSpelling> splitPreset(std::string_view spec) {
    const auto colon = spec.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const std::string_view head = spec.substr(0, colon);
    for (std::string_view layout : {"square", "circular", "linear"}) {
        if (!head.starts_with(layout)) continue;
        PresetSpelling spelling;
        spelling.layout = std::string(layout);
        const std::string_view countText = head.substr(layout.size());
        const auto [countEnd, countError] =
            std::from_chars(countText.data(), countText.data() + countText.size(), spelling.count);
        if (countText.empty() || countError != std::errc() || countEnd != countText.data() + countText.size()) {
            return std::nullopt;
        }
        const std::string sizeText(spec.substr(colon + 1));
        char* sizeEnd = nullptr;
        spelling.sizeMetres = std::strtod(sizeText.c_str(), &sizeEnd);
        if (sizeText.empty() || sizeEnd != sizeText.c_str() + sizeText.size()) spelling.sizeMetres = std::nan("");
        return spelling;
    }
    return std::nullopt;
}

/// Marks a string value as standing for a number JSON cannot spell (NaN, Infinity), which some
/// writers (Python's json module) emit; the parser then reports the field instead of a syntax error.
constexpr std::string_view kNonFiniteMark = "\x01non-finite:";

/// `text` with every bare NaN, Infinity or -Infinity outside strings replaced by a marked string.
std::string markNonFiniteNumbers(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) out += text[++i];
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        bool replaced = false;
        for (std::string_view token : {"-Infinity", "Infinity", "NaN"}) {
            if (text.substr(i, token.size()) == token) {
                // The mark's control character, escaped as JSON wants it.
                out += "\"\\u0001";
                out += kNonFiniteMark.substr(1);
                out += token;
                out += '"';
                i += token.size() - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced) out += c;
    }
    return out;
}

void requireDistinctMics(const ArrayGeometry& geometry) {
    for (int a = 0; a < geometry.micCount(); ++a) {
        for (int b = a + 1; b < geometry.micCount(); ++b) {
            if ((geometry.mics[static_cast<std::size_t>(a)] - geometry.mics[static_cast<std::size_t>(b)]).norm() < 1e-9) {
                throw std::invalid_argument(geometry.origin + ": mics[" + std::to_string(a) + "] and mics[" + std::to_string(b) +
                                            "] are at the same position (every mic needs its own place)");
            }
        }
    }
}

}  // namespace

double ArrayGeometry::aperture() const {
    double widest = 0.0;
    for (std::size_t a = 0; a < mics.size(); ++a) {
        for (std::size_t b = a + 1; b < mics.size(); ++b) widest = std::max(widest, (mics[a] - mics[b]).norm());
    }
    return widest;
}

bool ArrayGeometry::isPlanar() const {
    for (const auto& mic : mics) {
        if (mic.z() != 0.0) return false;
    }
    return true;
}

Eigen::Vector3d directionVector(double azimuthDegrees, double elevationDegrees) {
    const double azimuth = azimuthDegrees * kDegreesToRadians;
    const double elevation = elevationDegrees * kDegreesToRadians;
    return {std::cos(elevation) * std::cos(azimuth), std::cos(elevation) * std::sin(azimuth), std::sin(elevation)};
}

std::vector<double> steeringDelays(const ArrayGeometry& geometry, const Eigen::Vector3d& towardsSource,
                                   double speedOfSound) {
    std::vector<double> delays;
    delays.reserve(geometry.mics.size());
    for (const auto& mic : geometry.mics) delays.push_back(-mic.dot(towardsSource) / speedOfSound);
    return delays;
}

ArrayGeometry presetGeometry(std::string_view spec) {
    const auto spelling = splitPreset(spec);
    const std::string quoted = "preset '" + std::string(spec) + "'";
    if (!spelling) {
        throw std::invalid_argument(quoted + " is not a preset (use square4:<side_m>, circular<N>:<radius_m> or "
                                             "linear<N>:<spacing_m>)");
    }
    if (!(spelling->sizeMetres > 0.0) || !std::isfinite(spelling->sizeMetres)) {
        throw std::invalid_argument(quoted + ": the size after ':' must be a positive number of metres");
    }
    ArrayGeometry geometry;
    geometry.origin = quoted;
    const double size = spelling->sizeMetres;
    const int count = spelling->count;
    if (spelling->layout == "square") {
        if (count != 4) throw std::invalid_argument(quoted + ": a square array has 4 mics (square4:<side_m>)");
        const double half = size / 2.0;
        geometry.mics = {{half, half, 0.0}, {-half, half, 0.0}, {-half, -half, 0.0}, {half, -half, 0.0}};
    } else if (spelling->layout == "circular") {
        if (count < 3 || count > 64) throw std::invalid_argument(quoted + ": a circular array has 3 to 64 mics");
        for (int i = 0; i < count; ++i) {
            const double azimuth = 2.0 * std::numbers::pi * i / count;
            geometry.mics.emplace_back(size * std::cos(azimuth), size * std::sin(azimuth), 0.0);
        }
    } else {
        if (count < 2 || count > 64) throw std::invalid_argument(quoted + ": a linear array has 2 to 64 mics");
        for (int i = 0; i < count; ++i) geometry.mics.emplace_back(0.0, (i - (count - 1) / 2.0) * size, 0.0);
    }
    // Found by fuzzing: "circular5:1e250" was accepted with an infinite aperture.
    for (const auto& mic : geometry.mics) {
        if (mic.cwiseAbs().maxCoeff() > kLargestCoordinateMetres) {
            throw std::invalid_argument(quoted + ": this size puts mics farther than 1000 km from the origin: not a microphone array");
        }
    }
    requireDistinctMics(geometry);
    return geometry;
}

ArrayGeometry parseGeometryJson(std::string_view jsonText, const std::string& sourceName) {
    if (jsonText.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        throw std::invalid_argument(sourceName + " is empty: expected {\"mics\": [[x, y, z], ...]} in metres");
    }
    if (const std::string deep = jsonNestingProblem(jsonText); !deep.empty()) throw std::invalid_argument(sourceName + ": " + deep);
    nlohmann::json document;
    try {
        document = parseJsonRefusingDuplicateKeys(markNonFiniteNumbers(jsonText));
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(sourceName + ": not valid JSON (" + e.what() + ")");
    } catch (const JsonNumberOutOfRange& e) {
        throw std::invalid_argument(sourceName + ", at " + (e.field.empty() ? std::string("the top level") : e.field) + ": " + e.what());
    } catch (const DuplicateJsonKey& e) {
        throw std::invalid_argument(sourceName + ": " + e.what());
    }
    const auto mics = document.is_object() ? document.find("mics") : document.end();
    if (!document.is_object() || mics == document.end()) {
        throw std::invalid_argument(sourceName + ": expected an object {\"mics\": [[x, y, z], ...]} (metres)");
    }
    if (!mics->is_array() || mics->size() < 2) {
        throw std::invalid_argument(sourceName + ": \"mics\" must be an array of at least two [x, y, z] positions (it has " +
                                    (mics->is_array() ? std::to_string(mics->size()) + ")" : "none)"));
    }
    ArrayGeometry geometry;
    geometry.origin = sourceName;
    for (std::size_t i = 0; i < mics->size(); ++i) {
        const nlohmann::json& mic = (*mics)[i];
        const std::string field = "mics[" + std::to_string(i) + "]";
        if (!mic.is_array() || mic.size() != 3) {
            throw std::invalid_argument(sourceName + ": " + field + " is " + mic.dump() + ", not [x, y, z] in metres");
        }
        for (std::size_t axis = 0; axis < 3; ++axis) {
            const nlohmann::json& coordinate = mic[axis];
            const std::string where = sourceName + ": " + field + "[" + std::to_string(axis) + "] (" + "xyz"[axis] + ") is ";
            if (coordinate.is_string() && coordinate.get<std::string>().starts_with(kNonFiniteMark)) {
                throw std::invalid_argument(where + coordinate.get<std::string>().substr(kNonFiniteMark.size()) +
                                            ", not a finite number of metres");
            }
            if (!coordinate.is_number()) throw std::invalid_argument(where + coordinate.dump() + ", not a number of metres");
            if (std::abs(coordinate.get<double>()) > kLargestCoordinateMetres) {
                throw std::invalid_argument(where + coordinate.dump() + " m, farther than 1000 km from the origin: not a microphone array");
            }
        }
        geometry.mics.emplace_back(mic[0].get<double>(), mic[1].get<double>(), mic[2].get<double>());
    }
    requireDistinctMics(geometry);
    return geometry;
}

ArrayGeometry loadGeometry(const std::string& spec) {
    if (spec.empty()) throw std::invalid_argument("no array geometry given (a preset such as square4:0.2, or a JSON file)");
    if (spec.front() == '{') return parseGeometryJson(spec, kPositionsFromInputs);
    const std::filesystem::path path(spec);
    std::error_code ignored;
    if (!std::filesystem::is_regular_file(path, ignored)) {
        const std::string name = path.filename().string();
        if (splitPreset(name)) return presetGeometry(name);
        // A device or a folder exists: "no such file" sent the user looking for a typo.
        if (const std::string kind = nonRegularFileKind(path); !kind.empty()) {
            throw std::invalid_argument("cannot read geometry file '" + spec + "': it is " + kind + ", not a file (a geometry file holds JSON)");
        }
        throw std::invalid_argument("cannot read geometry file '" + spec +
                                    "': no such file (and not a preset such as square4:0.2)");
    }
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    if (!file) throw std::invalid_argument("cannot read geometry file '" + spec + "'");
    return parseGeometryJson(text.str(), "geometry file '" + spec + "'");
}

}  // namespace isochron
