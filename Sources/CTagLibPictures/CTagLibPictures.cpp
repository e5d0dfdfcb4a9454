// Cover art through TagLib's C++ API; see include/CTagLibPictures.h.
//
// The C binding's handle is the C++ file object: tag_c.cpp (TagLib 1.13) creates it with
// `return reinterpret_cast<TagLib_File *>(FileRef::create(filename));`, and FileRef::create
// returns a `TagLib::File *` of the concrete type chosen from the extension. So the handle is
// cast back and narrowed with dynamic_cast, and the file is read once for tags and pictures.

#include "CTagLibPictures.h"

#include <cstdlib>
#include <cstring>

#include <taglib/attachedpictureframe.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4coverart.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tfile.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/xiphcomment.h>

namespace {

// Copies `bytes` into a malloc'd buffer for the caller; 0 when empty or out of memory.
int deliver(const TagLib::ByteVector &bytes, unsigned char **data, size_t *size) {
    if (bytes.isEmpty()) return 0;
    unsigned char *copy = static_cast<unsigned char *>(std::malloc(bytes.size()));
    if (copy == nullptr) return 0;
    std::memcpy(copy, bytes.data(), bytes.size());
    *data = copy;
    *size = bytes.size();
    return 1;
}

// ID3v2: "APIC" frames are AttachedPictureFrame objects (id3v2 frame factory).
TagLib::ByteVector fromID3v2(TagLib::ID3v2::Tag *tag) {
    if (tag == nullptr) return TagLib::ByteVector();
    const TagLib::ID3v2::FrameList &frames = tag->frameListMap()["APIC"];
    TagLib::ByteVector first;
    for (TagLib::ID3v2::Frame *frame : frames) {
        auto *picture = dynamic_cast<TagLib::ID3v2::AttachedPictureFrame *>(frame);
        if (picture == nullptr) continue;
        if (picture->type() == TagLib::ID3v2::AttachedPictureFrame::FrontCover) return picture->picture();
        if (first.isEmpty()) first = picture->picture();
    }
    return first;
}

// FLAC picture blocks and Xiph METADATA_BLOCK_PICTURE share FLAC::Picture. The list's
// pointers belong to the file or comment ("the pictures are owned by the file").
TagLib::ByteVector fromPictures(const TagLib::List<TagLib::FLAC::Picture *> &pictures) {
    TagLib::ByteVector first;
    for (TagLib::FLAC::Picture *picture : pictures) {
        if (picture == nullptr) continue;
        if (picture->type() == TagLib::FLAC::Picture::FrontCover) return picture->data();
        if (first.isEmpty()) first = picture->data();
    }
    return first;
}

TagLib::ByteVector fromXiph(TagLib::Ogg::XiphComment *comment) {
    if (comment == nullptr) return TagLib::ByteVector();
    return fromPictures(comment->pictureList());
}

// MP4: the "covr" item holds a list of CoverArt; iTunes stores the front cover first.
TagLib::ByteVector fromMP4(TagLib::MP4::Tag *tag) {
    if (tag == nullptr || !tag->contains("covr")) return TagLib::ByteVector();
    TagLib::MP4::CoverArtList covers = tag->item("covr").toCoverArtList();
    if (covers.isEmpty()) return TagLib::ByteVector();
    return covers.front().data();
}

// A FLAC::Picture for FLAC files and Xiph comments; the file or comment takes ownership
// ("The file takes ownership of the picture and will handle freeing its memory").
TagLib::FLAC::Picture *flacPicture(const TagLib::ByteVector &bytes, const char *mime) {
    auto *picture = new TagLib::FLAC::Picture();
    picture->setType(TagLib::FLAC::Picture::FrontCover);
    picture->setMimeType(mime);
    picture->setData(bytes);
    return picture;
}

}  // namespace

extern "C" int mhz_taglib_front_cover(void *handle, unsigned char **data, size_t *size) {
    *data = nullptr;
    *size = 0;
    if (handle == nullptr) return 0;
    auto *file = reinterpret_cast<TagLib::File *>(handle);
    TagLib::ByteVector bytes;
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
        // ID3v2Tag(false): "If create is false (the default) this may return a null pointer
        // if there is no valid ID3v2 tag."
        bytes = fromID3v2(mpeg->ID3v2Tag(false));
    } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        bytes = fromPictures(flac->pictureList());
        if (bytes.isEmpty() && flac->hasID3v2Tag()) bytes = fromID3v2(flac->ID3v2Tag(false));
    } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        bytes = fromMP4(mp4->tag());
    } else if (auto *vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) {
        bytes = fromXiph(vorbis->tag());
    } else if (auto *opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file)) {
        bytes = fromXiph(opus->tag());
    } else if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) {
        if (wav->hasID3v2Tag()) bytes = fromID3v2(wav->ID3v2Tag());
    }
    return deliver(bytes, data, size);
}

extern "C" int mhz_taglib_set_front_cover(void *handle, const unsigned char *data, size_t size, const char *mime) {
    if (handle == nullptr || data == nullptr || size == 0) return 0;
    auto *file = reinterpret_cast<TagLib::File *>(handle);
    TagLib::ByteVector bytes(reinterpret_cast<const char *>(data), static_cast<unsigned int>(size));
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
        // ID3v2Tag(true): "If create is true, this will return a pointer to a new ID3v2 tag
        // if one does not exist."
        TagLib::ID3v2::Tag *tag = mpeg->ID3v2Tag(true);
        tag->removeFrames("APIC");
        auto *frame = new TagLib::ID3v2::AttachedPictureFrame();
        frame->setType(TagLib::ID3v2::AttachedPictureFrame::FrontCover);
        frame->setMimeType(mime);
        frame->setPicture(bytes);
        tag->addFrame(frame);  // "the tag takes ownership of the frame"
        return 1;
    }
    if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        flac->removePictures();
        flac->addPicture(flacPicture(bytes, mime));
        return 1;
    }
    if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        if (mp4->tag() == nullptr) return 0;
        bool png = std::strcmp(mime, "image/png") == 0;
        TagLib::MP4::CoverArtList covers;
        covers.append(TagLib::MP4::CoverArt(png ? TagLib::MP4::CoverArt::PNG : TagLib::MP4::CoverArt::JPEG, bytes));
        mp4->tag()->setItem("covr", covers);
        return 1;
    }
    TagLib::Ogg::XiphComment *comment = nullptr;
    if (auto *vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) comment = vorbis->tag();
    if (auto *opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file)) comment = opus->tag();
    if (comment != nullptr) {
        comment->removeAllPictures();
        comment->addPicture(flacPicture(bytes, mime));
        return 1;
    }
    return 0;
}
