// Embedded lyrics through TagLib's C++ API; see include/CTagLibLyrics.h.
//
// As in CTagLibPictures.cpp, the C binding's handle is the C++ file object (tag_c.cpp,
// TagLib 1.13: `reinterpret_cast<TagLib_File *>(FileRef::create(filename))`), narrowed with
// dynamic_cast to reach a format's ID3v2 tag.

#include "CTagLibLyrics.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <taglib/aifffile.h>
#include <taglib/flacfile.h>
#include <taglib/id3v2tag.h>
#include <taglib/mpegfile.h>
#include <taglib/synchronizedlyricsframe.h>
#include <taglib/tfile.h>
#include <taglib/tpropertymap.h>
#include <taglib/wavfile.h>

namespace {

// The ID3v2 tag of the formats that carry one, or null; never creates one.
TagLib::ID3v2::Tag *id3v2(TagLib::File *file) {
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) return mpeg->ID3v2Tag(false);
    if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) return flac->ID3v2Tag(false);
    if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) return wav->ID3v2Tag();
    if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) return aiff->tag();
    return nullptr;
}

// The first SYLT frame of lyrics with millisecond stamps, as LRC text; empty when none.
// Frames stamped in MPEG frames cannot be timed without decoding, so they are passed over.
std::string syncedLRC(TagLib::ID3v2::Tag *tag) {
    if (tag == nullptr) return std::string();
    for (TagLib::ID3v2::Frame *frame : tag->frameListMap()["SYLT"]) {
        auto *sylt = dynamic_cast<TagLib::ID3v2::SynchronizedLyricsFrame *>(frame);
        if (sylt == nullptr || sylt->timestampFormat() != TagLib::ID3v2::SynchronizedLyricsFrame::AbsoluteMilliseconds)
            continue;
        std::string lrc;
        for (const auto &line : sylt->synchedText()) {
            char stamp[32];
            unsigned int centiseconds = line.time / 10;
            std::snprintf(stamp, sizeof stamp, "[%02u:%02u.%02u]", centiseconds / 6000, centiseconds / 100 % 60,
                          centiseconds % 100);
            lrc += stamp;
            lrc += line.text.stripWhiteSpace().to8Bit(true);
            lrc += '\n';
        }
        if (!lrc.empty()) return lrc;
    }
    return std::string();
}

// The first non-empty value of a property, joined if it has several.
std::string property(const TagLib::PropertyMap &properties, const char *key) {
    if (!properties.contains(key)) return std::string();
    std::string joined = properties[key].toString("\n").to8Bit(true);
    return joined.find_first_not_of(" \t\r\n") == std::string::npos ? std::string() : joined;
}

int deliver(const std::string &value, char **text) {
    if (value.empty()) return 0;
    char *copy = static_cast<char *>(std::malloc(value.size() + 1));
    if (copy == nullptr) return 0;
    std::memcpy(copy, value.c_str(), value.size() + 1);
    *text = copy;
    return 1;
}

}  // namespace

extern "C" int mhz_taglib_lyrics(void *file, char **text) {
    *text = nullptr;
    auto *tagFile = reinterpret_cast<TagLib::File *>(file);
    if (tagFile == nullptr) return 0;
    if (deliver(syncedLRC(id3v2(tagFile)), text)) return 1;
    // File::properties() dispatches to the concrete format in 1.13 ("reimplemented in the
    // subclasses" through its internal switch); USLT and ©lyr both map to LYRICS.
    TagLib::PropertyMap properties = tagFile->properties();
    if (deliver(property(properties, "LYRICS"), text)) return 1;
    return deliver(property(properties, "UNSYNCEDLYRICS"), text);
}

extern "C" int mhz_taglib_set_lyrics(void *file, const char *text) {
    auto *tagFile = reinterpret_cast<TagLib::File *>(file);
    if (tagFile == nullptr || text == nullptr) return 0;
    TagLib::PropertyMap properties = tagFile->properties();
    properties.replace("LYRICS", TagLib::StringList(TagLib::String(text, TagLib::String::UTF8)));
    // "Returns the properties which could not be set."
    return tagFile->setProperties(properties).contains("LYRICS") ? 0 : 1;
}

extern "C" int mhz_taglib_set_synced_lyrics(void *file, const unsigned int *milliseconds, const char *const *lines,
                                            size_t count) {
    auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(reinterpret_cast<TagLib::File *>(file));
    if (mpeg == nullptr) return 0;
    TagLib::ID3v2::Tag *tag = mpeg->ID3v2Tag(true);
    tag->removeFrames("SYLT");
    auto *frame = new TagLib::ID3v2::SynchronizedLyricsFrame(TagLib::String::UTF8);
    frame->setTimestampFormat(TagLib::ID3v2::SynchronizedLyricsFrame::AbsoluteMilliseconds);
    frame->setType(TagLib::ID3v2::SynchronizedLyricsFrame::Lyrics);
    frame->setLanguage("eng");
    TagLib::ID3v2::SynchronizedLyricsFrame::SynchedTextList list;
    for (size_t i = 0; i < count; ++i) {
        list.append(TagLib::ID3v2::SynchronizedLyricsFrame::SynchedText(milliseconds[i],
                                                                         TagLib::String(lines[i], TagLib::String::UTF8)));
    }
    frame->setSynchedText(list);
    // "At this point, the tag takes ownership of the frame and will handle freeing its memory."
    tag->addFrame(frame);
    return 1;
}
