// Files of a test: a temporary folder for them, and reading what a child run wrote (whole text, or a
// JSON report that must exist).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace isochron::test {

/// A new empty folder under the system's temporary folder, removed with everything in it at the end
/// of the scope.
struct TempFolder {
    std::filesystem::path path;
    TempFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "isochron-test-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~TempFolder() { std::filesystem::remove_all(path); }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    /// The path of `name` inside the folder.
    std::string file(const std::string& name) const { return (path / name).string(); }
};

/// The whole content of `path` ("" when it cannot be read).
inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The JSON in `path`; fails the test case (naming the file) when it does not exist.
inline nlohmann::json readJson(const std::filesystem::path& path) {
    INFO("report " << path);
    REQUIRE(std::filesystem::exists(path));
    return nlohmann::json::parse(readText(path));
}

}  // namespace isochron::test
