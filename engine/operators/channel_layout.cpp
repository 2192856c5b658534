#include "engine/operators/channel_layout.h"

#include <cstdio>

namespace isochron {

ChannelLayout concatenateChannels(const std::vector<ChannelLayout>& inputs) {
    ChannelLayout all;
    for (const ChannelLayout& input : inputs) {
        if (input.empty()) all.emplace_back();
        else all.insert(all.end(), input.begin(), input.end());
    }
    return all;
}

std::vector<ChannelLayout> channelsPortToPort(const ParamSet&, const std::vector<ChannelLayout>& inputs, std::size_t outputs) {
    std::vector<ChannelLayout> result(outputs);
    for (std::size_t k = 0; k < outputs && k < inputs.size(); ++k) result[k] = inputs[k];
    return result;
}

std::string describeChannel(const ChannelInfo& channel) {
    std::string text = channel.label.empty() ? "unknown" : channel.label;
    if (channel.position) {
        char where[96];
        std::snprintf(where, sizeof where, " (%g, %g, %g m)", (*channel.position)[0], (*channel.position)[1], (*channel.position)[2]);
        text += where;
    }
    return text;
}

std::string describeLayout(const ChannelLayout& layout) {
    std::string text;
    for (const ChannelInfo& channel : layout) text += (text.empty() ? "" : ", ") + describeChannel(channel);
    return text;
}

}  // namespace isochron
