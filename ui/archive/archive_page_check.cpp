#include "ui/archive/archive_page_check.h"

#include <exception>
#include <optional>

#include "engine/archive/archive_store.h"

namespace isochron::ui {

ArchivePageCheck::ArchivePageCheck(std::string path, std::function<void(const Result&)> onEnd)
    : path_(std::move(path)), thread_([this, onEnd = std::move(onEnd)] { run(onEnd); }) {}

ArchivePageCheck::~ArchivePageCheck() {
    stop();
    thread_.join();
}

void ArchivePageCheck::stop() {
    const std::lock_guard<std::mutex> guard(lock_);
    stopped_ = true;
    if (store_) store_->interrupt();
}

void ArchivePageCheck::share(ArchiveStore* store) {
    const std::lock_guard<std::mutex> guard(lock_);
    store_ = store;
    // A stop() before the store was open: damage() then ends at once.
    if (store_ && stopped_) store_->interrupt();
}

void ArchivePageCheck::run(const std::function<void(const Result&)>& onEnd) {
    // stop() reaches the store from its opening to its closing, however the check ends.
    struct Shared {
        ArchivePageCheck& check;
        Shared(ArchivePageCheck& owner, ArchiveStore& store) : check(owner) { check.share(&store); }
        ~Shared() { check.share(nullptr); }
    };
    Result result;
    try {
        ArchiveStore store(path_, ArchiveAccess::Read);
        const Shared shared(*this, store);
        if (const std::optional<std::string> damage = store.damage()) result = {Result::Outcome::Damaged, *damage};
    } catch (const ArchiveInterruptedError&) {
        result.outcome = Result::Outcome::Interrupted;
    } catch (const std::exception&) {
        result.outcome = Result::Outcome::Failed;
    }
    onEnd(result);
}

}  // namespace isochron::ui
