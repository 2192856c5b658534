#include "engine/plugins/plugin_build_id.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/plugins/plugin_manifest.h"

namespace isochron {
namespace {

// The GNU build-id in a block of ELF notes, or "".
std::string buildIdInNotes(const std::vector<char>& notes) {
    std::size_t at = 0;
    auto aligned = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
    while (at + sizeof(Elf64_Nhdr) <= notes.size()) {
        Elf64_Nhdr header;
        std::memcpy(&header, notes.data() + at, sizeof header);
        const std::size_t nameAt = at + sizeof header;
        const std::size_t descriptionAt = nameAt + aligned(header.n_namesz);
        if (descriptionAt + header.n_descsz > notes.size()) break;
        if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 && std::memcmp(notes.data() + nameAt, "GNU", 4) == 0) {
            static const char kHex[] = "0123456789abcdef";
            std::string hex;
            for (std::size_t i = 0; i < header.n_descsz; ++i) {
                const auto byte = static_cast<unsigned char>(notes[descriptionAt + i]);
                hex += kHex[byte >> 4];
                hex += kHex[byte & 15];
            }
            return hex;
        }
        at = descriptionAt + aligned(header.n_descsz);
    }
    return "";
}

}  // namespace

std::string pluginBuildId(const std::filesystem::path& binary) {
    std::ifstream in(binary, std::ios::binary);
    Elf64_Ehdr header;
    if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return "";
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64) return "";
    for (unsigned i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment;
        in.seekg(static_cast<std::streamoff>(header.e_phoff + i * header.e_phentsize));
        if (!in.read(reinterpret_cast<char*>(&segment), sizeof segment)) return "";
        if (segment.p_type != PT_NOTE || segment.p_filesz > (1u << 20)) continue;
        std::vector<char> notes(segment.p_filesz);
        in.seekg(static_cast<std::streamoff>(segment.p_offset));
        if (!in.read(notes.data(), static_cast<std::streamsize>(notes.size()))) return "";
        std::string id = buildIdInNotes(notes);
        if (!id.empty()) return id;
    }
    return "";
}

bool manifestDescribesBuild(const std::filesystem::path& binary) {
    std::ifstream in(manifestPathFor(binary));
    const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
    if (!manifest.is_object()) return false;
    const auto recorded = manifest.find("build_id");
    if (recorded == manifest.end()) return true;
    return recorded->is_string() && recorded->get<std::string>() == pluginBuildId(binary);
}

}  // namespace isochron
